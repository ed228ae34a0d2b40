//! `arena validate`: structure, uniqueness, and that a shipped solution is the
//! solution. One line per puzzle (`NAME: ok` or `NAME: FAIL reason`).

use engine::check::check_solution;
use std::io::Write;
use std::path::PathBuf;

/// Validates every puzzle in `files`; `Ok(false)` if any fails.
pub fn run(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for entry in &entries {
        match verdict(entry) {
            Ok(()) => writeln!(out, "{}: ok", entry.name)?,
            Err(reason) => {
                failed += 1;
                writeln!(out, "{}: FAIL {reason}", entry.name)?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        eprintln!("{failed} of {} puzzles failed validation", entries.len());
        ok = false;
    }
    Ok(ok)
}

fn verdict(entry: &crate::input::Entry) -> Result<(), String> {
    let loaded = entry.puzzle.as_ref().map_err(|e| e.clone())?;
    let count = loaded.puzzle.count(2);
    match count.solutions {
        0 => return Err("no solution".into()),
        1 => {}
        _ => return Err("several solutions".into()),
    }
    if let Some(shipped) = &loaded.solution {
        check_solution(loaded.puzzle.model(), shipped)
            .map_err(|e| format!("shipped solution breaks a rule: {e}"))?;
        if count.first.as_deref() != Some(&shipped[..]) {
            return Err("shipped solution is not the puzzle's solution".into());
        }
    }
    Ok(())
}
