//! Puzzle file format v1 ([`PuzzleV1`]) to and from engine [`Puzzle`]s, with
//! validation messages that name the problem.

use crate::error::PuzzleError;
use crate::model::Model;
use crate::puzzle::Puzzle;
use crate::rules::{kind_name, ModelBuilder};
use protocol::{Cage, House, Layout, PuzzleV1, PUZZLE_FORMAT_V1, PUZZLE_FORMAT_V2};
use std::sync::Arc;

/// A puzzle read from a v1 object, with the solution it ships (if any).
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The shipped solution, one value per active cell.
    pub solution: Option<Vec<u8>>,
}

/// Builds the model a v1 object describes (its rules, not its givens).
pub fn model_from_v1(p: &PuzzleV1) -> Result<Model, PuzzleError> {
    if p.format != PUZZLE_FORMAT_V1 && p.format != PUZZLE_FORMAT_V2 {
        return Err(PuzzleError::new(format!(
            "format is '{}', expected '{PUZZLE_FORMAT_V1}' or '{PUZZLE_FORMAT_V2}'",
            p.format
        )));
    }
    if p.format == PUZZLE_FORMAT_V1 && !p.constraints.is_empty() {
        return Err(PuzzleError::new(format!(
            "constraints need format '{PUZZLE_FORMAT_V2}' (a '{PUZZLE_FORMAT_V1}' reader would ignore them)"
        )));
    }
    let mut b = ModelBuilder::new(p.size, p.layout.rows, p.layout.cols);
    if let Some(symbols) = &p.symbols {
        b = b.symbols(symbols.chars().collect());
    }
    if let Some(cells) = &p.cells {
        b = b.active_cells(cells.clone());
    }
    for h in &p.houses {
        b = b.house(h.kind, h.cells.clone());
    }
    for c in &p.cages {
        b = b.cage(c.cells.clone(), c.sum);
    }
    for &[x, y] in &p.different {
        b = b.different(x, y);
    }
    for c in &p.constraints {
        b = b.constraint(c.clone());
    }
    b.build()
}

/// Reads a v1 object: rules, givens and the optional solution, all validated.
pub fn from_v1(p: &PuzzleV1) -> Result<Loaded, PuzzleError> {
    from_v1_with_model(p, Arc::new(model_from_v1(p)?))
}

/// [`from_v1`] with the model of its rules already built ([`model_from_v1`] of
/// an object with the same rules), so puzzles with equal rules can share one.
pub fn from_v1_with_model(p: &PuzzleV1, model: Arc<Model>) -> Result<Loaded, PuzzleError> {
    let givens = read_grid(&model, &p.grid, "grid", true)?;
    let clues = givens.iter().filter(|&&g| g != 0).count();
    if let Some(stated) = p.clue_count {
        if stated as usize != clues {
            return Err(PuzzleError::new(format!(
                "clueCount says {stated} but the grid has {clues} givens"
            )));
        }
    }
    let solution = match &p.solution {
        Some(s) => Some(read_grid(&model, s, "solution", false)?),
        None => None,
    };
    let puzzle = Puzzle::new(model, givens)?;
    Ok(Loaded { puzzle, solution })
}

/// Reads a player's rows x cols grid (0 = empty) into one value per active cell.
pub fn grid_values(model: &Model, grid: &[Vec<u32>]) -> Result<Vec<u8>, PuzzleError> {
    read_grid(model, grid, "grid", true)
}

/// Reads a rows x cols grid into one value per active cell.
fn read_grid(
    model: &Model,
    grid: &[Vec<u32>],
    name: &str,
    allow_empty: bool,
) -> Result<Vec<u8>, PuzzleError> {
    let (rows, cols) = (model.rows(), model.cols());
    if grid.len() != rows as usize {
        return Err(PuzzleError::new(format!(
            "{name} has {} rows; the layout has {rows}",
            grid.len()
        )));
    }
    let mut values = vec![0u8; model.cell_count()];
    for (r, row) in grid.iter().enumerate() {
        if row.len() != cols as usize {
            return Err(PuzzleError::new(format!(
                "{name} row {r} has {} values; the layout has {cols} columns",
                row.len()
            )));
        }
        for (c, &v) in row.iter().enumerate() {
            match model.cell_at(r as u32, c as u32) {
                None if v != 0 => {
                    return Err(PuzzleError::new(format!(
                        "{name} has {v} at [{r},{c}], which is not an active cell"
                    )))
                }
                None => {}
                Some(_) if v > model.size() => {
                    return Err(PuzzleError::new(format!(
                        "{name} has {v} at [{r},{c}], outside 0..={}",
                        model.size()
                    )))
                }
                Some(_) if v == 0 && !allow_empty => {
                    return Err(PuzzleError::new(format!("{name} is empty at [{r},{c}]")))
                }
                Some(i) => values[i] = v as u8,
            }
        }
    }
    Ok(values)
}

/// Reads a player's rows x cols pencil marks (a candidate mask per cell, bit
/// `v - 1` for value `v`) into one mask per active cell.
pub fn grid_marks(model: &Model, marks: &[Vec<u32>]) -> Result<Vec<u32>, PuzzleError> {
    if marks.len() != model.rows() as usize
        || marks.iter().any(|row| row.len() != model.cols() as usize)
    {
        return Err(PuzzleError::new(format!(
            "marks must be {} rows of {} masks",
            model.rows(),
            model.cols()
        )));
    }
    let full = crate::mask::full_mask(model.size());
    let mut out = vec![0u32; model.cell_count()];
    for (r, row) in marks.iter().enumerate() {
        for (c, &m) in row.iter().enumerate() {
            match model.cell_at(r as u32, c as u32) {
                Some(i) if m & !full == 0 => out[i] = m,
                None if m == 0 => {}
                _ => {
                    return Err(PuzzleError::new(format!(
                        "marks at [{r},{c}] ({m:#x}) name values outside the puzzle"
                    )))
                }
            }
        }
    }
    Ok(out)
}

/// Spreads one mask per active cell over the layout (0 in inactive cells).
pub fn to_marks_grid(model: &Model, marks: &[u32]) -> Vec<Vec<u32>> {
    spread(model, marks.iter().copied())
}

/// Spreads one value per active cell over the layout (0 in inactive cells).
pub fn to_grid(model: &Model, values: &[u8]) -> Vec<Vec<u32>> {
    spread(model, values.iter().map(|&v| u32::from(v)))
}

/// Lays one number per active cell out on the rows x cols layout (0 in
/// inactive cells).
fn spread(model: &Model, per_cell: impl Iterator<Item = u32>) -> Vec<Vec<u32>> {
    let mut grid = vec![vec![0u32; model.cols() as usize]; model.rows() as usize];
    for (i, n) in per_cell.enumerate() {
        let [r, c] = model.coord(i);
        grid[r as usize][c as usize] = n;
    }
    grid
}

/// Writes a puzzle (and optionally its solution) as a v1 object (v2 with
/// constraints) that spells out every rule. Informational fields (variant, params, difficulty, seed, date) are
/// left empty for the caller to fill.
pub fn to_v1(puzzle: &Puzzle, solution: Option<&[u8]>) -> PuzzleV1 {
    let m = puzzle.model();
    let coords = |cells: &[u32]| cells.iter().map(|&c| m.coord(c as usize)).collect();
    let (houses, cages, different) = m.authored();
    let format = if m.constraints().is_empty() {
        PUZZLE_FORMAT_V1
    } else {
        PUZZLE_FORMAT_V2
    };
    PuzzleV1 {
        format: format.to_string(),
        variant: None,
        params: Default::default(),
        difficulty: None,
        seed: None,
        date: None,
        title: None,
        author: None,
        rules: None,
        size: m.size(),
        symbols: Some(m.symbols().iter().collect()),
        layout: Layout {
            rows: m.rows(),
            cols: m.cols(),
        },
        cells: if m.is_full_layout() {
            None
        } else {
            Some((0..m.cell_count()).map(|c| m.coord(c)).collect())
        },
        houses: houses
            .iter()
            .map(|h| House {
                kind: h.kind,
                cells: coords(&h.cells),
            })
            .collect(),
        cages: cages
            .iter()
            .map(|c| Cage {
                cells: coords(&c.cells),
                sum: c.sum,
            })
            .collect(),
        different: different
            .iter()
            .map(|&[a, b]| [m.coord(a as usize), m.coord(b as usize)])
            .collect(),
        constraints: m.constraints().to_vec(),
        drawings: Vec::new(),
        rule_notes: Vec::new(),
        decorations: Vec::new(),
        grid: to_grid(m, puzzle.givens()),
        clue_count: Some(puzzle.clue_count() as u32),
        solution: solution.map(|s| to_grid(m, s)),
        grade: None,
    }
}

/// A short description of a model's rules, e.g. `9x9, 27 houses (row, column, box)`.
pub fn describe(model: &Model) -> String {
    let mut kinds: Vec<&str> = model.houses().iter().map(|h| kind_name(h.kind)).collect();
    kinds.dedup();
    let constraints = match model.constraints().len() {
        0 => String::new(),
        n => format!(", {n} constraints"),
    };
    format!(
        "{}x{} N={}, {} houses ({}), {} cages, {} pairs{constraints}",
        model.rows(),
        model.cols(),
        model.size(),
        model.houses().len(),
        kinds.join(", "),
        model.cages().len(),
        model.different().len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;

    fn sample() -> PuzzleV1 {
        let model = Arc::new(classic(2, 2).expect("4x4"));
        let mut givens = vec![0u8; 16];
        givens[0] = 1;
        givens[5] = 3;
        to_v1(&Puzzle::new(model, givens).expect("puzzle"), None)
    }

    fn error_of(p: &PuzzleV1) -> String {
        from_v1(p).expect_err("must be rejected").to_string()
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let loaded = from_v1(&p).expect("valid");
        assert_eq!(to_v1(&loaded.puzzle, None), p);
    }

    #[test]
    fn rejections_name_the_problem() {
        let mut p = sample();
        p.houses[0].cells[1] = [4, 0];
        assert!(error_of(&p).contains("house 0 (row): cell [4,0] is outside the 4x4 layout"));

        let mut p = sample();
        p.houses[2].cells[1] = p.houses[2].cells[0];
        assert!(error_of(&p).contains("is repeated"));

        let mut p = sample();
        p.cages.push(Cage {
            cells: vec![[0, 0], [0, 1]],
            sum: 9,
        });
        assert!(error_of(&p).contains("sum 9 is impossible"));

        let mut p = sample();
        p.grid[0][1] = 1;
        p.clue_count = Some(3);
        assert!(error_of(&p).contains("1 at [0,0] and [0,1] in row house 0"));

        let mut p = sample();
        p.clue_count = Some(5);
        assert!(error_of(&p).contains("clueCount says 5"));

        let mut p = sample();
        p.grid[3].push(0);
        assert!(error_of(&p).contains("grid row 3 has 5 values"));

        let mut p = sample();
        p.grid[2][2] = 7;
        assert!(error_of(&p).contains("outside 0..=4"));

        let mut p = sample();
        p.format = "other".into();
        assert!(error_of(&p).contains("format is 'other'"));
    }
}
