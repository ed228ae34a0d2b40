//! Race review benchmark: how long after a 9x9 race's finish its review is
//! ready (`server::serve::review::review`: every racer's digits analysed
//! from their board at that moment), by the puzzle's Sudoku Explainer rating,
//! for races of 2 and 10 racers. Racers place the digits in the grader's
//! order, each swapped with a random later one one time in three (people
//! do not solve in the grader's order); a second table has them place
//! digits in a random order, the worst case (most digits need a long solve).
//!
//! Run: `cargo bench -p arena-tests --bench review` (`-- --per-band N`
//! puzzles per rating band, default 12). Target: ready < 200 ms.

use arena_tests::{classic9, read_dataset};
use engine::logic::{grade, Options};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use server::serve::event::RoomEvent;
use server::serve::review::{review, Race, Racer};
use std::sync::Arc;
use std::time::Instant;

/// Rating bands of the shared SE-rated file: (label, lowest, below).
const BANDS: [(&str, f32, f32); 4] = [
    ("SE 1.0-2.5 (easy)", 0.0, 2.6),
    ("SE 2.6-4.0", 2.6, 4.1),
    ("SE 4.1-7.0", 4.1, 7.1),
    ("SE 7.1+", 7.1, 99.0),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let per_band = args
        .iter()
        .position(|a| a == "--per-band")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(12usize);
    let rated: Vec<(Vec<u8>, f32)> = read_dataset("rated/se-rated-dev.txt")
        .lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let (_, digits, rating) = (parts.next()?, parts.next()?, parts.next()?);
            let grid = engine::text::parse_line(digits).ok()??.to_vec();
            Some((grid, rating.parse().ok()?))
        })
        .collect();
    println!("Race review of a 9x9 race: ms from the finish to a ready review ({per_band} puzzles per band)\n");
    for (order, title) in [
        (Order::Grader, "grader's order, 1 in 3 swapped"),
        (Order::Random, "random order (worst case)"),
    ] {
        println!("Digits placed in the {title}:\n");
        println!("| puzzles | racers | median ms | p90 ms | max ms |");
        println!("|---|---:|---:|---:|---:|");
        for (label, lo, hi) in BANDS {
            let puzzles: Vec<&Vec<u8>> = rated
                .iter()
                .filter(|(_, r)| (lo..hi).contains(r))
                .map(|(g, _)| g)
                .take(per_band)
                .collect();
            for racers in [2, 10] {
                let mut times: Vec<f64> = puzzles
                    .iter()
                    .enumerate()
                    .map(|(n, g)| time_review(g, racers, order, n as u64))
                    .collect();
                times.sort_by(f64::total_cmp);
                let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
                println!(
                    "| {label} ({}) | {racers} | {:.1} | {:.1} | {:.1} |",
                    times.len(),
                    at(0.5),
                    at(0.9),
                    at(1.0)
                );
            }
        }
        println!();
    }
}

#[derive(Clone, Copy)]
enum Order {
    Grader,
    Random,
}

/// Milliseconds to review one race of `racers` on `givens`.
fn time_review(givens: &[u8], racers: usize, order: Order, seed: u64) -> f64 {
    let model = classic9();
    let puzzle = engine::Puzzle::new(Arc::clone(&model), givens.to_vec()).expect("puzzle");
    let engine::Solution::Unique(solution) = puzzle.solve() else {
        panic!("a unique puzzle");
    };
    let grader_order: Vec<usize> = grade(&model, givens, Options { uniqueness: true })
        .steps
        .iter()
        .flat_map(|s| s.placements.iter().map(|p| p.cell as usize))
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut log = Vec::new();
    let mut people = Vec::new();
    for seat in 0..racers {
        let mut cells: Vec<usize> = (0..81).filter(|&c| givens[c] == 0).collect();
        match order {
            Order::Random => cells.shuffle(&mut rng),
            Order::Grader => {
                let rank = |c: &usize| grader_order.iter().position(|x| x == c).unwrap_or(81);
                cells.sort_by_key(rank);
                for i in 0..cells.len() {
                    if rng.gen_range(0..3) == 0 {
                        let j = rng.gen_range(i..cells.len());
                        cells.swap(i, j);
                    }
                }
            }
        }
        let mut at: f64 = 1000.0;
        for &cell in &cells {
            at += rng.gen_range(1000.0..8000.0);
            let (row, col) = ((cell / 9) as u32, (cell % 9) as u32);
            let value = u32::from(solution[cell]);
            log.push((seat, RoomEvent::Value { row, col, value }, at));
        }
        people.push(Racer {
            id: format!("p{seat}"),
            name: format!("Racer {seat}"),
            place: Some(seat as u32 + 1),
            time_ms: Some(at as u64),
            penalty_ms: 0,
            mistakes: 0,
            hints: 0,
            forfeited: false,
        });
    }
    log.sort_by(|a, b| a.2.total_cmp(&b.2));
    let race = Race {
        id: "benchreview1".into(),
        variant: "classic".into(),
        params: Default::default(),
        difficulty: "hard".into(),
        daily: None,
        at_ms: 0.0,
        puzzle: engine::v1::to_v1(&puzzle, Some(&solution)),
        game: puzzle,
        solution,
        start_ms: 1000.0,
        racers: people,
        log,
    };
    let started = Instant::now();
    let made = review(&race, None);
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(made.review.racers.len(), racers);
    ms
}
