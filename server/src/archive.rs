//! The daily archive's JSON schema (the Yen-Doku archive we stay compatible
//! with): reading its classic and Gattai files into engine puzzles, and writing
//! puzzles back in it.
//!
//! - Classic: `{date, difficulty, clueCount, grid, solution}`, 9x9 arrays with 0
//!   for an empty cell.
//! - Gattai: `{date, mode, difficulty, clueCount, version, grids}` where `grids`
//!   maps each grid's id (`center`/`nw`/`ne`/`sw`/`se`, or `primary`/`secondary`)
//!   to its own 9x9 `grid` and `solution`; the layout of each mode is
//!   [`GattaiMode`]'s. A shared box appears in both grids and must agree there;
//!   in the model it is one set of cells. `clueCount` counts distinct cells.

use engine::geometry::{GattaiMode, GATTAI_MODES};
use engine::v1::Loaded;
use engine::{Model, Puzzle};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What an archive file says besides its grids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveInfo {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// `easy`, `medium`, `hard` or `extreme`.
    pub difficulty: String,
    /// The Gattai mode, or `None` for a classic 9x9.
    pub mode: Option<&'static GattaiMode>,
}

/// Whether a JSON value looks like an archive file rather than format v1: it has
/// a `grid` or `grids` and no v1 `format`.
pub fn is_archive(value: &serde_json::Value) -> bool {
    value.get("format").is_none() && (value.get("grid").is_some() || value.get("grids").is_some())
}

/// A 9x9 array of values, 0 = empty.
type Grid9 = Vec<Vec<u8>>;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ClassicFile {
    date: String,
    difficulty: String,
    clue_count: usize,
    grid: Grid9,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    solution: Option<Grid9>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GattaiFile {
    date: String,
    mode: String,
    difficulty: String,
    clue_count: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    grids: BTreeMap<String, GridPair>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridPair {
    grid: Grid9,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    solution: Option<Grid9>,
}

const DIFFICULTIES: [&str; 4] = ["easy", "medium", "hard", "extreme"];

/// What is wrong with an archive file, or why a puzzle has no archive form.
/// Grids are named by id, cells as `[row,col]` within their grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// JSON of the wrong shape for the file kind (`kind`: "Gattai", "classic").
    #[error("not an archive {kind} file: {why}")]
    Shape {
        /// Which kind of file it looked like.
        kind: &'static str,
        /// What serde said.
        why: String,
    },
    /// A Gattai mode this server does not know.
    #[error("unknown mode '{mode}' ({known})")]
    UnknownMode {
        /// The mode given.
        mode: String,
        /// The modes known, comma-separated.
        known: String,
    },
    /// A grid id the mode does not have.
    #[error("{mode} has no grid '{grid}'")]
    UnknownGrid {
        /// The mode.
        mode: String,
        /// The grid id given.
        grid: String,
    },
    /// A grid the mode needs is missing.
    #[error("{mode} grid '{grid}' is missing")]
    MissingGrid {
        /// The mode.
        mode: String,
        /// The grid id.
        grid: String,
    },
    /// Some grids ship a solution and others not.
    #[error("some grids have a solution and others not")]
    PartialSolution,
    /// A difficulty the archive does not use.
    #[error("difficulty '{0}' is not one of easy, medium, hard, extreme")]
    Difficulty(String),
    /// A grid (or its solution) that is not 9x9 values 0-9 on the layout.
    #[error("{grid} {what}")]
    Grid {
        /// The grid id.
        grid: String,
        /// What is wrong, where.
        what: String,
    },
    /// Two grids disagreeing on a cell they share.
    #[error("{grid} and {other} disagree on their shared cell: {grid} {what}")]
    Disagree {
        /// One grid.
        grid: String,
        /// The other.
        other: String,
        /// Where and what each says.
        what: String,
    },
    /// `clueCount` that is not the number of givens.
    #[error("clueCount is {said} but the grids hold {found} givens")]
    ClueCount {
        /// `clueCount`.
        said: usize,
        /// Givens in the grids.
        found: usize,
    },
    /// The engine refused the puzzle (givens that break a rule).
    #[error("{0}")]
    Puzzle(String),
    /// A layout the archive has no form for.
    #[error("the archive holds classic 9x9 and Gattai puzzles only; this is another layout")]
    Layout,
    /// The file could not be written as JSON.
    #[error("cannot write the archive JSON: {0}")]
    Encode(String),
}

/// Reads an archive file's JSON into a puzzle (with its solution when shipped)
/// and its other fields. Every problem is named: a wrong shape, an unknown mode
/// or grid id, a missing grid, two grids that disagree on a shared cell, a
/// `clueCount` that is not the number of givens, givens that break a rule.
pub fn read(value: serde_json::Value) -> Result<(Loaded, ArchiveInfo), ArchiveError> {
    if value.get("grids").is_some() {
        let file: GattaiFile = serde_json::from_value(value).map_err(|e| ArchiveError::Shape {
            kind: "Gattai",
            why: e.to_string(),
        })?;
        read_gattai(file)
    } else {
        let file: ClassicFile = serde_json::from_value(value).map_err(|e| ArchiveError::Shape {
            kind: "classic",
            why: e.to_string(),
        })?;
        let model = engine::geometry::classic(3, 3).map_err(puzzle_error)?;
        let grids = [("grid", [0, 0], &file.grid, file.solution.as_ref())];
        let (givens, solution) = spread(&model, &grids)?;
        let info = info(file.date, file.difficulty, None)?;
        finish(model, givens, solution, file.clue_count, info)
    }
}

/// The engine's refusal, as an archive error.
fn puzzle_error(e: engine::PuzzleError) -> ArchiveError {
    ArchiveError::Puzzle(e.to_string())
}

fn read_gattai(file: GattaiFile) -> Result<(Loaded, ArchiveInfo), ArchiveError> {
    let mode = GattaiMode::by_id(&file.mode).ok_or_else(|| {
        let known: Vec<&str> = GATTAI_MODES.iter().map(|m| m.id).collect();
        ArchiveError::UnknownMode {
            mode: file.mode.clone(),
            known: known.join(", "),
        }
    })?;
    if let Some(extra) = file
        .grids
        .keys()
        .find(|k| !mode.grids.iter().any(|(id, _)| id == k))
    {
        return Err(ArchiveError::UnknownGrid {
            mode: mode.id.to_string(),
            grid: extra.clone(),
        });
    }
    let mut grids = Vec::new();
    for &(id, origin) in mode.grids {
        let pair = file
            .grids
            .get(id)
            .ok_or_else(|| ArchiveError::MissingGrid {
                mode: mode.id.to_string(),
                grid: id.to_string(),
            })?;
        grids.push((id, origin, &pair.grid, pair.solution.as_ref()));
    }
    let shipped = grids.iter().filter(|g| g.3.is_some()).count();
    if shipped != 0 && shipped != grids.len() {
        return Err(ArchiveError::PartialSolution);
    }
    let model = mode.model().map_err(puzzle_error)?;
    let (givens, solution) = spread(&model, &grids)?;
    let info = info(file.date, file.difficulty, Some(mode))?;
    finish(model, givens, solution, file.clue_count, info)
}

fn info(
    date: String,
    difficulty: String,
    mode: Option<&'static GattaiMode>,
) -> Result<ArchiveInfo, ArchiveError> {
    if !DIFFICULTIES.contains(&difficulty.as_str()) {
        return Err(ArchiveError::Difficulty(difficulty));
    }
    Ok(ArchiveInfo {
        date,
        difficulty,
        mode,
    })
}

/// One named 9x9 grid at an origin of the layout, with its solution if shipped.
type Placed<'a> = (&'a str, [u32; 2], &'a Grid9, Option<&'a Grid9>);

/// The model's givens and solution from its 9x9 grids; cells two grids share
/// must agree.
fn spread(model: &Model, grids: &[Placed]) -> Result<(Vec<u8>, Option<Vec<u8>>), ArchiveError> {
    let cells = model.cell_count();
    let mut givens: Vec<Option<(u8, &str)>> = vec![None; cells];
    let mut solution: Vec<Option<(u8, &str)>> = vec![None; cells];
    for &(id, origin, grid, sol) in grids {
        place(model, id, origin, grid, "grid", &mut givens)?;
        if let Some(sol) = sol {
            place(model, id, origin, sol, "solution", &mut solution)?;
        }
    }
    let givens = givens.iter().map(|g| g.map_or(0, |(v, _)| v)).collect();
    let solution = solution
        .iter()
        .map(|s| s.map(|(v, _)| v))
        .collect::<Option<Vec<u8>>>();
    Ok((givens, solution))
}

fn place<'a>(
    model: &Model,
    id: &'a str,
    [top, left]: [u32; 2],
    grid: &Grid9,
    what: &str,
    out: &mut [Option<(u8, &'a str)>],
) -> Result<(), ArchiveError> {
    let bad = |what: String| ArchiveError::Grid {
        grid: id.to_string(),
        what,
    };
    if grid.len() != 9 || grid.iter().any(|row| row.len() != 9) {
        return Err(bad(format!("{what} is not 9x9")));
    }
    for (r, row) in grid.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v > 9 {
                return Err(bad(format!("{what} [{r},{c}] holds {v}, outside 0..=9")));
            }
            let at = model
                .cell_at(top + r as u32, left + c as u32)
                .ok_or_else(|| bad(format!("[{r},{c}] is outside the layout")))?;
            match out[at] {
                Some((w, other)) if w != v => {
                    return Err(ArchiveError::Disagree {
                        grid: id.to_string(),
                        other: other.to_string(),
                        what: format!("{what} [{r},{c}] is {v}, {other} says {w}"),
                    })
                }
                _ => out[at] = Some((v, id)),
            }
        }
    }
    Ok(())
}

fn finish(
    model: Model,
    givens: Vec<u8>,
    solution: Option<Vec<u8>>,
    clue_count: usize,
    info: ArchiveInfo,
) -> Result<(Loaded, ArchiveInfo), ArchiveError> {
    let clues = givens.iter().filter(|&&v| v != 0).count();
    if clues != clue_count {
        return Err(ArchiveError::ClueCount {
            said: clue_count,
            found: clues,
        });
    }
    let puzzle = Puzzle::new(Arc::new(model), givens).map_err(puzzle_error)?;
    Ok((Loaded { puzzle, solution }, info))
}

/// The Gattai mode whose layout `model` is, if any: `named` when its layout is
/// `model`'s, else the first mode with that layout. (Two twins share each
/// layout — Horizon and Eclipse, Sunrise and Sunset — and differ only in which
/// grid is the primary one, so only a recorded mode tells them apart.)
pub fn gattai_mode_of(model: &Model, named: Option<&str>) -> Option<&'static GattaiMode> {
    let fits = |mode: &&GattaiMode| {
        mode.model().is_ok_and(|m| {
            m.rows() == model.rows()
                && m.cols() == model.cols()
                && m.cell_count() == model.cell_count()
                && (0..m.cell_count()).all(|c| m.coord(c) == model.coord(c))
                && same_houses(&m, model)
        })
    };
    named
        .and_then(GattaiMode::by_id)
        .filter(fits)
        .or_else(|| GATTAI_MODES.iter().find(fits))
}

fn same_houses(a: &Model, b: &Model) -> bool {
    let sorted = |m: &Model| {
        let mut h: Vec<Vec<u32>> = m
            .houses()
            .iter()
            .map(|h| {
                let mut c = h.cells.clone();
                c.sort_unstable();
                c
            })
            .collect();
        h.sort();
        h
    };
    a.cages().is_empty() && b.cages().is_empty() && sorted(a) == sorted(b)
}

/// A puzzle in the archive's schema, ready to serialise.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ArchiveFile {
    /// A classic 9x9 file.
    Classic(ClassicOut),
    /// A Gattai file.
    Gattai(GattaiOut),
}

/// A classic file as written.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassicOut {
    date: String,
    difficulty: String,
    clue_count: usize,
    grid: Grid9,
    solution: Grid9,
}

/// A Gattai file as written: its grids in the mode's order (`center`, `nw`, …).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GattaiOut {
    date: String,
    mode: String,
    difficulty: String,
    clue_count: usize,
    version: String,
    grids: OrderedGrids,
}

/// Named grids, serialised as a map in their own order.
pub struct OrderedGrids(Vec<(String, GridPair)>);

impl Serialize for OrderedGrids {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (id, pair) in &self.0 {
            map.serialize_entry(id, pair)?;
        }
        map.end()
    }
}

/// A puzzle (classic 9x9 or a Gattai layout) with its solution in the archive's
/// schema. A Gattai layout is written as `mode` when that is its layout (see
/// [`gattai_mode_of`]). Other models have no archive form.
pub fn to_archive(
    puzzle: &Puzzle,
    solution: &[u8],
    date: &str,
    difficulty: &str,
    mode: Option<&str>,
) -> Result<ArchiveFile, ArchiveError> {
    let model = puzzle.model();
    let grid_at = |values: &[u8], [top, left]: [u32; 2]| -> Grid9 {
        (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| model.cell_at(top + r, left + c).map_or(0, |i| values[i]))
                    .collect()
            })
            .collect()
    };
    let clue_count = puzzle.clue_count();
    if model.is_classic9() {
        Ok(ArchiveFile::Classic(ClassicOut {
            date: date.into(),
            difficulty: difficulty.into(),
            clue_count,
            grid: grid_at(puzzle.givens(), [0, 0]),
            solution: grid_at(solution, [0, 0]),
        }))
    } else if let Some(mode) = gattai_mode_of(model, mode) {
        let grids = mode
            .grids
            .iter()
            .map(|&(id, origin)| {
                let pair = GridPair {
                    grid: grid_at(puzzle.givens(), origin),
                    solution: Some(grid_at(solution, origin)),
                };
                (id.to_string(), pair)
            })
            .collect();
        Ok(ArchiveFile::Gattai(GattaiOut {
            date: date.into(),
            mode: mode.id.into(),
            difficulty: difficulty.into(),
            clue_count,
            version: "1.0".into(),
            grids: OrderedGrids(grids),
        }))
    } else {
        Err(ArchiveError::Layout)
    }
}

/// [`to_archive`] as one line of JSON.
pub fn write(
    puzzle: &Puzzle,
    solution: &[u8],
    date: &str,
    difficulty: &str,
    mode: Option<&str>,
) -> Result<String, ArchiveError> {
    let file = to_archive(puzzle, solution, date, difficulty, mode)?;
    serde_json::to_string(&file).map_err(|e| ArchiveError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn classic_json() -> serde_json::Value {
        let solution: Vec<Vec<u8>> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| ((r * 3 + r / 3 + c) % 9 + 1) as u8)
                    .collect()
            })
            .collect();
        let mut grid = solution.clone();
        grid[0][0] = 0;
        grid[4][4] = 0;
        json!({"date": "2026-01-11", "difficulty": "easy", "clueCount": 79,
               "grid": grid, "solution": solution})
    }

    #[test]
    fn reads_and_writes_a_classic_file() {
        let value = classic_json();
        assert!(is_archive(&value));
        let (loaded, info) = read(value.clone()).expect("read");
        assert_eq!(info.mode, None);
        assert_eq!(loaded.puzzle.clue_count(), 79);
        let solution = loaded.solution.clone().expect("solution");
        let back = write(
            &loaded.puzzle,
            &solution,
            &info.date,
            &info.difficulty,
            None,
        )
        .expect("write");
        let back: serde_json::Value = serde_json::from_str(&back).expect("JSON");
        assert_eq!(back, value);
    }

    #[test]
    fn names_what_is_wrong() {
        let mut v = classic_json();
        v["clueCount"] = json!(80);
        assert_eq!(
            read(v).expect_err("count"),
            ArchiveError::ClueCount {
                said: 80,
                found: 79
            }
        );
        let mut v = classic_json();
        v["difficulty"] = json!("brutal");
        assert_eq!(
            read(v).expect_err("difficulty"),
            ArchiveError::Difficulty("brutal".into())
        );
        let mut v = classic_json();
        v["grid"][3][3] = json!(12);
        let e = read(v).expect_err("value");
        assert!(
            matches!(&e, ArchiveError::Grid { what, .. } if what.contains("outside 0..=9")),
            "{e}"
        );
        let twin = json!({"date": "d", "mode": "twin-nw", "difficulty": "easy", "clueCount": 0,
                          "grids": {"primary": {"grid": vec![vec![0; 9]; 9]}}});
        assert_eq!(
            read(twin).expect_err("missing"),
            ArchiveError::MissingGrid {
                mode: "twin-nw".into(),
                grid: "secondary".into()
            }
        );
        let mut a = vec![vec![0u8; 9]; 9];
        a[8][8] = 5;
        let mut b = vec![vec![0u8; 9]; 9];
        b[2][2] = 6;
        let clash = json!({"date": "d", "mode": "twin-nw", "difficulty": "easy", "clueCount": 1,
                           "grids": {"primary": {"grid": a}, "secondary": {"grid": b}}});
        assert!(matches!(
            read(clash).expect_err("clash"),
            ArchiveError::Disagree { .. }
        ));
    }
}
