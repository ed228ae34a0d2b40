//! `arena solve`: a solution of each puzzle — the first the search meets; it
//! does not look for a second (`arena count` and `arena validate` say whether a
//! puzzle is unique) — in the form it was written in
//! (81-character lines for classic text, v1 JSON Lines with `solution` for v1,
//! archive JSON Lines with every `solution` for the daily archive's schema).

use crate::input::Form;
use engine::v1::to_grid;
use std::io::Write;
use std::path::PathBuf;

/// Solves every puzzle in `files`, stopping at each one's first solution. `Ok(false)` if any was unreadable, invalid or
/// had no solution (those are reported on stderr and skipped on stdout).
pub fn run(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for entry in &entries {
        let loaded = match &entry.puzzle {
            Ok(l) => l,
            Err(message) => {
                eprintln!("{}: {message}", entry.name);
                ok = false;
                continue;
            }
        };
        let Some(values) = loaded.puzzle.first_solution() else {
            eprintln!("{}: no solution", entry.name);
            ok = false;
            continue;
        };
        match &entry.form {
            Some(Form::V1(original)) => {
                let mut solved = (**original).clone();
                solved.solution = Some(to_grid(loaded.puzzle.model(), &values));
                writeln!(out, "{}", serde_json::to_string(&solved)?)?;
            }
            Some(Form::Archive(info)) => {
                let solved = crate::archive::write(
                    &loaded.puzzle,
                    &values,
                    &info.date,
                    &info.difficulty,
                    info.mode.map(|m| m.id),
                )
                .map_err(anyhow::Error::msg)?;
                writeln!(out, "{solved}")?;
            }
            Some(form @ (Form::Corpus(setter) | Form::FPuzzles(setter))) => {
                let mut solved = engine::corpus::to_corpus(&loaded.puzzle, Some(&values))
                    .map_err(anyhow::Error::from)?;
                setter.write_into(&mut solved);
                if matches!(form, Form::Corpus(_)) {
                    writeln!(out, "{}", serde_json::to_string(&solved)?)?;
                } else {
                    writeln!(out, "{}", crate::fpuzzles::from_corpus(&solved))?;
                }
            }
            _ => writeln!(out, "{}", engine::text::format_line(&values))?,
        }
    }
    out.flush()?;
    Ok(ok)
}
