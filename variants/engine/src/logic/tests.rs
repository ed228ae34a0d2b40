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
