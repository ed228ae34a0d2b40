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
