//! The puzzle setter and the step-through solver, server side: a variant's
//! empty template, a draft built on it, its count (none, one, several — where
//! two solutions differ) and grade, and a logical solution to step through.
//! Everything here runs off the async threads, bounded by a node budget.

use super::pasted::quick_grade;
use engine::logic::format_rating;
use engine::logic::walkthrough::walkthrough;
use protocol::setter::{Analysis, AnalysisStep, PuzzleCheck, SetterDraft};
use protocol::{Constraint, House, HouseKind, PuzzleV1, PUZZLE_FORMAT_V2};

/// Branch points a draft's count may explore (as a pasted puzzle's check).
const COUNT_BUDGET: usize = 200_000;

/// Branch points spent looking for a second solution to show where two differ.
const OTHER_BUDGET: usize = 200_000;

/// Whether a constraint is one of a variant's rules (a global rule such as
/// anti-knight) rather than a clue placed per puzzle (a thermometer).
fn is_rule(c: &Constraint) -> bool {
    matches!(
        c,
        Constraint::NonConsecutive
            | Constraint::AntiKing
            | Constraint::AntiKnight
            | Constraint::DisjointGroups
            | Constraint::Negative { .. }
    )
}

/// A variant's empty puzzle from one of its generated puzzles: the layout,
/// houses, different-pairs and global rules stay; givens, cages, clue
/// constraints, the solution and every label go.
pub fn template_of(mut puzzle: PuzzleV1) -> PuzzleV1 {
    for row in &mut puzzle.grid {
        row.iter_mut().for_each(|v| *v = 0);
    }
    puzzle.constraints.retain(is_rule);
    puzzle.cages.clear();
    puzzle.drawings.clear();
    puzzle.decorations.clear();
    puzzle.rule_notes.clear();
    puzzle.solution = None;
    puzzle.grade = None;
    puzzle.clue_count = None;
    puzzle.difficulty = None;
    puzzle.seed = None;
    puzzle.date = None;
    puzzle.title = None;
    puzzle.author = None;
    puzzle.rules = None;
    engine::drawing::fill_in(&mut puzzle);
    puzzle
}

/// The puzzle a draft makes on its variant's `template`; `Err` names what is
/// wrong (a grid of the wrong shape, a region of the wrong size). Rules of
/// the draft's constraints are checked when the puzzle is read.
pub fn build(template: &PuzzleV1, draft: &SetterDraft) -> Result<PuzzleV1, String> {
    let (rows, cols) = (template.layout.rows as usize, template.layout.cols as usize);
    let shaped = |grid: &[Vec<u32>]| grid.len() == rows && grid.iter().all(|r| r.len() == cols);
    if !shaped(&draft.grid) {
        return Err(format!("the grid must be {rows} rows of {cols} cells"));
    }
    let mut puzzle = template.clone();
    puzzle.grid = draft.grid.clone();
    puzzle.cages = draft.cages.clone();
    if !draft.regions.is_empty() {
        if !shaped(&draft.regions) {
            return Err(format!("the regions must be {rows} rows of {cols} cells"));
        }
        let regions = regions_of(&draft.regions, template.size)?;
        puzzle.houses.retain(|h| h.kind != HouseKind::Region);
        puzzle.houses.extend(regions);
    }
    puzzle.constraints.extend(draft.constraints.iter().cloned());
    if !puzzle.constraints.is_empty() {
        puzzle.format = PUZZLE_FORMAT_V2.to_string();
    }
    engine::drawing::fill_in(&mut puzzle);
    Ok(puzzle)
}

/// Jigsaw regions from region numbers per cell: each number's cells, which
/// must be `size` of them.
fn regions_of(numbers: &[Vec<u32>], size: u32) -> Result<Vec<House>, String> {
    let mut regions: std::collections::BTreeMap<u32, Vec<[u32; 2]>> = Default::default();
    for (r, row) in numbers.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            if n != 0 {
                regions.entry(n).or_default().push([r as u32, c as u32]);
            }
        }
    }
    if let Some((n, cells)) = regions
        .iter()
        .find(|(_, cells)| cells.len() != size as usize)
    {
        return Err(format!(
            "region {n} has {} cells; every region needs {size}",
            cells.len()
        ));
    }
    Ok(regions
        .into_values()
        .map(|cells| House {
            kind: HouseKind::Region,
            cells,
        })
        .collect())
}

/// The verdict on a built draft: its solutions (up to two, and where two
/// differ), its grade once unique, the puzzle to draw (no solution), or the
/// problem that keeps it from being read.
pub fn check(mut puzzle: PuzzleV1) -> PuzzleCheck {
    let mut verdict = PuzzleCheck {
        solutions: 0,
        gave_up: false,
        differing: Vec::new(),
        grade: None,
        puzzle: None,
        problem: None,
    };
    let loaded = match engine::v1::from_v1(&puzzle) {
        Ok(loaded) => loaded,
        Err(e) => {
            verdict.problem = Some(e.to_string());
            return verdict;
        }
    };
    puzzle.solution = None;
    verdict.puzzle = Some(puzzle);
    let p = &loaded.puzzle;
    let count = p.count_within(2, COUNT_BUDGET);
    verdict.solutions = count.solutions as u32;
    verdict.gave_up = count.gave_up;
    match (count.solutions, count.first) {
        (1, _) if !count.gave_up => {
            verdict.grade = quick_grade(p.model(), p.givens()).flatten();
        }
        (n, Some(first)) if n >= 2 => {
            if let Some(other) = p.other_solution(&first, OTHER_BUDGET) {
                verdict.differing = (0..first.len())
                    .filter(|&i| first[i] != other[i])
                    .map(|i| p.model().coord(i))
                    .collect();
            }
        }
        _ => {}
    }
    verdict
}

/// A logical solution of a draft to step through; `Err` when it cannot be
/// read or has not exactly one solution (a walkthrough of an ambiguous
/// puzzle would have to guess).
pub fn analyse_draft(puzzle: &PuzzleV1) -> Result<Analysis, String> {
    let loaded = engine::v1::from_v1(puzzle).map_err(|e| e.to_string())?;
    let p = &loaded.puzzle;
    let count = p.count_within(2, COUNT_BUDGET);
    if count.gave_up || count.solutions != 1 {
        return Err(match count.solutions {
            _ if count.gave_up => "the puzzle is too hard to count here".to_string(),
            0 => "the puzzle has no solution".to_string(),
            _ => "the puzzle has more than one solution; set more clues first".to_string(),
        });
    }
    Ok(analysis_of(p))
}

/// A logical solution of a room's puzzle (unique: no count again).
pub fn analyse_room(puzzle: &engine::Puzzle) -> Analysis {
    analysis_of(puzzle)
}

/// The walkthrough of a unique puzzle, as the protocol carries it.
fn analysis_of(p: &engine::Puzzle) -> Analysis {
    let w = walkthrough(p.model(), p.givens(), true);
    let steps = w
        .steps
        .into_iter()
        .map(|s| {
            let (cage, cage_sum) = s.cage.unwrap_or_default();
            AnalysisStep {
                technique: s.technique,
                rating: format_rating(s.rating),
                explanation: s.explanation,
                cells: s.cells,
                pattern: s.pattern,
                placements: s.placements,
                eliminations: s.eliminations,
                cage,
                cage_sum,
                after: s.after,
            }
        })
        .collect();
    Analysis {
        start: w.start,
        steps,
        solved: w.solved,
        grade: w.grade.puzzle_grade(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 classic template: rows, columns and 2x2 boxes.
    fn template4() -> PuzzleV1 {
        let model = engine::geometry::classic(2, 2).expect("4x4");
        let puzzle = engine::Puzzle::new(std::sync::Arc::new(model), vec![0; 16]).expect("4x4");
        template_of(engine::v1::to_v1(&puzzle, None))
    }

    fn draft(grid: [[u32; 4]; 4]) -> SetterDraft {
        SetterDraft {
            variant: "classic".into(),
            grid: grid.iter().map(|r| r.to_vec()).collect(),
            ..SetterDraft::default()
        }
    }

    #[test]
    fn an_empty_draft_has_several_solutions_and_shows_where_they_differ() {
        let t = template4();
        assert!(t.grid.iter().flatten().all(|&v| v == 0));
        let verdict = check(build(&t, &draft([[0; 4]; 4])).expect("built"));
        assert_eq!(verdict.solutions, 2);
        assert!(!verdict.differing.is_empty());
        assert!(verdict.grade.is_none() && verdict.problem.is_none());
    }

    #[test]
    fn a_unique_draft_is_graded_and_analysed_to_its_end() {
        let grid = [[0, 2, 0, 0], [3, 0, 0, 0], [0, 0, 0, 3], [4, 0, 0, 1]];
        let built = build(&template4(), &draft(grid)).expect("built");
        let verdict = check(built.clone());
        assert_eq!((verdict.solutions, verdict.gave_up), (1, false));
        assert!(verdict.grade.is_some(), "{verdict:?}");
        let analysis = analyse_draft(&built).expect("analysed");
        assert!(analysis.solved && !analysis.steps.is_empty());
    }

    #[test]
    fn a_draft_of_the_wrong_shape_or_with_bad_regions_is_refused_by_name() {
        let t = template4();
        let mut d = draft([[0; 4]; 4]);
        d.grid.pop();
        assert!(build(&t, &d).expect_err("refused").contains("4 rows of 4"));
        let mut d = draft([[0; 4]; 4]);
        d.regions = vec![vec![1, 1, 1, 2]; 4];
        let e = build(&t, &d).expect_err("refused");
        assert!(e.contains("region 1 has 12 cells"), "{e}");
        let mut d = draft([[5, 0, 0, 0], [0; 4], [0; 4], [0; 4]]);
        d.constraints.clear();
        let verdict = check(build(&t, &d).expect("built"));
        assert!(verdict.problem.is_some(), "a 5 in a 4x4 is named");
    }
}
