//! What it took to place one digit: from a player's position (the values on
//! their board, candidates worked out afresh), the easiest technique that
//! places it. A race review shows it beside every digit a player put.

use super::grid::Grid;
use super::ladder::easiest;
use super::schedule::{Chains, Climb};
use super::step::{Rating, Technique};
use super::{apply_batch, fits, memo, Options};
use crate::difficulty::Difficulty;
use crate::model::Model;
use std::cell::RefCell;
use std::time::Instant;

/// The easiest way to a digit from a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placing {
    /// The hardest technique on the way (the digit's own when it is a
    /// single at that moment).
    pub technique: Technique,
    /// Its rating, in tenths of Sudoku Explainer's scale.
    pub rating: Rating,
    /// Its tier.
    pub tier: Difficulty,
    /// The logical steps it took, the placing one included (1: the digit
    /// was there to be seen at once, or came with the first step).
    pub steps: u32,
}

/// From `values` (one per active cell, 0 = empty; values the solution
/// agrees with only), what placing `cell` took: the ladder's easiest step,
/// wherever it is, applied again and again until `cell` is placed, and the
/// hardest of those steps (by tier, then rating). While the digit can be
/// reached with a tier's techniques, every easiest step is of that tier or
/// easier, so the hardest step is the least the digit needed. No nested
/// forcing chains (seconds a step; nobody races with them). `None` when
/// the ladder gets stuck first, the position is broken, or `until` passes.
pub fn placing(
    model: &Model,
    values: &[u8],
    cell: usize,
    until: Option<Instant>,
) -> Option<Placing> {
    let layout = model.logic_layout();
    if !fits(model, values) || values.get(cell) != Some(&0) {
        return None;
    }
    let climb = Climb {
        options: Options { uniqueness: true },
        cap: Difficulty::Extreme,
        rated_only: false,
        chains: Chains::Dynamic,
        first: false,
        exhausted: None,
        until,
    };
    let mut grid = Grid::new(layout, values);
    let memo = RefCell::new(memo::Memo::default());
    let mut hardest: Option<(Difficulty, Rating, Technique)> = None;
    let mut steps = 0;
    while grid.values[cell] == 0 {
        grid.check(layout).ok()?;
        let step = easiest(layout, &grid, climb, &memo, &mut |_, _, _| {})?;
        steps += 1;
        let found = (step.technique.tier(), step.rating, step.technique);
        hardest = Some(hardest.map_or(found, |h| h.max(found)));
        apply_batch(model, &mut grid, &step);
    }
    let (tier, rating, technique) = hardest?;
    Some(Placing {
        technique,
        rating,
        tier,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;
    use crate::text::parse_line;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    fn model() -> Model {
        classic(3, 3).expect("classic")
    }

    fn givens(line: &str) -> Vec<u8> {
        parse_line(line).expect("line").expect("puzzle").to_vec()
    }

    #[test]
    fn a_single_at_that_moment_takes_one_step_and_a_single() {
        let model = model();
        let g = givens(EASY);
        let grade = super::super::grade(&model, &g, Options::default());
        let first = &grade.steps[0];
        let cell = first.placements[0].cell as usize;
        let p = placing(&model, &g, cell, None).expect("placed");
        assert_eq!(p.steps, 1);
        assert_eq!(p.tier, Difficulty::Easy);
        assert!(matches!(
            p.technique,
            Technique::FullHouse | Technique::HiddenSingle | Technique::NakedSingle
        ));
    }

    #[test]
    fn a_filled_cell_a_broken_position_or_a_passed_deadline_give_none() {
        let model = model();
        let g = givens(EASY);
        let given = g.iter().position(|&v| v != 0).expect("a given");
        assert_eq!(placing(&model, &g, given, None), None);
        let empty = g.iter().position(|&v| v == 0).expect("an empty cell");
        assert_eq!(placing(&model, &g, empty, Some(Instant::now())), None);
        assert_eq!(placing(&model, &g[1..], empty, None), None);
        let mut broken = g.clone();
        let (a, b) = (
            given,
            (0..9).find(|&c| c != given && g[c] == 0).expect("empty"),
        );
        broken[b] = g[a];
        if a / 9 == b / 9 {
            assert_eq!(placing(&model, &broken, empty, None), None);
        }
    }

    #[test]
    fn every_empty_cell_of_an_easy_puzzle_is_placed_with_easy_steps() {
        let model = model();
        let g = givens(EASY);
        for cell in (0..g.len()).filter(|&c| g[c] == 0) {
            let p = placing(&model, &g, cell, None).expect("placed");
            assert_eq!(
                p.tier,
                Difficulty::Easy,
                "r{}c{}",
                cell / 9 + 1,
                cell % 9 + 1
            );
        }
    }
}
