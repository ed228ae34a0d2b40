//! Builders for the standard geometries variants start from.

use crate::error::PuzzleError;
use crate::model::{Model, ModelBuilder};
use protocol::{Coord, HouseKind};

/// Classic n-Sudoku with `box_rows` x `box_cols` boxes: N = `box_rows * box_cols`
/// values on an N x N grid with rows, columns and boxes.
pub fn classic(box_rows: u32, box_cols: u32) -> Result<Model, PuzzleError> {
    classic_builder(box_rows, box_cols)?.build()
}

/// The builder behind [`classic`], for variants that add rules to it.
pub fn classic_builder(box_rows: u32, box_cols: u32) -> Result<ModelBuilder, PuzzleError> {
    let n = box_rows * box_cols;
    if box_rows == 0 || box_cols == 0 || n > crate::MAX_SIZE {
        return Err(PuzzleError::new(format!(
            "box {box_rows}x{box_cols} gives {n} values; classic needs 1..={}",
            crate::MAX_SIZE
        )));
    }
    let mut b = ModelBuilder::new(n, n, n);
    for r in 0..n {
        b = b.house(HouseKind::Row, (0..n).map(|c| [r, c]).collect());
    }
    for c in 0..n {
        b = b.house(HouseKind::Column, (0..n).map(|r| [r, c]).collect());
    }
    for br in 0..box_cols {
        for bc in 0..box_rows {
            let cells: Vec<Coord> = (0..n)
                .map(|k| [br * box_rows + k / box_cols, bc * box_cols + k % box_cols])
                .collect();
            b = b.house(HouseKind::Box, cells);
        }
    }
    Ok(b)
}

/// Parses a box parameter such as `3x3` or `2x3` into (rows, cols).
pub fn parse_box(text: &str) -> Result<(u32, u32), PuzzleError> {
    let bad = || PuzzleError::new(format!("box '{text}' is not of the form RxC (e.g. 3x3)"));
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let r: u32 = r.trim().parse().map_err(|_| bad())?;
    let c: u32 = c.trim().parse().map_err(|_| bad())?;
    Ok((r, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_shapes() {
        let m = classic(3, 3).expect("9x9");
        assert_eq!((m.size(), m.cell_count(), m.houses().len()), (9, 81, 27));
        assert!(m.is_classic9());
        let mini = classic(2, 3).expect("6x6");
        assert_eq!((mini.size(), mini.cell_count()), (6, 36));
        assert!(!mini.is_classic9());
        // A 2x3 box spans 2 rows and 3 columns.
        let first_box = &mini.houses()[12];
        let coords: Vec<Coord> = first_box
            .cells
            .iter()
            .map(|&c| mini.coord(c as usize))
            .collect();
        assert_eq!(coords, vec![[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
        assert_eq!(classic(5, 5).expect("25x25").cell_count(), 625);
        assert!(classic(6, 6).is_err());
    }

    #[test]
    fn box_parameter() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert!(parse_box("3").is_err());
        assert!(parse_box("ax3").is_err());
    }
}
