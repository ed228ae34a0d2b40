//! A weighted sum of cells equal to a total, digits free to repeat unless
//! the cells share a house (arrows, little killers, zipper and region-sum
//! lines): bounds propagation, exact once every cell is single. Terms whose
//! cells all see each other and share a coefficient are bounded together
//! (`k` different digits add up to at least the `k` smallest they may be),
//! which a long arrow through several houses needs to be narrowed at all.

use crate::mask::values_of;

/// `Σ coefficient × value = total` over distinct cells.
#[derive(Clone, Debug)]
pub(crate) struct LinearSum {
    /// The cells.
    pub cells: Vec<u32>,
    /// Each cell's coefficient (non-zero).
    pub coefficients: Vec<i32>,
    /// What the weighted values add up to.
    pub total: i32,
    /// The terms (indices) in groups of cells that all see each other with
    /// one coefficient; every term is in one group.
    pub groups: Vec<Vec<usize>>,
}

/// The least and most `coefficient × (sum of k different values of m)`,
/// `None` when `m` has fewer than `k` values.
fn bounds(coefficient: i32, m: u32, k: usize) -> Option<(i32, i32)> {
    if (m.count_ones() as usize) < k {
        return None;
    }
    // The k lowest and the k highest set bits, without listing them.
    let (mut low, mut high) = (m, m);
    let (mut least, mut most) = (0i32, 0i32);
    for _ in 0..k {
        least += low.trailing_zeros() as i32 + 1;
        low &= low - 1;
        let top = 31 - high.leading_zeros();
        most += top as i32 + 1;
        high &= !(1 << top);
    }
    let (a, b) = (coefficient * least, coefficient * most);
    Some((a.min(b), a.max(b)))
}

impl LinearSum {
    /// Keeps each cell's values for which the other cells' bounds can still
    /// make up the total, to a fixpoint.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        let mut changed = false;
        loop {
            if local.contains(&0) {
                return Err(());
            }
            let union = |local: &[u32], terms: &mut dyn Iterator<Item = &usize>| {
                terms.fold(0u32, |m, &t| m | local[t])
            };
            let mut group_bounds = Vec::with_capacity(self.groups.len());
            for g in &self.groups {
                let k = self.coefficients[g[0]];
                group_bounds.push(bounds(k, union(local, &mut g.iter()), g.len()).ok_or(())?);
            }
            let low: i32 = group_bounds.iter().map(|b| b.0).sum();
            let high: i32 = group_bounds.iter().map(|b| b.1).sum();
            if self.total < low || self.total > high {
                return Err(());
            }
            let mut pass = false;
            for (g, &(g_low, g_high)) in self.groups.iter().zip(&group_bounds) {
                let k = self.coefficients[g[0]];
                for &t in g {
                    // The rest of its group, then everything else.
                    let mut others = g.iter().filter(|&&o| o != t);
                    let (o_low, o_high) =
                        bounds(k, union(local, &mut others), g.len() - 1).ok_or(())?;
                    let rest_low = low - g_low + o_low;
                    let rest_high = high - g_high + o_high;
                    let (lo, hi) = (self.total - rest_high, self.total - rest_low);
                    let kept = values_of(local[t])
                        .filter(|&v| (lo..=hi).contains(&(k * i32::from(v))))
                        .fold(0u32, |acc, v| acc | 1 << (v - 1));
                    if kept != local[t] {
                        local[t] = kept;
                        pass = true;
                    }
                }
                if local.contains(&0) {
                    return Err(());
                }
            }
            if !pass {
                return Ok(changed);
            }
            changed = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::bit;

    #[test]
    fn an_arrow_bounds_its_circle() {
        // circle = a + b, written a + b - circle = 0.
        let arrow = LinearSum {
            cells: vec![0, 1, 2],
            coefficients: vec![1, 1, -1],
            total: 0,
            groups: vec![vec![0], vec![1], vec![2]],
        };
        let mut local = [bit(1) | bit(2), bit(1) | bit(2), 0x1FF];
        assert_eq!(arrow.narrow(&mut local), Ok(true));
        assert_eq!(local[2], bit(2) | bit(3) | bit(4));
        let mut broken = [bit(5), bit(5), bit(9)];
        assert_eq!(arrow.narrow(&mut broken), Err(()));
    }

    #[test]
    fn cells_seeing_each_other_add_up_to_more() {
        // Three cells of one house add up to a circle: at least 1 + 2 + 3.
        let arrow = LinearSum {
            cells: vec![0, 1, 2, 3],
            coefficients: vec![1, 1, 1, -1],
            total: 0,
            groups: vec![vec![0, 1, 2], vec![3]],
        };
        let mut local = [0x1FF; 4];
        assert_eq!(arrow.narrow(&mut local), Ok(true));
        assert_eq!(local[3], bit(6) | bit(7) | bit(8) | bit(9));
    }
}
