//! The `arena` binary on killer puzzles written as v1 JSON Lines: every rule
//! (cages included) travels in the file, and `solve`/`validate` need nothing else.
//! Uses the binary cargo built beside the plugins (`make test` builds it).

use arena_tests::{built_arena, killer_records};
use engine::v1::to_v1;
use std::process::Command;

#[test]
fn killer_as_v1_solves_to_the_shipped_solution() {
    let records = killer_records("killer/krazydad-intermediate.csv");
    let sample: Vec<_> = records.iter().step_by(997).take(8).collect();
    let mut text = String::new();
    for r in &sample {
        let mut v = to_v1(&r.puzzle, None);
        v.variant = Some("killer".into());
        text.push_str(&serde_json::to_string(&v).expect("json"));
        text.push('\n');
    }
    let dir = std::env::temp_dir().join(format!("arena-killer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("killer.jsonl");
    std::fs::write(&file, &text).expect("write");

    let arena = built_arena();
    assert!(
        arena.exists(),
        "{} missing: run `cargo build --workspace` first",
        arena.display()
    );
    let o = Command::new(&arena)
        .arg("solve")
        .arg(&file)
        .output()
        .expect("run arena");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    assert_eq!(out.lines().count(), sample.len());
    for (line, r) in out.lines().zip(&sample) {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let got: Vec<u8> = v["solution"]
            .as_array()
            .expect("rows")
            .iter()
            .flat_map(|row| {
                row.as_array()
                    .expect("row")
                    .iter()
                    .map(|x| x.as_u64().expect("digit") as u8)
            })
            .collect();
        assert_eq!(got, r.solution, "{}", r.title);
    }
    let v = Command::new(&arena)
        .arg("validate")
        .arg(&file)
        .output()
        .expect("run arena");
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
}

/// Runs the built `arena` with `args`; (success, stdout, stderr).
fn arena(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let o = Command::new(built_arena())
        .args(args)
        .output()
        .expect("run arena");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A krazydad killer in the reference solver's text form: the first cell of
/// each cage (in reading order) holds its total; every other cell points at a
/// neighbour already in its cage.
fn text_form(r: &arena_tests::KillerRecord) -> String {
    let model = r.puzzle.model();
    let mut tokens = vec![String::new(); 81];
    for cage in model.cages() {
        let mut cells: Vec<u32> = cage.cells.clone();
        cells.sort_unstable();
        tokens[cells[0] as usize] = cage.sum.to_string();
        let mut reached = vec![cells[0]];
        while reached.len() < cells.len() {
            for &c in &cells {
                if reached.contains(&c) {
                    continue;
                }
                let (row, col) = (c / 9, c % 9);
                let towards = [
                    (col > 0).then(|| (c - 1, "L")),
                    (row > 0).then(|| (c - 9, "U")),
                    (col < 8).then(|| (c + 1, "R")),
                    (row < 8).then(|| (c + 9, "D")),
                ];
                if let Some((_, letter)) = towards
                    .into_iter()
                    .flatten()
                    .find(|(n, _)| reached.contains(n))
                {
                    tokens[c as usize] = letter.to_string();
                    reached.push(c);
                }
            }
        }
    }
    tokens
        .chunks(9)
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn killers_in_text_and_csv_forms_solve_and_export_to_v1() {
    let records = killer_records("killer/krazydad-intermediate.csv");
    let sample: Vec<_> = records.iter().step_by(1999).take(4).collect();
    let dir = std::env::temp_dir().join(format!("arena-killer-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = dir.join("killers.txt");
    let body: Vec<String> = sample.iter().map(|r| text_form(r)).collect();
    std::fs::write(&text, body.join("\n\n")).expect("write");

    // The text form solves to the shipped solutions, one 81-digit line each.
    let (ok, out, err) = arena(&["solve".as_ref(), text.as_os_str()]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), sample.len());
    for (line, r) in lines.iter().zip(&sample) {
        let digits: Vec<u8> = line.bytes().map(|b| b - b'0').collect();
        assert_eq!(digits, r.solution, "{}", r.title);
    }

    // Exported to v1, it is a killer of the plugin's kind that validates.
    let (ok, v1, err) = arena(&[
        "export".as_ref(),
        "--format".as_ref(),
        "v1".as_ref(),
        text.as_os_str(),
    ]);
    assert!(ok, "{err}");
    let first: serde_json::Value =
        serde_json::from_str(v1.lines().next().expect("a line")).expect("JSON");
    assert_eq!(first["variant"], "killer");
    assert_eq!(first["params"]["size"], "9x9");
    assert_eq!(
        first["cages"].as_array().map(Vec::len),
        Some(sample[0].puzzle.model().cages().len())
    );
    let exported = dir.join("killers.jsonl");
    std::fs::write(&exported, &v1).expect("write");
    let (ok, out, err) = arena(&["validate".as_ref(), exported.as_os_str()]);
    assert!(ok, "{out}{err}");

    // The krazydad CSV itself (header, index column) validates too.
    let csv = dir.join("some.csv");
    let source = arena_tests::read_dataset("killer/krazydad-intermediate.csv");
    let head: Vec<&str> = source.lines().take(4).collect();
    std::fs::write(&csv, head.join("\n")).expect("write");
    let (ok, out, err) = arena(&["validate".as_ref(), csv.as_os_str()]);
    assert!(ok, "{out}{err}");
    assert_eq!(out.lines().filter(|l| l.contains("ok")).count(), 3, "{out}");

    // Explanations say what a killer player reasons with: the cage's sum and
    // digit sets, and what the 45 rule adds up.
    let (ok, out, err) = arena(&["explain".as_ref(), csv.as_os_str()]);
    assert!(ok, "{err}");
    let first = out
        .lines()
        .find(|l| l.starts_with("1. "))
        .expect("a first step");
    assert!(
        first.starts_with("1. Cage Combination: the cage r1c1")
            && first.contains("adds up to")
            && first.contains("which only"),
        "{first}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("45 Rule:") && l.contains("add up to")),
        "{out}"
    );
}

#[test]
fn malformed_killers_are_refused_naming_the_cage() {
    let records = killer_records("killer/krazydad-intermediate.csv");
    let good = text_form(&records[0]);
    let dir = std::env::temp_dir().join(format!("arena-killer-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let first_total: String = good.split_whitespace().next().expect("a token").to_string();
    let cases = [
        // One total too high: the totals no longer add up to 405.
        (
            format!(
                "{} {}",
                first_total.parse::<u32>().expect("total") + 1,
                &good[first_total.len() + 1..]
            ),
            "add up to 406",
        ),
        // A cage total that no two or more digits make.
        (
            format!(
                "3 L {}",
                good.split_whitespace()
                    .skip(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "r1c1",
        ),
        // A letter pointing out of the grid.
        (
            format!(
                "U {}",
                good.split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "outside the grid",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad-{i}.txt"));
        std::fs::write(&file, text).expect("write");
        let (ok, out, err) = arena(&["validate".as_ref(), file.as_os_str()]);
        assert!(!ok, "case {i} was accepted");
        assert!(
            format!("{out}{err}").contains(expected),
            "case {i}: {out}{err}"
        );
    }
    // A v1 killer whose cages overlap names both cages.
    let mut v = engine::v1::to_v1(&records[0].puzzle, None);
    v.variant = Some("killer".into());
    let stolen = v.cages[1].cells[0];
    v.cages[0].cells.push(stolen);
    v.cages[0].sum += u32::from(records[0].solution[(stolen[0] * 9 + stolen[1]) as usize]);
    let file = dir.join("overlap.json");
    std::fs::write(&file, serde_json::to_string(&v).expect("json")).expect("write");
    let (ok, out, err) = arena(&["validate".as_ref(), file.as_os_str()]);
    assert!(!ok);
    assert!(
        format!("{out}{err}").contains("is in two cages"),
        "{out}{err}"
    );
}
