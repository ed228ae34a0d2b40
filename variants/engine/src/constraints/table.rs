//! The escape hatch: a rule over a few cells given as the value tuples they
//! may hold (a plugin's local rule, or one the SDK enumerates from a
//! predicate when the model is built).

use super::store;

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

/// A few cells and the tuples of values they may hold.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// The cells.
    pub cells: Vec<u32>,
    /// The allowed tuples, one value per cell each, flattened.
    pub tuples: Vec<u8>,
}

impl Table {
    /// Keeps each cell's values that appear in a tuple still possible.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
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
}
