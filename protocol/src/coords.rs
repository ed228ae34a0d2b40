//! Where things are on a puzzle's layout.

/// A cell position `[row, column]`, both counted from 0 inside the layout.
pub type Coord = [u32; 2];

/// A position that may lie outside the grid (a clue beside it): `[row,
/// column]` from 0, -1 above or left of the grid.
pub type Place = [i32; 2];
