//! `arena daily`, the real binary with the real plugins: the puzzles of the day
//! written in the archive's layout are the same from two processes, valid, and
//! re-read by `arena validate`; a second run keeps every valid file and replaces
//! a damaged one.

use arena_tests::process::run_arena;
use std::path::{Path, PathBuf};

fn arena(args: &[&str]) -> (bool, String, String) {
    let ran = run_arena(args);
    (ran.ok, ran.stdout, ran.stderr)
}

/// `arena daily` for 2026-12-31 and the next day into `dir`.
fn two_days(dir: &Path) -> (bool, String, String) {
    arena(&[
        "daily",
        "--date",
        "2026-12-31",
        "--days",
        "2",
        "--out",
        dir.to_str().expect("utf-8"),
    ])
}

/// How many output lines start with `verb`.
fn count(out: &str, verb: &str) -> usize {
    out.lines().filter(|l| l.starts_with(verb)).count()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-daily-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every file below `dir`, relative, with its bytes, sorted.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).expect("file");
                out.push((p.strip_prefix(dir).expect("below").to_path_buf(), bytes));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn daily_archive_is_deterministic_valid_and_idempotent() {
    let (a, b) = (temp("a"), temp("b"));
    for dir in [&a, &b] {
        let (ok, out, err) = two_days(dir);
        assert!(ok, "{err}");
        // Two days (crossing into 2027) x (classic + 5 Gattai modes) x 4 difficulties.
        assert_eq!(count(&out, "wrote "), 48, "{out}");
    }
    let files = tree(&a);
    assert_eq!(
        files,
        tree(&b),
        "two processes, different puzzles of the day"
    );
    assert!(files
        .iter()
        .any(|(p, _)| p == Path::new("puzzles/2026/easy/2026-12-31-001.json")));
    assert!(files
        .iter()
        .any(|(p, _)| p == Path::new("puzzles/2027/gattai/twin-nw/extreme/2027-01-01-001.json")));

    let (ok, out, _) = arena(&["validate", a.to_str().expect("utf-8")]);
    assert!(
        ok && out.lines().count() == 48 && out.lines().all(|l| l.ends_with(": ok")),
        "{out}"
    );

    // Damage one file: the next run replaces it and keeps the rest.
    let damaged = a.join("puzzles/2026/hard/2026-12-31-001.json");
    std::fs::write(&damaged, b"{\"date\": \"2026-12-31\", \"grid\": []}").expect("damage");
    let (ok, out, _) = arena(&["validate", a.to_str().expect("utf-8")]);
    assert!(!ok && out.contains("2026-12-31-001.json: FAIL"), "{out}");
    let (ok, out, err) = two_days(&a);
    assert!(ok, "{err}");
    assert_eq!(count(&out, "kept "), 47, "{out}");
    assert_eq!(count(&out, "replaced "), 1, "{out}");
    assert_eq!(
        tree(&a),
        tree(&b),
        "the replaced file is the same puzzle again"
    );
    for dir in [a, b] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_bad_date_is_refused() {
    let (ok, _, err) = arena(&[
        "daily",
        "--date",
        "2026-02-30",
        "--out",
        temp("bad").to_str().expect("utf-8"),
    ]);
    assert!(!ok);
    assert!(err.contains("'2026-02-30' is not a date"), "{err}");
}

/// The canonical forms `arena canon` prints for two puzzle files.
fn canonical_forms(a: &Path, b: &Path) -> (String, String) {
    let (ok, out, err) = arena(&[
        "canon",
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{err}");
    match out.lines().collect::<Vec<_>>()[..] {
        [x, y] => (x.to_string(), y.to_string()),
        _ => panic!("two forms expected: {out}"),
    }
}

#[test]
fn the_archive_never_takes_a_disguised_copy_of_a_puzzle_it_has() {
    let (a, b) = (temp("dup-a"), temp("dup-b"));
    let day = |dir: &Path| {
        arena(&[
            "daily",
            "--date",
            "2027-03-01",
            "--out",
            dir.to_str().expect("utf-8"),
        ])
    };
    // The day's easy classic as it is made with nothing in the archive.
    let (ok, _, err) = day(&a);
    assert!(ok, "{err}");
    let made = a.join("puzzles/2027/easy/2027-03-01-001.json");
    let text = std::fs::read_to_string(&made).expect("made");
    // Its disguise (transposed, digits v -> 10 - v) filed the day before.
    let mut file: serde_json::Value = serde_json::from_str(&text).expect("json");
    for key in ["grid", "solution"] {
        let grid: Vec<Vec<u32>> = serde_json::from_value(file[key].clone()).expect("9x9");
        let moved: Vec<Vec<u32>> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| match grid[c][r] {
                        0 => 0,
                        v => 10 - v,
                    })
                    .collect()
            })
            .collect();
        file[key] = serde_json::json!(moved);
    }
    file["date"] = serde_json::json!("2027-02-28");
    let copy = b.join("puzzles/2027/easy/2027-02-28-001.json");
    std::fs::create_dir_all(copy.parent().expect("dir")).expect("mkdir");
    std::fs::write(&copy, file.to_string()).expect("write");
    let (made_form, copy_form) = canonical_forms(&made, &copy);
    assert_eq!(
        made_form, copy_form,
        "the copy is a disguise of the day's puzzle"
    );

    // With the copy in the archive, the day's puzzle is made again.
    let (ok, out, err) = day(&b);
    assert!(ok, "{err}");
    let line = out
        .lines()
        .find(|l| l.ends_with("puzzles/2027/easy/2027-03-01-001.json"))
        .expect("the easy file's line");
    assert!(
        line.starts_with("wrote (equivalent to") && line.contains("2027-02-28-001.json"),
        "{line}"
    );
    let fresh = b.join("puzzles/2027/easy/2027-03-01-001.json");
    let (fresh_form, copy_form) = canonical_forms(&fresh, &copy);
    assert_ne!(
        fresh_form, copy_form,
        "the archive holds no two equivalent puzzles"
    );
    let (ok, out, _) = arena(&["validate", b.to_str().expect("utf-8")]);
    assert!(ok, "{out}");
    for dir in [a, b] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
