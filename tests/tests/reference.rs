//! Two ladders, one truth: along the whole solve path of real puzzles, each
//! accelerated finder (with the memo a solve keeps) gives what the plain
//! reference finder of its family gives (`engine::logic::differential`):
//! every step it returns is one its family's instances make, and where it
//! finds nothing, so does the reference. Classic puzzles from the SE-rated
//! file, dataset killers, and generated X, Windoku and Anti-Knight
//! puzzles (generalized intersections) of every tier.

use arena_tests::{classic9, killer_records, read_dataset};
use engine::generate::generate_for_difficulty;
use engine::geometry::{classic_builder, diagonals, knight_pairs, windoku_windows};
use engine::logic::{differential, Options};
use engine::{Difficulty, Model};
use std::sync::Arc;

/// Runs the differential over `puzzles` on `model`; panics listing every
/// disagreement. Returns (outcomes compared, steps among them).
fn agree(name: &str, model: &Model, puzzles: &[Vec<u8>], options: Options) -> (usize, usize) {
    let (mut compared, mut steps, mut wrong) = (0, 0, Vec::new());
    for (i, givens) in puzzles.iter().enumerate() {
        let run = differential(model, givens, options);
        compared += run.compared;
        steps += run.steps;
        wrong.extend(
            run.disagreements
                .into_iter()
                .map(|d| format!("{name} #{i}: {d}")),
        );
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    (compared, steps)
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
    let (compared, steps) = agree("se-rated", &model, &se_rated(15), unique);
    // Every family is met many times, and finds something often.
    println!("classic: {compared} compared, {steps} steps");
    assert!(
        compared > 20_000 && steps > 2_000,
        "{compared} compared, {steps} steps"
    );
}

#[test]
fn killer_finders_agree_with_their_references() {
    let (mut compared, mut steps, mut wrong) = (0, 0, Vec::new());
    for record in killer_records("killer/krazydad-intermediate.csv")
        .iter()
        .step_by(100)
    {
        let (model, givens) = (record.puzzle.model(), record.puzzle.givens());
        let run = differential(model, givens, Options::default());
        compared += run.compared;
        steps += run.steps;
        wrong.extend(
            run.disagreements
                .into_iter()
                .map(|d| format!("{}: {d}", record.title)),
        );
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    println!("killers: {compared} compared, {steps} steps");
    assert!(
        compared > 10_000 && steps > 2_000,
        "{compared} compared, {steps} steps"
    );
}

#[test]
fn variant_finders_agree_with_their_references() {
    let x = classic_builder(3, 3)
        .expect("classic")
        .houses(diagonals(9, [0, 0]));
    let windoku = classic_builder(3, 3)
        .expect("classic")
        .houses(windoku_windows());
    let anti_knight = knight_pairs()
        .into_iter()
        .fold(classic_builder(3, 3).expect("classic"), |b, [p, q]| {
            b.different(p, q)
        });
    let mut steps = 0;
    for (name, builder) in [("x", x), ("windoku", windoku), ("anti-knight", anti_knight)] {
        let model = Arc::new(builder.build().expect("variant model"));
        let puzzles: Vec<Vec<u8>> = [Difficulty::Medium, Difficulty::Hard, Difficulty::Extreme]
            .into_iter()
            .flat_map(|d| (0..4).map(move |i| (d, i)))
            .filter_map(|(d, i)| generate_for_difficulty(&model, &format!("reference-{i}"), d))
            .map(|g| g.puzzle.givens().to_vec())
            .collect();
        assert!(puzzles.len() >= 10, "{name}: {} generated", puzzles.len());
        let (compared, found) = agree(name, &model, &puzzles, Options::default());
        println!(
            "{name}: {} puzzles, {compared} compared, {found} steps",
            puzzles.len()
        );
        steps += found;
    }
    println!("variants: {steps} steps");
    assert!(steps > 300, "{steps} steps");
}
