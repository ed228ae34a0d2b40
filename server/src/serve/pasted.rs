//! A puzzle players bring: pasted text read like a puzzle file (an 81-character
//! line, v1 or archive JSON, a killer's text form), checked for exactly one
//! solution, graded where that is quick, and named by the variant it belongs to.

use crate::input::{read_text, Form};
use engine::logic::{grade_without_nested_chains, Options};
use engine::v1::to_v1;
use engine::Model;
use protocol::{ParamValue, PuzzleGrade, PuzzleV1};

/// Branch points the uniqueness check of a pasted puzzle may explore (a hard
/// 9x9 needs a few hundred; the count to two stops at the second solution).
const CHECK_BUDGET: usize = 200_000;

/// The tier a graded puzzle beyond the grader's techniques is labelled with.
const HARDEST_TIER: &str = "extreme";

/// The largest puzzle graded before play: a 9x9 grades in milliseconds, but a
/// pasted Samurai can take seconds of a thread that anyone could ask for again
/// and again, so bigger ones play ungraded (under the difficulty chosen).
const GRADED_CELLS: usize = 81;

/// A pasted puzzle, checked: the puzzle with its solution (for the room) and the
/// variant, parameters and difficulty the room announces.
#[derive(Debug)]
pub struct Pasted {
    /// The puzzle, its solution included (never sent to players).
    pub puzzle: PuzzleV1,
    /// The variant it belongs to (`classic` unless it names another).
    pub variant: String,
    /// That variant's parameters.
    pub params: std::collections::BTreeMap<String, ParamValue>,
    /// Its tier by the logical solver, if graded.
    pub difficulty: Option<String>,
}

/// The grade of a unique puzzle, where that is quick (at most 81 cells of
/// up to 9 values): `None` for a bigger one, `Some(None)` for one beyond the
/// techniques graded here. Not nested chains: anyone may send the hardest
/// known puzzles again and again, and those take seconds each.
pub fn quick_grade(model: &Model, givens: &[u8]) -> Option<Option<PuzzleGrade>> {
    if model.cell_count() > GRADED_CELLS || model.size() > 9 {
        return None;
    }
    Some(grade_without_nested_chains(model, givens, Options { uniqueness: true }).puzzle_grade())
}

/// Reads and checks a pasted puzzle; `Err` says, for people, what is wrong.
pub fn read_pasted(text: &str) -> Result<Pasted, String> {
    let mut entries = read_text("pasted", text);
    if entries.len() != 1 {
        return Err(format!(
            "paste one puzzle (found {} in the text)",
            entries.len()
        ));
    }
    let entry = entries.remove(0);
    let loaded = entry
        .puzzle
        .map_err(|e| e.trim_start_matches("pasted: ").to_string())?;
    // Anyone can paste anything: one bounded count to two (keeping the solution
    // it finds), so a monster puzzle is refused rather than holding a thread.
    let model = loaded.puzzle.model();
    let count = loaded.puzzle.count_within(2, CHECK_BUDGET);
    let solution = match (count.solutions, count.gave_up, count.first) {
        (n, _, _) if n >= 2 => {
            return Err(
                "the puzzle has more than one solution; a fair game needs exactly one".into(),
            )
        }
        (_, true, _) => {
            return Err("the puzzle is too hard to check here (the search ran out)".into())
        }
        (1, false, Some(solution)) => solution,
        _ => return Err("the puzzle has no solution".into()),
    };
    let mut puzzle = to_v1(&loaded.puzzle, Some(&solution));
    if let Some(Form::Corpus(setter) | Form::FPuzzles(setter)) = &entry.form {
        setter.write_into_v1(&mut puzzle);
    }
    let (variant, params) = match &entry.form {
        Some(Form::V1(original)) => (
            original.variant.clone().unwrap_or_else(|| "classic".into()),
            original.params.clone(),
        ),
        Some(Form::Killer) => ("killer".to_string(), Default::default()),
        _ => ("classic".to_string(), Default::default()),
    };
    puzzle.variant = Some(variant.clone());
    puzzle.params = params.clone();
    let grade = quick_grade(model, loaded.puzzle.givens());
    // Beyond the techniques a pasted puzzle is graded with: at least the
    // hardest tier, never the tier the form happened to show.
    let difficulty = grade.as_ref().map(|g| {
        g.as_ref()
            .map_or(HARDEST_TIER, |g| g.tier.as_str())
            .to_string()
    });
    puzzle.grade = grade.flatten();
    puzzle.difficulty = difficulty.clone();
    Ok(Pasted {
        puzzle,
        variant,
        params,
        difficulty,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn a_pasted_line_is_a_classic_with_its_solution_and_grade() {
        let p = read_pasted(LINE).expect("a good puzzle");
        assert_eq!(p.variant, "classic");
        assert!(p.puzzle.solution.is_some());
        assert_eq!(p.puzzle.grid[0][0], 5);
        assert!(p.difficulty.is_some() && p.puzzle.grade.is_some());
    }

    #[test]
    fn a_pasted_fpuzzles_link_keeps_its_rules() {
        // 4x4: the first row's three open cells rise along a thermometer.
        let rows = [[0, 0, 0, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]];
        let grid: Vec<Vec<serde_json::Value>> = rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| match v {
                        0 => serde_json::json!({}),
                        v => serde_json::json!({"value": v, "given": true}),
                    })
                    .collect()
            })
            .collect();
        let puzzle = serde_json::json!({
            "size": 4,
            "grid": grid,
            "thermometer": [{"lines": [["R1C1", "R1C2", "R1C3"]]}],
        });
        let link = crate::fpuzzles::fpuzzles_link(&puzzle);
        let p = read_pasted(&link).expect("a good puzzle");
        assert_eq!(p.puzzle.constraints.len(), 1);
        let solution = p.puzzle.solution.expect("solved");
        assert_eq!(solution[0][..3], [1, 2, 3]);
    }

    #[test]
    fn a_puzzle_beyond_the_graders_techniques_is_labelled_the_hardest_tier() {
        // One of the hardest known (the forum's list): only nested forcing
        // chains, which a paste is not graded with, solve it.
        let hardest =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        let p = read_pasted(hardest).expect("a unique puzzle");
        assert_eq!(p.difficulty.as_deref(), Some(HARDEST_TIER));
        assert!(p.puzzle.grade.is_none(), "not graded with nested chains");
    }

    #[test]
    fn bad_pastes_say_what_is_wrong() {
        let several = format!("{}{}", ".".repeat(9), &LINE[9..]);
        assert!(read_pasted(&several)
            .expect_err("several")
            .contains("more than one solution"));
        let clash = format!("55{}", &LINE[2..]);
        assert!(read_pasted(&clash).is_err());
        assert!(read_pasted("hello").is_err());
        assert!(read_pasted(&format!("{LINE}\n{LINE}"))
            .expect_err("two")
            .contains("paste one puzzle"));
    }
}
