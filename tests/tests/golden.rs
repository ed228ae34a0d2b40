//! The grader's golden file: for a fixed set of puzzles — the 200 peer puzzles
//! (every 15th SE-rated puzzle), 400 dataset killers (every 20th of the krazydad
//! file) and two generated puzzles of every bundled variant, parameter set and
//! difficulty — the tier, rating, hardest technique, step count and a hash of
//! the whole `arena explain` text, compared with `tests/golden/grades.tsv`.
//!
//! Any change to what the grader says or the generators make shows here as a
//! line-by-line difference. When a change is meant (a new technique, a better
//! generator), rewrite the file and commit it with the reason:
//! `UPDATE_GOLDEN=1 cargo test -p arena-tests --test golden`.

use arena_tests::{built_arena, read_dataset, temp_dir};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

/// The committed golden file.
const GOLDEN: &str = "golden/grades.tsv";

/// Every bundled variant and parameter set the generated part covers.
const GENERATED: &[(&str, &[&str])] = &[
    ("classic", &["box=2x2"]),
    ("classic", &["box=2x3"]),
    ("classic", &["box=3x3"]),
    ("classic", &["box=4x4"]),
    ("classic", &["box=5x5"]),
    ("x-sudoku", &[]),
    ("windoku", &[]),
    ("windoku", &["diagonals=true"]),
    ("anti-knight", &[]),
    ("jigsaw", &["size=6x6"]),
    ("jigsaw", &["size=9x9"]),
    ("killer", &["size=9x9"]),
    ("killer", &["size=6x6"]),
    ("killer", &["diagonals=true"]),
    ("gattai", &["mode=samurai"]),
    ("gattai", &["mode=twin-nw"]),
    ("gattai", &["mode=twin-se"]),
];

const DIFFICULTIES: [&str; 4] = ["easy", "medium", "hard", "extreme"];
const SEEDS: [&str; 2] = ["golden-1", "golden-2"];

fn arena(args: &[&str], file: Option<&Path>) -> std::process::Output {
    let mut command = Command::new(built_arena());
    command.args(args).env("RUST_LOG", "error");
    if let Some(file) = file {
        command.arg(file);
    }
    command.output().expect("run arena")
}

/// `arena explain` of every puzzle in `file`, one golden line each, labelled
/// by `labels` in file order.
fn explained(file: &Path, labels: &[String]) -> Vec<String> {
    let out = arena(&["explain"], Some(file));
    assert!(
        out.status.success(),
        "arena explain {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let blocks: Vec<&str> = text.split("\n# ").collect();
    assert_eq!(blocks.len(), labels.len(), "one block per puzzle");
    labels
        .iter()
        .zip(blocks)
        .map(|(label, block)| {
            // Each block opens with the puzzle's name (a scratch path): not hashed.
            let body = block.split_once('\n').map_or("", |(_, rest)| rest);
            golden_line(label, body)
        })
        .collect()
}

/// One golden line from one puzzle's explanation: its verdict, step count and
/// the hash of every line.
fn golden_line(label: &str, block: &str) -> String {
    let steps = block
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    let verdict = block
        .lines()
        .last()
        .map(|l| match l.strip_prefix("Solved: ") {
            Some(solved) => solved.trim_end_matches('.').to_string(),
            None => "beyond".to_string(),
        })
        .unwrap_or_default();
    format!("{label}\t{verdict}\t{steps} steps\t{}", hash(block))
}

fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The 200 peer puzzles, one per line.
fn peer_lines(dir: &Path) -> Vec<String> {
    let rated = read_dataset("rated/se-rated-dev.txt");
    let picked: Vec<(&str, &str)> = rated
        .lines()
        .step_by(15)
        .take(200)
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            Some((parts.next()?, parts.next()?))
        })
        .collect();
    let file = dir.join("peer.txt");
    let text: String = picked.iter().map(|(_, grid)| format!("{grid}\n")).collect();
    std::fs::write(&file, text).expect("write peer puzzles");
    let labels: Vec<String> = picked.iter().map(|(id, _)| format!("rated {id}")).collect();
    explained(&file, &labels)
}

/// Every 20th killer of the krazydad file (400).
fn killer_lines(dir: &Path) -> Vec<String> {
    let csv = read_dataset("killer/krazydad-intermediate.csv");
    let mut lines = csv.lines();
    let header = lines.next().expect("header");
    let picked: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).step_by(20).collect();
    let file = dir.join("killers.csv");
    let text = std::iter::once(header)
        .chain(picked.iter().copied())
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&file, text).expect("write killers");
    let labels: Vec<String> = picked
        .iter()
        .map(|l| format!("killer {}", l.split(',').nth(1).unwrap_or("?")))
        .collect();
    explained(&file, &labels)
}

/// Two puzzles of each generated variant, parameter set and difficulty; a
/// difficulty the plugin does not offer is a golden line too.
fn generated_lines(dir: &Path) -> Vec<String> {
    let file = dir.join("generated.jsonl");
    let (mut jsonl, mut labels, mut refused) = (String::new(), Vec::new(), Vec::new());
    for (variant, params) in GENERATED {
        for difficulty in DIFFICULTIES {
            for seed in SEEDS {
                let mut args = vec!["generate", "--variant", variant];
                for p in *params {
                    args.extend(["--param", p]);
                }
                args.extend(["--difficulty", difficulty, "--seed", seed]);
                let label = format!("{variant} {} {difficulty} {seed}", params.join(","));
                let out = arena(&args, None);
                if !out.status.success() {
                    let why = String::from_utf8_lossy(&out.stderr);
                    assert!(why.contains("does not offer"), "{label}: {why}");
                    refused.push(format!("{label}\tnot offered"));
                    continue;
                }
                let line = String::from_utf8(out.stdout).expect("utf-8");
                labels.push(format!("{label} puzzle {}", hash(&line)));
                jsonl.push_str(&line);
            }
        }
    }
    std::fs::write(&file, jsonl).expect("write generated");
    let mut lines = explained(&file, &labels);
    lines.extend(refused);
    lines
}

#[test]
fn grades_and_explanations_match_the_golden_file() {
    let dir = temp_dir("golden");
    let mut lines = peer_lines(&dir);
    lines.extend(killer_lines(&dir));
    lines.extend(generated_lines(&dir));
    let actual = lines.join("\n") + "\n";
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &actual).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    let differing: Vec<String> = expected
        .lines()
        .zip(actual.lines())
        .filter(|(e, a)| e != a)
        .take(10)
        .map(|(e, a)| format!("  golden: {e}\n  now:    {a}"))
        .collect();
    assert!(
        differing.is_empty() && expected.lines().count() == actual.lines().count(),
        "the grader or a generator changed what it says ({} golden lines, {} now); \
         first differences:\n{}\nIf the change is meant, rewrite the file with \
         UPDATE_GOLDEN=1 cargo test -p arena-tests --test golden and commit it \
         with the reason.",
        expected.lines().count(),
        actual.lines().count(),
        differing.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
