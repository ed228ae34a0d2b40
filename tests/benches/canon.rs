//! Canonical forms (issue 39): every puzzle of `classic/17-clue.txt`
//! (49,158) canonicalised once, timed as a whole — puzzles a second — and
//! deduplicated (how many distinct forms); then `--copies N` (default
//! 2,000) of them disguised at random (bands, stacks, rows, columns,
//! transposition, digits) and added: the dedupe must find exactly those.
//! Then `--runs` (default 3) timed passes over the whole file, for a
//! median.
//!
//! Run: `cargo bench -p arena-tests --bench canon [-- --copies N --runs N]`.

use arena_tests::{bench_arg, classic_grids};
use engine::canon::Symmetries;
use engine::geometry::classic;
use engine::seed::rng_for;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashMap;
use std::time::Instant;

/// A random disguise of a 9x9 grid.
fn disguised(grid: &[u8; 81], rng: &mut impl Rng) -> Vec<u8> {
    let lines = |rng: &mut dyn rand::RngCore| -> Vec<usize> {
        let mut bands = [0usize, 1, 2];
        bands.shuffle(rng);
        bands
            .iter()
            .flat_map(|&b| {
                let mut inner = [b * 3, b * 3 + 1, b * 3 + 2];
                inner.shuffle(rng);
                inner
            })
            .collect()
    };
    let (rows, cols) = (lines(rng), lines(rng));
    let transpose = rng.gen_bool(0.5);
    let mut names: Vec<u8> = (1..=9).collect();
    names.shuffle(rng);
    (0..81)
        .map(|k| {
            let (a, b) = (rows[k / 9], cols[k % 9]);
            let v = if transpose {
                grid[b * 9 + a]
            } else {
                grid[a * 9 + b]
            };
            if v == 0 {
                0
            } else {
                names[usize::from(v) - 1]
            }
        })
        .collect()
}

fn main() {
    let (copies, runs) = (
        bench_arg("--copies", 2_000usize),
        bench_arg("--runs", 3usize),
    );
    let grids = classic_grids("classic/17-clue.txt");
    let model = classic(3, 3).expect("classic");
    let symmetries = Symmetries::of(&model);
    let start = Instant::now();
    let mut first_of: HashMap<Vec<u32>, usize> = HashMap::new();
    for (i, g) in grids.iter().enumerate() {
        first_of.entry(symmetries.canonical(g).key).or_insert(i);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "17-clue file: {} puzzles, {} distinct forms; canonicalised in {secs:.2} s, {:.0} puzzles/s",
        grids.len(),
        first_of.len(),
        grids.len() as f64 / secs
    );
    // Disguised copies: each must fall on its original's form, and the
    // dedupe must drop exactly them.
    let distinct = first_of.len();
    let mut rng = rng_for("canon bench copies");
    let mut on_original = 0usize;
    for _ in 0..copies {
        let i = rng.gen_range(0..grids.len());
        let key = symmetries.canonical(&disguised(&grids[i], &mut rng)).key;
        if key == symmetries.canonical(&grids[i]).key {
            on_original += 1;
        }
        first_of.entry(key).or_insert(usize::MAX);
    }
    let dropped = grids.len() + copies - first_of.len();
    println!(
        "{copies} disguised copies added: {on_original} on their original's form; \
         dedupe keeps {} and drops {dropped} ({} beyond the file's own duplicates)",
        first_of.len(),
        dropped - (grids.len() - distinct)
    );
    let sample = &grids[..];
    let mut rates = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let mut sink = 0u64;
        for g in sample {
            sink += u64::from(symmetries.canonical(g).givens[80]);
        }
        rates.push(sample.len() as f64 / start.elapsed().as_secs_f64());
        std::hint::black_box(sink);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "canonicalising {} puzzles, {runs} runs: median {:.0} puzzles/s (min {:.0}, max {:.0})",
        sample.len(),
        rates[rates.len() / 2],
        rates[0],
        rates[rates.len() - 1]
    );
}
