//! Builders for the standard geometries variants start from, and the shapes
//! several variants share: classic grids at an origin ([`sub_grid`]), overlapping
//! grids with single shared cells ([`overlapping`], Samurai and the twins), the
//! main diagonals ([`diagonals`]), square windows ([`window`], Windoku's four:
//! [`windoku_windows`]) and anti-knight pairs ([`knight_pairs`]).

use crate::error::PuzzleError;
use crate::model::Model;
use crate::rules::ModelBuilder;
use protocol::{Coord, HouseKind};

/// Classic n-Sudoku with `box_rows` x `box_cols` boxes: N = `box_rows * box_cols`
/// values on an N x N grid with rows, columns and boxes.
pub fn classic(box_rows: u32, box_cols: u32) -> Result<Model, PuzzleError> {
    classic_builder(box_rows, box_cols)?.build()
}

/// The builder behind [`classic`], for variants that add rules to it.
pub fn classic_builder(box_rows: u32, box_cols: u32) -> Result<ModelBuilder, PuzzleError> {
    let n = check_box(box_rows, box_cols)?;
    let mut houses = Vec::new();
    sub_grid_houses(box_rows, box_cols, [0, 0], &mut houses);
    Ok(ModelBuilder::new(n, n, n).houses(houses))
}

/// N = `box_rows * box_cols`, if it is a value count a model can hold.
fn check_box(box_rows: u32, box_cols: u32) -> Result<u32, PuzzleError> {
    let n = box_rows * box_cols;
    if box_rows == 0 || box_cols == 0 || n > crate::MAX_SIZE {
        return Err(PuzzleError::new(format!(
            "box {box_rows}x{box_cols} gives {n} values; classic needs 1..={}",
            crate::MAX_SIZE
        )));
    }
    Ok(n)
}

/// A house: how it is drawn and its cells.
pub type HouseCells = (HouseKind, Vec<Coord>);

/// The rows, columns and boxes of a classic grid with `box_rows` x `box_cols`
/// boxes whose top-left cell is at `origin` of a larger layout.
pub fn sub_grid(box_rows: u32, box_cols: u32, origin: Coord) -> Vec<HouseCells> {
    let mut houses = Vec::new();
    sub_grid_houses(box_rows, box_cols, origin, &mut houses);
    houses
}

fn sub_grid_houses(box_rows: u32, box_cols: u32, [top, left]: Coord, out: &mut Vec<HouseCells>) {
    let n = box_rows * box_cols;
    for r in 0..n {
        out.push((
            HouseKind::Row,
            (0..n).map(|c| [top + r, left + c]).collect(),
        ));
    }
    for c in 0..n {
        out.push((
            HouseKind::Column,
            (0..n).map(|r| [top + r, left + c]).collect(),
        ));
    }
    for br in 0..box_cols {
        for bc in 0..box_rows {
            let cells: Vec<Coord> = (0..n)
                .map(|k| {
                    [
                        top + br * box_rows + k / box_cols,
                        left + bc * box_cols + k % box_cols,
                    ]
                })
                .collect();
            out.push((HouseKind::Box, cells));
        }
    }
}

/// Several classic grids (`box_rows` x `box_cols` boxes) with their top-left
/// cells at `origins`, overlapping where their boxes coincide: one layout just
/// large enough, the union of the grids as active cells, and each house once (a
/// shared box is one set of cells, not a copy). Samurai is five 9x9 grids; the
/// twin Gattai are two.
pub fn overlapping(
    box_rows: u32,
    box_cols: u32,
    origins: &[Coord],
) -> Result<ModelBuilder, PuzzleError> {
    let n = check_box(box_rows, box_cols)?;
    let rows = origins.iter().map(|o| o[0] + n).max().unwrap_or(0);
    let cols = origins.iter().map(|o| o[1] + n).max().unwrap_or(0);
    let mut active = vec![false; (rows * cols) as usize];
    let mut houses: Vec<HouseCells> = Vec::new();
    for &origin in origins {
        for r in 0..n {
            for c in 0..n {
                active[((origin[0] + r) * cols + origin[1] + c) as usize] = true;
            }
        }
        for house in sub_grid(box_rows, box_cols, origin) {
            if !houses.contains(&house) {
                houses.push(house);
            }
        }
    }
    let cells: Vec<Coord> = (0..rows * cols)
        .filter(|&i| active[i as usize])
        .map(|i| [i / cols, i % cols])
        .collect();
    Ok(ModelBuilder::new(n, rows, cols)
        .active_cells(cells)
        .houses(houses))
}

/// The two main diagonals of the N x N grid at `origin`: top-left to
/// bottom-right, then top-right to bottom-left.
pub fn diagonals(n: u32, [top, left]: Coord) -> [HouseCells; 2] {
    [
        (
            HouseKind::Diagonal,
            (0..n).map(|i| [top + i, left + i]).collect(),
        ),
        (
            HouseKind::Diagonal,
            (0..n).map(|i| [top + i, left + n - 1 - i]).collect(),
        ),
    ]
}

/// A `side` x `side` window whose top-left cell is `origin` (Windoku's shaded
/// windows).
pub fn window(side: u32, [top, left]: Coord) -> HouseCells {
    (
        HouseKind::Window,
        (0..side * side)
            .map(|k| [top + k / side, left + k % side])
            .collect(),
    )
}

/// Windoku's four shaded 3x3 windows of a 9x9 grid.
pub fn windoku_windows() -> [HouseCells; 4] {
    [[1, 1], [1, 5], [5, 1], [5, 5]].map(|origin| window(3, origin))
}

/// The pairs of cells of a 9x9 grid a chess knight's move apart that share no
/// box (those already differ): Anti-Knight's different-pairs.
pub fn knight_pairs() -> Vec<[Coord; 2]> {
    let mut pairs = Vec::new();
    for r in 0..9i32 {
        for c in 0..9i32 {
            for (dr, dc) in [(1, 2), (2, 1), (1, -2), (2, -1)] {
                let (r2, c2) = (r + dr, c + dc);
                if !(0..9).contains(&r2) || !(0..9).contains(&c2) {
                    continue;
                }
                if (r / 3, c / 3) == (r2 / 3, c2 / 3) {
                    continue;
                }
                pairs.push([[r as u32, c as u32], [r2 as u32, c2 as u32]]);
            }
        }
    }
    pairs
}

/// One Gattai layout of the daily archive: overlapping 9x9 grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GattaiMode {
    /// The archive's mode id, e.g. `twin-nw`.
    pub id: &'static str,
    /// The display name, e.g. `Horizon`.
    pub name: &'static str,
    /// Each grid's id in the archive and its top-left cell in the layout.
    pub grids: &'static [(&'static str, Coord)],
}

/// The archive's Gattai modes: Samurai (five grids on 21x21) and the four twins
/// (two grids on 15x15 sharing one box).
pub const GATTAI_MODES: [GattaiMode; 5] = [
    GattaiMode {
        id: "samurai",
        name: "Samurai",
        grids: &[
            ("center", [6, 6]),
            ("nw", [0, 0]),
            ("ne", [0, 12]),
            ("sw", [12, 0]),
            ("se", [12, 12]),
        ],
    },
    GattaiMode {
        id: "twin-nw",
        name: "Horizon",
        grids: &[("primary", [0, 0]), ("secondary", [6, 6])],
    },
    GattaiMode {
        id: "twin-ne",
        name: "Sunrise",
        grids: &[("primary", [0, 6]), ("secondary", [6, 0])],
    },
    GattaiMode {
        id: "twin-sw",
        name: "Sunset",
        grids: &[("primary", [6, 0]), ("secondary", [0, 6])],
    },
    GattaiMode {
        id: "twin-se",
        name: "Eclipse",
        grids: &[("primary", [6, 6]), ("secondary", [0, 0])],
    },
];

impl GattaiMode {
    /// The mode with archive id `id`.
    pub fn by_id(id: &str) -> Option<&'static GattaiMode> {
        GATTAI_MODES.iter().find(|m| m.id == id)
    }

    /// The mode whose grids have exactly these origins (in any order).
    pub fn by_origins(origins: &[Coord]) -> Option<&'static GattaiMode> {
        GATTAI_MODES.iter().find(|m| {
            m.grids.len() == origins.len() && m.grids.iter().all(|(_, o)| origins.contains(o))
        })
    }

    /// The mode's model: its 9x9 grids, overlapping.
    pub fn model(&self) -> Result<Model, PuzzleError> {
        let origins: Vec<Coord> = self.grids.iter().map(|&(_, o)| o).collect();
        overlapping(3, 3, &origins)?.build()
    }
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
    fn overlapping_grids_share_cells_and_houses() {
        // A twin: two 9x9 grids sharing one 3x3 box.
        let twin = overlapping(3, 3, &[[0, 0], [6, 6]])
            .expect("builder")
            .build()
            .expect("model");
        assert_eq!((twin.rows(), twin.cols()), (15, 15));
        assert_eq!(twin.cell_count(), 2 * 81 - 9);
        // 27 houses per grid, the shared box once.
        assert_eq!(twin.houses().len(), 53);
        assert!(twin.cell_at(0, 14).is_none());
        let samurai = overlapping(3, 3, &[[0, 0], [0, 12], [6, 6], [12, 0], [12, 12]])
            .expect("builder")
            .build()
            .expect("model");
        assert_eq!(samurai.cell_count(), 5 * 81 - 4 * 9);
        assert_eq!(samurai.houses().len(), 5 * 27 - 4);
        for mode in GATTAI_MODES {
            let m = mode.model().expect("gattai model");
            let expected = if mode.id == "samurai" { 369 } else { 153 };
            assert_eq!(m.cell_count(), expected, "{}", mode.id);
        }
    }

    #[test]
    fn diagonals_and_windows() {
        let [down, up] = diagonals(9, [0, 0]);
        assert_eq!(down.1[8], [8, 8]);
        assert_eq!(up.1[0], [0, 8]);
        assert_eq!(window(3, [1, 5]).1[8], [3, 7]);
    }

    #[test]
    fn box_parameter() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert!(parse_box("3").is_err());
        assert!(parse_box("ax3").is_err());
    }
}
