//! Reading puzzle files: format v1/v2, the daily archive's schema
//! ([`crate::archive`]), the variant corpus schema (`engine::corpus`) or
//! f-puzzles JSON ([`crate::fpuzzles`]) as one JSON object, a JSON array or
//! JSON Lines; killers in the reference solver's text form or the krazydad
//! CSV ([`crate::killer`]); or plain text with one puzzle per line: a
//! classic 9x9, an f-puzzles link (`…?load=…`, a SudokuPad `…/fpuzzles…`
//! link) or its bare compressed string. Every puzzle gets a name (`file`,
//! `file[i]` or `file:line`) for messages.

use engine::v1::{from_v1, Loaded};
use engine::Puzzle;
use protocol::PuzzleV1;
use std::path::Path;
use std::sync::Arc;

/// How a puzzle was written, so output can use the same form.
#[derive(Clone, Debug)]
pub enum Form {
    /// One 81-character line.
    Text,
    /// A v1 object (kept to echo its informational fields).
    V1(Box<PuzzleV1>),
    /// A daily archive file (its date, difficulty and mode).
    Archive(crate::archive::ArchiveInfo),
    /// A killer in another tool's form (text or CSV); written back as v1.
    Killer,
    /// A variant corpus object (f-puzzles' kinds), with what its setter
    /// wrote beside the rules; written back in the corpus schema.
    Corpus(Setter),
    /// An f-puzzles puzzle: its JSON, a link carrying it (`…?load=…`) or the
    /// bare compressed string — or a SudokuPad link in SudokuPad's own format,
    /// read best effort — with what its setter wrote beside the rules;
    /// written back as f-puzzles JSON.
    FPuzzles(Setter),
}

/// What a setter wrote beside the rules: the puzzle's title, their name, the
/// rules in their words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setter {
    /// The puzzle's title.
    pub title: Option<String>,
    /// The setter.
    pub author: Option<String>,
    /// The rules, as written.
    pub rules: Option<String>,
    /// What the setter drew that no rule reads.
    pub decorations: Vec<protocol::Drawing>,
}

impl Setter {
    fn of(p: &protocol::corpus::CorpusPuzzle) -> Setter {
        Setter {
            title: p.title.clone(),
            author: p.author.clone(),
            rules: p.rules.clone(),
            decorations: p.decorations.clone(),
        }
    }

    /// Writes these words into a corpus puzzle written back.
    pub fn write_into(&self, p: &mut protocol::corpus::CorpusPuzzle) {
        p.title.clone_from(&self.title);
        p.author.clone_from(&self.author);
        p.rules.clone_from(&self.rules);
        p.decorations.clone_from(&self.decorations);
    }

    /// Writes these words into a puzzle file (a pasted puzzle's room shows them).
    pub fn write_into_v1(&self, p: &mut protocol::PuzzleV1) {
        p.title.clone_from(&self.title);
        p.author.clone_from(&self.author);
        p.rules.clone_from(&self.rules);
        p.decorations.clone_from(&self.decorations);
    }
}

/// One puzzle read from a file: its name, its form, and the puzzle or why not.
#[derive(Debug)]
pub struct Entry {
    /// `file`, `file[i]` or `file:line`.
    pub name: String,
    /// The form it was written in (`None` when it could not be read at all).
    pub form: Option<Form>,
    /// The puzzle and its shipped solution, or the problem.
    pub puzzle: Result<Loaded, String>,
}

/// Reads every puzzle in a file. `Err` only when the file itself cannot be read or
/// is not JSON where JSON is expected; a bad puzzle becomes an `Entry` with an error.
pub fn read_file(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Ok(read_text(&path.display().to_string(), &text))
}

/// Reads every puzzle in `text`, naming them after `file`.
pub fn read_text(file: &str, text: &str) -> Vec<Entry> {
    match text.trim_start().chars().next() {
        Some('[') => read_array(file, text),
        Some('{') => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value) => vec![json_entry(file.to_string(), value)],
            Err(_) => read_json_lines(file, text),
        },
        _ if text.lines().any(crate::killer::is_krazydad_header) => read_krazydad(file, text),
        _ if crate::killer::is_text_form(text) => read_killer_text(file, text),
        _ => read_classic_lines(file, text),
    }
}

/// A killer entry: the puzzle of a checked killer and its solution, if shipped.
fn killer_entry(
    name: String,
    killer: Result<crate::killer::Killer, crate::killer::KillerError>,
    solution: Option<Vec<u8>>,
) -> Entry {
    let puzzle = killer
        .and_then(|k| k.puzzle())
        .map(|puzzle| Loaded { puzzle, solution })
        .map_err(|e| e.to_string());
    Entry {
        name,
        form: Some(Form::Killer),
        puzzle,
    }
}

fn read_killer_text(file: &str, text: &str) -> Vec<Entry> {
    match crate::killer::parse_text(text) {
        Ok(killers) => killers
            .into_iter()
            .map(|(line, killer)| killer_entry(format!("{file}:{line}"), killer, None))
            .collect(),
        Err(e) => vec![failed(file.to_string(), e.to_string())],
    }
}

fn read_krazydad(file: &str, text: &str) -> Vec<Entry> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !crate::killer::is_krazydad_header(l))
        .map(|(i, line)| {
            let name = format!("{file}:{}", i + 1);
            match crate::killer::parse_krazydad_row(line) {
                Ok(row) => killer_entry(name, Ok(row.killer), Some(row.solution)),
                Err(e) => failed(name, e.to_string()),
            }
        })
        .collect()
}

fn read_array(file: &str, text: &str) -> Vec<Entry> {
    match serde_json::from_str::<Vec<serde_json::Value>>(text) {
        Ok(values) => values
            .into_iter()
            .enumerate()
            .map(|(i, v)| json_entry(format!("{file}[{i}]"), v))
            .collect(),
        Err(e) => vec![failed(
            file.to_string(),
            format!("not a JSON array of puzzles: {e}"),
        )],
    }
}

fn read_json_lines(file: &str, text: &str) -> Vec<Entry> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let name = format!("{file}:{}", i + 1);
            match serde_json::from_str::<serde_json::Value>(line) {
                Ok(v) => json_entry(name, v),
                Err(e) => failed(name, format!("not JSON: {e}")),
            }
        })
        .collect()
}

/// Whether a JSON object is in the variant corpus schema: `givens` text and
/// `regions`, no `format`.
fn is_corpus(value: &serde_json::Value) -> bool {
    value.get("format").is_none()
        && value.get("givens").is_some_and(|g| g.is_string())
        && value.get("regions").is_some()
}

/// A puzzle in the corpus schema, read into the puzzle format, as an entry
/// of the form `form` makes of its setter's words.
fn corpus_puzzle_entry(
    name: String,
    read: Result<protocol::corpus::CorpusPuzzle, String>,
    form: fn(Setter) -> Form,
) -> Entry {
    let setter = read.as_ref().map(Setter::of).unwrap_or_default();
    let puzzle = read
        .and_then(|p| engine::corpus::from_corpus(&p).map_err(|e| e.to_string()))
        .and_then(|v2| from_v1(&v2).map_err(|e| e.to_string()));
    Entry {
        name,
        form: Some(form(setter)),
        puzzle,
    }
}

/// A variant corpus object, read into the puzzle format.
fn corpus_entry(name: String, value: serde_json::Value) -> Entry {
    let read = serde_json::from_value::<protocol::corpus::CorpusPuzzle>(value)
        .map_err(|e| format!("not a corpus puzzle: {e}"));
    corpus_puzzle_entry(name, read, Form::Corpus)
}

/// An f-puzzles puzzle, read through the corpus schema into the puzzle format.
fn fpuzzles_entry(name: String, value: &serde_json::Value) -> Entry {
    corpus_puzzle_entry(name, crate::fpuzzles::to_corpus(value), Form::FPuzzles)
}

/// One JSON puzzle: the archive's, the corpus's or f-puzzles' schema when it
/// looks like it, else v1.
fn json_entry(name: String, value: serde_json::Value) -> Entry {
    if is_corpus(&value) {
        return corpus_entry(name, value);
    }
    if crate::fpuzzles::is_fpuzzles(&value) {
        return fpuzzles_entry(name, &value);
    }
    if crate::archive::is_archive(&value) {
        return match crate::archive::read(value) {
            Ok((loaded, info)) => Entry {
                name,
                form: Some(Form::Archive(info)),
                puzzle: Ok(loaded),
            },
            Err(e) => failed(name, e.to_string()),
        };
    }
    match serde_json::from_value::<PuzzleV1>(value) {
        Ok(p) => {
            let puzzle = from_v1(&p).map_err(|e| e.to_string()).and_then(|loaded| {
                if p.variant.as_deref() == Some("killer") {
                    crate::killer::check_model(loaded.puzzle.model()).map_err(|e| e.to_string())?;
                }
                Ok(loaded)
            });
            Entry {
                name,
                form: Some(Form::V1(Box::new(p))),
                puzzle,
            }
        }
        Err(e) => failed(name, format!("not a v1 puzzle: {e}")),
    }
}

fn read_classic_lines(file: &str, text: &str) -> Vec<Entry> {
    let model = Arc::new(engine::geometry::classic(3, 3).expect("classic 9x9 is a valid model"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let name = format!("{file}:{}", i + 1);
        let puzzle = match engine::text::parse_line(line) {
            Ok(None) => continue,
            Ok(Some(grid)) => Puzzle::new(Arc::clone(&model), grid.to_vec())
                .map(|puzzle| Loaded {
                    puzzle,
                    solution: None,
                })
                .map_err(|e| e.to_string()),
            // Not a grid: an f-puzzles link or compressed string, or a
            // SudokuPad link in its own format (best effort), if it is one.
            Err(e) => {
                if let Some(value) = crate::fpuzzles::unpack(line) {
                    out.push(fpuzzles_entry(name, &value));
                    continue;
                }
                if let Some(value) = crate::fpuzzles::sudokupad::unpack(line) {
                    let read = crate::fpuzzles::sudokupad::to_corpus(&value);
                    out.push(corpus_puzzle_entry(name, read, Form::FPuzzles));
                    continue;
                }
                Err(unreadable_link(line).unwrap_or_else(|| e.to_string()))
            }
        };
        out.push(Entry {
            name,
            form: Some(Form::Text),
            puzzle,
        });
    }
    out
}

/// Why a line that names a puzzle site could not be read, if it names one.
fn unreadable_link(line: &str) -> Option<String> {
    if line.contains("load=") || line.contains("/fpuzzles") {
        return Some("an f-puzzles link whose data cannot be read".into());
    }
    (line.contains("sudokupad.app") || line.contains("crackingthecryptic")).then(|| {
        "a SudokuPad link whose puzzle is not in the link (a short id of a puzzle stored on \
         SudokuPad's server) or cannot be read: share it as a SudokuPad link with its data \
         (…/scl…, …/fpuzzles…) or from f-puzzles"
            .to_string()
    })
}

fn failed(name: String, message: String) -> Entry {
    Entry {
        name,
        form: None,
        puzzle: Err(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_forms_and_names_entries() {
        let text = "# comment\n000000010400000000020000000000050407008000300001090000300400200050100000000806000\nshort\n";
        let entries = read_text("f.txt", text);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name, "f.txt:2");
        assert!(entries[0].puzzle.is_ok());
        assert_eq!(entries[1].name, "f.txt:3");
        assert!(entries[1].puzzle.as_ref().is_err());

        let lines = "{\"format\":\"x\"}\n{not json\n";
        let entries = read_text("f.jsonl", lines);
        assert_eq!(entries.len(), 2);
        assert!(entries[0]
            .puzzle
            .as_ref()
            .err()
            .is_some_and(|e| e.contains("not a v1 puzzle")));
        assert!(entries[1]
            .puzzle
            .as_ref()
            .err()
            .is_some_and(|e| e.contains("not JSON")));

        // Links that say what they are get errors that say so, each on its line.
        let links = "https://www.f-puzzles.com/?load=notlzstring\n\
                     https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA5gJwhmAX\n\
                     https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcA\n";
        let errors: Vec<String> = read_text("links.txt", links)
            .into_iter()
            .map(|e| format!("{}: {}", e.name, e.puzzle.err().unwrap_or_default()))
            .collect();
        assert_eq!(errors.len(), 3);
        assert!(errors[0].starts_with("links.txt:1: an f-puzzles link whose data cannot be read"));
        assert!(
            errors[1].starts_with("links.txt:2: a SudokuPad link whose puzzle is not in the link")
        );
        assert!(errors[2].starts_with("links.txt:3: an f-puzzles link whose data cannot be read"));

        let entries = read_text("a.json", "[1, 2");
        assert!(entries[0]
            .puzzle
            .as_ref()
            .err()
            .is_some_and(|e| e.contains("not a JSON array")));
    }
}
