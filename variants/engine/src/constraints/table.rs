//! The escape hatch: a rule over a few cells given as the value tuples they
//! may hold (a plugin's local rule, or one the SDK enumerates from a
//! predicate when the model is built).

use super::store;
use crate::mask::values_of;

/// Every tuple of `k` digits of 1..=`size` that `keep` accepts, in odometer
/// order (the first digit turning fastest); `None` when there would be more
/// than `limit` tuples to look at.
pub fn digit_tuples(
    k: usize,
    size: u32,
    limit: u64,
    keep: impl Fn(&[u32]) -> bool,
) -> Option<Vec<Vec<u32>>> {
    let count = u64::from(size).checked_pow(u32::try_from(k).ok()?)?;
    if count > limit || size == 0 {
        return None;
    }
    let mut out = Vec::new();
    let mut tuple = vec![1u32; k];
    'all: loop {
        if keep(&tuple) {
            out.push(tuple.clone());
        }
        for digit in tuple.iter_mut() {
            if *digit < size {
                *digit += 1;
                continue 'all;
            }
            *digit = 1;
        }
        return Some(out);
    }
}

/// Tables of up to this many tuples are narrowed by bit sets of tuples.
const SET_TUPLES: usize = 4096;

/// The most 64-bit words a table's bit sets may take (64 KiB): a plugin's
/// wide table with many tuples is scanned instead.
const SET_WORDS: usize = 8192;

/// The longest tuple narrowed by bit sets.
const SET_WIDTH: usize = 16;

/// A few cells and the tuples of values they may hold.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// The cells.
    pub cells: Vec<u32>,
    /// The allowed tuples, one value per cell each, flattened.
    pub tuples: Vec<u8>,
    /// For each cell and value `v` (1..=`top`), the tuples that hold the
    /// value there, as `words` words of bits; empty when the table is too big.
    holding: Vec<u64>,
    words: usize,
    top: usize,
}

impl Table {
    /// The table of `tuples` (flattened, one value per cell each) over `cells`.
    pub fn new(cells: Vec<u32>, tuples: Vec<u8>) -> Table {
        let width = cells.len();
        let count = tuples.len() / width.max(1);
        let words = count.div_ceil(64);
        let top = usize::from(tuples.iter().copied().max().unwrap_or(0));
        let fits = (1..=SET_WIDTH).contains(&width)
            && count <= SET_TUPLES
            && width * top * words <= SET_WORDS
            && (1..=32).contains(&top)
            && !tuples.contains(&0);
        let mut holding = Vec::new();
        if fits {
            holding = vec![0u64; width * top * words];
            for (t, tuple) in tuples.chunks_exact(width).enumerate() {
                for (i, &v) in tuple.iter().enumerate() {
                    holding[(i * top + usize::from(v) - 1) * words + t / 64] |= 1 << (t % 64);
                }
            }
        }
        Table {
            cells,
            tuples,
            holding,
            words,
            top,
        }
    }

    /// Keeps each cell's values that appear in a tuple still possible.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        if !self.holding.is_empty() {
            return self.narrow_by_sets(local);
        }
        let width = self.cells.len();
        // Tables are over a few cells: their kept values stay on the stack.
        let (mut on_stack, mut on_heap) = ([0u32; 16], Vec::new());
        let kept: &mut [u32] = if width <= on_stack.len() {
            &mut on_stack[..width]
        } else {
            on_heap.resize(width, 0);
            &mut on_heap
        };
        for tuple in self.tuples.chunks_exact(width) {
            let fits = tuple
                .iter()
                .zip(local.iter())
                .all(|(&v, &m)| m >> (v - 1) & 1 == 1);
            if fits {
                for (k, &v) in kept.iter_mut().zip(tuple) {
                    *k |= 1 << (v - 1);
                }
            }
        }
        store(local, kept)
    }

    /// [`Table::narrow`] by bit sets: the tuples still possible are those
    /// every cell's candidates hold; a value stays if one of them holds it.
    fn narrow_by_sets(&self, local: &mut [u32]) -> Result<bool, ()> {
        // Working sets sized for the table: most hold a few dozen tuples,
        // and clearing 4,096 bits twice per narrowing cost more than the rest.
        match self.words {
            1 => self.narrow_in_words::<1>(local),
            2..=4 => self.narrow_in_words::<4>(local),
            5..=16 => self.narrow_in_words::<16>(local),
            _ => self.narrow_in_words::<{ SET_TUPLES / 64 }>(local),
        }
    }

    /// [`Table::narrow_by_sets`] with sets of at most `W` words.
    fn narrow_in_words<const W: usize>(&self, local: &mut [u32]) -> Result<bool, ()> {
        let (w, top) = (self.words, self.top);
        let set = |cell: usize, v: u8| {
            let at = (cell * top + usize::from(v) - 1) * w;
            &self.holding[at..at + w]
        };
        // Values above every tuple's are in none.
        let in_tuples = u32::MAX >> (32 - top);
        let mut alive = [!0u64; W];
        let alive = &mut alive[..w];
        for (cell, &m) in local.iter().enumerate() {
            let mut any = [0u64; W];
            for v in values_of(m & in_tuples) {
                for (a, &h) in any.iter_mut().zip(set(cell, v)) {
                    *a |= h;
                }
            }
            for (a, &y) in alive.iter_mut().zip(&any) {
                *a &= y;
            }
        }
        let mut kept = [0u32; SET_WIDTH];
        for (cell, &m) in local.iter().enumerate() {
            for v in values_of(m & in_tuples) {
                if set(cell, v)
                    .iter()
                    .zip(alive.iter())
                    .any(|(&h, &a)| h & a != 0)
                {
                    kept[cell] |= 1 << (v - 1);
                }
            }
        }
        store(local, &kept[..local.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Narrows 2,000 random candidate sets of `width` cells by `by_sets`
    /// and by scanning its tuples, and checks both agree.
    fn agrees_with_scanning(by_sets: &Table, rng: &mut crate::seed::Rng) {
        use rand::Rng;
        assert!(!by_sets.holding.is_empty());
        let scanning = Table {
            holding: Vec::new(),
            ..by_sets.clone()
        };
        for _ in 0..2_000 {
            let local: Vec<u32> = (0..by_sets.cells.len())
                .map(|_| rng.gen_range(0..0x200u32) | 1 << rng.gen_range(0..9))
                .collect();
            let (mut a, mut b) = (local.clone(), local.clone());
            assert_eq!(by_sets.narrow(&mut a), scanning.narrow(&mut b), "{local:?}");
            assert_eq!(a, b, "{local:?}");
        }
    }

    /// Every tuple of `k` digits of 1..=`size` that `keep` accepts, flattened.
    fn flat_tuples(k: usize, size: u32, keep: impl Fn(&[u32]) -> bool) -> Vec<u8> {
        digit_tuples(k, size, u64::MAX, keep)
            .expect("tuples")
            .into_iter()
            .flatten()
            .map(|d| d as u8)
            .collect()
    }

    #[test]
    fn bit_sets_narrow_as_scanning_every_tuple_does() {
        let mut rng = crate::seed::rng_for("tables");
        // Entropic windows: one low, one middle and one high digit.
        let entropic = flat_tuples(3, 9, |t| {
            let mut thirds: Vec<u32> = t.iter().map(|d| (d - 1) / 3).collect();
            thirds.sort();
            thirds == [0, 1, 2]
        });
        agrees_with_scanning(&Table::new(vec![0, 1, 2], entropic), &mut rng);
        // Tuples of small digits only: candidates above them are in none.
        let small = flat_tuples(2, 4, |t| t[0] < t[1]);
        agrees_with_scanning(&Table::new(vec![0, 1], small), &mut rng);
    }
}
