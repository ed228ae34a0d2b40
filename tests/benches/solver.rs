//! Solver benchmark: this engine side by side with the `sudoku` crate 0.8 (the peer)
//! on the shared datasets, in one run; then generation times. Killers: the killer
//! benchmark.
//!
//! Run: `cargo bench -p arena-tests --bench solver` (add `-- --quick` for a 5,000
//! puzzle sample of each classic file and 10 generation seeds).

use arena_tests::{classic9, classic_grids};
use engine::geometry::classic;
use engine::{generate, Difficulty, Puzzle, SolverPath};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs `f` over every item `rounds` times and returns the best wall time.
fn best_of<T>(rounds: usize, items: &[T], mut f: impl FnMut(&T) -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut total = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        total = 0;
        for item in items {
            total += f(item);
        }
        best = best.min(start.elapsed());
    }
    (best, total)
}

/// Interleaved rounds per classic file (the best of each solver's rounds counts).
const ROUNDS: usize = 7;

fn rate(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64()
}

fn classic_section(file: &str, limit: Option<usize>) {
    let mut grids = classic_grids(file);
    if let Some(n) = limit {
        grids.truncate(n);
    }
    let model = classic9();
    let puzzles: Vec<Puzzle> = grids
        .iter()
        .map(|g| Puzzle::new(Arc::clone(&model), g.to_vec()).expect("dataset puzzle"))
        .collect();
    let peers: Vec<sudoku::Sudoku> = grids
        .iter()
        .map(|g| sudoku::Sudoku::from_bytes(*g).expect("peer parses"))
        .collect();
    let n = grids.len();
    // The peer and the two fast paths take turns, round after round, and each keeps
    // its best round: drift in the machine's speed hits them alike.
    let (mut t_peer, mut t_fast, mut t_bits) = (Duration::MAX, Duration::MAX, Duration::MAX);
    let (mut u_peer, mut u_fast, mut u_bits) = (0, 0, 0);
    for _ in 0..ROUNDS {
        let (t, u) = best_of(1, &peers, |s| black_box(*s).solutions_count_up_to(2));
        (t_peer, u_peer) = (t_peer.min(t), u);
        let (t, u) = best_of(1, &puzzles, |p| black_box(p).solution_count(2));
        (t_fast, u_fast) = (t_fast.min(t), u);
        let (t, u) = best_of(1, &puzzles, |p| {
            black_box(p).solution_count_on(SolverPath::Bitboard, 2)
        });
        (t_bits, u_bits) = (t_bits.min(t), u);
    }
    let (t_cells, u_cells) = best_of(1, &puzzles, |p| {
        black_box(p).solution_count_on(SolverPath::Cells, 2)
    });
    assert_eq!(
        u_fast, n,
        "{file}: every puzzle must count 1 on the 9x9 path"
    );
    assert_eq!(
        u_bits, n,
        "{file}: every puzzle must count 1 on the bitboard path"
    );
    assert_eq!(
        u_cells, n,
        "{file}: every puzzle must count 1 on the cell path"
    );
    assert_eq!(u_peer, n, "{file}: the peer must agree");
    let peer = rate(n, t_peer);
    println!("\n{file} ({n} puzzles, count to 2)");
    println!("| solver | puzzles/s | vs sudoku 0.8 |");
    println!("|---|---:|---:|");
    println!("| sudoku 0.8 (peer) | {peer:.0} | 1.00x |");
    for (name, t) in [
        ("engine 9x9 path", t_fast),
        (
            "engine general path, bitboard (any model <= 128 cells)",
            t_bits,
        ),
        (
            "engine general path, cells (any model; used > 128 cells)",
            t_cells,
        ),
    ] {
        let r = rate(n, t);
        println!("| {name} | {r:.0} | {:.2}x |", r / peer);
    }
}

fn generation_section(seeds: usize) {
    println!("\nGeneration over {seeds} seeds (\"bench-<i>\")");
    println!("| what | clues (median) | median ms | worst ms |");
    println!("|---|---:|---:|---:|");
    let cases: [(&str, u32, u32, Option<Difficulty>); 3] = [
        ("9x9 minimal unique", 3, 3, None),
        ("16x16 unique, hard band", 4, 4, Some(Difficulty::Hard)),
        ("25x25 unique, hard band", 5, 5, Some(Difficulty::Hard)),
    ];
    for (name, br, bc, difficulty) in cases {
        let model = Arc::new(classic(br, bc).expect("classic model"));
        let mut times = Vec::with_capacity(seeds);
        let mut clues = Vec::with_capacity(seeds);
        for i in 0..seeds {
            let seed = format!("bench-{i}");
            let start = Instant::now();
            let g = match difficulty {
                Some(d) => generate::generate_for_difficulty(&model, &seed, d),
                None => generate::generate(
                    &model,
                    &mut engine::seed::rng_for(&seed),
                    generate::Target::Minimal,
                ),
            }
            .expect("generation succeeds");
            times.push(start.elapsed().as_secs_f64() * 1e3);
            clues.push(g.puzzle.clue_count());
        }
        times.sort_by(f64::total_cmp);
        clues.sort_unstable();
        println!(
            "| {name} | {} | {:.2} | {:.2} |",
            clues[seeds / 2],
            times[seeds / 2],
            times[seeds - 1]
        );
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let limit = quick.then_some(5_000);
    classic_section("classic/17-clue.txt", limit);
    classic_section("classic/forum-hardest-11plus.txt", limit);
    generation_section(if quick { 10 } else { 100 });
}
