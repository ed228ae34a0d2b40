//! `arena canon` and `arena dedupe`: puzzles up to their variant's
//! symmetries (`engine::canon`). `canon` prints each puzzle's canonical
//! form; `dedupe` prints each puzzle not equal to an earlier one, in the
//! form it was written in, and says on stderr which kept which.

use crate::input::{Entry, Form};
use engine::canon::Canonical;
use engine::{Model, Puzzle};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

/// Frames by model: puzzles of one file often share their model, and the
/// entries (holding the models) outlive this, so an address names a model.
#[derive(Default)]
struct Forms {
    frames: HashMap<*const Model, String>,
}

impl Forms {
    /// The frame of a puzzle's variant and the puzzle's canonical form.
    fn of(&mut self, puzzle: &Puzzle) -> (String, Canonical) {
        let model = puzzle.model();
        if engine::canon::has_own_clues(model) {
            return engine::canon::canonical_form(model, puzzle.givens());
        }
        let frame = self
            .frames
            .entry(std::sync::Arc::as_ptr(puzzle.model_arc()))
            .or_insert_with(|| engine::canon::frame_of(model));
        let symmetries = engine::canon::symmetries_of_frame(frame, model);
        (frame.clone(), symmetries.canonical(puzzle.givens()))
    }
}

/// One line for a grid of values: the model's symbols, `.` for empty.
fn line(model: &Model, values: &[u8]) -> String {
    let symbols = model.symbols();
    values
        .iter()
        .map(|&v| match v {
            0 => '.',
            v => symbols.get(usize::from(v) - 1).copied().unwrap_or('?'),
        })
        .collect()
}

/// Prints every puzzle's canonical form, one line each (its givens; with
/// `rules <hex>` after a tab when its own regions or cages are part of it).
pub fn run_canon(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut forms = Forms::default();
    for entry in &entries {
        match &entry.puzzle {
            Ok(loaded) => {
                let (_, form) = forms.of(&loaded.puzzle);
                let model = loaded.puzzle.model();
                let text = line(model, &form.givens);
                if engine::canon::has_own_clues(model) {
                    writeln!(out, "{text}\trules {:016x}", form.fingerprint(""))?;
                } else {
                    writeln!(out, "{text}")?;
                }
            }
            Err(message) => {
                ok = false;
                writeln!(out, "invalid")?;
                eprintln!("{}: {message}", entry.name);
            }
        }
    }
    out.flush()?;
    Ok(ok)
}

/// Prints every puzzle not equal (up to symmetry) to an earlier one, in the
/// form it was written in; each dropped one is named on stderr with the one
/// kept for it, then a summary.
pub fn run_dedupe(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut forms = Forms::default();
    let mut kept: HashMap<(String, Vec<u32>), usize> = HashMap::new();
    let mut dropped = 0usize;
    for (i, entry) in entries.iter().enumerate() {
        let loaded = match &entry.puzzle {
            Ok(l) => l,
            Err(message) => {
                ok = false;
                eprintln!("{}: {message}", entry.name);
                continue;
            }
        };
        let (frame, form) = forms.of(&loaded.puzzle);
        match kept.get(&(frame.clone(), form.key.clone())) {
            Some(&first) => {
                dropped += 1;
                eprintln!("{}: the same as {}", entry.name, entries[first].name);
            }
            None => {
                kept.insert((frame, form.key), i);
                writeln!(out, "{}", written(entry, &loaded.puzzle)?)?;
            }
        }
    }
    out.flush()?;
    eprintln!(
        "{} puzzles: {} kept, {dropped} dropped as equal up to symmetry",
        entries.len(),
        kept.len()
    );
    Ok(ok)
}

/// A puzzle as it was written: its line, its v1 object, or v1 for forms
/// without a line of their own.
fn written(entry: &Entry, puzzle: &Puzzle) -> anyhow::Result<String> {
    Ok(match &entry.form {
        Some(Form::Text) => engine::text::format_line(puzzle.givens()),
        Some(Form::V1(original)) => serde_json::to_string(original)?,
        _ => serde_json::to_string(&engine::v1::to_v1(puzzle, None))?,
    })
}
