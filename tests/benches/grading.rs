//! Grader benchmark: the logical solver's ratings against Sudoku Explainer's on
//! the shared rated files (agreement, confusion table), and its speed.
//!
//! Run: `cargo bench -p arena-tests --bench grading` (add `-- --limit N` to take
//! every N-th puzzle, `-- --mismatches` to list puzzles whose rating differs,
//! `-- --ratings-only` to stop after the ratings, `-- --hardest N` for the
//! forum's hardest puzzles only (all 375 of the 2011 file, every N-th of the
//! 11+ file: rated to the end or not, and how long each takes),
//! `-- --peer` to time `hodoku-py` on the same 200 puzzles: it is installed
//! with pip into a throw-away virtualenv under `target/`, and used only as a
//! peer).

use arena_tests::{classic9, classic_grids, read_dataset};
use engine::generate::generate_for_difficulty;
use engine::logic::{format_rating, grade, tier, Options};
use engine::Difficulty;
use std::time::Instant;

/// One rated puzzle.
struct Rated {
    grid: Vec<u8>,
    se: u16,
}

fn rated(file: &str) -> Vec<Rated> {
    read_dataset(file)
        .lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let (_, digits, rating) = (parts.next()?, parts.next()?, parts.next()?);
            let grid = digits.bytes().map(|b| b - b'0').collect();
            let (whole, tenth) = rating.split_once('.')?;
            let se = whole.parse::<u16>().ok()? * 10 + tenth.parse::<u16>().ok()?;
            Some(Rated { grid, se })
        })
        .collect()
}

/// SE's buckets: below 1.5, below 2.5, below 5.0, 5.0 and up.
fn bucket(r: u16) -> usize {
    match r {
        0..=14 => 0,
        15..=24 => 1,
        25..=49 => 2,
        _ => 3,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let every = args
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    let show = args.iter().any(|a| a == "--mismatches");
    let peer = args.iter().any(|a| a == "--peer");
    let model = classic9();
    let options = Options { uniqueness: true };
    let puzzles: Vec<Rated> = rated("rated/se-rated-dev.txt")
        .into_iter()
        .step_by(every)
        .collect();
    let (mut equal_low, mut low, mut within, mut same_bucket) = (0, 0, 0, 0);
    let mut equal = 0;
    let mut bucketed = 0;
    let mut confusion = [[0usize; 4]; 4];
    let start = Instant::now();
    let mut easy_times = Vec::new();
    for p in &puzzles {
        let one = Instant::now();
        let g = grade(&model, &p.grid, options);
        if p.se < 45 {
            easy_times.push(one.elapsed());
        }
        let ours = if g.solved { g.rating } else { 200 };
        if p.se <= 62 {
            low += 1;
            equal_low += usize::from(ours == p.se);
        }
        equal += usize::from(ours == p.se);
        within += usize::from(ours.abs_diff(p.se) <= 3);
        confusion[bucket(p.se)][bucket(ours)] += 1;
        same_bucket += usize::from(bucket(p.se) == bucket(ours));
        if show && ours != p.se {
            let line: String = p.grid.iter().map(|v| char::from(b'0' + v)).collect();
            println!(
                "{line} se {} ours {} ({})",
                format_rating(p.se),
                format_rating(ours),
                g.hardest.map_or("-", |t| t.name())
            );
        }
    }
    let elapsed = start.elapsed();
    // The bucket files: SE below 1.5, and 1.5 to below 2.5.
    for (file, se) in [
        ("rated/bucket-easy-dev.txt", 10),
        ("rated/bucket-medium-dev.txt", 20),
    ] {
        for line in read_dataset(file).lines().step_by(every) {
            let grid: Vec<u8> = line.bytes().take(81).map(|b| b - b'0').collect();
            let g = grade(&model, &grid, options);
            let ours = if g.solved { g.rating } else { 200 };
            confusion[bucket(se)][bucket(ours)] += 1;
            same_bucket += usize::from(bucket(se) == bucket(ours));
            bucketed += 1;
        }
    }
    let n = puzzles.len();
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "rated/se-rated-dev.txt: {n} puzzles graded in {elapsed:.2?} ({:.0} puzzles/s)",
        n as f64 / elapsed.as_secs_f64()
    );
    easy_times.sort();
    if let Some(median) = easy_times.get(easy_times.len() / 2) {
        println!(
            "median time, puzzles SE rates below 4.5: {median:.2?} ({} puzzles)",
            easy_times.len()
        );
    }
    println!(
        "ER equal to SE, SE <= 6.2: {equal_low}/{low} ({:.1}%)",
        pct(equal_low, low)
    );
    println!("ER equal to SE, all: {equal}/{n} ({:.1}%)", pct(equal, n));
    println!(
        "ER within 0.3 of SE, all: {within}/{n} ({:.1}%)",
        pct(within, n)
    );
    let all = n + bucketed;
    println!(
        "same bucket (with the bucket files): {same_bucket}/{all} ({:.1}%)",
        pct(same_bucket, all)
    );
    if let Some(every) = args
        .iter()
        .position(|a| a == "--hardest")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
    {
        hardest(&model, "classic/forum-hardest-1106.txt", 1);
        hardest(&model, "classic/forum-hardest-11plus.txt", every);
        return;
    }
    if args.iter().any(|a| a == "--ratings-only") {
        return;
    }
    // The whole 17-clue file (every `every`-th with `--limit`).
    let seventeen: Vec<[u8; 81]> = classic_grids("classic/17-clue.txt")
        .into_iter()
        .step_by(every)
        .collect();
    let start = Instant::now();
    let solved = seventeen
        .iter()
        .filter(|g| grade(&model, &g[..], options).solved)
        .count();
    let t = start.elapsed();
    println!(
        "classic/17-clue.txt: {} puzzles graded in {t:.2?} ({:.0} puzzles/s), {solved} solved",
        seventeen.len(),
        seventeen.len() as f64 / t.as_secs_f64()
    );
    killers(every * 10);
    generation(&model, 20);
    if peer {
        peer_section(&model, &rated("rated/se-rated-dev.txt"));
    }
    println!("confusion (rows SE, columns ours): <1.5 | <2.5 | <5.0 | >=5.0");
    for (i, row) in confusion.iter().enumerate() {
        println!("  {} {:?}", ["<1.5 ", "<2.5 ", "<5.0 ", ">=5.0"][i], row);
    }
}

/// The hardest known puzzles (every `every`-th of `file`): how many the
/// ladder rates to the end, with which ratings, and how long each takes.
fn hardest(model: &std::sync::Arc<engine::Model>, file: &str, every: usize) {
    let options = Options { uniqueness: true };
    let (mut times, mut beyond, mut lowest) = (Vec::new(), 0, u16::MAX);
    let mut ratings = std::collections::BTreeMap::new();
    for grid in classic_grids(file).iter().step_by(every) {
        let start = Instant::now();
        let g = grade(model, &grid[..], options);
        times.push(start.elapsed().as_secs_f64());
        if g.solved {
            lowest = lowest.min(g.rating);
            *ratings.entry(format_rating(g.rating / 5 * 5)).or_insert(0) += 1;
        } else {
            beyond += 1;
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    println!(
        "{file} (every {every}): {n} puzzles, {beyond} beyond the ladder, lowest rating {}, by half point {ratings:?}; median {:.2} s, 90th percentile {:.2} s, worst {:.2} s",
        format_rating(lowest),
        times[n / 2],
        times[n * 9 / 10],
        times[n - 1]
    );
}

/// Grades every `every`-th killer of the krazydad file: puzzles/s, how many the
/// ladder solves, and the tiers.
fn killers(every: usize) {
    let records = arena_tests::killer_records("killer/krazydad-intermediate.csv");
    let sample: Vec<_> = records.iter().step_by(every).collect();
    let mut tiers = std::collections::BTreeMap::new();
    let start = Instant::now();
    for r in &sample {
        let g = grade(r.puzzle.model(), r.puzzle.givens(), Options::default());
        *tiers
            .entry(g.tier.map_or("beyond", |t| t.as_str()))
            .or_insert(0) += 1;
    }
    let t = start.elapsed();
    println!(
        "killer/krazydad-intermediate.csv: {} puzzles graded in {t:.2?} ({:.0} puzzles/s), tiers {tiers:?}",
        sample.len(),
        sample.len() as f64 / t.as_secs_f64()
    );
}

/// Tier-targeted generation on classic 9x9: time, clues and how often the tier
/// and the archive's clue band are both met.
fn generation(model: &std::sync::Arc<engine::Model>, seeds: usize) {
    println!("generation, classic 9x9, {seeds} seeds per difficulty:");
    println!("| difficulty | tier = label | in band | clues (median) | median ms | worst ms |");
    println!("|---|---:|---:|---:|---:|---:|");
    for d in Difficulty::ALL {
        let (lo, hi) = d.clue_band(81, 9);
        let (mut times, mut clues, mut hits, mut banded) = (Vec::new(), Vec::new(), 0, 0);
        for i in 0..seeds {
            let start = Instant::now();
            let g = generate_for_difficulty(model, &format!("bench-{i}"), d).expect("generated");
            times.push(start.elapsed().as_secs_f64() * 1e3);
            let n = g.puzzle.clue_count();
            clues.push(n);
            hits += usize::from(tier(model, g.puzzle.givens()) == Some(d));
            banded += usize::from((lo..=hi).contains(&n));
        }
        times.sort_by(f64::total_cmp);
        clues.sort_unstable();
        println!(
            "| {d} | {hits}/{seeds} | {banded}/{seeds} | {} | {:.1} | {:.1} |",
            clues[seeds / 2],
            times[seeds / 2],
            times[seeds - 1]
        );
    }
}

/// The peer's timing script: rates each puzzle of a file with HoDoKu's rules.
const PEER_SCRIPT: &str = r#"
import sys, time
from hodoku.api import Solver
puzzles = [l.strip() for l in open(sys.argv[1]) if l.strip()]
solver = Solver()
start = time.perf_counter()
for p in puzzles:
    solver.rate(p)
print(time.perf_counter() - start)
"#;

/// This grader and `hodoku-py` on the same 200 puzzles (every 15th rated
/// puzzle), taking turns: ours, the peer, ours again (best of ours kept).
fn peer_section(model: &std::sync::Arc<engine::Model>, all: &[Rated]) {
    let sample: Vec<&Rated> = all.iter().step_by(15).take(200).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/peer");
    std::fs::create_dir_all(&dir).expect("peer dir");
    let venv = dir.join("hodoku-venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        let ok = std::process::Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .is_ok_and(|s| s.success())
            && std::process::Command::new(&python)
                .args(["-m", "pip", "install", "-q", "hodoku-py"])
                .status()
                .is_ok_and(|s| s.success());
        if !ok {
            println!("peer: could not install hodoku-py; skipped");
            return;
        }
    }
    let file = dir.join("peer-puzzles.txt");
    let text: String = sample
        .iter()
        .map(|p| {
            p.grid
                .iter()
                .map(|v| char::from(b'0' + v))
                .collect::<String>()
                + "\n"
        })
        .collect();
    std::fs::write(&file, text).expect("write puzzles");
    let script = dir.join("peer.py");
    std::fs::write(&script, PEER_SCRIPT).expect("write script");
    let options = Options { uniqueness: true };
    let ours = || {
        let start = Instant::now();
        for p in &sample {
            std::hint::black_box(grade(model, &p.grid, options));
        }
        start.elapsed().as_secs_f64()
    };
    let first = ours();
    let out = std::process::Command::new(&python)
        .arg(&script)
        .arg(&file)
        .output()
        .expect("run the peer");
    let peer: f64 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(f64::NAN);
    let ours_best = first.min(ours());
    let n = sample.len() as f64;
    println!(
        "peer, the same {} puzzles (every 15th rated puzzle):",
        sample.len()
    );
    println!("| grader | puzzles/s | ms/puzzle | vs hodoku-py |");
    println!("|---|---:|---:|---:|");
    println!(
        "| hodoku-py 0.2 (peer) | {:.1} | {:.1} | 1.0x |",
        n / peer,
        peer * 1e3 / n
    );
    println!(
        "| engine::logic | {:.0} | {:.2} | {:.0}x |",
        n / ours_best,
        ours_best * 1e3 / n,
        peer / ours_best
    );
}
