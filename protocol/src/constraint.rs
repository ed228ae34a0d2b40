//! The modern variant vocabulary: rules beyond houses, cages and
//! different-pairs, as puzzle files (format v2) and the wire spell them.
//! Each is tagged by `type`; cells are `[row, column]` from 0. The engine
//! compiles each into the primitives its solvers propagate.

use crate::coords::Coord;
pub use crate::coords::Place;
use serde::{Deserialize, Serialize};

/// One rule of a puzzle beyond its houses, cages and different-pairs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Constraint {
    /// Each cell holds an even digit.
    Even {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Each cell holds an odd digit.
    Odd {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Each cell holds one of `values`.
    Values {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// The digits it allows (or holds).
        values: Vec<u32>,
    },
    /// Digits strictly increase from the bulb (`cells[0]`); with `slow`,
    /// they never decrease.
    Thermometer {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// Whether equal neighbours are allowed (a slow thermometer).
        #[serde(default)]
        slow: bool,
    },
    /// The digits along `line` add up to the number in `circle` (one cell,
    /// or a 2-3 cell pill read in order as a number); digits may repeat.
    Arrow {
        /// The circle (one cell) or pill (2-3 cells).
        circle: Vec<Coord>,
        /// The shaft's cells, without the circle.
        line: Vec<Coord>,
    },
    /// A white Kropki dot: the two cells differ by `value` (1 unless given).
    Difference {
        /// The cells it covers, in order.
        cells: [Coord; 2],
        /// The difference or ratio.
        #[serde(default = "one")]
        value: u32,
    },
    /// A black Kropki dot: one cell is `value` (2 unless given) times the other.
    Ratio {
        /// The cells it covers, in order.
        cells: [Coord; 2],
        /// The difference or ratio.
        #[serde(default = "two")]
        value: u32,
    },
    /// An X (`sum` 10) or V (`sum` 5) between two cells: they add up to it.
    Xv {
        /// The cells it covers, in order.
        cells: [Coord; 2],
        /// What the digits add up to.
        sum: u32,
    },
    /// The diagonal `cells` add up to `sum`; digits may repeat. `clue` is
    /// where the clue is drawn, outside the grid.
    LittleKiller {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// What the digits add up to.
        sum: u32,
        /// Where the clue is drawn, outside the grid.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clue: Option<Place>,
    },
    /// In the row or column `cells` (from the clue's side), the digits
    /// strictly between the 1 and the highest digit add up to `sum`.
    Sandwich {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// What the digits add up to.
        sum: u32,
        /// Where the clue is drawn, outside the grid.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clue: Option<Place>,
    },
    /// A killer cage: different digits, adding up to `sum` when given.
    Cage {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// What the digits add up to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sum: Option<u32>,
    },
    /// Different digits forming a consecutive set, in any order.
    Renban {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Neighbours along the line differ by at least `difference` (5:
    /// German whispers, 4: Dutch).
    Whispers {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// The least difference between neighbours.
        difference: u32,
    },
    /// The line reads the same from both ends.
    Palindrome {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Every cell of the line lies strictly between its two ends' digits.
    Between {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Cells the same distance from the line's middle add up to the same
    /// total; on an odd line, to the middle cell's digit.
    Zipper {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Any three cells in a row along the line hold one low, one middle and
    /// one high digit (thirds of 1..=N).
    Entropic {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// The line's runs through each region (box or jigsaw region) all add
    /// up to the same total.
    RegionSum {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Each cell's digit is lower than every orthogonal neighbour not
    /// itself a minimum cell.
    Minimum {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// Each cell's digit is higher than every orthogonal neighbour not
    /// itself a maximum cell.
    Maximum {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
    },
    /// The 2x2 `cells` hold every digit of `values` (as often as listed).
    Quadruple {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// The digits it allows (or holds).
        values: Vec<u32>,
    },
    /// In the row or column `cells` (from the clue's side) the first cell
    /// holds X, and the first X cells add up to `sum`.
    XSum {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// What the digits add up to.
        sum: u32,
        /// Where the clue is drawn, outside the grid.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clue: Option<Place>,
    },
    /// In the row or column `cells` (from the clue's side), `count` digits
    /// are higher than every digit before them.
    Skyscraper {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// How many digits are seen.
        count: u32,
        /// Where the clue is drawn, outside the grid.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clue: Option<Place>,
    },
    /// For each cell `[r, c]` of `cells` holding X, the cell of row `r` in
    /// column X holds `c + 1` (`column` indexer; `row`: the cell of column
    /// `c` in row X holds `r + 1`).
    Indexer {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// Whether it indexes along rows or columns.
        axis: Axis,
    },
    /// `clones[i]` holds the same digit as `cells[i]`.
    Clone {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// The cells copying `cells`, in the same order.
        clones: Vec<Coord>,
    },
    /// Orthogonal neighbours without a white or black dot do not hold
    /// consecutive digits.
    NonConsecutive,
    /// Cells a king's move apart hold different digits.
    AntiKing,
    /// Cells a knight's move apart hold different digits.
    AntiKnight,
    /// Cells in the same place of every box hold different digits.
    DisjointGroups,
    /// The negative constraints: orthogonal neighbours without a black dot
    /// are not in any ratio a black dot uses (2 when none does) (`ratio`);
    /// neighbours without an X or V do not add up to 5 or 10 (`xv`).
    Negative {
        /// Whether the negative ratio constraint holds.
        #[serde(default)]
        ratio: bool,
        /// Whether the negative XV constraint holds.
        #[serde(default)]
        xv: bool,
    },
    /// The escape hatch: the tuples of digits `cells` may hold, one digit a
    /// cell each; `description` says the rule in words.
    Table {
        /// The cells it covers, in order.
        cells: Vec<Coord>,
        /// The allowed tuples, one digit per cell each.
        tuples: Vec<Vec<u32>>,
        /// The rule in words.
        #[serde(default)]
        description: String,
    },
}

/// Whether an indexer reads along rows or columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    /// A row indexer.
    Row,
    /// A column indexer.
    Column,
}

fn one() -> u32 {
    1
}

fn two() -> u32 {
    2
}

impl Constraint {
    /// The kind's name as written in puzzle files (`type`).
    pub fn kind(&self) -> &'static str {
        match self {
            Constraint::Even { .. } => "even",
            Constraint::Odd { .. } => "odd",
            Constraint::Values { .. } => "values",
            Constraint::Thermometer { .. } => "thermometer",
            Constraint::Arrow { .. } => "arrow",
            Constraint::Difference { .. } => "difference",
            Constraint::Ratio { .. } => "ratio",
            Constraint::Xv { .. } => "xv",
            Constraint::LittleKiller { .. } => "littleKiller",
            Constraint::Sandwich { .. } => "sandwich",
            Constraint::Cage { .. } => "cage",
            Constraint::Renban { .. } => "renban",
            Constraint::Whispers { .. } => "whispers",
            Constraint::Palindrome { .. } => "palindrome",
            Constraint::Between { .. } => "between",
            Constraint::Zipper { .. } => "zipper",
            Constraint::Entropic { .. } => "entropic",
            Constraint::RegionSum { .. } => "regionSum",
            Constraint::Minimum { .. } => "minimum",
            Constraint::Maximum { .. } => "maximum",
            Constraint::Quadruple { .. } => "quadruple",
            Constraint::XSum { .. } => "xSum",
            Constraint::Skyscraper { .. } => "skyscraper",
            Constraint::Indexer { .. } => "indexer",
            Constraint::Clone { .. } => "clone",
            Constraint::NonConsecutive => "nonConsecutive",
            Constraint::AntiKing => "antiKing",
            Constraint::AntiKnight => "antiKnight",
            Constraint::DisjointGroups => "disjointGroups",
            Constraint::Negative { .. } => "negative",
            Constraint::Table { .. } => "table",
        }
    }
}
