//! Sets of cells as bits (cell `c` is bit `c % 64` of word `c / 64`), for the
//! searches that ask, combination after combination, which cells hold a value
//! and see every cell of a pattern ([`Layout::seen_by`] gives a cell's peers
//! in the same form).
//!
//! [`Layout::seen_by`]: crate::logic::grid::Layout::seen_by

use crate::logic::grid::{Grid, Layout};

/// A set of cells of one layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CellSet(Vec<u64>);

impl CellSet {
    /// No cell of `layout`.
    pub fn empty(layout: &Layout) -> CellSet {
        CellSet(vec![0; layout.set_words()])
    }

    /// Every cell of `layout` (and the unused bits of the last word): the
    /// start of an intersection.
    pub fn all(layout: &Layout) -> CellSet {
        CellSet(vec![u64::MAX; layout.set_words()])
    }

    /// The cells `cells` of `layout`.
    pub fn of(layout: &Layout, cells: impl IntoIterator<Item = u32>) -> CellSet {
        let mut set = CellSet::empty(layout);
        for c in cells {
            set.insert(c);
        }
        set
    }

    /// The cells of `grid` where `value` is a candidate.
    pub fn holding(layout: &Layout, grid: &Grid, value: u8) -> CellSet {
        CellSet::of(
            layout,
            (0..grid.cand.len() as u32).filter(|&c| grid.has(c, value)),
        )
    }

    /// The cells seeing every cell of `cells` (all cells when it is empty).
    pub fn seeing_all(layout: &Layout, cells: &[u32]) -> CellSet {
        let mut set = CellSet::all(layout);
        for &c in cells {
            set.keep(layout.seen_by(c));
        }
        set
    }

    /// Adds cell `c`.
    pub fn insert(&mut self, c: u32) {
        self.0[c as usize / 64] |= 1 << (c % 64);
    }

    /// Whether cell `c` is in the set.
    pub fn contains(&self, c: u32) -> bool {
        self.0[c as usize / 64] >> (c % 64) & 1 == 1
    }

    /// Makes this no cell again ([`CellSet::empty`]).
    pub fn clear(&mut self) {
        self.0.fill(0);
    }

    /// Makes this every cell again ([`CellSet::all`]).
    pub fn fill(&mut self) {
        self.0.fill(u64::MAX);
    }

    /// Sets this set to `other`'s cells.
    pub fn copy_from(&mut self, other: &CellSet) {
        self.0.copy_from_slice(&other.0);
    }

    /// Adds the cells of `other`.
    pub fn add(&mut self, other: &CellSet) {
        for (s, o) in self.0.iter_mut().zip(&other.0) {
            *s |= o;
        }
    }

    /// Keeps only the cells also in `words` (a set's words or
    /// [`Layout::seen_by`]).
    pub fn keep(&mut self, words: &[u64]) {
        for (s, o) in self.0.iter_mut().zip(words) {
            *s &= o;
        }
    }

    /// Keeps only the cells also in `other`.
    pub fn keep_set(&mut self, other: &CellSet) {
        self.keep(&other.0);
    }

    /// Removes the cells of `other`.
    pub fn remove(&mut self, other: &CellSet) {
        for (s, o) in self.0.iter_mut().zip(&other.0) {
            *s &= !o;
        }
    }

    /// Whether this set and `other` share a cell.
    pub fn meets(&self, other: &CellSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// Whether this set shares a cell with the bit set `words` (as
    /// [`Layout::seen_by`] gives).
    pub fn meets_words(&self, words: &[u64]) -> bool {
        self.0.iter().zip(words).any(|(a, b)| a & b != 0)
    }

    /// How many cells.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no cell is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros();
                    rest &= rest - 1;
                    i as u32 * 64 + b
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;

    #[test]
    fn sets_of_cells() {
        let model = classic(3, 3).expect("9x9");
        let layout = model.logic_layout();
        let mut a = CellSet::of(layout, [0, 63, 64, 80]);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 63, 64, 80]);
        assert!(a.contains(64) && !a.contains(1));
        // r1c1 and r1c9 are both seen by the rest of row 1 only.
        let both = CellSet::seeing_all(layout, &[0, 8]);
        assert_eq!(both.iter().collect::<Vec<_>>(), (1..8).collect::<Vec<_>>());
        a.keep_set(&both);
        assert!(a.is_empty());
        let mut b = CellSet::of(layout, [3, 70]);
        b.add(&CellSet::of(layout, [4]));
        assert!(b.meets(&both));
        b.remove(&both);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![70]);
    }
}
