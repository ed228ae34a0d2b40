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
//! With `--orientations`, every corpus puzzle is also counted turned and
//! mirrored (`arena_tests::orientations`, up to eight ways) and a puzzle's
//! time is the median of its orientations': a search's luck with one cell
//! order shows as a spread (printed first, for puzzles past 1 ms).
//!
//! Run: `cargo bench -p arena-tests --bench constraints [-- --runs N --nodes N --generated N --orientations]`.

use arena_tests::orientations::orientations;
use arena_tests::{bench_arg, bench_flag, median};
use engine::constraint_clues::{generate_with_constraints, ClueKind};
use engine::corpus::from_corpus;
use engine::geometry::classic_builder;
use engine::seed::rng_for;
use engine::v1::from_v1;
use engine::Difficulty;
use protocol::corpus::CorpusPuzzle;
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let (runs, nodes) = (bench_arg("--runs", 20), bench_arg("--nodes", 20_000));
    let turned = bench_flag("--orientations");
    // Each corpus puzzle, as drawn or (`--orientations`) in each way it can
    // be turned and mirrored.
    let puzzles: Vec<(CorpusPuzzle, Vec<engine::Puzzle>)> = arena_tests::variant_corpus()
        .into_iter()
        .map(|p| {
            let ways = if turned {
                orientations(&p)
            } else {
                vec![p.clone()]
            };
            let loaded = ways
                .iter()
                .map(|w| {
                    from_v1(&from_corpus(w).expect("reads"))
                        .expect("loads")
                        .puzzle
                })
                .collect();
            (p, loaded)
        })
        .collect();
    // times[i][o]: puzzle i's orientation o, one time per run; None once
    // it gave up.
    let mut times: Vec<Vec<Option<Vec<f64>>>> = puzzles
        .iter()
        .map(|(_, ways)| vec![Some(Vec::new()); ways.len()])
        .collect();
    for _ in 0..runs {
        for (i, (_, ways)) in puzzles.iter().enumerate() {
            for (o, puzzle) in ways.iter().enumerate() {
                let Some(samples) = times[i][o].as_mut() else {
                    continue;
                };
                let start = Instant::now();
                let count = puzzle.count_within(2, nodes);
                let seconds = start.elapsed().as_secs_f64();
                if count.gave_up {
                    times[i][o] = None;
                } else {
                    samples.push(seconds);
                }
            }
        }
    }
    // medians[i][o]: puzzle i's orientation o's median time (endless once it
    // gave up); a puzzle's time is the median of its orientations', `None`
    // when that is endless.
    let medians: Vec<Vec<f64>> = times
        .iter()
        .map(|ways| {
            ways.iter()
                .map(|w| w.as_ref().map_or(f64::INFINITY, |t| median(t.clone())))
                .collect()
        })
        .collect();
    let per_puzzle: Vec<Option<f64>> = medians
        .iter()
        .map(|ways| Some(median(ways.clone())).filter(|t| t.is_finite()))
        .collect();
    if turned {
        spread(&puzzles, &medians);
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
            match per_puzzle[i] {
                Some(time) => entry.0.push(time),
                None => entry.1 += 1,
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
    let all: Vec<f64> = per_puzzle.iter().flatten().copied().collect();
    println!(
        "\n{} of {} puzzles counted within {nodes} nodes{}; median {:.0} puzzles/s",
        all.len(),
        puzzles.len(),
        if turned {
            " (the median of their orientations)"
        } else {
            ""
        },
        1.0 / median(all.clone())
    );
    generated(runs, bench_arg("--generated", 20));
}

/// Every puzzle with an orientation slower than 1 ms: the fastest, median
/// and slowest of its orientations' median times, and the time as drawn —
/// how much of a puzzle's time is the search's luck with its cell order.
fn spread(puzzles: &[(CorpusPuzzle, Vec<engine::Puzzle>)], medians: &[Vec<f64>]) {
    println!(
        "| puzzle | orientations | fastest (ms) | median (ms) | slowest (ms) | as drawn (ms) |"
    );
    println!("|---|---|---|---|---|---|");
    for ((p, _), ways) in puzzles.iter().zip(medians) {
        let mut medians: Vec<f64> = ways.iter().map(|s| s * 1000.0).collect();
        let drawn = medians[0];
        medians.sort_by(f64::total_cmp);
        let (fastest, slowest) = (medians[0], medians[medians.len() - 1]);
        if slowest < 1.0 {
            continue;
        }
        let show = |ms: f64| {
            if ms.is_finite() {
                format!("{ms:.1}")
            } else {
                "gave up".into()
            }
        };
        println!(
            "| {} {} | {} | {} | {} | {} | {} |",
            &p.id[4..8],
            p.title.as_deref().unwrap_or(""),
            medians.len(),
            show(fastest),
            show(median(medians.clone())),
            show(slowest),
            show(drawn)
        );
    }
    println!();
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
