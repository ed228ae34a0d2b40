//! `arena minimal` and `arena minimize`: whether every clue of a puzzle is
//! needed (a clue is not when the puzzle stays unique without it), and a
//! minimal puzzle made by removing clues in reading order while it stays
//! unique.

use crate::input::{Entry, Form};
use engine::generate::{reduce, uniqueness_within, Target, Uniqueness};
use engine::Puzzle;
use std::io::Write;
use std::path::PathBuf;

/// Whether `givens` on `puzzle`'s model have exactly one solution.
fn unique(puzzle: &Puzzle, givens: &[u8]) -> bool {
    uniqueness_within(puzzle.model(), givens, None) == Uniqueness::Unique
}

/// The givens of `puzzle` that can go one at a time (each alone; the puzzle
/// stays unique without it).
fn removable(puzzle: &Puzzle) -> Vec<usize> {
    let givens = puzzle.givens();
    (0..givens.len())
        .filter(|&i| givens[i] != 0)
        .filter(|&i| {
            let mut without = givens.to_vec();
            without[i] = 0;
            unique(puzzle, &without)
        })
        .collect()
}

/// `r1c2`-style names of cells.
fn cell_names(puzzle: &Puzzle, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| {
            let [r, col] = puzzle.model().coord(c);
            format!("r{}c{}", r + 1, col + 1)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Says for every puzzle whether it is minimal, naming the clues that are
/// not needed. `Ok(false)` if any puzzle was unreadable or not unique.
pub fn run_minimal(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for entry in &entries {
        let Some(puzzle) = unique_puzzle(entry, &mut ok) else {
            writeln!(out, "invalid")?;
            continue;
        };
        let spare = removable(puzzle);
        if spare.is_empty() {
            writeln!(out, "minimal")?;
        } else {
            writeln!(
                out,
                "not minimal: {} of {} clues can go ({})",
                spare.len(),
                puzzle.givens().iter().filter(|&&v| v != 0).count(),
                cell_names(puzzle, &spare)
            )?;
        }
    }
    out.flush()?;
    Ok(ok)
}

/// The puzzle of `entry` when it reads and is unique; else says why on
/// stderr and clears `ok`.
fn unique_puzzle<'a>(entry: &'a Entry, ok: &mut bool) -> Option<&'a Puzzle> {
    match &entry.puzzle {
        Ok(loaded) if unique(&loaded.puzzle, loaded.puzzle.givens()) => Some(&loaded.puzzle),
        Ok(_) => {
            eprintln!("{}: not unique, so no clue is needed or not", entry.name);
            *ok = false;
            None
        }
        Err(message) => {
            eprintln!("{}: {message}", entry.name);
            *ok = false;
            None
        }
    }
}

/// Removes clues from every puzzle, in reading order, while it stays
/// unique, and prints the minimal puzzle in the form it was written in
/// (v1 and other JSON forms as v1, without a stale grade or difficulty).
pub fn run_minimize(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for entry in &entries {
        let Some(puzzle) = unique_puzzle(entry, &mut ok) else {
            continue;
        };
        let reading_order: Vec<usize> = (0..puzzle.givens().len()).collect();
        let givens = reduce(
            puzzle.model(),
            puzzle.givens(),
            &reading_order,
            Target::Minimal,
        );
        let minimal = Puzzle::new(puzzle.model_arc().clone(), givens)?;
        match &entry.form {
            Some(Form::Text) => writeln!(out, "{}", engine::text::format_line(minimal.givens()))?,
            Some(Form::V1(original)) => {
                let mut v1 = (**original).clone();
                v1.grid = engine::v1::to_grid(minimal.model(), minimal.givens());
                v1.clue_count = Some(minimal.givens().iter().filter(|&&v| v != 0).count() as u32);
                v1.grade = None;
                v1.difficulty = None;
                writeln!(out, "{}", serde_json::to_string(&v1)?)?;
            }
            _ => writeln!(
                out,
                "{}",
                serde_json::to_string(&engine::v1::to_v1(&minimal, None))?
            )?,
        }
    }
    out.flush()?;
    Ok(ok)
}
