//! Killer benchmark on `killer/krazydad-intermediate.csv` (8,000 puzzles): how
//! fast the engine counts them (each to 2, asserting every one is unique and
//! equals the shipped solution) on each solver path, and how fast the logical
//! solver grades them, with the tiers it finds. Generation is in the plugins
//! benchmark (`cargo bench -p arena-tests --bench plugins -- --variant killer`).
//!
//! Run: `cargo bench -p arena-tests --bench killer` (`-- --limit N` takes every
//! N-th puzzle).

use arena_tests::killer_records;
use engine::logic::{grade, Options};
use engine::SolverPath;
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let every = args
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    let records: Vec<_> = killer_records("killer/krazydad-intermediate.csv")
        .into_iter()
        .step_by(every)
        .collect();
    println!(
        "killer/krazydad-intermediate.csv: {} puzzles (every {every})",
        records.len()
    );
    println!("| what | puzzles/s |");
    println!("|---|---:|");
    for (name, path) in [
        (
            "count to 2, engine general path, bitboard",
            SolverPath::Bitboard,
        ),
        ("count to 2, engine general path, cells", SolverPath::Cells),
        (
            "count to 2, SolverPath::Auto (what arena uses)",
            SolverPath::Auto,
        ),
    ] {
        let start = Instant::now();
        for r in &records {
            let c = r.puzzle.count_on(path, 2);
            assert_eq!(c.solutions, 1, "{} is not unique", r.title);
            assert_eq!(
                c.first.as_deref(),
                Some(&r.solution[..]),
                "{}: wrong solution",
                r.title
            );
        }
        let rate = records.len() as f64 / start.elapsed().as_secs_f64();
        println!("| {name} | {rate:.0} |");
    }
    let mut tiers = BTreeMap::new();
    let start = Instant::now();
    for r in &records {
        let g = grade(r.puzzle.model(), r.puzzle.givens(), Options::default());
        *tiers
            .entry(g.tier.map_or("beyond the ladder", |t| t.as_str()))
            .or_insert(0) += 1;
    }
    let rate = records.len() as f64 / start.elapsed().as_secs_f64();
    println!("| grade (logic::grade, as `arena grade`) | {rate:.0} |");
    println!("tiers: {tiers:?}");
}
