//! The engine on real puzzles nobody here wrote (`../shared/datasets/`): samples in
//! the test suite, the full files in the benchmark.

use arena_tests::{classic9, classic_grids, killer_records};
use engine::check::check_solution;
use engine::{Puzzle, SolverPath};
use std::sync::Arc;

/// Every `step`-th grid of a classic file.
fn sample(file: &str, step: usize) -> Vec<[u8; 81]> {
    classic_grids(file).into_iter().step_by(step).collect()
}

fn unique_on_every_path(file: &str, step: usize) {
    let model = classic9();
    let grids = sample(file, step);
    assert!(
        grids.len() > 300,
        "{file}: sample too small ({})",
        grids.len()
    );
    for (i, g) in grids.iter().enumerate() {
        let p = Puzzle::new(Arc::clone(&model), g.to_vec()).expect("dataset puzzle");
        let fast = p.count(2);
        assert!(
            fast.is_unique(),
            "{file} sample {i}: 9x9 path counted {fast}"
        );
        for path in [SolverPath::Bitboard, SolverPath::Cells] {
            let other = p.count_on(path, 2);
            assert!(
                other.is_unique(),
                "{file} sample {i}: {path:?} counted {other}"
            );
            assert_eq!(
                fast.first, other.first,
                "{file} sample {i}: {path:?} disagrees"
            );
        }
        let s = fast.first.expect("solution");
        check_solution(&model, &s).expect("a valid grid");
        assert!(g.iter().zip(&s).all(|(g, s)| *g == 0 || g == s));
    }
}

#[test]
fn seventeen_clue_sample_is_unique() {
    unique_on_every_path("classic/17-clue.txt", 97);
}

#[test]
fn hardest_sample_is_unique() {
    unique_on_every_path("classic/forum-hardest-11plus.txt", 151);
}

#[test]
fn hardest_1106_all_unique() {
    unique_on_every_path("classic/forum-hardest-1106.txt", 1);
}

#[test]
fn seventeen_clue_puzzles_are_minimal_and_break_on_a_wrong_given() {
    let model = classic9();
    for g in sample("classic/17-clue.txt", 4999) {
        let p = Puzzle::new(Arc::clone(&model), g.to_vec()).expect("dataset puzzle");
        let solution = p.count(2).first.expect("solution");
        let solution = &solution;
        for cell in (0..81).filter(|&c| g[c] != 0) {
            let mut fewer = g;
            fewer[cell] = 0;
            let q = Puzzle::new(Arc::clone(&model), fewer.to_vec()).expect("subset");
            assert_eq!(q.count(2).to_string(), "2+", "removing clue {cell}");
            for path in [SolverPath::Bitboard, SolverPath::Cells] {
                assert_eq!(
                    q.count_on(path, 2).to_string(),
                    "2+",
                    "{path:?}, removing clue {cell}"
                );
            }
        }
        // A wrong value in an empty cell that clashes with no given: no solution.
        let (cell, wrong) = (0..81)
            .filter(|&c| g[c] == 0)
            .flat_map(|c| {
                (1..=9u8)
                    .filter(move |&v| v != solution[c])
                    .map(move |v| (c, v))
            })
            .find_map(|(c, v)| {
                let mut more = g;
                more[c] = v;
                Puzzle::new(Arc::clone(&model), more.to_vec())
                    .ok()
                    .map(|_| (c, v))
            })
            .expect("some wrong value passes the structural check");
        let mut more = g;
        more[cell] = wrong;
        let q = Puzzle::new(Arc::clone(&model), more.to_vec()).expect("no direct clash");
        assert_eq!(q.count(2).to_string(), "0");
        for path in [SolverPath::Bitboard, SolverPath::Cells] {
            assert_eq!(q.count_on(path, 2).to_string(), "0", "{path:?}");
        }
    }
}

#[test]
fn killer_sample_is_unique_and_matches_the_shipped_solutions() {
    let records = killer_records("killer/krazydad-intermediate.csv");
    assert_eq!(records.len(), 8000);
    for r in records.iter().step_by(16) {
        for path in [SolverPath::Auto, SolverPath::Cells] {
            let c = r.puzzle.count_on(path, 2);
            assert!(c.is_unique(), "{} ({path:?}): counted {c}", r.title);
            assert_eq!(
                c.first.as_deref(),
                Some(&r.solution[..]),
                "{} ({path:?})",
                r.title
            );
        }
    }
}
