//! The logical solver: solves a puzzle the way a person does, one technique step
//! at a time, always taking the easiest step available (as Sudoku Explainer
//! does), and records each step. Works on candidates over any model: houses of
//! any kind, cages and different-pairs (every technique asks the layout which
//! cells see each other, never a fixed 9x9 shape).
//!
//! - [`grade`]: the whole logical solution of a puzzle, its rating (the hardest
//!   step, on Sudoku Explainer's scale) and its tier.
//! - [`next_step`]: the easiest step from a position (for hints).

mod aligned;
mod als;
mod chains;
mod combinations;
mod fish;
pub(crate) mod grid;
mod intersections;
mod links;
mod singles;
mod step;
mod subsets;
mod uniqueness;
mod wings;

use crate::difficulty::Difficulty;
use crate::model::Model;
use grid::{Grid, Layout};
pub use step::{format_rating, Candidate, Rating, Step, Technique};

/// What the solver may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Allow uniqueness techniques (unique rectangles, BUG+1). Sound only when
    /// the puzzle is known to have one solution; used only on classic rules.
    pub uniqueness: bool,
}

/// The outcome of a logical solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Whether the steps solve the puzzle (false: the ladder ran out).
    pub solved: bool,
    /// The hardest step's rating, in tenths (Sudoku Explainer's ER).
    pub rating: Rating,
    /// The technique of the hardest step, if any step was taken.
    pub hardest: Option<Technique>,
    /// The tier: the highest tier of any step; `None` when not solved.
    pub tier: Option<Difficulty>,
}

/// What one technique finder sees.
pub(crate) struct Ctx<'a> {
    pub layout: &'a Layout,
    pub grid: &'a Grid,
}

type Finder = fn(&Ctx) -> Option<Step>;

/// The ladder, in the order Sudoku Explainer tries its rules (roughly by
/// rating). The flag marks uniqueness techniques.
const LADDER: &[(Finder, bool)] = &[
    (singles::full_house, false),
    (singles::hidden_single, false),
    (intersections::direct, false),
    (|cx| subsets::hidden(cx, 2, true), false),
    (singles::naked_single, false),
    (|cx| subsets::hidden(cx, 3, true), false),
    (intersections::locked, false),
    (|cx| subsets::naked(cx, 2), false),
    (|cx| fish::basic(cx, 2), false),
    (|cx| subsets::hidden(cx, 2, false), false),
    (|cx| subsets::naked(cx, 3), false),
    (|cx| fish::basic(cx, 3), false),
    (|cx| subsets::hidden(cx, 3, false), false),
    (|cx| links::chain(cx, 2), false),
    (|cx| wings::xy(cx, false), false),
    (|cx| wings::xy(cx, true), false),
    (uniqueness::rectangle, true),
    (|cx| subsets::naked(cx, 4), false),
    (|cx| fish::basic(cx, 4), false),
    (|cx| subsets::hidden(cx, 4, false), false),
    (|cx| links::chain(cx, 3), false),
    (|cx| als::wing(cx, 3), false),
    (uniqueness::bug, true),
    (|cx| links::chain(cx, 4), false),
    (|cx| als::wing(cx, 4), false),
    (|cx| aligned::exclusion(cx, 2), false),
    (|cx| als::wing(cx, 5), false),
    (chains::cycles_and_forcing, false),
    (|cx| als::wing(cx, 6), false),
    (|cx| aligned::exclusion(cx, 3), false),
    (|cx| chains::multiple(cx, chains::Mode::Nishio), false),
    (|cx| chains::multiple(cx, chains::Mode::Multiple), false),
    (|cx| chains::multiple(cx, chains::Mode::Dynamic), false),
    (|cx| chains::multiple(cx, chains::Mode::DynamicPlus), false),
];

/// The easiest step from `grid`, if the ladder has one.
fn easiest(layout: &Layout, grid: &Grid, options: Options) -> Option<Step> {
    let cx = Ctx { layout, grid };
    LADDER
        .iter()
        .filter(|(_, unique)| options.uniqueness || !unique)
        .find_map(|(finder, _)| finder(&cx))
}

/// Applies a step's eliminations, then its placements.
fn apply(model: &Model, grid: &mut Grid, step: &Step) {
    for &e in &step.eliminations {
        grid.eliminate(model.logic_layout(), e);
    }
    for p in &step.placements {
        if grid.values[p.cell as usize] == 0 {
            grid.place(model, p.cell, p.value);
        }
    }
}

/// Solves `givens` (one value per active cell, 0 = empty) logically.
pub fn grade(model: &Model, givens: &[u8], options: Options) -> Grade {
    let layout = model.logic_layout();
    let mut grid = Grid::new(model, givens);
    let mut steps = Vec::new();
    let mut solved = grid.is_solved();
    while !solved && grid.check(layout).is_ok() {
        let Some(step) = easiest(layout, &grid, options) else {
            break;
        };
        let batch = singles::batch(
            &Ctx {
                layout,
                grid: &grid,
            },
            &step,
        );
        for step in batch {
            let still_open = step
                .placements
                .iter()
                .all(|p| grid.values[p.cell as usize] == 0 && grid.has(p.cell, p.value));
            if still_open {
                apply(model, &mut grid, &step);
                steps.push(step);
            }
        }
        solved = grid.is_solved();
    }
    let hardest = steps.iter().max_by_key(|s| s.rating);
    Grade {
        rating: hardest.map_or(0, |s| s.rating),
        hardest: hardest.map(|s| s.technique),
        tier: solved.then(|| {
            steps
                .iter()
                .map(|s| s.technique.tier())
                .max()
                .unwrap_or(Difficulty::Easy)
        }),
        steps,
        solved,
    }
}

#[cfg(test)]
mod tests;
