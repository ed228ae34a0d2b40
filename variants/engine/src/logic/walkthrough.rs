//! A logical solution a player can step through: the grader's steps, each with
//! what it changes on the board (placed values and candidates left), its
//! explanation, the cells to look at and, for killer steps, the cage it reads
//! (the 45 rule's virtual cages among them).

use crate::logic::explain::{explain, house_cells};
use crate::logic::grid::Grid;
use crate::logic::{apply, grade_without_nested_chains, Grade, Options, Rating};
use crate::model::Model;

/// One step of a walkthrough, in layout coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkStep {
    /// The technique's name.
    pub technique: String,
    /// Its rating, in tenths of Sudoku Explainer's scale.
    pub rating: Rating,
    /// The step in words.
    pub explanation: String,
    /// Where to look: the cells of the houses the step works in.
    pub cells: Vec<[u32; 2]>,
    /// The candidates that make its pattern: `[row, col, value]`.
    pub pattern: Vec<[u32; 3]>,
    /// Values it places: `[row, col, value]`.
    pub placements: Vec<[u32; 3]>,
    /// Candidates it removes: `[row, col, value]`.
    pub eliminations: Vec<[u32; 3]>,
    /// The cage a killer step reads (a real one or a derived one), and its sum.
    pub cage: Option<(Vec<[u32; 2]>, u32)>,
    /// Every cell the step changed, as it is afterwards: `[row, col, value,
    /// candidates]` (value 0 while empty; candidates bit `v - 1` for `v`).
    pub after: Vec<[u32; 4]>,
}

/// A logical solution from the givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walkthrough {
    /// Every cell at the start, the givens placed: `[row, col, value,
    /// candidates]`.
    pub start: Vec<[u32; 4]>,
    /// The steps, in order.
    pub steps: Vec<WalkStep>,
    /// Whether the steps solve the puzzle (false: the techniques ran out).
    pub solved: bool,
    /// The grader's verdict on the same solve.
    pub grade: Grade,
}

/// Solves `givens` logically (as a pasted puzzle is graded: no nested forcing
/// chains; uniqueness techniques where `unique`) and records each step's
/// effect on the board.
pub fn walkthrough(model: &Model, givens: &[u8], unique: bool) -> Walkthrough {
    let grade = grade_without_nested_chains(model, givens, Options { uniqueness: unique });
    let layout = model.logic_layout();
    let fits = givens.len() == model.cell_count();
    let mut grid = Grid::new(layout, if fits { givens } else { &[] });
    let state = |grid: &Grid, cell: u32| {
        let [r, c] = model.coord(cell as usize);
        [r, c, u32::from(grid.values[cell as usize]), grid.mask(cell)]
    };
    let start = (0..grid.values.len() as u32)
        .map(|c| state(&grid, c))
        .collect();
    let at = |cell: u32, value: u8| {
        let [r, c] = model.coord(cell as usize);
        [r, c, u32::from(value)]
    };
    let mut steps = Vec::with_capacity(grade.steps.len());
    for step in &grade.steps {
        let before: Vec<(u8, u32)> = (0..grid.values.len() as u32)
            .map(|c| (grid.values[c as usize], grid.mask(c)))
            .collect();
        apply(model, &mut grid, step);
        let after = (0..grid.values.len() as u32)
            .filter(|&c| before[c as usize] != (grid.values[c as usize], grid.mask(c)))
            .map(|c| state(&grid, c))
            .collect();
        let mut cells: Vec<[u32; 2]> = step
            .houses
            .iter()
            .flat_map(|&h| house_cells(model, h).iter())
            .map(|&c| model.coord(c as usize))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        steps.push(WalkStep {
            technique: step.technique.name().to_string(),
            rating: step.rating,
            explanation: explain(model, step),
            cells,
            pattern: step.pattern.iter().map(|p| at(p.cell, p.value)).collect(),
            placements: step
                .placements
                .iter()
                .map(|p| at(p.cell, p.value))
                .collect(),
            eliminations: step
                .eliminations
                .iter()
                .map(|e| at(e.cell, e.value))
                .collect(),
            cage: step.cage.as_ref().map(|cage| {
                let cells = cage.cells.iter().map(|&c| model.coord(c as usize));
                (cells.collect(), cage.sum)
            }),
            after,
        });
    }
    Walkthrough {
        start,
        solved: grade.solved,
        steps,
        grade,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;
    use crate::text::parse_line;
    use crate::Puzzle;
    use std::sync::Arc;

    #[test]
    fn replaying_a_walkthrough_reaches_the_solution() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let givens = parse_line(line).expect("a line").expect("a puzzle");
        let model = Arc::new(classic(3, 3).expect("9x9"));
        let puzzle = Puzzle::new(model, givens.to_vec()).expect("a puzzle");
        let w = walkthrough(puzzle.model(), puzzle.givens(), true);
        assert!(w.solved && !w.steps.is_empty());
        let mut board: Vec<[u32; 4]> = w.start.clone();
        for step in &w.steps {
            assert!(!step.after.is_empty(), "{} changed nothing", step.technique);
            for cell in &step.after {
                let i = (cell[0] * 9 + cell[1]) as usize;
                board[i] = *cell;
            }
        }
        let solution = puzzle.first_solution().expect("solved");
        let filled: Vec<u8> = board.iter().map(|c| c[2] as u8).collect();
        assert_eq!(filled, solution);
    }
}
