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
        self.remove_words(&other.0);
    }

    /// Removes the cells of the bit set `words` (as [`CellSets::get`] gives).
    pub fn remove_words(&mut self, words: &[u64]) {
        for (s, o) in self.0.iter_mut().zip(words) {
            *s &= !o;
        }
    }

    /// Whether this set and `other` share a cell.
    pub fn meets(&self, other: &CellSet) -> bool {
        self.meets_words(&other.0)
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

/// Sets of cells of one layout, numbered in the order they were added, in
/// one vector (a search that keeps a few sets per item allocates once).
#[derive(Debug)]
pub(crate) struct CellSets {
    words: usize,
    bits: Vec<u64>,
}

impl CellSets {
    /// No set yet, room for `sets` of them.
    pub fn with_capacity(layout: &Layout, sets: usize) -> CellSets {
        let words = layout.set_words();
        CellSets {
            words,
            bits: Vec::with_capacity(sets * words),
        }
    }

    /// Adds the set of `cells`.
    pub fn push_of(&mut self, cells: impl IntoIterator<Item = u32>) {
        let at = self.bits.len();
        self.bits.resize(at + self.words, 0);
        for c in cells {
            self.bits[at + c as usize / 64] |= 1 << (c % 64);
        }
    }

    /// Adds the set of cells seeing every cell of `cells` (all cells, and
    /// the unused bits of the last word, when it is empty).
    pub fn push_seeing_all(&mut self, layout: &Layout, cells: &[u32]) {
        let at = self.bits.len();
        self.bits.resize(at + self.words, u64::MAX);
        for &c in cells {
            for (s, o) in self.bits[at..].iter_mut().zip(layout.seen_by(c)) {
                *s &= o;
            }
        }
    }

    /// Set `i`, as bit words.
    pub fn get(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    /// Whether sets `i` and `j` share a cell.
    pub fn meet(&self, i: usize, j: usize) -> bool {
        self.get(i).iter().zip(self.get(j)).any(|(a, b)| a & b != 0)
    }

    /// Whether set `i` lies within the bit set `words`.
    pub fn within(&self, i: usize, words: &[u64]) -> bool {
        self.get(i).iter().zip(words).all(|(a, b)| a & !b == 0)
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
        let mut sets = CellSets::with_capacity(layout, 3);
        sets.push_of([3, 70]);
        // r1c1 and r1c9 are both seen by the rest of row 1 only.
        sets.push_seeing_all(layout, &[0, 8]);
        sets.push_of([4, 5]);
        let mut both = CellSet::empty(layout);
        both.fill();
        both.keep(sets.get(1));
        assert_eq!(both.iter().collect::<Vec<_>>(), (1..8).collect::<Vec<_>>());
        a.keep_set(&both);
        assert!(a.is_empty());
        let mut b = CellSet::of(layout, [3, 70]);
        b.add(&CellSet::of(layout, [4]));
        assert!(b.meets_words(sets.get(1)));
        b.remove(&both);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![70]);
        assert!(sets.meet(1, 2) && !sets.meet(0, 2));
        assert!(sets.within(2, sets.get(1)) && !sets.within(0, sets.get(1)));
        let mut c = CellSet::of(layout, [3, 4, 70, 71]);
        c.remove_words(sets.get(0));
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![4, 71]);
    }
}
