//! Messages between the server (plugin host) and a variant plugin. Each operation
//! of the plugin ABI (see `docs/plugin-abi.md`) takes one request type and answers
//! one response type, MessagePack-encoded with named fields. Every field added
//! later carries `#[serde(default)]`, so old plugins and hosts keep working.

use crate::puzzle::{Coord, ParamValue, PuzzleV1};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Variant parameters by key, e.g. `{"box": "3x3"}`.
pub type Params = BTreeMap<String, ParamValue>;

/// What a plugin says about itself (answer to `manifest`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Manifest {
    /// Stable variant id, e.g. `"x-sudoku"`.
    pub id: String,
    /// Display name, e.g. `"X-Sudoku"`.
    pub name: String,
    /// The rules, in a few sentences for players.
    pub rules: String,
    /// The parameters the variant accepts.
    #[serde(default)]
    pub params: Vec<ParamSpec>,
    /// Difficulties it can generate, easiest first: for some parameter sets
    /// only those with a clue range ([`Manifest::offers`]).
    #[serde(default)]
    pub difficulties: Vec<String>,
    /// The clue policy: how many givens a puzzle of each difficulty has (since
    /// ABI 1.1; empty from older plugins). The first range that applies to a
    /// parameter set and difficulty is the one its puzzles keep to; a
    /// difficulty with no range for a parameter set is not offered for it.
    #[serde(default)]
    pub clues: Vec<ClueRange>,
}

/// How many givens the puzzles of one difficulty have, for the parameter sets
/// that match `when`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClueRange {
    /// The parameters this range is for: each key given here must have this
    /// value (an empty map applies to every parameter set).
    #[serde(default)]
    pub when: Params,
    /// One of the manifest's difficulties.
    pub difficulty: String,
    /// The fewest givens.
    pub min: u32,
    /// The most givens.
    pub max: u32,
}

impl Manifest {
    /// Every combination of the allowed parameter values (one empty set when the
    /// variant has no parameters).
    pub fn parameter_sets(&self) -> Vec<Params> {
        let mut sets = vec![Params::new()];
        for spec in &self.params {
            sets = sets
                .into_iter()
                .flat_map(|set| {
                    spec.allowed.iter().map(move |v| {
                        let mut s = set.clone();
                        s.insert(spec.key.clone(), v.clone());
                        s
                    })
                })
                .collect();
        }
        sets
    }

    /// The clue range (inclusive) of `difficulty` for the resolved `params`: the
    /// first of [`Manifest::clues`] that applies, if any.
    pub fn clue_range(&self, params: &Params, difficulty: &str) -> Option<(u32, u32)> {
        self.clues
            .iter()
            .find(|r| {
                r.difficulty == difficulty && r.when.iter().all(|(k, v)| params.get(k) == Some(v))
            })
            .map(|r| (r.min, r.max))
    }

    /// Whether the variant offers `difficulty` for `params` (missing ones take
    /// their defaults): one of its difficulties and, from a plugin that declares
    /// clue ranges, one with a range for these parameters — a variant offers
    /// for each parameter set only the tiers its generator really reaches.
    pub fn offers(&self, params: &Params, difficulty: &str) -> bool {
        self.difficulties.iter().any(|d| d == difficulty)
            && (self.clues.is_empty()
                || self
                    .clue_range(&self.with_defaults(params), difficulty)
                    .is_some())
    }

    /// The difficulties offered for `params` (missing ones take their
    /// defaults), easiest first.
    pub fn difficulties_for(&self, params: &Params) -> Vec<String> {
        self.difficulties
            .iter()
            .filter(|d| self.offers(params, d))
            .cloned()
            .collect()
    }

    /// `params` with every missing parameter set to its default.
    pub fn with_defaults(&self, params: &Params) -> Params {
        let mut out = params.clone();
        for spec in &self.params {
            out.entry(spec.key.clone())
                .or_insert_with(|| spec.default.clone());
        }
        out
    }
}

/// One parameter of a variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ParamSpec {
    /// Key in [`Params`].
    pub key: String,
    /// Display name.
    pub name: String,
    /// Value used when the parameter is not given.
    pub default: ParamValue,
    /// Every value accepted.
    pub allowed: Vec<ParamValue>,
    /// Display names of the allowed values, in the same order (since ABI 1.1;
    /// where missing, a value is shown as itself), e.g. `Horizon` for `twin-nw`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

impl ParamSpec {
    /// The display name of `value`: its label, or the value itself.
    pub fn label(&self, value: &ParamValue) -> String {
        self.allowed
            .iter()
            .position(|v| v == value)
            .and_then(|i| self.labels.get(i))
            .cloned()
            .unwrap_or_else(|| value.to_string())
    }
}

/// Request of `generate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GenerateRequest {
    /// Parameters (missing ones take their defaults).
    #[serde(default)]
    pub params: Params,
    /// One of the manifest's difficulties.
    pub difficulty: String,
    /// Any string; the same seed gives the same puzzle.
    pub seed: String,
    /// Ask for a minimal puzzle: every given needed for uniqueness (clues
    /// the tier can spare are removed; a puzzle that cannot be made minimal
    /// at the tier is made again from another seed). Absent: false.
    #[serde(default)]
    pub minimal: bool,
}

/// Answer of `generate`: a unique puzzle, with its solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GenerateResponse {
    /// The puzzle, format v1, `solution` filled in.
    pub puzzle: PuzzleV1,
}

/// Request of `check` and `hint`: a puzzle and a player's grid (rows x cols, 0 =
/// empty).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GridRequest {
    /// The puzzle, format v1.
    pub puzzle: PuzzleV1,
    /// The player's grid.
    pub grid: Vec<Vec<u32>>,
    /// The player's pencil marks, where known (rows x cols, bit `v - 1` for
    /// value `v`, 0 for a cell without marks). `hint` reasons from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marks: Option<Vec<Vec<u32>>>,
}

/// Answer of `check`: the cells whose values break a rule of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckResponse {
    /// Offending cells, row-major order.
    pub cells: Vec<Coord>,
}

/// Request of `count`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CountRequest {
    /// The puzzle, format v1.
    pub puzzle: PuzzleV1,
    /// Stop counting at this many solutions.
    pub limit: u32,
}

/// Answer of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CountResponse {
    /// Solutions found; equal to `limit` means "at least".
    pub solutions: u32,
    /// The limit used.
    pub limit: u32,
}

/// Request of `solve`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SolveRequest {
    /// The puzzle, format v1.
    pub puzzle: PuzzleV1,
}

/// Answer of `solve`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SolveResponse {
    /// A solution (rows x cols), if any.
    pub solution: Option<Vec<Vec<u32>>>,
    /// Whether that solution is the only one.
    pub unique: bool,
}

/// Answer of `hint`: one next step, or none when the grid is complete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HintResponse {
    /// The step.
    pub hint: Option<Hint>,
}

/// One step for a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Hint {
    /// Which reasoning the step uses.
    pub kind: HintKind,
    /// The cell concerned.
    pub cell: Coord,
    /// The value to place (none for [`HintKind::Wrong`] and for steps that
    /// only remove candidates).
    #[serde(default)]
    pub value: Option<u32>,
    /// A short explanation for the player.
    pub explanation: String,
    /// The technique's name ("Hidden Single", "X-Wing", ...); empty for a wrong
    /// entry or a reveal.
    #[serde(default)]
    pub technique: String,
    /// The first stage of the hint: the technique and where to look, without
    /// the answer.
    #[serde(default)]
    pub clue: String,
    /// Where to look, to highlight: the houses the step works in, or the
    /// cells of its pattern when it names no house.
    #[serde(default)]
    pub cells: Vec<Coord>,
    /// The candidates the step removes: `[row, col, value]`.
    #[serde(default)]
    pub eliminations: Vec<[u32; 3]>,
}

/// Kinds of hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum HintKind {
    /// A filled cell holds a wrong value.
    Wrong,
    /// The cell has one candidate left.
    NakedSingle,
    /// A value has one place left in a house.
    HiddenSingle,
    /// A step beyond this build's techniques: the cell's value, revealed.
    Reveal,
    /// A logical step beyond singles (see `technique`).
    Technique,
    /// A cell's pencil marks leave out its value.
    WrongMarks,
    /// A kind this build does not know.
    #[serde(other)]
    Unknown,
}

/// The body of an error answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorResponse {
    /// What went wrong.
    pub message: String,
}
