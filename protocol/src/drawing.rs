//! Drawing primitives: what a client draws on the board without knowing any
//! rule — lines, shapes, dots and letters between cells, cages, clues
//! outside the grid, text. The server sends them with a puzzle's geometry
//! (`PuzzleV1::drawings`), made from its constraints; a client that draws
//! these draws every kind, present and future. Cells are `[row, column]`
//! from 0; sizes are hundredths of a cell; colours are CSS colours.

use crate::coords::{Coord, Place};
use serde::{Deserialize, Serialize};

/// One thing to draw, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Drawing {
    /// A line through the centres of `cells`, in order.
    Line {
        /// The cells it passes through.
        cells: Vec<Coord>,
        /// Its colour.
        color: String,
        /// Its thickness.
        thickness: u32,
        /// Whether it ends in an arrowhead (an arrow's shaft).
        #[serde(default)]
        arrow: bool,
    },
    /// A circle or square on each of `cells`, or one rounded shape around
    /// them all (`joined`: an arrow's pill).
    Shape {
        /// The cells it covers.
        cells: Vec<Coord>,
        /// Circle or square.
        shape: ShapeKind,
        /// The fill colour, if filled.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fill: Option<String>,
        /// The outline colour, if outlined.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stroke: Option<String>,
        /// Its size.
        size: u32,
        /// Whether it is one shape around every cell.
        #[serde(default)]
        joined: bool,
    },
    /// A dot on the edge between two cells (a Kropki dot).
    Dot {
        /// The two cells.
        cells: [Coord; 2],
        /// Its fill colour.
        fill: String,
        /// Text inside it, if any (a value other than the usual one).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A letter or number on the edge between two cells (X, V).
    Letter {
        /// The two cells.
        cells: [Coord; 2],
        /// What it says.
        text: String,
    },
    /// A circle where four cells meet, with text in it (a quadruple's
    /// digits).
    Corner {
        /// The four cells around the point.
        cells: [Coord; 4],
        /// Its fill colour.
        fill: String,
        /// What it says (may be empty).
        text: String,
    },
    /// A dashed outline around cells, with its label in the top-left cell.
    Cage {
        /// The cells it surrounds.
        cells: Vec<Coord>,
        /// The label (a sum), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
    },
    /// A clue outside the grid, pointing into it.
    Clue {
        /// Where it stands (may be -1, or the row/column count).
        at: Place,
        /// What it says.
        text: String,
        /// The way it points, as a row and column step (e.g. `[1, -1]`
        /// down-left for a little killer); `None`: straight into the grid.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        direction: Option<[i32; 2]>,
    },
    /// Small text in a cell's corner.
    Text {
        /// The cell.
        cell: Coord,
        /// What it says.
        text: String,
    },
}

/// A shape's outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ShapeKind {
    /// A circle.
    Circle,
    /// A square.
    Square,
}
