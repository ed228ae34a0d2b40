//! A relation between two cells: for each value of the first, the values
//! the second may hold (Kropki dots, XV, whispers, thermometer steps,
//! palindromes and clones, minimum and maximum cells, non-consecutive and
//! the negative constraints, indexers).

/// Two cells and the value pairs they may hold.
#[derive(Clone, Debug)]
pub(crate) struct Relation {
    /// The two cells.
    pub cells: [u32; 2],
    /// `forward[a - 1]`: the values the second cell may hold when the first
    /// holds `a`.
    forward: Vec<u32>,
    /// `backward[b - 1]`: the values the first may hold when the second
    /// holds `b`.
    backward: Vec<u32>,
}

impl Relation {
    /// The relation over values 1..=`size` that `allowed(a, b)` accepts.
    pub fn new(cells: [u32; 2], size: u32, allowed: impl Fn(u32, u32) -> bool) -> Relation {
        let mut forward = vec![0u32; size as usize];
        let mut backward = vec![0u32; size as usize];
        for a in 1..=size {
            for b in 1..=size {
                if allowed(a, b) {
                    forward[a as usize - 1] |= 1 << (b - 1);
                    backward[b as usize - 1] |= 1 << (a - 1);
                }
            }
        }
        Relation {
            cells,
            forward,
            backward,
        }
    }

    /// Whether some value pair is allowed at all.
    pub fn satisfiable(&self) -> bool {
        self.forward.iter().any(|&m| m != 0)
    }

    /// Narrows this relation to the pairs `other`, over the same two cells in
    /// either order, also allows; `false` (and unchanged) when `other` reads
    /// other cells.
    pub fn intersect(&mut self, other: &Relation) -> bool {
        let (forward, backward) = if other.cells == self.cells {
            (&other.forward, &other.backward)
        } else if other.cells == [self.cells[1], self.cells[0]] {
            (&other.backward, &other.forward)
        } else {
            return false;
        };
        for (mine, theirs) in [(&mut self.forward, forward), (&mut self.backward, backward)] {
            for (m, &t) in mine.iter_mut().zip(theirs) {
                *m &= t;
            }
        }
        true
    }

    /// Keeps the values of each cell that the other still supports.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        // The values of `want` that some value of `m` allows, stopping as
        // soon as all of them are (often at the first few values of `m`).
        let support = |table: &[u32], mut m: u32, want: u32| {
            let mut acc = 0u32;
            while m != 0 && acc & want != want {
                acc |= table[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            acc & want
        };
        let [was_a, was_b] = [local[0], local[1]];
        let b = support(&self.forward, was_a, was_b);
        let a = support(&self.backward, b, was_a);
        if a == 0 || b == 0 {
            return Err(());
        }
        (local[0], local[1]) = (a, b);
        Ok(a != was_a || b != was_b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::bit;

    #[test]
    fn a_white_dot_keeps_neighbours() {
        let dot = Relation::new([0, 1], 9, |a, b| a.abs_diff(b) == 1);
        let mut local = [bit(5), 0x1FF];
        assert_eq!(dot.narrow(&mut local), Ok(true));
        assert_eq!(local, [bit(5), bit(4) | bit(6)]);
        let mut broken = [bit(5), bit(9)];
        assert_eq!(dot.narrow(&mut broken), Err(()));
    }

    #[test]
    fn two_relations_over_one_pair_intersect_in_either_order() {
        let mut less = Relation::new([0, 1], 9, |a, b| a < b);
        let apart = Relation::new([1, 0], 9, |b, a| b.abs_diff(a) >= 5);
        assert!(less.intersect(&apart));
        let mut local = [0x1FF, 0x1FF];
        assert_eq!(less.narrow(&mut local), Ok(true));
        // a < b and b - a >= 5: a in 1..=4, b in 6..=9.
        assert_eq!(local, [0xF, 0x1E0]);
        let elsewhere = Relation::new([0, 2], 9, |_, _| false);
        assert!(!less.intersect(&elsewhere));
    }
}
