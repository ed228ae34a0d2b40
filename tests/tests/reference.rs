//! Two ladders, one truth: along the whole solve path of real puzzles, each
//! accelerated finder (with the memo a solve keeps) gives what the plain
//! reference finder of its family gives (`engine::logic::differential`):
//! every step it returns is one its family's instances make, and where it
//! finds nothing, so does the reference. Classic puzzles from the SE-rated
//! file, dataset killers, and generated X, Windoku and Anti-Knight
//! puzzles (generalized intersections) of every tier.

use arena_tests::{classic9, killer_records, read_dataset, variant9};
use engine::generate::generate_for_difficulty;
use engine::logic::{differential, Options, Technique};
use engine::{Difficulty, Model};
use std::collections::BTreeMap;

/// What the differential runs over a set of puzzles compared.
#[derive(Default)]
struct Agreement {
    /// Rung outcomes compared with their reference.
    compared: usize,
    /// Steps among them, in all and by technique.
    steps: usize,
    techniques: BTreeMap<Technique, usize>,
}

impl Agreement {
    /// Panics unless some checked step of each of `techniques` was met.
    fn met_each(&self, techniques: &[Technique]) {
        let missing: Vec<_> = techniques
            .iter()
            .filter(|t| !self.techniques.contains_key(t))
            .collect();
        assert!(
            missing.is_empty(),
            "no checked step of {missing:?}; met {:?}",
            self.techniques
        );
    }
}

/// Runs the differential over each labelled puzzle (its model and givens);
/// panics listing every disagreement.
fn agree<'p>(
    puzzles: impl IntoIterator<Item = (String, &'p Model, &'p [u8])>,
    options: Options,
) -> Agreement {
    let (mut out, mut wrong) = (Agreement::default(), Vec::new());
    for (label, model, givens) in puzzles {
        let run = differential(model, givens, options);
        out.compared += run.compared;
        out.steps += run.steps;
        for (technique, count) in run.techniques {
            *out.techniques.entry(technique).or_default() += count;
        }
        wrong.extend(
            run.disagreements
                .into_iter()
                .map(|d| format!("{label}: {d}")),
        );
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    out
}

/// Every `step`-th puzzle of the SE-rated file (`id grid rating` lines).
fn se_rated(step: usize) -> Vec<Vec<u8>> {
    read_dataset("rated/se-rated-dev.txt")
        .lines()
        .step_by(step)
        .filter_map(|line| line.split_whitespace().nth(1))
        .map(|grid| grid.bytes().map(|b| b.saturating_sub(b'0')).collect())
        .collect()
}

#[test]
fn classic_finders_agree_with_their_references() {
    let model = classic9();
    let unique = Options { uniqueness: true };
    let puzzles = se_rated(15);
    let labelled = puzzles
        .iter()
        .enumerate()
        .map(|(i, g)| (format!("se-rated #{i}"), &*model, g.as_slice()));
    let seen = agree(labelled, unique);
    // Every family is met many times, and finds something often.
    let (compared, steps) = (seen.compared, seen.steps);
    println!("classic: {compared} compared, {steps} steps");
    assert!(
        compared > 20_000 && steps > 2_000,
        "{compared} compared, {steps} steps"
    );
    seen.met_each(&[
        Technique::UniqueRectangle,
        Technique::UniqueLoop,
        Technique::BugPlusOne,
        Technique::BugType3,
        Technique::AlignedTripleExclusion,
        Technique::ForcingChain,
        Technique::XyCycle,
        Technique::AicLoop,
        Technique::MultipleForcingChain,
    ]);
}

#[test]
fn killer_finders_agree_with_their_references() {
    let killers = killer_records("killer/krazydad-intermediate.csv");
    let labelled = killers.iter().step_by(100).map(|k| {
        let (model, givens) = (k.puzzle.model(), k.puzzle.givens());
        (k.title.clone(), model, givens)
    });
    let seen = agree(labelled, Options::default());
    let (compared, steps) = (seen.compared, seen.steps);
    println!("killers: {compared} compared, {steps} steps");
    assert!(
        compared > 10_000 && steps > 2_000,
        "{compared} compared, {steps} steps"
    );
    seen.met_each(&[Technique::Rule45, Technique::Rule45Lines]);
}

#[test]
fn variant_finders_agree_with_their_references() {
    let mut steps = 0;
    for name in ["x-sudoku", "windoku", "anti-knight"] {
        let model = variant9(name);
        let puzzles: Vec<Vec<u8>> = [Difficulty::Medium, Difficulty::Hard, Difficulty::Extreme]
            .into_iter()
            .flat_map(|d| (0..4).map(move |i| (d, i)))
            .filter_map(|(d, i)| generate_for_difficulty(&model, &format!("reference-{i}"), d))
            .map(|g| g.puzzle.givens().to_vec())
            .collect();
        assert!(puzzles.len() >= 10, "{name}: {} generated", puzzles.len());
        let labelled = puzzles
            .iter()
            .enumerate()
            .map(|(i, g)| (format!("{name} #{i}"), &*model, g.as_slice()));
        let seen = agree(labelled, Options::default());
        let (compared, found) = (seen.compared, seen.steps);
        println!(
            "{name}: {} puzzles, {compared} compared, {found} steps",
            puzzles.len()
        );
        steps += found;
    }
    println!("variants: {steps} steps");
    assert!(steps > 300, "{steps} steps");
}
