//! `arena count`: one line per puzzle (`0`, `1`, … or `K+`), then a summary on stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Counts every puzzle in `files` up to `limit`. `Ok(false)` if any was unreadable.
pub fn run(files: &[PathBuf], limit: usize) -> anyhow::Result<bool> {
    let (entries, all_read) = super::read_all(files);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut unique, mut none, mut several, mut invalid) = (0usize, 0usize, 0usize, 0usize);
    let start = Instant::now();
    for entry in &entries {
        match &entry.puzzle {
            Ok(loaded) => {
                let c = loaded.puzzle.count(limit);
                match c.solutions {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => several += 1,
                }
                writeln!(out, "{c}")?;
            }
            Err(message) => {
                invalid += 1;
                writeln!(out, "invalid")?;
                eprintln!("{}: {message}", entry.name);
            }
        }
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    let n = entries.len();
    eprintln!(
        "{n} puzzles: {unique} unique, {none} none, {several} several, {invalid} invalid; {secs:.3} s, {:.0} puzzles/s",
        n as f64 / secs.max(1e-9)
    );
    Ok(all_read && invalid == 0)
}
