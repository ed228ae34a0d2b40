//! `arena grade` and `arena explain`: the logical solver's verdict on puzzles,
//! and a whole logical solution in plain words.

use engine::logic::{explain::explain, format_rating, grade_until, Chains, Grade, Options};
use engine::Difficulty;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The longest `--seconds` accepted: a day.
const MOST_SECONDS: f64 = 86_400.0;

/// `--seconds`: a number of seconds from 0 to a day (fractions allowed).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=MOST_SECONDS).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "expected seconds from 0 to {MOST_SECONDS}, got {text:?}"
        )),
    }
}

/// Grades every unique puzzle of `files`: one line per puzzle (name, tier,
/// rating, hardest technique, steps), a summary on stderr; with `limit`, a
/// puzzle not graded within it is reported `unfinished`. `Ok(false)` if a
/// puzzle could not be read or is not unique.
pub fn run_grade(files: &[PathBuf], limit: Option<Duration>) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let start = Instant::now();
    let mut tiers = [0usize; 4];
    let (mut graded, mut beyond, mut unfinished) = (0usize, 0usize, 0usize);
    for entry in &entries {
        let Some(loaded) = unique_entry(&entry.name, &entry.puzzle) else {
            ok = false;
            continue;
        };
        let until = limit.map(|l| Instant::now() + l);
        let Some(g) = grade_by(&loaded.puzzle, until) else {
            unfinished += 1;
            let secs = limit.unwrap_or_default().as_secs_f64();
            writeln!(
                out,
                "{}\tunfinished\t-\t-\tnot graded within {secs} s",
                entry.name
            )?;
            continue;
        };
        graded += 1;
        let tier = match g.tier {
            Some(t) => {
                tiers[t as usize] += 1;
                t.as_str()
            }
            None => {
                beyond += 1;
                "beyond"
            }
        };
        writeln!(
            out,
            "{}\t{tier}\t{}\t{}\t{} steps",
            entry.name,
            format_rating(g.rating),
            g.hardest.map_or("-", |t| t.name()),
            g.steps.len()
        )?;
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    let mut summary: Vec<String> = Difficulty::ALL
        .iter()
        .map(|d| format!("{} {}", tiers[*d as usize], d.as_str()))
        .collect();
    if beyond > 0 {
        summary.push(format!("{beyond} beyond the ladder"));
    }
    if unfinished > 0 {
        summary.push(format!("{unfinished} unfinished within the time given"));
    }
    eprintln!(
        "{graded} graded in {secs:.2} s ({:.0}/s): {}",
        graded as f64 / secs.max(1e-9),
        summary.join(", ")
    );
    Ok(ok)
}

/// Prints the whole logical solution of each puzzle in `files`, one step per line.
pub fn run_explain(files: &[PathBuf]) -> anyhow::Result<bool> {
    let (entries, mut ok) = super::read_all(files);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for entry in &entries {
        let Some((loaded, g)) = graded_entry(&entry.name, &entry.puzzle) else {
            ok = false;
            continue;
        };
        let model = loaded.puzzle.model();
        if entries.len() > 1 {
            writeln!(out, "# {}", entry.name)?;
        }
        for (i, step) in g.steps.iter().enumerate() {
            writeln!(out, "{}. {}", i + 1, explain(model, step))?;
        }
        match g.tier {
            Some(t) => writeln!(
                out,
                "Solved: {t}, rating {} ({}).",
                format_rating(g.rating),
                g.hardest.map_or("-", |t| t.name())
            )?,
            None => writeln!(
                out,
                "The techniques this solver knows stop here; the rest needs guessing."
            )?,
        }
    }
    out.flush()?;
    Ok(ok)
}

/// One read puzzle and its grade; problems go to stderr. Uniqueness techniques
/// are used only on a puzzle proven to have one solution.
fn graded_entry<'a>(
    name: &str,
    puzzle: &'a Result<engine::v1::Loaded, String>,
) -> Option<(&'a engine::v1::Loaded, Grade)> {
    let loaded = unique_entry(name, puzzle)?;
    Some((loaded, grade_by(&loaded.puzzle, None)?))
}

/// The whole ladder's grade of a unique puzzle (uniqueness techniques
/// allowed); `None` once `until` has passed.
fn grade_by(p: &engine::Puzzle, until: Option<Instant>) -> Option<Grade> {
    let options = Options { uniqueness: true };
    grade_until(p.model(), p.givens(), options, Chains::Nested, until)
}

/// One read puzzle with one solution; problems go to stderr.
fn unique_entry<'a>(
    name: &str,
    puzzle: &'a Result<engine::v1::Loaded, String>,
) -> Option<&'a engine::v1::Loaded> {
    let loaded = match puzzle {
        Ok(l) => l,
        Err(message) => {
            eprintln!("{name}: {message}");
            return None;
        }
    };
    match loaded.puzzle.solution_count(2) {
        1 => {}
        0 => {
            eprintln!("{name}: no solution");
            return None;
        }
        _ => {
            eprintln!("{name}: several solutions; grading needs a unique puzzle");
            return None;
        }
    }
    Some(loaded)
}
