//! Puzzle file format v1 (and v2, v1 with constraints): one JSON (or MessagePack) object that spells out every rule
//! of a puzzle, so any tool can check any variant without knowing it.
//!
//! Field names follow the daily-archive schema (`clueCount`, `grid`, `solution`).
//! Unknown fields are ignored and optional fields default, so newer writers stay
//! readable by older readers.

use crate::constraint::Constraint;
use crate::drawing::Drawing;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of the `format` field of every v1 puzzle.
pub const PUZZLE_FORMAT_V1: &str = "sudoku-arena/puzzle@1";

/// The value of the `format` field of a puzzle with [`Constraint`]s: v1 and
/// the `constraints` list, which a v1 reader would silently ignore.
pub const PUZZLE_FORMAT_V2: &str = "sudoku-arena/puzzle@2";

pub use crate::coords::Coord;

/// One puzzle in format v1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PuzzleV1 {
    /// [`PUZZLE_FORMAT_V1`], or [`PUZZLE_FORMAT_V2`] when it has constraints.
    pub format: String,
    /// Variant id (informational, e.g. `"killer"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Variant parameters (informational, e.g. `{"box": "3x3"}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamValue>,
    /// Difficulty label (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
    /// The seed string the puzzle was generated from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Publication date `YYYY-MM-DD`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The setter's title, when the puzzle came with one (a pasted f-puzzles
    /// or corpus puzzle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The setter, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// The setter's rules, as written (the constraints say the same to the
    /// solvers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Number of values N: cells hold 1..=N.
    pub size: u32,
    /// Display symbols, one character per value; default `1`-`9` then `A`-`Z`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbols: Option<String>,
    /// The bounding layout.
    pub layout: Layout,
    /// Active cells; `None` means every cell of the layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<Coord>>,
    /// Groups of cells whose values are all different.
    #[serde(default)]
    pub houses: Vec<House>,
    /// Killer cages: all different and adding up to `sum`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cages: Vec<Cage>,
    /// Pairs of cells that must not hold the same value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub different: Vec<[Coord; 2]>,
    /// Rules of the modern vocabulary (format v2 only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<Constraint>,
    /// How to draw the constraints (informational: the server fills it in
    /// for clients; readers ignore it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawings: Vec<Drawing>,
    /// The setter's cosmetic marks (f-puzzles' lines, circles, rectangles,
    /// text and cages without a total): drawn as given, read by no rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decorations: Vec<Drawing>,
    /// What each kind of constraint means, a line per kind ("Thermometers
    /// (3): digits strictly increase from the bulb …"; informational: the
    /// server fills it in for clients' rules panels; readers ignore it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_notes: Vec<String>,
    /// `rows x cols` values: 0 = empty (or inactive), 1..=N = given.
    pub grid: Vec<Vec<u32>>,
    /// Number of givens (informational; checked when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clue_count: Option<u32>,
    /// The solution, `rows x cols`, 0 in inactive cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<Vec<u32>>>,
    /// How a person solves it (informational; the logical solver's verdict).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<PuzzleGrade>,
}

/// The logical solver's verdict on a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PuzzleGrade {
    /// The technique tier: `easy`, `medium`, `hard` or `extreme`.
    pub tier: String,
    /// The hardest step's rating on Sudoku Explainer's scale, e.g. `3.2`;
    /// empty when only the tier is proved (a grid too big to grade in full,
    /// shown extreme because the hard techniques cannot finish it).
    pub rating: String,
    /// The hardest step's technique, e.g. `X-Wing`; empty when only the tier
    /// is proved.
    pub hardest: String,
}

/// The bounding rectangle that holds every active cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Layout {
    /// Number of rows.
    pub rows: u32,
    /// Number of columns.
    pub cols: u32,
}

/// A group of cells whose values are all different.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct House {
    /// How the house is drawn.
    pub kind: HouseKind,
    /// The cells of the house.
    pub cells: Vec<Coord>,
}

/// How a house is drawn; every kind is solved the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum HouseKind {
    /// A row of the grid.
    Row,
    /// A column of the grid.
    Column,
    /// A rectangular box (thick borders).
    Box,
    /// An irregular jigsaw region (thick borders).
    Region,
    /// A main diagonal (X-Sudoku).
    Diagonal,
    /// A shaded window (Windoku).
    Window,
    /// Any other all-different group.
    Extra,
    /// A kind this build does not know: solved like any house, drawn like `extra`.
    #[serde(other)]
    Unknown,
}

/// A killer cage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Cage {
    /// The cells of the cage.
    pub cells: Vec<Coord>,
    /// The sum of the cage's values.
    pub sum: u32,
}

/// A variant parameter value, as written in JSON: a boolean, an integer or a string.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum ParamValue {
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(#[cfg_attr(feature = "ts", ts(type = "number"))] i64),
    /// Any text, e.g. `"3x3"`.
    Text(String),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Text(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_puzzle_parses_with_defaults() {
        let json = r#"{"format":"sudoku-arena/puzzle@1","size":4,
            "layout":{"rows":4,"cols":4},"houses":[{"kind":"row","cells":[[0,0],[0,1]]}],
            "grid":[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"clueCount":1,"future":true}"#;
        let p: PuzzleV1 = serde_json::from_str(json).expect("valid v1");
        assert_eq!(p.size, 4);
        assert_eq!(p.clue_count, Some(1));
        assert!(p.cages.is_empty() && p.cells.is_none());
        assert_eq!(p.houses[0].kind, HouseKind::Row);
    }

    #[test]
    fn unknown_house_kind_is_tolerated() {
        let h: House = serde_json::from_str(r#"{"kind":"hexagon","cells":[]}"#).expect("house");
        assert_eq!(h.kind, HouseKind::Unknown);
    }

    #[test]
    fn clue_count_keeps_archive_name() {
        let p = PuzzleV1 {
            format: PUZZLE_FORMAT_V1.into(),
            variant: None,
            params: BTreeMap::from([("box".into(), ParamValue::Text("2x2".into()))]),
            difficulty: None,
            seed: None,
            date: None,
            title: None,
            author: None,
            rules: None,
            size: 4,
            symbols: None,
            layout: Layout { rows: 4, cols: 4 },
            cells: None,
            houses: vec![],
            cages: vec![],
            different: vec![],
            constraints: vec![],
            drawings: vec![],
            rule_notes: vec![],
            decorations: vec![],
            grid: vec![vec![0; 4]; 4],
            clue_count: Some(0),
            solution: None,
            grade: None,
        };
        let text = serde_json::to_string(&p).expect("serialize");
        assert!(text.contains(r#""clueCount":0"#), "{text}");
        assert!(text.contains(r#""params":{"box":"2x2"}"#), "{text}");
    }
}
