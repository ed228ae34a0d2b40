//! The logical solver on real puzzles: every step it records is true (replaying
//! them from the givens never removes a solution candidate and reaches the
//! solution), the steps of a tier-capped solve (named techniques included) are
//! true, singles-only puzzles are `easy`, adding a correct clue never
//! raises a puzzle's tier, and a generator's tier fit agrees with the tier.

use arena_tests::{classic9, classic_grids, read_dataset};
use engine::generate::{tier_fit, FitRules, TierFit};
use engine::logic::{
    grade, grade_without_dynamic_chains, solve_within, tier, Options, Step, Technique,
};
use engine::{Difficulty, Puzzle, Solution};
use std::collections::BTreeSet;
use std::sync::Arc;

const OPTIONS: Options = Options { uniqueness: true };

fn solution_of(grid: &[u8]) -> Vec<u8> {
    match Puzzle::new(classic9(), grid.to_vec())
        .expect("puzzle")
        .solve()
    {
        Solution::Unique(s) => s,
        other => panic!("not unique: {other:?}"),
    }
}

/// The rated puzzles' grids.
fn rated() -> Vec<Vec<u8>> {
    rated_with_ratings().into_iter().map(|(g, _)| g).collect()
}

#[test]
fn every_recorded_step_is_true_and_the_steps_solve_the_puzzle() {
    let model = classic9();
    let mut puzzles: Vec<Vec<u8>> = rated().into_iter().step_by(25).collect();
    puzzles.extend(
        classic_grids("classic/17-clue.txt")
            .iter()
            .step_by(1000)
            .map(|g| g.to_vec()),
    );
    for givens in &puzzles {
        let solution = solution_of(givens);
        let g = grade(&model, givens, OPTIONS);
        assert!(g.solved, "not solved: {givens:?}");
        let values = replay(givens, &solution, &g.steps);
        assert_eq!(
            values, solution,
            "the recorded placements reach the solution"
        );
        assert!(g.tier.is_some() && g.rating > 0);
        // grade() resumes its tier solves after the rated steps; tier() solves
        // from the givens: the same tier.
        assert_eq!(g.tier, tier(&model, givens), "{givens:?}");
    }
}

/// Applies `steps` to `givens`, checking that no elimination removes the
/// solution's value and every placement is the solution's; the values reached.
fn replay(givens: &[u8], solution: &[u8], steps: &[Step]) -> Vec<u8> {
    let mut values = givens.to_vec();
    for step in steps {
        for e in &step.eliminations {
            assert_ne!(
                solution[e.cell as usize], e.value,
                "{:?} removes the solution",
                step.technique
            );
        }
        for p in &step.placements {
            assert_eq!(
                solution[p.cell as usize], p.value,
                "{:?} places a wrong value",
                step.technique
            );
            values[p.cell as usize] = p.value;
        }
    }
    values
}

#[test]
fn hard_capped_steps_are_true_and_use_the_named_techniques() {
    let model = classic9();
    let mut used = BTreeSet::new();
    for givens in rated().iter().step_by(7) {
        let solution = solution_of(givens);
        let (steps, _) = solve_within(&model, givens, Difficulty::Hard);
        replay(givens, &solution, &steps);
        used.extend(steps.iter().map(|s| s.technique));
    }
    for named in [
        Technique::FinnedXWing,
        Technique::FinnedSwordfish,
        Technique::WWing,
        Technique::MultiColours1,
    ] {
        assert!(used.contains(&named), "no {named:?} in {used:?}");
    }
}

#[test]
fn singles_only_puzzles_are_easy_and_rated_below_2_5() {
    let model = Arc::clone(&classic9());
    for line in read_dataset("rated/bucket-easy-dev.txt").lines().step_by(5) {
        let givens: Vec<u8> = line.bytes().take(81).map(|b| b - b'0').collect();
        let g = grade(&model, &givens, OPTIONS);
        assert_eq!(g.tier, Some(Difficulty::Easy), "{line}");
        assert!(g.rating < 25, "{line}: {}", g.rating);
    }
}

#[test]
fn adding_a_correct_clue_never_raises_the_tier() {
    let model = classic9();
    for givens in rated().into_iter().step_by(120) {
        let solution = solution_of(&givens);
        let before = tier(&model, &givens).expect("solvable");
        for cell in (0..81).filter(|&c| givens[c] == 0).step_by(9) {
            let mut more = givens.clone();
            more[cell] = solution[cell];
            let after = tier(&model, &more).expect("solvable");
            assert!(
                after <= before,
                "clue r{}c{} raised {before} to {after}",
                cell / 9 + 1,
                cell % 9 + 1
            );
        }
    }
}

#[test]
fn killer_steps_are_true_and_solve_nearly_every_intermediate_killer() {
    let records = arena_tests::killer_records("killer/krazydad-intermediate.csv");
    let sample: Vec<_> = records.iter().step_by(40).collect();
    let mut solved = 0;
    let mut tiers = std::collections::BTreeMap::new();
    for r in &sample {
        let model = r.puzzle.model();
        let g = grade(model, r.puzzle.givens(), Options { uniqueness: false });
        for step in &g.steps {
            for e in &step.eliminations {
                assert_ne!(
                    r.solution[e.cell as usize], e.value,
                    "{}: {:?} removes the solution",
                    r.title, step.technique
                );
            }
            for p in &step.placements {
                assert_eq!(
                    r.solution[p.cell as usize], p.value,
                    "{}: {:?} places a wrong value",
                    r.title, step.technique
                );
            }
        }
        solved += usize::from(g.solved);
        *tiers
            .entry(g.tier.map_or("beyond", |t| t.as_str()))
            .or_insert(0) += 1;
    }
    eprintln!(
        "killers solved logically: {solved}/{} {tiers:?}",
        sample.len()
    );
    assert!(
        solved * 100 >= sample.len() * 99,
        "only {solved} of {} solved",
        sample.len()
    );
}

/// Rated lines (`<id> <81 digits> <rating>`) with Sudoku Explainer's rating
/// in tenths.
fn rated_with_ratings() -> Vec<(Vec<u8>, u32)> {
    read_dataset("rated/se-rated-dev.txt")
        .lines()
        .filter_map(|l| {
            let mut fields = l.split_whitespace().skip(1);
            let grid = fields.next()?.bytes().map(|b| b - b'0').collect();
            let rating: f64 = fields.next()?.parse().ok()?;
            Some((grid, (rating * 10.0).round() as u32))
        })
        .collect()
}

#[test]
fn without_dynamic_chains_a_grade_is_the_same_or_unsolved() {
    let model = classic9();
    let puzzles = rated_with_ratings();
    // Sudoku Explainer rates dynamic forcing chains 8.5 and up; below, the same
    // grade; well above, the climb stops where only those chains go on.
    let easier = puzzles.iter().filter(|(_, r)| *r <= 80).step_by(40).take(8);
    for (givens, _) in easier {
        let full = grade(&model, givens, OPTIONS);
        let light = grade_without_dynamic_chains(&model, givens, OPTIONS);
        assert_eq!(light, full, "{givens:?}");
    }
    let (givens, _) = puzzles
        .iter()
        .find(|(g, r)| {
            *r >= 92 && grade(&model, g, OPTIONS).hardest == Some(Technique::DynamicForcingChain)
        })
        .expect("a puzzle that needs a dynamic forcing chain");
    let light = grade_without_dynamic_chains(&model, givens, OPTIONS);
    assert!(!light.solved && light.tier.is_none(), "{givens:?}");
}

#[test]
fn a_tier_fit_agrees_with_the_tier_and_drops_puzzles_with_several_solutions() {
    let model = classic9();
    // Hard and extreme puzzles (SE 4.0 and up): the fit's capped solves resume
    // after the easier tier's steps and take the first forcing chain they
    // find, where tier() solves from the givens; the same answer.
    let puzzles = rated_with_ratings();
    let hard: Vec<&Vec<u8>> = puzzles
        .iter()
        .filter(|(_, r)| *r >= 40)
        .step_by(60)
        .map(|(g, _)| g)
        .collect();
    for givens in hard {
        let t = tier(&model, givens).expect("solvable");
        for target in [Difficulty::Medium, Difficulty::Hard, Difficulty::Extreme] {
            let expected = match t.cmp(&target) {
                std::cmp::Ordering::Less => TierFit::TooEasy,
                std::cmp::Ordering::Equal => TierFit::Exact,
                std::cmp::Ordering::Greater => TierFit::TooHard,
            };
            for count_budget in [None, Some(1_000)] {
                let rules = FitRules {
                    count_budget,
                    dynamic_chains: true,
                };
                let fit = tier_fit(&model, givens, target, rules);
                assert_eq!(fit, expected, "{givens:?} {t} vs {target}, {rules:?}");
            }
        }
    }
    // Without two of its clues, a 17-clue puzzle has several solutions: too
    // hard for every tier, settled by the count before any chain is tried.
    let mut open = classic_grids("classic/17-clue.txt")[0].to_vec();
    let clues: Vec<usize> = (0..81).filter(|&c| open[c] != 0).take(2).collect();
    for c in clues {
        open[c] = 0;
    }
    let rules = FitRules {
        count_budget: Some(1_000),
        dynamic_chains: true,
    };
    for target in [Difficulty::Easy, Difficulty::Hard, Difficulty::Extreme] {
        assert_eq!(tier_fit(&model, &open, target, rules), TierFit::TooHard);
    }
    // Without dynamic forcing chains, a puzzle that needs them is too hard
    // for extreme; one that does not is still extreme.
    let rules = FitRules {
        count_budget: None,
        dynamic_chains: false,
    };
    // Sudoku Explainer rates dynamic forcing chains 8.5 and up.
    let needs = |dynamic: bool| {
        puzzles
            .iter()
            .filter(|(_, r)| {
                if dynamic {
                    *r >= 92
                } else {
                    (70..=75).contains(r)
                }
            })
            .map(|(g, _)| g)
            .find(|g| {
                tier(&model, g) == Some(Difficulty::Extreme)
                    && grade_without_dynamic_chains(&model, g, OPTIONS).solved != dynamic
            })
            .expect("such a puzzle")
    };
    let fit = |g: &Vec<u8>| tier_fit(&model, g, Difficulty::Extreme, rules);
    assert_eq!(fit(needs(true)), TierFit::TooHard);
    assert_eq!(fit(needs(false)), TierFit::Exact);
}

/// Two puzzles where this grader once parted from Sudoku Explainer: a direct
/// hidden pair made its eliminations (SE makes only the placement), and a
/// grouped strong link was missing (a chain stood in at 7.2). Both now rate
/// as SukakuExplainer does, through the technique it names.
#[test]
fn direct_techniques_place_only_and_grouped_links_rate_as_se() {
    let model = classic9();
    for (line, se, names) in [
        (
            "000900200000050076100002093010020000029070350000030060290500007540010000007008000",
            30,
            &["Naked Pair"][..],
        ),
        (
            "020705040500060208060200000200000904080000060405000007000001020801020009070508030",
            43,
            &[
                "Grouped Skyscraper",
                "Grouped 2-String Kite",
                "Grouped Turbot Fish",
            ][..],
        ),
    ] {
        let givens: Vec<u8> = line.bytes().map(|b| b - b'0').collect();
        let g = grade(&model, &givens, OPTIONS);
        assert!(g.solved, "{line}");
        assert_eq!(g.rating, se, "{line}: {:?}", g.hardest);
        let hardest = g.hardest.map(|t| t.name()).unwrap_or_default();
        assert!(names.contains(&hardest), "{line}: {hardest}");
    }
}

/// On variant rules — windows (and the hidden windows they imply), diagonals,
/// anti-knight pairs — every step of a grade is true and the grade solves:
/// an implied house's cells see each other (a value placed in one leaves the
/// others), and generalized intersections remove only what no solution has.
#[test]
fn variant_grades_are_true_with_implied_houses_and_generalized_intersections() {
    use engine::generate::generate_for_difficulty;
    let models = ["windoku", "windoku-x", "anti-knight"].map(arena_tests::variant9);
    let mut used = BTreeSet::new();
    for model in models {
        for (i, tier) in [Difficulty::Medium, Difficulty::Hard, Difficulty::Extreme]
            .into_iter()
            .enumerate()
        {
            for seed in 0..4 {
                let g = generate_for_difficulty(&model, &format!("variant-{i}-{seed}"), tier)
                    .expect("generated");
                let givens = g.puzzle.givens();
                let graded = grade(&model, givens, OPTIONS);
                assert!(graded.solved, "{tier} {seed}: the grade solves");
                let mut values = givens.to_vec();
                for step in &graded.steps {
                    for e in &step.eliminations {
                        assert_ne!(g.solution[e.cell as usize], e.value, "{:?}", step.technique);
                    }
                    for p in &step.placements {
                        assert_eq!(g.solution[p.cell as usize], p.value, "{:?}", step.technique);
                        values[p.cell as usize] = p.value;
                    }
                    used.insert(step.technique);
                }
                assert_eq!(values, g.solution);
            }
        }
    }
    assert!(
        used.contains(&Technique::GeneralizedIntersection),
        "{used:?}"
    );
}

/// One of the forum's hardest puzzles (Sudoku Explainer rates the file 9.x to
/// 11.x): beyond every chain but the nested ones, it is rated and explained to
/// the end, every step true.
#[test]
fn nested_forcing_chains_finish_the_hardest_puzzles() {
    let model = classic9();
    let grid = classic_grids("classic/forum-hardest-1106.txt")[0];
    let solution = solution_of(&grid);
    let g = grade(&model, &grid, OPTIONS);
    assert!(g.solved, "rated to the end");
    assert!(g.rating >= 95, "rating {}", g.rating);
    assert_eq!(g.hardest, Some(Technique::NestedForcingChain));
    assert_eq!(replay(&grid, &solution, &g.steps), solution);
}

/// A hint never runs a nested forcing chain (seconds of search for a step
/// nobody learns from): where nothing else applies — the start of one of the
/// hardest known puzzles — it reveals a cell of the solution instead.
#[test]
fn hints_reveal_a_cell_where_only_nested_chains_would_go_on() {
    let model = classic9();
    let grid = classic_grids("classic/forum-hardest-1106.txt")[3];
    let solution = solution_of(&grid);
    let first = grade(&model, &grid, OPTIONS).steps[0].technique;
    assert_eq!(
        first,
        Technique::NestedForcingChain,
        "only a nested chain starts it"
    );
    match engine::logic::hint(&model, &solution, &grid, None) {
        Some(engine::logic::Hint::Reveal { placement }) => {
            assert_eq!(solution[placement.cell as usize], placement.value);
        }
        other => panic!("expected a revealed cell, got {other:?}"),
    }
}
