//! End-to-end tests of the `arena` binary: real processes, real files, the shared
//! datasets.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

/// `$ARENA_DATASETS`, else `shared/datasets` in the nearest ancestor of the project
/// root that has one (normally `../shared/datasets`).
fn datasets() -> PathBuf {
    if let Some(dir) = std::env::var_os("ARENA_DATASETS") {
        return PathBuf::from(dir);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.ancestors()
        .map(|a| a.join("shared/datasets"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| root.join("../shared/datasets"))
}

/// A fresh file in a per-test temporary directory.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "arena-cli-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

fn arena(args: &[&str]) -> Output {
    Command::new(ARENA).args(args).output().expect("run arena")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Lines `first..first + n` (0-based, comments included) of a dataset file.
fn dataset_lines(file: &str, first: usize, n: usize) -> String {
    let text = std::fs::read_to_string(datasets().join(file)).expect("dataset");
    text.lines()
        .skip(first)
        .take(n)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn count_prints_one_line_per_puzzle_and_a_summary() {
    let file = temp_file("sample.txt", &dataset_lines("classic/17-clue.txt", 0, 204));
    let o = arena(&["count", file.to_str().expect("utf-8 path")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 200, "four comment lines are skipped");
    assert!(lines.iter().all(|l| l == "1"));
    let summary = stderr(&o);
    assert!(
        summary.contains("200 puzzles: 200 unique, 0 none, 0 several"),
        "{summary}"
    );
    assert!(summary.contains("puzzles/s"), "{summary}");
}

#[test]
fn count_reports_limits_none_and_invalid_in_input_order() {
    let puzzle = dataset_lines("classic/17-clue.txt", 4, 1);
    let first_clue = puzzle
        .find(|c: char| c.is_ascii_digit() && c != '0')
        .expect("a clue");
    let mut fewer = puzzle.clone().into_bytes();
    fewer[first_clue] = b'.';
    let fewer = String::from_utf8(fewer).expect("ascii");
    let empty = ".".repeat(81) + "\n";
    let clash = format!("11{}\n", ".".repeat(79));
    let text = format!("{puzzle}{fewer}{empty}{clash}");
    let file = temp_file("mixed.txt", &text);
    let o = arena(&["count", "--limit", "5", file.to_str().expect("utf-8 path")]);
    assert_eq!(stdout(&o), "1\n5+\n5+\ninvalid\n");
    assert!(
        !o.status.success(),
        "an invalid puzzle makes the exit status fail"
    );
    assert!(stderr(&o)
        .contains("mixed.txt:4: givens contradict the rules: 1 at [0,0] and [0,1] in row house 0"));
    let o = arena(&["count", file.to_str().expect("utf-8 path")]);
    assert_eq!(stdout(&o), "1\n2+\n2+\ninvalid\n");
}

#[test]
fn solve_text_and_v1_keep_their_form() {
    let text = dataset_lines("classic/forum-hardest-1106.txt", 2, 3);
    let file = temp_file("hard.txt", &text);
    let o = arena(&["solve", file.to_str().expect("utf-8 path")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let solutions: Vec<&str> = out.lines().collect();
    assert_eq!(solutions.len(), 3);
    for (puzzle, solution) in text.lines().zip(&solutions) {
        assert_eq!(solution.len(), 81);
        assert!(puzzle
            .bytes()
            .zip(solution.bytes())
            .all(|(p, s)| p == b'.' || p == b'0' || p == s));
        assert!(solution.bytes().all(|b| (b'1'..=b'9').contains(&b)));
    }
    // The solved lines, fed back, count as unique.
    let solved = temp_file("solved.txt", &out);
    assert_eq!(
        stdout(&arena(&["count", solved.to_str().expect("utf-8 path")])),
        "1\n1\n1\n"
    );

    let g = arena(&[
        "generate",
        "--param",
        "box=2x3",
        "--difficulty",
        "hard",
        "--seed",
        "s",
    ]);
    let v1: serde_json::Value = serde_json::from_slice(&g.stdout).expect("v1 JSON");
    let mut without = v1.clone();
    without.as_object_mut().expect("object").remove("solution");
    let file = temp_file(
        "mini.json",
        &serde_json::to_string_pretty(&without).expect("json"),
    );
    let o = arena(&["solve", file.to_str().expect("utf-8 path")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let solved: serde_json::Value = serde_json::from_slice(&o.stdout).expect("v1 JSON line");
    assert_eq!(solved["solution"], v1["solution"]);
    assert_eq!(solved["grid"], v1["grid"]);
}

#[test]
fn generate_is_deterministic_and_validates_for_every_box() {
    // Each shape at a difficulty it offers (a 4x4 is only ever easy, a 16x16
    // easy or extreme).
    for (shape, cells, difficulty) in [
        ("2x2", 16, "easy"),
        ("2x3", 36, "medium"),
        ("3x3", 81, "medium"),
        ("4x4", 256, "easy"),
    ] {
        let args = [
            "generate",
            "--variant",
            "classic",
            "--param",
            &format!("box={shape}"),
            "--difficulty",
            difficulty,
            "--seed",
            "2026-01-15",
            "--count",
            "2",
        ];
        let a = arena(&args);
        let b = arena(&args);
        assert!(a.status.success(), "{shape}: {}", stderr(&a));
        assert_eq!(a.stdout, b.stdout, "{shape}: same seed, same bytes");
        let lines: Vec<serde_json::Value> = stdout(&a)
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON line"))
            .collect();
        assert_eq!(lines.len(), 2);
        assert_ne!(
            lines[0]["grid"], lines[1]["grid"],
            "{shape}: puzzles differ"
        );
        assert_eq!(lines[0]["seed"], "2026-01-15");
        assert_eq!(lines[1]["seed"], "2026-01-15#1");
        assert_eq!(lines[0]["params"]["box"], shape);
        assert_eq!(lines[0]["difficulty"], difficulty);
        assert_eq!(
            lines[0]["grade"]["tier"], difficulty,
            "{shape}: the label is the grade"
        );
        let grid_cells: usize = lines[0]["grid"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r.as_array().expect("row").len())
            .sum();
        assert_eq!(grid_cells, cells);
        let file = temp_file("gen.jsonl", &stdout(&a));
        let v = arena(&["validate", file.to_str().expect("utf-8 path")]);
        assert!(v.status.success(), "{shape}: {}{}", stdout(&v), stderr(&v));
        assert_eq!(stdout(&v).matches(": ok").count(), 2);
    }
    // A difficulty a shape does not offer is refused, naming what it offers.
    let refused = arena(&[
        "generate",
        "--param",
        "box=2x2",
        "--difficulty",
        "hard",
        "--seed",
        "x",
    ]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("does not offer difficulty 'hard' for these parameters (easy)"),
        "{}",
        stderr(&refused)
    );
    // Regenerating puzzle #1 from its recorded seed gives the same puzzle.
    let many = arena(&[
        "generate",
        "--difficulty",
        "easy",
        "--seed",
        "x",
        "--count",
        "2",
    ]);
    let one = arena(&["generate", "--difficulty", "easy", "--seed", "x#1"]);
    assert_eq!(stdout(&many).lines().nth(1), stdout(&one).lines().next());
}

#[test]
fn generated_9x9_puzzles_sit_in_their_clue_bands() {
    for (level, lo, hi) in [("easy", 40, 45), ("medium", 32, 39), ("hard", 26, 31)] {
        let o = arena(&[
            "generate",
            "--difficulty",
            level,
            "--seed",
            "band",
            "--count",
            "3",
        ]);
        for line in stdout(&o).lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let clues = v["clueCount"].as_u64().expect("clueCount") as usize;
            assert!((lo..=hi).contains(&clues), "{level}: {clues} clues");
        }
    }
}

#[test]
fn validate_names_the_puzzle_and_the_problem() {
    let g = arena(&[
        "generate",
        "--difficulty",
        "easy",
        "--seed",
        "v",
        "--count",
        "3",
    ]);
    let mut lines: Vec<serde_json::Value> = stdout(&g)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    // Line 2: a wrong shipped solution. Line 3: a house cell out of the layout.
    let s = &mut lines[1]["solution"];
    let (a, b) = (s[0][0].clone(), s[0][1].clone());
    s[0][0] = b;
    s[0][1] = a;
    lines[2]["houses"][0]["cells"][0] = serde_json::json!([9, 0]);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect::<String>() + "{broken\n";
    let file = temp_file("bad.jsonl", &text);
    let o = arena(&["validate", file.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("bad.jsonl:1: ok"), "{out}");
    assert!(out.contains("bad.jsonl:2: FAIL shipped solution"), "{out}");
    assert!(
        out.contains("bad.jsonl:3: FAIL house 0 (row): cell [9,0] is outside the 9x9 layout"),
        "{out}"
    );
    assert!(out.contains("bad.jsonl:4: FAIL not JSON"), "{out}");
}

#[test]
fn bad_arguments_and_files_get_clear_errors() {
    let o = arena(&[
        "generate",
        "--param",
        "box=6x6",
        "--difficulty",
        "hard",
        "--seed",
        "a",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("box=6x6 is not offered"));
    let o = arena(&[
        "generate",
        "--variant",
        "nonesuch",
        "--difficulty",
        "hard",
        "--seed",
        "a",
    ]);
    assert!(stderr(&o).contains("unknown variant 'nonesuch'"));
    let o = arena(&["generate", "--difficulty", "impossible", "--seed", "a"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("does not offer difficulty 'impossible'"));
    let o = arena(&["count", "/nonexistent/puzzles.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/nonexistent/puzzles.txt: cannot read"));
    let file = temp_file("array.json", "[{\"format\": 1}, ");
    let o = arena(&["count", file.to_str().expect("utf-8 path")]);
    assert_eq!(stdout(&o), "invalid\n");
    assert!(stderr(&o).contains("not a JSON array of puzzles"));
}
