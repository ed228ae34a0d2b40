//! The daily archive we stay compatible with (`../shared/datasets/yendoku/`):
//! the real `arena` reads every file of it (classic and Gattai, grids under named
//! keys) and validates them all; exporting in its schema and reading back gives
//! the same puzzle, for the archive's own files and for puzzles our Gattai plugin
//! generates.

use arena_tests::dataset;
use arena_tests::process::run_arena;
use server::input::{read_file, read_text, Entry, Form};

/// Runs the built `arena` with `args`; its status and stdout.
fn arena(args: &[&str]) -> (bool, String) {
    let ran = run_arena(args);
    (ran.ok, ran.stdout)
}

/// Givens, solution and layout of an entry that must have read cleanly.
fn essence(entry: &Entry) -> (Vec<u8>, Option<Vec<u8>>, u32, u32, Option<&'static str>) {
    let loaded = entry
        .puzzle
        .as_ref()
        .unwrap_or_else(|e| panic!("{}: {e}", entry.name));
    let mode = match &entry.form {
        Some(Form::Archive(info)) => info.mode.map(|m| m.id),
        _ => None,
    };
    let model = loaded.puzzle.model();
    (
        loaded.puzzle.givens().to_vec(),
        loaded.solution.clone(),
        model.rows(),
        model.cols(),
        mode,
    )
}

#[test]
fn every_archive_file_validates() {
    let dir = dataset("yendoku/puzzles");
    let (ok, out) = arena(&["validate", dir.to_str().expect("utf-8 path")]);
    let lines: Vec<&str> = out.lines().collect();
    let failed: Vec<&&str> = lines.iter().filter(|l| !l.ends_with(": ok")).collect();
    assert!(ok && failed.is_empty(), "{failed:#?}");
    // 597 puzzles: classic 116, Gattai 481 (every mode, every difficulty).
    assert_eq!(lines.len(), 597);
    assert_eq!(lines.iter().filter(|l| l.contains("/gattai/")).count(), 481);
}

#[test]
fn exporting_and_reading_back_gives_the_same_puzzle() {
    let dir = dataset("yendoku/puzzles/2026");
    let mut files = Vec::new();
    for sub in [
        "easy",
        "extreme",
        "gattai/samurai/hard",
        "gattai/twin-ne/medium",
        "gattai/twin-se/extreme",
    ] {
        let mut in_dir: Vec<_> = std::fs::read_dir(dir.join(sub))
            .expect("archive folder")
            .flatten()
            .map(|e| e.path())
            .collect();
        in_dir.sort();
        files.extend(in_dir.into_iter().take(3));
    }
    for file in files {
        let entries = read_file(&file).expect("readable");
        let original = &entries[0];
        let (ok, exported) = arena(&[
            "export",
            "--format",
            "yendoku",
            file.to_str().expect("utf-8"),
        ]);
        assert!(ok, "{}", file.display());
        let back = read_text("exported", &exported);
        assert_eq!(back.len(), 1);
        assert_eq!(essence(original), essence(&back[0]), "{}", file.display());
    }
}

#[test]
fn generated_gattai_exports_to_the_archive_schema_and_back() {
    for mode in ["samurai", "twin-nw", "twin-ne", "twin-sw", "twin-se"] {
        let param = format!("mode={mode}");
        let (ok, v1) = arena(&[
            "generate",
            "--variant",
            "gattai",
            "--param",
            &param,
            "--difficulty",
            "medium",
            "--seed",
            "2026-03-01",
        ]);
        assert!(ok, "{mode}");
        let generated = read_text("generated", &v1);
        let dir = std::env::temp_dir().join(format!("arena-archive-{}-{mode}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("puzzle.jsonl");
        std::fs::write(&file, &v1).expect("write");
        let (ok, exported) = arena(&[
            "export",
            "--format",
            "yendoku",
            file.to_str().expect("utf-8"),
        ]);
        assert!(ok, "{mode}");
        let json: serde_json::Value = serde_json::from_str(exported.trim()).expect("JSON");
        assert_eq!(json["mode"], mode);
        assert_eq!(json["date"], "2026-03-01");
        assert_eq!(json["difficulty"], "medium");
        let back = read_text("exported", &exported);
        let (givens, solution, rows, cols, back_mode) = essence(&back[0]);
        let (g0, s0, r0, c0, _) = essence(&generated[0]);
        assert_eq!((givens, solution, rows, cols), (g0, s0, r0, c0), "{mode}");
        assert_eq!(back_mode, Some(mode));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
