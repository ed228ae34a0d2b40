//! The grader against Sudoku Explainer's variant mode: generated X-Sudoku,
//! Windoku and Anti-Knight puzzles, rated by this grader and by
//! SukakuExplainer (`serate --isX=1`, `--isWindows=1`, `--isAntiKnight=1`),
//! counted equal per tier.
//!
//! The referee is not bundled. Build it once from source (plain `javac`):
//!
//! ```sh
//! git clone https://github.com/SudokuMonster/SukakuExplainer /tmp/se-src
//! mkdir -p /tmp/se && cd /tmp/se-src && find diuf -name '*.java' > /tmp/se/srcs.txt
//! javac -encoding ISO-8859-1 -d /tmp/se @/tmp/se/srcs.txt
//! find diuf -type f ! -name '*.java' -exec cp --parents {} /tmp/se/ \;
//! ```
//!
//! Run: `cargo bench -p arena-tests --bench se_variants -- --se /tmp/se`
//! (`--count N` puzzles per tier, default 20; `--seed S`, default `sev`).
//! Prints one table row per variant and tier, and the puzzles rated apart.

use arena_tests::{bench_arg, built_plugin_dir, temp_dir};
use engine::logic::{format_rating, grade, Options};
use engine::v1::from_v1;
use protocol::plugin::GenerateRequest;
use server::plugins::{PluginHost, TestPlugins};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Each variant and the switch that puts the referee in its mode.
const VARIANTS: [(&str, &str); 3] = [
    ("x-sudoku", "--isX=1"),
    ("windoku", "--isWindows=1"),
    ("anti-knight", "--isAntiKnight=1"),
];

fn main() {
    let Some(se) = bench_arg::<String>("--se", String::new())
        .parse::<PathBuf>()
        .ok()
        .filter(|p| p.join("diuf/sudoku/test/serate.class").exists())
    else {
        println!(
            "se_variants: give --se DIR, a SukakuExplainer build (see this file's header); skipped"
        );
        return;
    };
    let count: usize = bench_arg("--count", 20);
    let seed: String = bench_arg("--seed", "sev".to_string());
    let (host, _) = PluginHost::load(&[built_plugin_dir()], 2, TestPlugins::Skip);
    let dir = temp_dir("se-variants");
    println!("| variant | tier | equal ratings | apart (ours / SE) |");
    println!("|---|---|---:|---|");
    for (variant, switch) in VARIANTS {
        let Some(manifest) = host.manifest(variant).cloned() else {
            println!("| {variant} | not loaded | | |");
            continue;
        };
        for tier in manifest.difficulties_for(&Default::default()) {
            let tier = tier.as_str();
            let (mut lines, mut ours) = (Vec::new(), Vec::new());
            for i in 0..count {
                let req = GenerateRequest {
                    minimal: false,
                    params: Default::default(),
                    difficulty: tier.into(),
                    seed: format!("{seed}-{i}"),
                };
                let p = host
                    .generate(variant, &req, Duration::from_secs(60))
                    .unwrap_or_else(|e| panic!("{variant} {tier}: {e}"));
                let loaded = from_v1(&p).expect("a valid puzzle");
                let givens = loaded.puzzle.givens();
                let g = grade(loaded.puzzle.model(), givens, Options { uniqueness: true });
                ours.push(format_rating(g.rating));
                lines.push(
                    givens
                        .iter()
                        .map(|v| char::from(b'0' + v))
                        .collect::<String>(),
                );
            }
            let input = dir.join(format!("{variant}-{tier}.txt"));
            std::fs::write(&input, lines.join("\n") + "\n").expect("write puzzles");
            let out = Command::new("java")
                .arg("-cp")
                .arg(&se)
                .arg("diuf.sudoku.test.serate")
                .arg(switch)
                .arg("--format=%r")
                .arg(format!("--input={}", input.display()))
                .output()
                .expect("run java");
            let theirs: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| l.trim().to_string())
                .collect();
            let equal = ours.iter().zip(&theirs).filter(|(a, b)| a == b).count();
            let apart: Vec<String> = ours
                .iter()
                .zip(&theirs)
                .filter(|(a, b)| a != b)
                .map(|(a, b)| format!("{a}/{b}"))
                .collect();
            println!(
                "| {variant} | {tier} | {equal}/{count} | {} |",
                apart.join(", ")
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
