//! Property tests of the engine: both solver paths agree, generation is
//! deterministic, and every generated puzzle is unique with a valid solution.

use engine::check::check_solution;
use engine::generate::{generate, generate_for_difficulty, Target};
use engine::geometry::classic;
use engine::seed::rng_for;
use engine::{Difficulty, Model, Puzzle, SolverPath};
use proptest::prelude::*;
use std::sync::Arc;

fn model(box_rows: u32, box_cols: u32) -> Arc<Model> {
    Arc::new(classic(box_rows, box_cols).expect("classic model"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Removing random clues from a generated 9x9 puzzle: the 9x9, bitboard and
    /// cell-by-cell paths count the same number of solutions (up to 3) and the same first
    /// solution when there is exactly one.
    #[test]
    fn nine_by_nine_paths_agree(seed in "[a-z0-9]{1,12}", drop in proptest::collection::vec(0usize..81, 0..12)) {
        let m = model(3, 3);
        let g = generate(&m, &mut rng_for(&seed), Target::Minimal).expect("generated");
        let mut givens = g.puzzle.givens().to_vec();
        for cell in drop {
            givens[cell] = 0;
        }
        let p = Puzzle::new(Arc::clone(&m), givens).expect("subset of a valid grid");
        let fast = p.count(3);
        prop_assert!(fast.solutions >= 1, "a subset of a solved grid keeps that solution");
        let first = p.first_solution().expect("a solution");
        prop_assert!(check_solution(&m, &first).is_ok(), "the first solution is one");
        prop_assert!(p.givens().iter().zip(&first).all(|(&g, &v)| g == 0 || g == v), "it keeps the givens");
        prop_assert_eq!(p.solution_count(3), fast.solutions, "counting alone agrees");
        for path in [SolverPath::Bitboard, SolverPath::Cells] {
            let other = p.count_on(path, 3);
            prop_assert_eq!(fast.solutions, other.solutions, "{:?}", path);
            prop_assert_eq!(p.solution_count_on(path, 3), fast.solutions, "{:?}", path);
            if fast.solutions == 1 {
                prop_assert_eq!(&fast.first, &other.first, "{:?}", path);
            }
        }
    }

    /// Same model, seed and difficulty: the same puzzle; and it is unique, its
    /// solution keeps every rule and agrees with the givens.
    #[test]
    fn generation_is_deterministic_and_unique(seed in ".{0,16}", shape in 0usize..3, level in 0usize..4) {
        let (r, c) = [(2, 2), (2, 3), (3, 3)][shape];
        let m = model(r, c);
        let d = Difficulty::ALL[level];
        let a = generate_for_difficulty(&m, &seed, d).expect("generated");
        let b = generate_for_difficulty(&m, &seed, d).expect("generated");
        prop_assert_eq!(a.puzzle.givens(), b.puzzle.givens());
        prop_assert_eq!(&a.solution, &b.solution);
        let count = a.puzzle.count(2);
        prop_assert!(count.is_unique());
        prop_assert_eq!(count.first.as_deref(), Some(&a.solution[..]));
        prop_assert!(check_solution(&m, &a.solution).is_ok());
        for (g, s) in a.puzzle.givens().iter().zip(&a.solution) {
            prop_assert!(*g == 0 || g == s);
        }
    }
}

#[test]
fn minimal_puzzles_need_every_clue() {
    for (r, c) in [(2, 2), (2, 3), (3, 3)] {
        let m = model(r, c);
        for i in 0..5 {
            let g = generate(&m, &mut rng_for(&format!("min-{i}")), Target::Minimal)
                .expect("generated");
            assert!(g.puzzle.count(2).is_unique());
            for cell in 0..m.cell_count() {
                let v = g.puzzle.givens()[cell];
                if v != 0 {
                    let mut fewer = g.puzzle.givens().to_vec();
                    fewer[cell] = 0;
                    let p = Puzzle::new(Arc::clone(&m), fewer).expect("valid");
                    assert_eq!(
                        p.count(2).solutions,
                        2,
                        "{r}x{c} seed {i}: clue {cell} is not needed"
                    );
                }
            }
        }
    }
}

#[test]
fn generated_9x9_puzzles_have_their_tier_inside_the_archive_band() {
    let m = model(3, 3);
    for d in Difficulty::ALL {
        let (lo, hi) = d.clue_band(81, 9);
        for i in 0..8 {
            let g = generate_for_difficulty(&m, &format!("band-{i}"), d).expect("generated");
            let n = g.puzzle.clue_count();
            assert!(
                (lo..=hi).contains(&n),
                "{d} seed {i}: {n} clues, band {lo}..={hi}"
            );
            assert_eq!(
                engine::logic::tier(&m, g.puzzle.givens()),
                Some(d),
                "{d} seed {i}: the tier is not the label"
            );
        }
    }
}

#[test]
fn sixteen_by_sixteen_generation_is_unique() {
    let m = model(4, 4);
    let g = generate_for_difficulty(&m, "2026-01-15", Difficulty::Medium).expect("generated");
    assert!(g.puzzle.count(2).is_unique());
    let (_, hi) = Difficulty::Medium.clue_band(256, 16);
    assert!(g.puzzle.clue_count() <= hi);
}

#[test]
fn propagation_narrows_and_detects_contradictions() {
    let m = model(2, 2);
    // Row 0 holds 1, 2, 3: the last cell can only be 4.
    let p = Puzzle::new(
        Arc::clone(&m),
        vec![1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    )
    .expect("valid");
    let cand = p.propagate().expect("consistent");
    assert_eq!(cand[3], 1 << 3);
    // Cell [1,0] sees 1 in its column/box and 2, 3 in its box and row: no value left.
    let dead = Puzzle::new(
        Arc::clone(&m),
        vec![1, 0, 0, 0, 0, 0, 2, 3, 0, 4, 0, 0, 0, 0, 0, 0],
    )
    .expect("no direct clash");
    assert!(dead.propagate().is_none());
    assert_eq!(dead.count(2).solutions, 0);
}

#[test]
fn killer_cages_solve_by_reasoning() {
    // A 4x4 killer with every cell caged and no givens: unique by the sums alone
    // (one-cell cages act as givens).
    let solution: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let mut b = engine::geometry::classic_builder(2, 2).expect("4x4");
    let cages: [&[u32]; 9] = [
        &[0],
        &[1],
        &[2, 3, 7],
        &[4, 8, 12],
        &[5],
        &[6],
        &[9, 10, 13],
        &[11],
        &[14, 15],
    ];
    for cells in cages {
        let sum = cells.iter().map(|&c| u32::from(solution[c as usize])).sum();
        b = b.cage(cells.iter().map(|&c| [c / 4, c % 4]).collect(), sum);
    }
    let m = Arc::new(b.build().expect("killer model"));
    let p = Puzzle::new(m, vec![0; 16]).expect("valid");
    for path in [SolverPath::Auto, SolverPath::Bitboard, SolverPath::Cells] {
        let c = p.count_on(path, 3);
        assert_eq!(c.first.as_deref(), Some(&solution[..]), "{path:?}");
        assert_eq!(c.solutions, 1, "{path:?}: the sums pin down one grid");
        assert_eq!(p.solution_count_on(path, 3), 1, "{path:?}: counting alone");
    }
}
