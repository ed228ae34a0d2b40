//! Counting the variant corpus side by side with the Interactive Sudoku
//! Solver (sigh/Interactive-Sudoku-Solver, "ISS"), the open solver most of
//! the corpus comes from: each puzzle that carries its ISS constraint string
//! (the corpus line's `iss` field) is counted to 2 — a uniqueness proof — by
//! our engine and by ISS's own benchmark tool, taking turns puzzle by
//! puzzle, `--runs` times each (default 9), medians compared.
//!
//! The peer is not bundled. Fetch it once (it needs Node.js 20 or later,
//! nothing else):
//!
//! ```sh
//! git clone https://github.com/sigh/Interactive-Sudoku-Solver /tmp/iss
//! ```
//!
//! Run: `cargo bench -p arena-tests --bench variants_peer -- --iss /tmp/iss`
//! (`--runs N`). ISS times a solve inside its process (`tools/perf/
//! benchmark_puzzles.js --repeat N`, its median, to 0.1 ms), so neither
//! side's time includes a process start; its first solves also warm up its
//! JIT, which the median leaves out.

use arena_tests::{bench_arg, median, read_dataset, temp_dir};
use engine::corpus::from_corpus;
use engine::v1::from_v1;
use protocol::corpus::CorpusPuzzle;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    let Some(iss) = bench_arg::<String>("--iss", String::new())
        .parse::<PathBuf>()
        .ok()
        .filter(|p| p.join("tools/perf/benchmark_puzzles.js").exists())
    else {
        println!("variants_peer: give --iss DIR, a clone of sigh/Interactive-Sudoku-Solver (see this file's header); skipped");
        return;
    };
    let runs: usize = bench_arg("--runs", 9);
    let dir = temp_dir("variants-peer");
    println!("| puzzle | kinds | ours (ms) | ISS (ms) | ISS / ours |");
    println!("|---|---|---:|---:|---:|");
    let (mut ours_all, mut ratios) = (Vec::new(), Vec::new());
    for line in read_dataset("variants/puzzles.jsonl").lines() {
        let raw: serde_json::Value = serde_json::from_str(line).expect("a corpus line");
        let Some(constraints) = raw.get("iss").and_then(|v| v.as_str()) else {
            continue;
        };
        let p: CorpusPuzzle = serde_json::from_value(raw.clone()).expect("a corpus puzzle");
        let puzzle = from_v1(&from_corpus(&p).expect("reads"))
            .expect("loads")
            .puzzle;
        let ours = median(
            (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    let count = puzzle.count(2);
                    let seconds = start.elapsed().as_secs_f64();
                    assert_eq!(count.solutions, 1, "{} is unique", p.id);
                    seconds * 1000.0
                })
                .collect(),
        );
        let input = dir.join(format!("{}.txt", p.id));
        std::fs::write(&input, constraints).expect("write the peer's input");
        let theirs = peer_median_ms(&iss, &input, runs);
        let ratio = theirs.map(|t| t / ours);
        ours_all.push(ours);
        if let Some(r) = ratio {
            ratios.push(r);
        }
        let kinds: Vec<&str> = p
            .tags
            .iter()
            .map(String::as_str)
            .filter(|t| !t.contains('-') || t.starts_with("diagonal"))
            .collect();
        println!(
            "| {} {} | {} | {ours:.3} | {} | {} |",
            &p.id[4..8],
            p.title.as_deref().unwrap_or(""),
            kinds.join(", "),
            theirs.map_or("failed".into(), |t| format!("{t:.1}")),
            ratio.map_or("—".into(), |r| format!("{r:.2}")),
        );
    }
    let slower = ratios.iter().filter(|&&r| r < 1.0).count();
    println!(
        "\n{} puzzles; ISS / ours median {:.1}; ours slower on {slower}",
        ours_all.len(),
        median(ratios),
    );
}

/// ISS's median time to count `input` to 2, from its benchmark tool's JSON
/// row; `None` (with the reason printed) when it fails or finds the puzzle
/// not unique.
fn peer_median_ms(iss: &Path, input: &Path, runs: usize) -> Option<f64> {
    let out = Command::new("node")
        .current_dir(iss)
        .args([
            "tools/perf/benchmark_puzzles.js",
            "--max-backtracks",
            "none",
        ])
        .arg("--input-file")
        .arg(input)
        .args(["--repeat", &runs.to_string(), "--json"])
        .output();
    let out = match out {
        Ok(out) if out.status.success() => out,
        Ok(out) => {
            eprintln!("ISS failed: {}", String::from_utf8_lossy(&out.stderr));
            return None;
        }
        Err(e) => {
            eprintln!("could not run node: {e}");
            return None;
        }
    };
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let row = rows.get(0)?;
    if row.get("status").and_then(|s| s.as_str()) != Some("unique") {
        eprintln!("ISS did not find {} unique: {row}", input.display());
        return None;
    }
    row.get("msMedian").and_then(|m| m.as_f64())
}
