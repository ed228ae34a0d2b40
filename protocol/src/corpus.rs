//! The variant corpus schema (`../shared/datasets/variants/`): one JSON
//! object per puzzle, with f-puzzles' constraint kinds and `R1C1` cell
//! names. The engine converts it to and from the puzzle format
//! (`engine::corpus`).

use serde::{Deserialize, Serialize};

/// One puzzle of the corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusPuzzle {
    /// A stable id, `var-<10 hex>`.
    #[serde(default)]
    pub id: String,
    /// The setter's title.
    #[serde(default)]
    pub title: Option<String>,
    /// The setter, when the source says.
    #[serde(default)]
    pub author: Option<String>,
    /// The setter's rules text, when the source has one (f-puzzles' `ruleset`;
    /// not a field of the corpus files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// N: the grid is N x N with digits 1..=N.
    pub size: u32,
    /// N·N characters, row-major: `.` empty, `1`-`9` a given.
    pub givens: String,
    /// `regions[r][c]`: the region index of each cell, -1 for none.
    #[serde(default)]
    pub regions: Vec<Vec<i32>>,
    /// The rules beyond rows, columns and regions.
    #[serde(default)]
    pub constraints: Vec<CorpusConstraint>,
    /// The constraint kinds present, sorted (informational).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The solution, N·N digits, when known.
    #[serde(default)]
    pub solution: Option<String>,
    /// Our extension: the setter's cosmetic marks (f-puzzles' lines,
    /// circles, rectangles, text, cages without a total), no rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decorations: Vec<crate::Drawing>,
}

/// One constraint of the corpus, named after its f-puzzles key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CorpusConstraint {
    /// The f-puzzles key: `thermometer`, `arrow`, `killercage`, ….
    pub kind: String,
    /// The constraint's cells, `R<row>C<col>` from 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<String>,
    /// An arrow's shaft (without the circle).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// A sum, count, difference or ratio; `"X"`/`"V"` for XV; null for a
    /// cage without a sum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<CorpusValue>,
    /// A quadruple's digits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u32>,
    /// A clone's other cells.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clone_cells: Vec<String>,
    /// The negative constraint's kinds (`ratio`, `xv`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// An outside clue's cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    /// A little killer's arrow direction (`UL`, `UR`, `DL`, `DR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
}

/// A constraint's `value`: a number or a letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CorpusValue {
    /// A sum, count, difference or ratio.
    Number(u32),
    /// `X` or `V`.
    Text(String),
}
