//! What a solution search reports, shared by the searches (the general one
//! and the bitboard one) without either depending on the other.

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Found {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// The first solution, one value per active cell.
    pub first: Option<Vec<u8>>,
    /// The search stopped because it used up its node budget; `count` is then a
    /// lower bound.
    pub gave_up: bool,
}
