//! `arena canon`, `arena dedupe`, `arena minimal`, `arena minimize` and
//! `arena search --fewest` as a user runs them: real puzzles of the shared datasets, disguised copies
//! written by the test, and files of other variants beside them.

use arena_tests::process::run_arena;
use arena_tests::{read_dataset, temp_dir};

/// A disguise of a classic line: bands, rows, stacks and columns in another
/// order, transposed, digits renamed (fixed choices, no randomness needed).
fn disguised(line: &str) -> String {
    let cells: Vec<char> = line.chars().collect();
    let rows = [7, 6, 8, 1, 0, 2, 4, 5, 3];
    let cols = [2, 0, 1, 8, 7, 6, 5, 3, 4];
    let names = ['4', '9', '1', '7', '3', '2', '8', '6', '5'];
    (0..81)
        .map(|k| {
            // Transposed: output (i, j) shows source (cols[j], rows[i]).
            let c = cells[cols[k % 9] * 9 + rows[k / 9]];
            match c.to_digit(10) {
                Some(d) if d > 0 => names[d as usize - 1],
                _ => '.',
            }
        })
        .collect()
}

#[test]
fn dedupe_drops_exactly_the_disguised_copies_and_names_what_it_kept() {
    let originals: Vec<String> = read_dataset("classic/17-clue.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(40)
        .map(|l| l[..81].to_string())
        .collect();
    let mut lines = originals.clone();
    lines.push(disguised(&originals[3]));
    lines.push(disguised(&originals[17]));
    let dir = temp_dir("cli-canon");
    let file = dir.join("puzzles.txt");
    std::fs::write(&file, lines.join("\n")).expect("write");
    let path = file.to_str().expect("path");

    let canon = run_arena(&["canon", path]);
    assert!(canon.ok, "{}", canon.stderr);
    let forms: Vec<&str> = canon.stdout.lines().collect();
    assert_eq!(forms.len(), 42);
    assert_eq!(forms[40], forms[3], "a copy has its original's form");
    assert_eq!(forms[41], forms[17]);
    // The file is in Royle's canonical order: each puzzle is its own form
    // (0 before any digit, digits named in reading order).
    assert_eq!(forms[0].replace('.', "0"), originals[0].replace('.', "0"));

    let dedupe = run_arena(&["dedupe", path]);
    assert!(dedupe.ok, "{}", dedupe.stderr);
    assert_eq!(dedupe.stdout.lines().count(), 40);
    assert!(
        dedupe.stderr.contains(":41: the same as "),
        "{}",
        dedupe.stderr
    );
    assert!(
        dedupe.stderr.contains(":42: the same as "),
        "{}",
        dedupe.stderr
    );
    assert!(
        dedupe.stderr.contains("puzzles.txt:4\n"),
        "{}",
        dedupe.stderr
    );
    assert!(
        dedupe.stderr.contains("42 puzzles: 40 kept, 2 dropped"),
        "{}",
        dedupe.stderr
    );
}

#[test]
fn different_variants_are_never_the_same_puzzle() {
    // One X-Sudoku and the same givens as a classic: two puzzles.
    let x = run_arena(&[
        "generate",
        "--variant",
        "x-sudoku",
        "--difficulty",
        "easy",
        "--seed",
        "canon",
    ]);
    assert!(x.ok, "{}", x.stderr);
    let dir = temp_dir("cli-canon-variants");
    let x_file = dir.join("x.jsonl");
    std::fs::write(&x_file, &x.stdout).expect("write");
    let v1: serde_json::Value =
        serde_json::from_str(x.stdout.lines().next().expect("a line")).expect("json");
    let givens: String = v1["grid"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| {
            r.as_array()
                .expect("row")
                .iter()
                .map(|v| v.as_u64().unwrap_or(0).to_string())
        })
        .collect();
    let classic_file = dir.join("classic.txt");
    std::fs::write(&classic_file, format!("{givens}\n")).expect("write");
    let dedupe = run_arena(&[
        "dedupe",
        x_file.to_str().expect("path"),
        classic_file.to_str().expect("path"),
    ]);
    assert!(dedupe.ok, "{}", dedupe.stderr);
    assert!(
        dedupe.stderr.contains("2 puzzles: 2 kept, 0 dropped"),
        "{}",
        dedupe.stderr
    );
}

#[test]
fn minimal_names_the_clues_that_can_go_and_minimize_removes_them() {
    // A 17-clue puzzle is minimal; a generated easy one has clues to spare.
    let seventeen = read_dataset("classic/17-clue.txt")
        .lines()
        .find(|l| !l.starts_with('#') && l.len() >= 81)
        .expect("a puzzle")[..81]
        .to_string();
    let easy = run_arena(&["generate", "--difficulty", "easy", "--seed", "minimal"]);
    assert!(easy.ok, "{}", easy.stderr);
    let dir = temp_dir("cli-minimal");
    let text = dir.join("seventeen.txt");
    std::fs::write(&text, format!("{seventeen}\n")).expect("write");
    let v1 = dir.join("easy.jsonl");
    std::fs::write(&v1, &easy.stdout).expect("write");
    let (text, v1) = (text.to_str().expect("path"), v1.to_str().expect("path"));

    let minimal = run_arena(&["minimal", text, v1]);
    assert!(minimal.ok, "{}", minimal.stderr);
    let lines: Vec<&str> = minimal.stdout.lines().collect();
    assert_eq!(lines[0], "minimal");
    assert!(lines[1].starts_with("not minimal: "), "{}", lines[1]);
    assert!(lines[1].contains("clues can go (r"), "{}", lines[1]);

    let minimized = run_arena(&["minimize", v1]);
    assert!(minimized.ok, "{}", minimized.stderr);
    let out = dir.join("minimized.jsonl");
    std::fs::write(&out, &minimized.stdout).expect("write");
    let out = out.to_str().expect("path");
    let again = run_arena(&["minimal", out]);
    assert_eq!(again.stdout.trim(), "minimal", "{}", again.stderr);
    let count = run_arena(&["count", out]);
    assert_eq!(count.stdout.trim(), "1");
    // Fewer clues, the same solution, no stale grade.
    let before: serde_json::Value =
        serde_json::from_str(easy.stdout.lines().next().expect("a line")).expect("json");
    let after: serde_json::Value = serde_json::from_str(minimized.stdout.trim()).expect("json");
    assert!(after["clueCount"].as_u64() < before["clueCount"].as_u64());
    assert_eq!(after["solution"], before["solution"]);
    assert!(after.get("grade").is_none_or(|g| g.is_null()));
}

#[test]
fn search_finds_fewer_clues_the_same_way_for_the_same_seed() {
    let args = [
        "search",
        "--fewest",
        "--variant",
        "windoku",
        "--param",
        "diagonals=true",
        "--seed",
        "fixed",
        "--tries",
        "600",
    ];
    let first = run_arena(&args);
    assert!(first.ok, "{}", first.stderr);
    let again = run_arena(&args);
    assert_eq!(first.stdout, again.stdout, "deterministic per seed");
    // Progress and the result on stderr; fewer clues than at the start.
    let start: usize = first
        .stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix("start: ")?
                .strip_suffix(" clues")?
                .parse()
                .ok()
        })
        .expect("a start line");
    let best: serde_json::Value = serde_json::from_str(first.stdout.trim()).expect("v1");
    let clues = best["grid"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r.as_array().expect("row").iter())
        .filter(|v| v.as_u64() != Some(0))
        .count();
    assert!(clues < start, "{clues} clues, started at {start}");
    let dir = temp_dir("cli-search");
    let file = dir.join("best.jsonl");
    std::fs::write(&file, &first.stdout).expect("write");
    let file = file.to_str().expect("path");
    assert_eq!(run_arena(&["count", file]).stdout.trim(), "1");
    assert_eq!(run_arena(&["minimal", file]).stdout.trim(), "minimal");
}

#[test]
fn generation_asked_for_minimal_puzzles_gives_puzzles_whose_every_clue_is_needed() {
    let dir = temp_dir("cli-minimal-generate");
    for (variant, difficulty) in [
        ("classic", "medium"),
        ("x-sudoku", "easy"),
        ("jigsaw", "medium"),
    ] {
        let made = run_arena(&[
            "generate",
            "--variant",
            variant,
            "--difficulty",
            difficulty,
            "--seed",
            "minimal",
            "--count",
            "3",
            "--minimal",
        ]);
        assert!(made.ok, "{variant}: {}", made.stderr);
        for line in made.stdout.lines() {
            let p: protocol::PuzzleV1 = serde_json::from_str(line).expect("a v1 puzzle");
            assert_eq!(
                p.difficulty.as_deref(),
                Some(difficulty),
                "the tier is kept"
            );
        }
        let file = dir.join(format!("{variant}.jsonl"));
        std::fs::write(&file, &made.stdout).expect("write");
        let path = file.to_string_lossy().to_string();
        let checked = run_arena(&["minimal", &path]);
        assert!(checked.ok, "{}", checked.stderr);
        assert_eq!(
            checked.stdout.lines().collect::<Vec<_>>(),
            vec!["minimal"; 3],
            "{variant}"
        );
    }
    // Without the flag a generated puzzle may keep clues it can spare: the
    // flag is what makes them minimal (so the check above could fail).
    let plain = run_arena(&[
        "generate",
        "--variant",
        "classic",
        "--difficulty",
        "easy",
        "--seed",
        "minimal",
        "--count",
        "5",
    ]);
    let file = dir.join("plain.jsonl");
    std::fs::write(&file, &plain.stdout).expect("write");
    let checked = run_arena(&["minimal", &file.to_string_lossy()]);
    assert!(
        checked.stdout.lines().any(|l| l.starts_with("not minimal")),
        "{}",
        checked.stdout
    );
}
