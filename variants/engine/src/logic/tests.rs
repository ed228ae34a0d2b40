//! Logical solver tests: every step true against the solution, tiers and ratings on known puzzles.

use super::*;
use crate::geometry::classic;
use crate::text::parse_line;
use crate::Puzzle;
use std::sync::Arc;

fn classic9() -> Arc<Model> {
    Arc::new(classic(3, 3).expect("9x9"))
}

/// Grades `line` and checks every step against the puzzle's solution: no step
/// removes a solution candidate or places a wrong value.
fn grade_checked(model: &Arc<Model>, line: &str, options: Options) -> Grade {
    let givens = parse_line(line).expect("line").expect("puzzle").to_vec();
    let solution = match Puzzle::new(model.clone(), givens.clone())
        .expect("puzzle")
        .solve()
    {
        crate::Solution::Unique(s) => s,
        other => panic!("{line} is not unique: {other:?}"),
    };
    let result = grade(model, &givens, options);
    for step in &result.steps {
        for e in &step.eliminations {
            assert_ne!(
                solution[e.cell as usize], e.value,
                "{line}: {step:?} removes the solution"
            );
        }
        for p in &step.placements {
            assert_eq!(
                solution[p.cell as usize], p.value,
                "{line}: {step:?} places a wrong value"
            );
        }
    }
    result
}

#[test]
fn singles_only_puzzle_is_easy() {
    let m = classic9();
    let g = grade_checked(
        &m,
        "001083000063000490040600012600104200900000007004502009430008050085000920000740600",
        Options::default(),
    );
    assert!(g.solved);
    assert_eq!(g.tier, Some(Difficulty::Easy));
    assert!(g.rating <= 23, "{}", g.rating);
}

/// Hard classic puzzles whose solutions meet most of the ladder: fish,
/// subsets, chains, cycles and forcing chains.
pub(super) const HARD_PUZZLES: [&str; 3] = [
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
    "300915004005007000000200030130000402500000006806000073010009000000600200400582001",
    "015070860706000409980000057300080001000000000000492000000506000604000708003000600",
];

/// Every `every`-th position along the rated solution of the classic 9x9
/// puzzle `line`, each before its step (the givens first).
pub(super) fn positions_along(line: &str, every: usize) -> Vec<grid::Grid> {
    let model = classic9();
    let givens = parse_line(line).expect("line").expect("puzzle").to_vec();
    let mut grid = grid::Grid::new(model.logic_layout(), &givens);
    let mut positions = Vec::new();
    for (i, step) in grade(&model, &givens, Options::default())
        .steps
        .iter()
        .enumerate()
    {
        if i % every == 0 {
            positions.push(grid.clone());
        }
        apply(&model, &mut grid, step);
    }
    positions
}

/// Runs `search` (a whole-grid search remembering where it found nothing,
/// as aligned exclusion and ALS-wings do) at every position along the rated
/// solutions of `lines`, once per size in `sizes`, with a memo kept along
/// each solve and without one, and checks both give the same step. Returns
/// how many steps were found and at how many positions without a
/// one-candidate cell (where a memo is read).
pub(super) fn memo_changes_no_result(
    lines: &[&str],
    sizes: &[usize],
    search: impl Fn(&Ctx, usize) -> Option<Step>,
) -> (usize, usize) {
    let model = classic9();
    let layout = model.logic_layout();
    let seen =
        |step: Option<Step>| step.map(|s| (s.technique, s.rating, s.eliminations, s.pattern));
    let (mut found, mut positions) = (0, 0);
    for line in lines {
        let memos: Vec<RefCell<memo::Memo>> = sizes.iter().map(|_| RefCell::default()).collect();
        for grid in positions_along(line, 1) {
            for (&size, memo) in sizes.iter().zip(&memos) {
                let plain = Ctx::ladder(layout, &grid);
                let remembering = Ctx {
                    memo: Some(memo),
                    ..Ctx::ladder(layout, &grid)
                };
                let want = seen(search(&plain, size));
                found += usize::from(want.is_some());
                assert_eq!(seen(search(&remembering, size)), want, "{line} size {size}");
            }
            positions += usize::from(grid.cand.iter().all(|&m| m.count_ones() != 1));
        }
    }
    (found, positions)
}
