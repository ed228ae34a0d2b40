//! The escape hatch: a rule over a few cells given as the value tuples they
//! may hold (a plugin's local rule, or one the SDK enumerates from a
//! predicate when the model is built).

use super::store;

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
        let mut kept = vec![0u32; width];
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
        store(local, &kept)
    }
}
