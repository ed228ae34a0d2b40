//! A virtual cage: what the 45 rule derives from a killer's layout alone.

use crate::cage::CageTable;

/// A virtual cage the 45 rule derives from the layout alone (the cages never
/// change during a solve, so these are found once per layout, on first use by
/// `crate::logic::killer`): the innies or the outies of one region.
#[derive(Clone, Debug)]
pub(crate) struct VirtualCage {
    /// Its cells (innies inside the region, or outies outside it).
    pub cells: Vec<u32>,
    /// What they add up to.
    pub sum: u32,
    /// The houses making the region.
    pub houses: Vec<usize>,
    /// The digit sets of a cage whose cells all see each other; `None` when
    /// two cells may repeat a value.
    pub table: Option<CageTable>,
}
