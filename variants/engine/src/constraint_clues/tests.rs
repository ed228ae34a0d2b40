//! Constraint-clue generation: each kind alone, mixed kinds per tier, seeds, refusals, deadlines.

use super::*;
use crate::check::check_solution;
use crate::geometry::classic_builder;
use crate::seed::rng_for;

const EVERY_KIND: [ClueKind; 9] = [
    ClueKind::Thermometer,
    ClueKind::Arrow,
    ClueKind::Kropki,
    ClueKind::Xv,
    ClueKind::EvenOdd,
    ClueKind::LittleKiller,
    ClueKind::Sandwich,
    ClueKind::Renban,
    ClueKind::Whispers,
];

fn generate(kinds: &[ClueKind], seed: &str, difficulty: Difficulty, box_rows: u32) -> Generated {
    let base = classic_builder(box_rows, 3).expect("classic");
    generate_with_constraints(&base, kinds, &mut rng_for(seed), difficulty, None).expect("a puzzle")
}

/// The puzzle has one solution, the generated one, which keeps every
/// constraint; and every constraint is of a kind asked for.
fn assert_sound(g: &Generated, kinds: &[ClueKind]) {
    let count = g.puzzle.count(2);
    assert_eq!(count.solutions, 1, "{kinds:?}: not unique");
    assert_eq!(count.first.as_deref(), Some(&g.solution[..]));
    let model = g.puzzle.model();
    assert_eq!(check_solution(model, &g.solution), Ok(()));
    assert!(!model.constraints().is_empty(), "{kinds:?}: no constraint");
    for c in model.constraints() {
        let kind = match c {
            Constraint::Thermometer { .. } => ClueKind::Thermometer,
            Constraint::Arrow { .. } => ClueKind::Arrow,
            Constraint::Difference { .. } | Constraint::Ratio { .. } => ClueKind::Kropki,
            Constraint::Xv { .. } => ClueKind::Xv,
            Constraint::Even { .. } | Constraint::Odd { .. } => ClueKind::EvenOdd,
            Constraint::LittleKiller { .. } => ClueKind::LittleKiller,
            Constraint::Sandwich { .. } => ClueKind::Sandwich,
            Constraint::Renban { .. } => ClueKind::Renban,
            Constraint::Whispers { .. } => ClueKind::Whispers,
            other => panic!("unexpected {other:?}"),
        };
        assert!(kinds.contains(&kind), "{c:?} not of {kinds:?}");
    }
}

#[test]
fn every_kind_alone_gives_a_unique_puzzle_on_its_solution_9x9_and_6x6() {
    for box_rows in [3, 2] {
        for kind in EVERY_KIND {
            let g = generate(&[kind], "kinds", Difficulty::Easy, box_rows);
            assert_sound(&g, &[kind]);
        }
    }
}

#[test]
fn thermometers_arrows_and_dots_together_need_exactly_each_tier_with_few_givens() {
    let kinds = [ClueKind::Thermometer, ClueKind::Arrow, ClueKind::Kropki];
    for difficulty in [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Extreme,
    ] {
        let g = generate(&kinds, "mixed", difficulty, 3);
        assert_sound(&g, &kinds);
        let (model, givens) = (g.puzzle.model(), g.puzzle.givens());
        assert!(
            crate::logic::solves_within(model, givens, difficulty),
            "{difficulty:?}"
        );
        if let Some(easier) = difficulty.easier() {
            assert!(
                !crate::logic::solves_within(model, givens, easier),
                "{difficulty:?}"
            );
        }
        // With three kinds to choose from, the constraints carry it (a
        // given or two at most).
        assert!(
            givens.iter().filter(|&&v| v != 0).count() <= 2,
            "{difficulty:?}"
        );
    }
}

#[test]
fn one_seed_gives_one_puzzle() {
    let kinds = [ClueKind::Whispers, ClueKind::Xv];
    let a = generate(&kinds, "same", Difficulty::Medium, 3);
    let b = generate(&kinds, "same", Difficulty::Medium, 3);
    let c = generate(&kinds, "other", Difficulty::Medium, 3);
    assert_eq!(
        a.puzzle.model().constraints(),
        b.puzzle.model().constraints()
    );
    assert_eq!(a.puzzle.givens(), b.puzzle.givens());
    assert_ne!(a.solution, c.solution);
}

#[test]
fn a_layout_it_cannot_fill_or_no_kind_is_refused_not_a_panic() {
    let mut rng = rng_for("refused");
    let oblong = crate::ModelBuilder::new(4, 2, 4);
    let refused = generate_with_constraints(&oblong, &EVERY_KIND, &mut rng, Difficulty::Easy, None);
    assert_eq!(refused.err(), Some(GenerateError::NoSolution));
    let base = classic_builder(3, 3).expect("classic");
    let none = generate_with_constraints(&base, &[], &mut rng, Difficulty::Easy, None);
    assert_eq!(none.err(), Some(GenerateError::NoSolution));
}

#[test]
fn a_past_deadline_stops_the_run() {
    let base = classic_builder(3, 3).expect("classic");
    let past = Some(Instant::now());
    let stopped = generate_with_constraints(
        &base,
        &[ClueKind::Thermometer],
        &mut rng_for("late"),
        Difficulty::Easy,
        past,
    );
    assert_eq!(stopped.err(), Some(GenerateError::Deadline));
}
