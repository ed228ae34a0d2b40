//! `arena export`: puzzles rewritten in another schema — today the daily
//! archive's (`--format yendoku`), one JSON object per line, with solutions.

use crate::daily::Date;
use crate::input::Form;
use engine::Solution;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `arena export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The schema to write: `yendoku` (the daily archive's; classic 9x9 and
    /// Gattai layouts).
    #[arg(long, value_parser = ["yendoku"])]
    pub format: String,
    /// The `date` to record where a puzzle has none (its seed is used when it
    /// is a date, `YYYY-MM-DD`).
    #[arg(long)]
    pub date: Option<String>,
    /// Puzzle files (format v1, archive files, classic text) or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Exports every puzzle; `Ok(false)` if any could not be (each reported on
/// stderr, naming the puzzle).
pub fn run(args: &ExportArgs) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(&args.files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for entry in &entries {
        match export_one(entry, args.date.as_deref()) {
            Ok(json) => writeln!(out, "{json}")?,
            Err(message) => {
                eprintln!("{}: {message}", entry.name);
                ok = false;
            }
        }
    }
    out.flush()?;
    Ok(ok)
}

fn export_one(entry: &crate::input::Entry, date: Option<&str>) -> Result<String, String> {
    let loaded = entry.puzzle.as_ref().map_err(|e| e.clone())?;
    let (recorded_date, recorded_difficulty, mode) = match &entry.form {
        Some(Form::Archive(info)) => (
            Some(info.date.clone()),
            Some(info.difficulty.clone()),
            info.mode.map(|m| m.id.to_string()),
        ),
        Some(Form::V1(p)) => (
            p.seed.clone().filter(|s| s.parse::<Date>().is_ok()),
            p.difficulty.clone(),
            match (p.variant.as_deref(), p.params.get("mode")) {
                (Some("gattai"), Some(protocol::ParamValue::Text(m))) => Some(m.clone()),
                _ => None,
            },
        ),
        _ => (None, None, None),
    };
    let date = recorded_date
        .or_else(|| date.map(str::to_string))
        .ok_or("no date recorded: pass --date YYYY-MM-DD")?;
    let solution = match &loaded.solution {
        Some(s) => s.clone(),
        None => match loaded.puzzle.solve() {
            Solution::Unique(s) => s,
            Solution::None => return Err("no solution".into()),
            Solution::Several(_) => return Err("several solutions: not a puzzle".into()),
        },
    };
    // Without a recorded difficulty, the logical solver's tier is the puzzle's.
    let difficulty = match recorded_difficulty {
        Some(d) => d,
        None => engine::logic::tier(loaded.puzzle.model(), loaded.puzzle.givens())
            .map(|t| t.as_str().to_string())
            .ok_or("beyond the logical solver: no difficulty to record")?,
    };
    crate::archive::write(
        &loaded.puzzle,
        &solution,
        &date,
        &difficulty,
        mode.as_deref(),
    )
}
