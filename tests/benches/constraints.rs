//! Counting the variant corpus (`../shared/datasets/variants/`) by constraint
//! kind: each puzzle is counted to 2 (a uniqueness check, as the server makes
//! one) `--runs` times (default 20), interleaved across puzzles so the
//! machine's drift falls on all alike; per kind (a puzzle counts for every
//! kind it uses), the median puzzles a second and the slowest puzzle's
//! median. A count that passes `--nodes` branch points (default 20,000) is
//! reported as given up, not timed.
//!
//! Then generated puzzles (`engine::constraint_clues`): `--generated N`
//! (default 20) 9x9 medium puzzles whose clues are thermometers, arrows and
//! Kropki dots together, each generated once (its time noted) and counted to
//! 2 `--runs` times interleaved: the median count, the slowest puzzle's
//! median count, and the median generation time.
//!
//! Run: `cargo bench -p arena-tests --bench constraints [-- --runs N --nodes N --generated N]`.

use engine::constraint_clues::{generate_with_constraints, ClueKind};
use engine::corpus::from_corpus;
use engine::geometry::classic_builder;
use engine::seed::rng_for;
use engine::v1::from_v1;
use engine::Difficulty;
use protocol::corpus::CorpusPuzzle;
use std::collections::BTreeMap;
use std::time::Instant;

/// The number after `flag`, or `default`.
fn arg(flag: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2)
        .find(|w| w[0] == flag)
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(default)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let (runs, nodes) = (arg("--runs", 20), arg("--nodes", 20_000));
    let puzzles: Vec<(CorpusPuzzle, engine::Puzzle)> = arena_tests::variant_corpus()
        .into_iter()
        .map(|p| {
            let loaded = from_v1(&from_corpus(&p).expect("reads")).expect("loads");
            (p, loaded.puzzle)
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); puzzles.len()];
    let mut gave_up = vec![false; puzzles.len()];
    for _ in 0..runs {
        for (i, (_, puzzle)) in puzzles.iter().enumerate() {
            if gave_up[i] {
                continue;
            }
            let start = Instant::now();
            let count = puzzle.count_within(2, nodes);
            let seconds = start.elapsed().as_secs_f64();
            if count.gave_up {
                gave_up[i] = true;
            } else {
                times[i].push(seconds);
            }
        }
    }
    // Each puzzle's median time, under every kind it uses.
    let mut by_kind: BTreeMap<String, (Vec<f64>, usize)> = BTreeMap::new();
    for (i, (p, _)) in puzzles.iter().enumerate() {
        let kinds = p
            .tags
            .iter()
            .filter(|t| !t.contains('-') || t.starts_with("diagonal"));
        for kind in kinds {
            let entry = by_kind.entry(kind.clone()).or_default();
            if gave_up[i] {
                entry.1 += 1;
            } else {
                entry.0.push(median(times[i].clone()));
            }
        }
    }
    println!("| kind | puzzles | counted | median puzzles/s | slowest (ms) |");
    println!("|---|---|---|---|---|");
    for (kind, (medians, up)) in &by_kind {
        let counted = medians.len();
        let rate = if counted == 0 {
            0.0
        } else {
            1.0 / median(medians.clone())
        };
        let slowest = medians.iter().copied().fold(0.0, f64::max) * 1000.0;
        println!(
            "| {kind} | {} | {counted} | {rate:.0} | {slowest:.1} |",
            counted + up
        );
    }
    let all: Vec<f64> = times
        .iter()
        .filter(|t| !t.is_empty())
        .map(|t| median(t.clone()))
        .collect();
    println!(
        "\n{} of {} puzzles counted within {nodes} nodes; median {:.0} puzzles/s",
        all.len(),
        puzzles.len(),
        1.0 / median(all.clone())
    );
    generated(runs, arg("--generated", 20));
}

/// Counting puzzles the SDK generates with thermometers, arrows and dots.
fn generated(runs: usize, how_many: usize) {
    let base = classic_builder(3, 3).expect("classic 9x9");
    let kinds = [ClueKind::Thermometer, ClueKind::Arrow, ClueKind::Kropki];
    let mut made = Vec::new();
    let mut generation = Vec::new();
    for seed in 0..how_many {
        let start = Instant::now();
        let mut rng = rng_for(&format!("bench-{seed}"));
        let g = generate_with_constraints(&base, &kinds, &mut rng, Difficulty::Medium, None)
            .expect("a generated puzzle");
        generation.push(start.elapsed().as_secs_f64());
        made.push(g.puzzle);
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); made.len()];
    for _ in 0..runs {
        for (i, puzzle) in made.iter().enumerate() {
            let start = Instant::now();
            let count = puzzle.count(2);
            times[i].push(start.elapsed().as_secs_f64());
            assert_eq!(count.solutions, 1, "a generated puzzle is unique");
        }
    }
    let medians: Vec<f64> = times.into_iter().map(median).collect();
    let slowest = medians.iter().copied().fold(0.0, f64::max);
    let constraints = made
        .iter()
        .map(|p| p.model().constraints().len())
        .sum::<usize>() as f64
        / made.len().max(1) as f64;
    println!(
        "\n{} generated 9x9 medium (thermometers, arrows, Kropki; {constraints:.1} constraints each): \
         count to 2 median {:.3} ms, slowest {:.3} ms; generation median {:.0} ms",
        made.len(),
        median(medians) * 1000.0,
        slowest * 1000.0,
        median(generation) * 1000.0
    );
}
