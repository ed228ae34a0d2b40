//! `arena grade` and `arena explain` on real puzzles: one line per puzzle with
//! tier, rating and hardest technique; a step-by-step solution in plain words;
//! clear errors for puzzles that cannot be graded. Uses the built binary.

use arena_tests::{built_arena, read_dataset};
use std::process::Command;

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-grade-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, text).expect("write");
    file
}

#[test]
fn grade_prints_tier_rating_and_technique_and_explain_prints_steps() {
    // Two singles-only puzzles and one SE rates 3.2 (an X-Wing).
    let easy: Vec<String> = read_dataset("rated/bucket-easy-dev.txt")
        .lines()
        .take(2)
        .map(|l| l[..81].to_string())
        .collect();
    let xwing = read_dataset("rated/se-rated-dev.txt")
        .lines()
        .find(|l| l.ends_with(" 3.2"))
        .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
        .expect("a 3.2 puzzle");
    let file = write("three.txt", &format!("{}\n{}\n{xwing}\n", easy[0], easy[1]));
    let o = Command::new(built_arena())
        .arg("grade")
        .arg(&file)
        .output()
        .expect("run arena");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0][1], "easy");
    assert_eq!(lines[1][1], "easy");
    assert_eq!(lines[2][2], "3.2", "{out}");
    assert_eq!(lines[2][3], "X-Wing", "{out}");
    assert_eq!(lines[2][1], "hard", "{out}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("3 graded"));

    let one = write("one.txt", &format!("{xwing}\n"));
    let o = Command::new(built_arena())
        .arg("explain")
        .arg(&one)
        .output()
        .expect("run arena");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    assert!(
        out.lines()
            .any(|l| l.contains("X-Wing: ") && l.contains("So remove")),
        "{out}"
    );
    assert!(
        out.lines().next().is_some_and(|l| l.starts_with("1. ")),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("Solved: hard, rating 3.2 (X-Wing)."),
        "{out}"
    );
}

/// `--seconds` bounds each puzzle's grade: none at all leaves it
/// `unfinished` (a line of its own, counted in the summary) and the run
/// still succeeds; enough time grades it as without the option; a limit
/// that is not a number of seconds is refused.
#[test]
fn seconds_bound_each_grade() {
    let puzzle = read_dataset("rated/se-rated-dev.txt")
        .lines()
        .find(|l| l.ends_with(" 3.2"))
        .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
        .expect("a 3.2 puzzle");
    let file = write("bounded.txt", &format!("{puzzle}\n"));
    let run = |seconds: &str| {
        Command::new(built_arena())
            .args(["grade", &format!("--seconds={seconds}")])
            .arg(&file)
            .output()
            .expect("run arena")
    };
    let o = run("0");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let fields: Vec<&str> = out.trim_end().split('\t').collect();
    assert_eq!(
        fields[1..],
        ["unfinished", "-", "-", "not graded within 0 s"],
        "{out}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("1 unfinished within the time given"), "{err}");

    let o = run("600");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("\thard\t3.2\tX-Wing\t"), "{out}");

    for bad in ["-1", "soon", "NaN", "100000"] {
        let o = run(bad);
        assert!(!o.status.success(), "--seconds {bad} accepted");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("expected seconds from 0 to 86400"), "{err}");
    }
}

#[test]
fn puzzles_that_cannot_be_graded_are_named_and_fail_the_run() {
    let empty = ".".repeat(81);
    let bad = format!("{}{}", "11", ".".repeat(79));
    let file = write("bad.txt", &format!("{empty}\n{bad}\n"));
    let o = Command::new(built_arena())
        .arg("grade")
        .arg(&file)
        .output()
        .expect("run arena");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.txt:1: several solutions"), "{err}");
    assert!(err.contains("bad.txt:2"), "{err}");
}
