//! What the setter and the step-through solver exchange with the server: the
//! verdict on a puzzle being set (`puzzle_check`) and a logical solution to
//! step through (`analysis`).

use crate::constraint::Constraint;
use crate::plugin::Params;
use crate::puzzle::{Cage, Coord, PuzzleGrade, PuzzleV1};
use serde::{Deserialize, Serialize};

/// A puzzle being set in the browser: what the setter chose on top of a
/// variant's empty template (`setter_template`). The server builds the puzzle
/// from the template and this, so the houses never travel from the client.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SetterDraft {
    /// Variant id.
    pub variant: String,
    /// Variant parameters (missing ones take their defaults).
    #[serde(default)]
    pub params: Params,
    /// `rows x cols` givens: 0 = empty.
    pub grid: Vec<Vec<u32>>,
    /// Killer cages with their totals.
    #[serde(default)]
    pub cages: Vec<Cage>,
    /// Jigsaw regions: `rows x cols` region numbers (1 and up; 0 in inactive
    /// cells), replacing the template's regions; empty keeps them.
    #[serde(default)]
    pub regions: Vec<Vec<u32>>,
    /// Constraints of the modern vocabulary (lines, dots, cells, global rules).
    #[serde(default)]
    pub constraints: Vec<Constraint>,
}

/// The server's verdict on a puzzle being set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PuzzleCheck {
    /// Solutions found: 0, 1 or 2 (two means "two or more").
    pub solutions: u32,
    /// The count ran out of its budget before it could say (`solutions` is
    /// then what it found so far).
    #[serde(default)]
    pub gave_up: bool,
    /// With two solutions or more: the cells where two of them differ.
    #[serde(default)]
    pub differing: Vec<Coord>,
    /// Once unique (and small enough to grade quickly): how a person solves it.
    #[serde(default)]
    pub grade: Option<PuzzleGrade>,
    /// The puzzle as built from the draft, its constraints' drawings and rule
    /// notes filled in (never a solution); absent when it cannot be built.
    #[serde(default)]
    pub puzzle: Option<PuzzleV1>,
    /// Why the puzzle cannot be read (a constraint off the layout, a given out
    /// of range, …), naming what is wrong; then nothing was counted.
    #[serde(default)]
    pub problem: Option<String>,
}

/// One step of a logical solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AnalysisStep {
    /// The technique ("Hidden Single", "X-Wing", "Innie/Outie", …).
    pub technique: String,
    /// Its rating on Sudoku Explainer's scale, as written (`"2.6"`).
    pub rating: String,
    /// The step in words.
    pub explanation: String,
    /// Where to look: the cells of the houses it works in.
    #[serde(default)]
    pub cells: Vec<Coord>,
    /// The candidates that make its pattern: `[row, col, value]`.
    #[serde(default)]
    pub pattern: Vec<[u32; 3]>,
    /// Values it places: `[row, col, value]`.
    #[serde(default)]
    pub placements: Vec<[u32; 3]>,
    /// Candidates it removes: `[row, col, value]`.
    #[serde(default)]
    pub eliminations: Vec<[u32; 3]>,
    /// A killer step's cage, real or virtual (the 45 rule's): its cells.
    #[serde(default)]
    pub cage: Vec<Coord>,
    /// That cage's sum (0 without a cage).
    #[serde(default)]
    pub cage_sum: u32,
    /// Every cell the step changes, as it is afterwards: `[row, col, value,
    /// candidates]` (value 0 while empty; candidates bit `v - 1` for `v`).
    pub after: Vec<[u32; 4]>,
}

/// A logical solution from the givens, to step through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Analysis {
    /// Every active cell at the start: `[row, col, value, candidates]`.
    pub start: Vec<[u32; 4]>,
    /// The steps, in order.
    pub steps: Vec<AnalysisStep>,
    /// Whether the steps solve it (false: the techniques ran out; the last
    /// position is where a person would have to guess).
    pub solved: bool,
    /// The grade of the whole solve, when solved.
    #[serde(default)]
    pub grade: Option<PuzzleGrade>,
}
