//! Tests of the logical solver's entry points (`mod.rs`): every step true against
//! the solution, tiers and capped solves, shallower grades, broken grids, direct
//! steps, `find` and hints; and helpers the finders' own tests share.

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

/// Puzzles of every tier from the SE-rated file's range (easy to extreme).
const TIERED: [&str; 4] = [
    "001083000063000490040600012600104200900000007004502009430008050085000920000740600",
    "020705040500060208060200000200000904080000060405000007000001020801020009070508030",
    "000900200000050076100002093010020000029070350000030060290500007540010000007008000",
    HARD_PUZZLES[1],
];

fn givens(line: &str) -> Vec<u8> {
    parse_line(line).expect("line").expect("puzzle").to_vec()
}

/// `tier` is the lowest cap whose rungs solve the puzzle, and the grade's
/// tier is the same; `solve_within` solves at that cap and not below.
#[test]
fn the_tier_is_the_lowest_cap_that_solves() {
    let model = classic9();
    let tiers = [Easy, Medium, Hard, Extreme];
    let mut seen = Vec::new();
    for line in TIERED {
        let g = givens(line);
        let tier = tier(&model, &g).expect("solved");
        seen.push(tier);
        let at = tiers.iter().position(|&t| t == tier).expect("a tier");
        assert!(
            solve_within(&model, &g, tier).1,
            "{line} solves at {tier:?}"
        );
        if at > 0 {
            assert!(
                !solves_within(&model, &g, tiers[at - 1]),
                "{line} below {tier:?}"
            );
        }
        assert_eq!(
            grade(&model, &g, Options::default()).tier,
            Some(tier),
            "{line}"
        );
    }
    seen.dedup();
    assert!(seen.len() >= 3, "the puzzles span tiers: {seen:?}");
}

/// Going on where a capped solve stopped (skipping the rungs it exhausted)
/// decides what a fresh solve at the higher cap decides.
#[test]
fn solving_on_after_a_capped_solve_agrees_with_a_fresh_one() {
    let model = classic9();
    for line in TIERED.iter().chain(&HARD_PUZZLES) {
        let g = givens(line);
        for (below, cap) in [(Easy, Medium), (Medium, Hard), (Hard, Extreme)] {
            let stopped = stop_within(&model, &g, below);
            assert_eq!(stopped.solved, solves_within(&model, &g, below), "{line}");
            assert_eq!(
                solves_after(&model, &g, Some(&stopped), cap, true),
                solves_within(&model, &g, cap),
                "{line}: {below:?} then {cap:?}"
            );
        }
    }
}

/// The grades without nested or dynamic chains are the full grade wherever
/// they solve, and unsolved (never wrong) where only those chains go on.
#[test]
fn shallower_grades_are_the_full_grade_or_unsolved() {
    let model = classic9();
    for line in TIERED.iter().chain(&HARD_PUZZLES) {
        let g = givens(line);
        let full = grade(&model, &g, Options::default());
        for shallow in [
            grade_without_nested_chains(&model, &g, Options::default()),
            grade_without_dynamic_chains(&model, &g, Options::default()),
        ] {
            if shallow.solved {
                assert_eq!(shallow, full, "{line}");
            } else {
                assert_eq!(shallow.tier, None, "{line}");
                assert!(full.steps.starts_with(&shallow.steps), "{line}");
            }
        }
    }
}

/// A grade or tier check with a deadline answers what the unbounded one
/// does while there is time, and nothing (never a wrong tier) once it has
/// passed: the hardest puzzles' searches are cut short between rungs.
#[test]
fn a_deadline_cuts_a_solve_short_without_a_wrong_answer() {
    let model = classic9();
    let later = Some(std::time::Instant::now() + std::time::Duration::from_secs(600));
    let passed = Some(std::time::Instant::now());
    for line in TIERED.iter().chain(&HARD_PUZZLES) {
        let g = givens(line);
        let options = Options { uniqueness: true };
        assert_eq!(
            grade_until(&model, &g, options, Chains::Dynamic, later),
            Some(grade_without_nested_chains(&model, &g, options)),
            "{line}"
        );
        assert_eq!(
            grade_until(&model, &g, options, Chains::Dynamic, passed),
            None
        );
        for cap in [Easy, Hard, Extreme] {
            assert_eq!(
                solves_within_until(&model, &g, cap, later),
                Some(solves_within(&model, &g, cap)),
                "{line} {cap:?}"
            );
            assert_eq!(solves_within_until(&model, &g, cap, passed), None);
        }
    }
}

/// A grid with two equal givens in a row stops at once: no steps, unsolved.
#[test]
fn a_broken_grid_gives_no_steps() {
    let model = classic9();
    let mut g = givens(TIERED[0]);
    let first_empty = g.iter().position(|&v| v == 0).expect("an empty cell");
    let row = first_empty / 9;
    let taken = (row * 9..row * 9 + 9).find_map(|c| (g[c] != 0).then_some(g[c]));
    g[first_empty] = taken.expect("a given in the row");
    let result = grade(&model, &g, Options::default());
    assert!(!result.solved && result.steps.is_empty() && result.tier.is_none());
    assert_eq!(tier(&model, &g), None);
    // Givens of the wrong length, or past the model's values: nothing, no panic.
    for wrong in [g[..80].to_vec(), vec![10; 81]] {
        let result = grade(&model, &wrong, Options::default());
        assert!(!result.solved && result.steps.is_empty(), "{wrong:?}");
    }
}

/// A direct hidden pair places its single and removes nothing: the grid
/// after it differs from before only by that placement and its peers.
#[test]
fn direct_techniques_only_place() {
    let model = classic9();
    let layout = model.logic_layout();
    let g = givens(TIERED[2]);
    let result = grade(&model, &g, Options::default());
    let mut grid = Grid::new(layout, &g);
    let mut checked = 0;
    for step in &result.steps {
        if step.technique.places_only() && !step.eliminations.is_empty() {
            let mut expected = grid.clone();
            for p in &step.placements {
                expected.place(layout, p.cell, p.value);
            }
            apply(&model, &mut grid, step);
            assert_eq!(grid.cand, expected.cand, "{step:?}");
            checked += 1;
        } else {
            apply(&model, &mut grid, step);
        }
    }
    assert!(checked > 0, "a direct step with eliminations on the way");
}

/// `find` gives only the asked technique, every instance it meets, the
/// ladder's own step among them.
#[test]
fn find_gives_every_instance_of_the_technique() {
    let model = classic9();
    let layout = model.logic_layout();
    let g = givens(TIERED[3]);
    let result = grade(&model, &g, Options::default());
    let mut grid = Grid::new(layout, &g);
    let mut found = 0;
    for step in &result.steps {
        let all = find(&model, &grid.values, &grid.cand, step.technique);
        assert!(all.iter().all(|s| s.technique == step.technique));
        if !step.technique.places_only() && step.technique.tier() > Easy {
            let same = |s: &Step| s.eliminations == step.eliminations;
            assert!(all.iter().any(same), "{step:?} not among {}", all.len());
            found += all.len();
        }
        apply(&model, &mut grid, step);
    }
    assert!(found > 10, "{found}");
}

/// Hints: a wrong digit first, then pencil marks missing the solution's
/// value, then the easiest step; nothing on a solved board.
#[test]
fn hints_come_in_order() {
    let model = classic9();
    let g = givens(TIERED[0]);
    let solution = match Puzzle::new(model.clone(), g.clone())
        .expect("puzzle")
        .solve()
    {
        crate::Solution::Unique(s) => s,
        other => panic!("{other:?}"),
    };
    let empty = g.iter().position(|&v| v == 0).expect("empty") as u32;
    let mut wrong = g.clone();
    wrong[empty as usize] = solution[empty as usize] % 9 + 1;
    assert_eq!(
        hint(&model, &solution, &wrong, None),
        Some(Hint::WrongValue { cell: empty })
    );
    let mut marks = vec![0u32; g.len()];
    marks[empty as usize] = !(1 << (solution[empty as usize] - 1)) & 0x1FF;
    assert_eq!(
        hint(&model, &solution, &g, Some(&marks)),
        Some(Hint::WrongMarks { cell: empty })
    );
    match hint(&model, &solution, &g, None) {
        Some(Hint::Step(step)) => assert_eq!(step.technique.tier(), Easy, "{step:?}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(hint(&model, &solution, &solution, None), None);
}

/// A renban over r1c1-r1c5 on an empty grid: every run of five digits holds
/// 5, so line pointing takes 5 from the row's other four cells (and from no
/// cell of the first box, which sees only three of the line's cells), in the
/// line's own words.
#[test]
fn line_pointing_takes_a_renbans_required_digit_from_cells_seeing_all_its_places() {
    let model = crate::geometry::classic_builder(3, 3)
        .expect("9x9")
        .constraint(protocol::Constraint::Renban {
            cells: (0..5).map(|c| [0, c]).collect(),
        })
        .build()
        .expect("valid");
    let steps = find(&model, &[0; 81], &[0x1ff; 81], Technique::LinePointing);
    let five: Vec<&Step> = steps
        .iter()
        .filter(|s| s.eliminations.iter().all(|e| e.value == 5))
        .collect();
    let [step] = five.as_slice() else {
        panic!("one step for 5: {steps:?}");
    };
    let cells: Vec<u32> = step.eliminations.iter().map(|e| e.cell).collect();
    assert_eq!(cells, [5, 6, 7, 8]);
    assert_eq!(
        explain::explain(&model, step),
        "Line Pointing: every run of digits the renban line r1c1-r1c5 can still hold has 5 in it, \
         and only r1c1, r1c2, r1c3, r1c4 and r1c5 may hold it there. So remove 5 from r1c6, r1c7, \
         r1c8 and r1c9."
    );
}
