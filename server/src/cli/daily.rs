//! `arena daily`: the puzzles of the day written in the daily archive's layout
//! and schema — `puzzles/YYYY/<difficulty>/YYYY-MM-DD-001.json` for classic 9x9,
//! `puzzles/YYYY/gattai/<mode>/<difficulty>/…` for each Gattai mode — each
//! validated before it is written (unique, its solution correct, its clue count
//! inside the variant's declared range). A file already there that is valid is
//! left alone, so running it again changes nothing.
//!
//! The archive never takes two equivalent puzzles: a new one whose canonical
//! form (rotations, reflections, digit renaming, …: [`engine::canon`]) equals
//! one already in its variant's folders is made again from the seed
//! `SEED~repeatN` (N = 1, 2, …: the same choice on every machine), and the
//! line says which file it repeated.

use crate::daily::{daily_seed, Date};
use crate::input::{read_file, Form};
use crate::plugins::PluginHost;
use anyhow::{bail, Context};
use engine::check::check_solution;
use protocol::plugin::{GenerateRequest, Params};
use protocol::ParamValue;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many times a puzzle equivalent to one in the archive is made again
/// before the day's file is given up.
const REPEATS: usize = 8;

/// The canonical forms of a slot's archive files, and which file has each.
type Forms = HashMap<(String, engine::canon::Canonical), PathBuf>;

/// How long one puzzle may take.
const DEADLINE: Duration = Duration::from_secs(60);

/// Arguments of `arena daily`.
#[derive(clap::Args, Debug)]
pub struct DailyArgs {
    /// The first day, `YYYY-MM-DD` (default: today, UTC).
    #[arg(long)]
    pub date: Option<String>,
    /// How many days from it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=366))]
    pub days: u64,
    /// The directory that holds (or will hold) `puzzles/`.
    #[arg(long)]
    pub out: PathBuf,
}

/// One archive entry to produce: variant, parameters, and the folder below
/// `puzzles/YYYY/` its difficulties go in.
struct Slot {
    variant: &'static str,
    params: Params,
    folder: String,
    mode: Option<String>,
}

fn slots(host: &PluginHost) -> anyhow::Result<Vec<Slot>> {
    let mut out = Vec::new();
    if host.manifest("classic").is_none() {
        bail!("the classic plugin is not loaded (see --plugins)");
    }
    out.push(Slot {
        variant: "classic",
        params: Params::from([("box".into(), ParamValue::Text("3x3".into()))]),
        folder: String::new(),
        mode: None,
    });
    if host.manifest("gattai").is_some() {
        for mode in engine::geometry::GATTAI_MODES {
            out.push(Slot {
                variant: "gattai",
                params: Params::from([("mode".into(), ParamValue::Text(mode.id.into()))]),
                folder: format!("gattai/{}/", mode.id),
                mode: Some(mode.id.into()),
            });
        }
    } else {
        eprintln!("gattai plugin not loaded: writing classic puzzles only");
    }
    Ok(out)
}

/// Writes every puzzle of every day; `Ok(false)` if one could not be made.
pub fn run(args: &DailyArgs, host: &PluginHost) -> anyhow::Result<bool> {
    let first = match &args.date {
        Some(d) => d.parse::<Date>().map_err(anyhow::Error::msg)?,
        None => Date::today_utc(),
    };
    let slots = slots(host)?;
    let mut forms: Vec<Forms> = Vec::new();
    for slot in &slots {
        let manifest = host.manifest(slot.variant).context("plugin vanished")?;
        forms.push(archive_forms(
            &args.out,
            slot,
            &manifest.difficulties_for(&slot.params),
        ));
    }
    let mut ok = true;
    for day in 0..args.days {
        let date = first.plus(day as i64);
        for (slot, forms) in slots.iter().zip(&mut forms) {
            let manifest = host.manifest(slot.variant).context("plugin vanished")?;
            for difficulty in &manifest.difficulties_for(&slot.params) {
                let path = archive_path(&args.out, date, &slot.folder, difficulty);
                match one(host, slot, date, difficulty, &path, forms) {
                    Ok(verb) => println!("{verb} {}", path.display()),
                    Err(e) => {
                        eprintln!("{}: {e:#}", path.display());
                        ok = false;
                    }
                }
            }
        }
    }
    Ok(ok)
}

/// The forms of every readable puzzle in a slot's folders of the archive
/// (`DIR/puzzles/*/<folder><difficulty>/*.json`, every difficulty).
fn archive_forms(out: &Path, slot: &Slot, difficulties: &[String]) -> Forms {
    let mut forms = Forms::new();
    let Ok(years) = std::fs::read_dir(out.join("puzzles")) else {
        return forms;
    };
    for year in years.flatten() {
        for difficulty in difficulties {
            let dir = year.path().join(format!("{}{difficulty}", slot.folder));
            let Ok(files) = std::fs::read_dir(&dir) else {
                continue;
            };
            for file in files.flatten() {
                let path = file.path();
                if path.extension().is_some_and(|e| e == "json") {
                    if let Some(form) = form_of_file(&path) {
                        forms.entry(form).or_insert(path);
                    }
                }
            }
        }
    }
    forms
}

/// The canonical form of the one puzzle in an archive file, if it reads.
fn form_of_file(path: &Path) -> Option<(String, engine::canon::Canonical)> {
    let entries = read_file(path).ok()?;
    let [entry] = &entries[..] else {
        return None;
    };
    let loaded = entry.puzzle.as_ref().ok()?;
    Some(engine::canon::canonical_form(
        loaded.puzzle.model(),
        loaded.puzzle.givens(),
    ))
}

/// `DIR/puzzles/YYYY/<folder><difficulty>/YYYY-MM-DD-001.json`.
fn archive_path(out: &Path, date: Date, folder: &str, difficulty: &str) -> PathBuf {
    let (year, ..) = date.ymd();
    out.join("puzzles")
        .join(format!("{year:04}"))
        .join(format!("{folder}{difficulty}"))
        .join(format!("{date}-001.json"))
}

/// Whether `path` already holds a valid archive puzzle of this date and difficulty.
fn valid_existing(path: &Path, date: Date, difficulty: &str) -> bool {
    let Ok(entries) = read_file(path) else {
        return false;
    };
    let [entry] = &entries[..] else {
        return false;
    };
    match (&entry.form, &entry.puzzle) {
        (Some(Form::Archive(info)), Ok(loaded)) => {
            info.date == date.to_string()
                && info.difficulty == difficulty
                && loaded.puzzle.count(2).is_unique()
                && loaded
                    .solution
                    .as_ref()
                    .is_some_and(|s| check_solution(loaded.puzzle.model(), s).is_ok())
        }
        _ => false,
    }
}

/// Makes, checks and writes one file (unless a valid one is there); what it did.
fn one(
    host: &PluginHost,
    slot: &Slot,
    date: Date,
    difficulty: &str,
    path: &Path,
    forms: &mut Forms,
) -> anyhow::Result<String> {
    let existed = path.exists();
    if existed && valid_existing(path, date, difficulty) {
        return Ok("kept".into());
    }
    let manifest = host.manifest(slot.variant).context("plugin vanished")?;
    let params = manifest.with_defaults(&slot.params);
    let seed = daily_seed(date, slot.variant, &params, difficulty);
    let mut repeated = Vec::new();
    let (loaded, form) = loop {
        let req = GenerateRequest {
            minimal: false,
            params: params.clone(),
            difficulty: difficulty.into(),
            seed: match repeated.len() {
                0 => seed.clone(),
                n => format!("{seed}~repeat{n}"),
            },
        };
        let v1 = host.generate(slot.variant, &req, DEADLINE)?;
        let loaded = engine::v1::from_v1(&v1)?;
        let form = engine::canon::canonical_form(loaded.puzzle.model(), loaded.puzzle.givens());
        // The file being replaced does not count against its own new puzzle.
        match forms.get(&form).filter(|p| p.as_path() != path) {
            None => break (loaded, form),
            Some(earlier) if repeated.len() < REPEATS => {
                repeated.push(earlier.display().to_string())
            }
            Some(earlier) => bail!(
                "{} puzzles in a row were equivalent to the archive's (last: {})",
                REPEATS + 1,
                earlier.display()
            ),
        }
    };
    let count = loaded.puzzle.count(2);
    if !count.is_unique() {
        bail!("generated puzzle has {count} solutions");
    }
    let solution = loaded
        .solution
        .context("generated puzzle has no solution")?;
    check_solution(loaded.puzzle.model(), &solution).map_err(anyhow::Error::msg)?;
    if count.first.as_deref() != Some(&solution[..]) {
        bail!("generated puzzle ships another solution than its own");
    }
    let (lo, hi) = manifest
        .clue_range(&params, difficulty)
        .context("no clue range declared")?;
    let clues = loaded.puzzle.clue_count() as u32;
    if !(lo..=hi).contains(&clues) {
        bail!("{clues} clues, outside {lo}..={hi}");
    }
    let file = crate::archive::to_archive(
        &loaded.puzzle,
        &solution,
        &date.to_string(),
        difficulty,
        slot.mode.as_deref(),
    )
    .map_err(anyhow::Error::msg)?;
    let mut json = serde_json::to_string_pretty(&file)?;
    json.push('\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // Written beside, then renamed: a reader never sees half a file.
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, json)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path)?;
    if !valid_existing(path, date, difficulty) {
        bail!("the written file does not read back as valid");
    }
    forms.insert(form, path.to_path_buf());
    let verb = if existed { "replaced" } else { "wrote" };
    Ok(match repeated.as_slice() {
        [] => verb.to_string(),
        _ => format!("{verb} (equivalent to {} skipped)", repeated.join(", ")),
    })
}
