//! `arena export`: puzzles rewritten in another schema — the daily archive's
//! (`--format yendoku`), format v1 (`--format v1`, e.g. for killers read
//! from another tool's text or CSV; v2 when the puzzle has constraints, with
//! the drawings and rule notes the server sends clients filled in) or
//! the variant corpus's (`--format corpus`), f-puzzles JSON (`--format
//! fpuzzles`) — one JSON object per line, with solutions — or links, one per
//! line: f-puzzles (`--format fpuzzles-link`) and SudokuPad
//! (`--format sudokupad-link`).

use crate::daily::Date;
use crate::input::Form;
use engine::Solution;
use protocol::ParamValue;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `arena export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The schema to write: `yendoku` (the daily archive's; classic 9x9 and
    /// Gattai layouts), `v1` (any puzzle; v2 with constraints), `corpus`
    /// (the variant corpus's: N x N grids of digits up to 9), `fpuzzles`
    /// (f-puzzles JSON, same grids), or a link: `fpuzzles-link`,
    /// `sudokupad-link`.
    #[arg(long, value_parser = ["yendoku", "v1", "corpus", "fpuzzles", "fpuzzles-link", "sudokupad-link"])]
    pub format: String,
    /// The `date` to record where a puzzle has none (its seed is used when it
    /// is a date, `YYYY-MM-DD`).
    #[arg(long)]
    pub date: Option<String>,
    /// Puzzle files (format v1, archive files, classic text, killers) or directories.
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
        let written = match args.format.as_str() {
            "v1" => export_v1(entry),
            "corpus" => export_corpus(entry)
                .and_then(|c| serde_json::to_string(&c).map_err(|e| e.to_string())),
            "fpuzzles" => {
                export_corpus(entry).map(|c| crate::fpuzzles::from_corpus(&c).to_string())
            }
            "fpuzzles-link" => export_corpus(entry)
                .map(|c| crate::fpuzzles::fpuzzles_link(&crate::fpuzzles::from_corpus(&c))),
            "sudokupad-link" => export_corpus(entry)
                .map(|c| crate::fpuzzles::sudokupad_link(&crate::fpuzzles::from_corpus(&c))),
            _ => export_one(entry, args.date.as_deref()),
        };
        match written {
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

/// The solution shipped with a puzzle, or the one it has.
fn solution_of(loaded: &engine::v1::Loaded) -> Result<Vec<u8>, String> {
    match &loaded.solution {
        Some(s) => Ok(s.clone()),
        None => match loaded.puzzle.solve() {
            Solution::Unique(s) => Ok(s),
            Solution::None => Err("no solution".into()),
            Solution::Several(_) => Err("several solutions: not a puzzle".into()),
        },
    }
}

/// One puzzle as a v1 line: a v1 input keeps its fields; a killer read from
/// another tool's form says it is one (variant `killer`, its size).
fn export_v1(entry: &crate::input::Entry) -> Result<String, String> {
    let loaded = entry.puzzle.as_ref().map_err(|e| e.clone())?;
    let solution = solution_of(loaded)?;
    let model = loaded.puzzle.model();
    let mut v1 = match &entry.form {
        Some(Form::V1(original)) => {
            let mut v1 = (**original).clone();
            v1.solution = Some(engine::v1::to_grid(model, &solution));
            v1
        }
        form => {
            let mut v1 = engine::v1::to_v1(&loaded.puzzle, Some(&solution));
            if matches!(form, Some(Form::Killer)) {
                let side = model.cols();
                v1.variant = Some("killer".into());
                v1.params = [
                    (
                        "size".to_string(),
                        ParamValue::Text(format!("{side}x{side}")),
                    ),
                    ("diagonals".to_string(), ParamValue::Bool(false)),
                ]
                .into();
            }
            v1
        }
    };
    // How a client would draw it, for viewers of the file (readers ignore it).
    engine::drawing::fill_in(&mut v1);
    serde_json::to_string(&v1).map_err(|e| e.to_string())
}

/// One puzzle in the variant corpus schema (the way to f-puzzles too).
fn export_corpus(entry: &crate::input::Entry) -> Result<protocol::corpus::CorpusPuzzle, String> {
    let loaded = entry.puzzle.as_ref().map_err(|e| e.clone())?;
    let solution = solution_of(loaded)?;
    let mut corpus =
        engine::corpus::to_corpus(&loaded.puzzle, Some(&solution)).map_err(|e| e.to_string())?;
    // What the setter wrote beside the rules goes along.
    if let Some(Form::Corpus(setter) | Form::FPuzzles(setter)) = &entry.form {
        setter.write_into(&mut corpus);
    }
    Ok(corpus)
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
    let solution = solution_of(loaded)?;
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
    .map_err(|e| e.to_string())
}
