//! A relation between two cells: for each value of the first, the values
//! the second may hold (Kropki dots, XV, whispers, thermometer steps,
//! palindromes and clones, minimum and maximum cells, non-consecutive and
//! the negative constraints, indexers).

use crate::mask::values_of;

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

    /// Keeps the values of each cell that the other still supports.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        let support = |table: &[u32], m: u32| {
            values_of(m).fold(0u32, |acc, v| acc | table[usize::from(v) - 1])
        };
        let [was_a, was_b] = [local[0], local[1]];
        let b = was_b & support(&self.forward, was_a);
        let a = was_a & support(&self.backward, b);
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
}
