//! f-puzzles (f-puzzles.com): its puzzle JSON, and the links that carry it
//! LZString-compressed after `?load=` ([`lzstring`]); and SudokuPad's own
//! format, read best effort ([`sudokupad`]). Read into the variant
//! corpus schema (`protocol::corpus`, whose kinds are named after
//! f-puzzles' keys; then `engine::corpus` to the puzzle format), and written
//! back from it: an f-puzzles JSON object, an f-puzzles link, and a
//! SudokuPad link (which opens f-puzzles data after `/fpuzzles`).
//!
//! A rule key we cannot enforce is an error naming it; purely cosmetic
//! elements (lines, circles, rectangles, text, cages without a sum drawn
//! for decoration) are kept as drawings ([`decorations`]); the solver
//! settings are left out. The title, author and rules text (`ruleset`)
//! travel with the puzzle.

pub mod decorations;
pub mod lzstring;
pub mod sudokupad;

use protocol::corpus::{CorpusConstraint, CorpusPuzzle, CorpusValue};
use serde_json::{json, Map, Value};

/// The f-puzzles site's address for a link.
pub const FPUZZLES_URL: &str = "https://www.f-puzzles.com/?load=";

/// SudokuPad's address for f-puzzles data.
pub const SUDOKUPAD_URL: &str = "https://sudokupad.app/fpuzzles";

/// Keys that change no rule: informational fields, the site's settings, and
/// decorations (drawn by the setter; ours are drawn from the rules).
const COSMETIC: [&str; 14] = [
    "size",
    "title",
    "author",
    "ruleset",
    "grid",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
    "line",
    "circle",
    "rectangle",
    "text",
    "cage",
];

/// Global rules: `true` turns them on.
const FLAGS: [&str; 6] = [
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
];

/// Line rules: `{lines: [[cells…]…]}`, one corpus constraint per line.
const LINES: [&str; 9] = [
    "thermometer",
    "slowthermometer",
    "renban",
    "whispers",
    "palindrome",
    "betweenline",
    "entropicline",
    "regionsumline",
    "zipperline",
];

/// Single-cell rules: `{cell}`.
const SINGLE: [&str; 4] = ["odd", "even", "minimum", "maximum"];

/// Rules over explicit cells, copied field by field.
const CELLS: [&str; 8] = [
    "killercage",
    "littlekillersum",
    "difference",
    "ratio",
    "xv",
    "quadruple",
    "clone",
    "extraregion",
];

/// Outside clues given by their clue cell alone: the row or column read
/// from it.
const OUTSIDE: [&str; 3] = ["sandwichsum", "xsum", "skyscraper"];

/// Whether a JSON value looks like an f-puzzles puzzle: a `size` and a
/// `grid` of rows.
pub fn is_fpuzzles(value: &Value) -> bool {
    value.get("size").is_some_and(Value::is_u64)
        && value.get("grid").is_some_and(Value::is_array)
        && value.get("format").is_none()
}

/// The f-puzzles JSON a link or a bare compressed string carries (`…?load=…`,
/// `…/fpuzzles…`, or the string alone); `None` when it carries none.
pub fn unpack(text: &str) -> Option<Value> {
    let text = text.trim();
    let packed = if let Some((_, after)) = text.split_once("load=") {
        after.split('&').next().unwrap_or(after)
    } else if let Some((_, after)) = text.split_once("/fpuzzles") {
        after.split(['?', '&']).next().unwrap_or(after)
    } else {
        text
    };
    let json = lzstring::decompress_from_base64(&url_decoded(packed))?;
    serde_json::from_str::<Value>(&json)
        .ok()
        .filter(|v| v.is_object())
}

/// Compressed data as pasted: links are often URL-encoded, and a `+` may
/// have become a space.
fn url_decoded(packed: &str) -> String {
    packed
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=")
        .replace(' ', "+")
}

/// A string or a number, as a number.
fn number(v: &Value) -> Option<u32> {
    match v {
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A list of cell references.
fn cell_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The region f-puzzles puts cell `(r, c)` of a `size` grid in by default:
/// its box (2x2, 2x3, 2x4, 3x3 by size), or -1 where a size has no boxes (5, 7).
fn default_region(size: u32, r: usize, c: usize) -> i32 {
    let (bh, bw) = match size {
        4 => (2, 2),
        6 => (2, 3),
        8 => (2, 4),
        9 => (3, 3),
        _ => return -1,
    };
    ((r as u32 / bh) * (size / bw) + c as u32 / bw) as i32
}

/// Reads an f-puzzles puzzle into the corpus schema. `Err` names the first
/// key or entry it cannot read or enforce.
pub fn to_corpus(value: &Value) -> Result<CorpusPuzzle, String> {
    let object = value
        .as_object()
        .ok_or("an f-puzzles puzzle is a JSON object")?;
    let size = object
        .get("size")
        .and_then(number)
        .filter(|s| (1..=9).contains(s))
        .ok_or("f-puzzles 'size' must be 1 to 9")?;
    let n = size as usize;
    let grid = object
        .get("grid")
        .and_then(Value::as_array)
        .filter(|rows| rows.len() == n)
        .ok_or_else(|| format!("f-puzzles 'grid' must have {n} rows"))?;
    let mut givens = String::with_capacity(n * n);
    let mut regions = vec![vec![-1i32; n]; n];
    for (r, row) in grid.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|cells| cells.len() == n)
            .ok_or_else(|| format!("f-puzzles 'grid' row {} must have {n} cells", r + 1))?;
        for (c, cell) in row.iter().enumerate() {
            let given = cell.get("given").and_then(Value::as_bool).unwrap_or(false);
            let value = cell
                .get("value")
                .and_then(number)
                .filter(|v| (1..=size).contains(v));
            match (given, value) {
                (true, Some(v)) => givens.push(char::from(b'0' + v as u8)),
                _ => givens.push('.'),
            }
            regions[r][c] = match cell.get("region") {
                Some(Value::Number(k)) => {
                    k.as_i64().and_then(|k| i32::try_from(k).ok()).unwrap_or(-1)
                }
                Some(Value::Null) => -1,
                _ => default_region(size, r, c),
            };
        }
    }
    let mut constraints = Vec::new();
    for (key, entry) in object {
        let key = key.as_str();
        if COSMETIC.contains(&key) {
            continue;
        }
        let what = |i: usize| format!("f-puzzles '{key}' entry {}", i + 1);
        if FLAGS.contains(&key) {
            if entry.as_bool() == Some(true) {
                constraints.push(CorpusConstraint {
                    kind: key.to_string(),
                    ..Default::default()
                });
            }
            continue;
        }
        if key == "negative" {
            let types: Vec<String> = entry
                .as_array()
                .ok_or("f-puzzles 'negative' must be a list")?
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect();
            if let Some(bad) = types.iter().find(|t| *t != "ratio" && *t != "xv") {
                return Err(format!(
                    "f-puzzles negative constraint '{bad}' is not supported"
                ));
            }
            if !types.is_empty() {
                constraints.push(CorpusConstraint {
                    kind: "negative".into(),
                    types,
                    ..Default::default()
                });
            }
            continue;
        }
        let known = LINES.contains(&key)
            || SINGLE.contains(&key)
            || CELLS.contains(&key)
            || OUTSIDE.contains(&key)
            || key == "arrow"
            || key == "columnindexer";
        if !known {
            return Err(format!("f-puzzles '{key}' is not a rule we can enforce"));
        }
        let entries = entry
            .as_array()
            .ok_or_else(|| format!("f-puzzles '{key}' must be a list"))?;
        for (i, e) in entries.iter().enumerate() {
            let value = e.get("value");
            if LINES.contains(&key) {
                let lines = e
                    .get("lines")
                    .and_then(Value::as_array)
                    .ok_or_else(|| format!("{}: no lines", what(i)))?;
                for line in lines {
                    let mut c = CorpusConstraint {
                        kind: key.to_string(),
                        cells: cell_list(Some(line)),
                        ..Default::default()
                    };
                    if key == "whispers" {
                        c.value = Some(CorpusValue::Number(value.and_then(number).unwrap_or(5)));
                    }
                    constraints.push(c);
                }
            } else if SINGLE.contains(&key) {
                let cell = e
                    .get("cell")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{}: no cell", what(i)))?;
                constraints.push(CorpusConstraint {
                    kind: key.to_string(),
                    cells: vec![cell.to_string()],
                    ..Default::default()
                });
            } else if key == "arrow" {
                let circle = cell_list(e.get("cells"));
                let lines = e
                    .get("lines")
                    .and_then(Value::as_array)
                    .ok_or_else(|| format!("{}: no lines", what(i)))?;
                for line in lines {
                    let shaft = cell_list(Some(line));
                    constraints.push(CorpusConstraint {
                        kind: "arrow".into(),
                        cells: circle.clone(),
                        line: shaft.into_iter().skip(1).collect(),
                        ..Default::default()
                    });
                }
            } else if OUTSIDE.contains(&key) {
                let cell = e
                    .get("cell")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{}: no cell", what(i)))?;
                let total = value
                    .and_then(number)
                    .ok_or_else(|| format!("{}: no value", what(i)))?;
                let cells = outside_line(cell, size)
                    .ok_or_else(|| format!("{}: {cell} is not beside the grid", what(i)))?;
                constraints.push(CorpusConstraint {
                    kind: key.to_string(),
                    cells,
                    value: Some(CorpusValue::Number(total)),
                    cell: Some(cell.to_string()),
                    ..Default::default()
                });
            } else {
                let mut c = CorpusConstraint {
                    kind: key.to_string(),
                    cells: cell_list(e.get("cells")),
                    ..Default::default()
                };
                match key {
                    "killercage" => c.value = value.and_then(number).map(CorpusValue::Number),
                    "littlekillersum" => {
                        c.value = Some(CorpusValue::Number(
                            value
                                .and_then(number)
                                .ok_or_else(|| format!("{}: no sum", what(i)))?,
                        ));
                        c.cell = e.get("cell").and_then(Value::as_str).map(str::to_string);
                        c.direction = e
                            .get("direction")
                            .and_then(Value::as_str)
                            .map(str::to_string);
                    }
                    "difference" => {
                        c.value = Some(CorpusValue::Number(value.and_then(number).unwrap_or(1)))
                    }
                    "ratio" => {
                        c.value = Some(CorpusValue::Number(value.and_then(number).unwrap_or(2)))
                    }
                    "xv" => {
                        let letter = value
                            .and_then(Value::as_str)
                            .map(str::to_uppercase)
                            .filter(|l| l == "X" || l == "V")
                            .ok_or_else(|| format!("{}: value must be X or V", what(i)))?;
                        c.value = Some(CorpusValue::Text(letter));
                    }
                    "quadruple" => {
                        c.values = e
                            .get("values")
                            .and_then(Value::as_array)
                            .map(|v| v.iter().filter_map(number).collect())
                            .unwrap_or_default();
                    }
                    "clone" => c.clone_cells = cell_list(e.get("cloneCells")),
                    _ => {}
                }
                constraints.push(c);
            }
        }
    }
    let solution = object
        .get("solution")
        .and_then(Value::as_array)
        .and_then(|s| {
            let digits: Option<String> = s
                .iter()
                .map(|d| {
                    number(d)
                        .filter(|d| (1..=size).contains(d))
                        .map(|d| char::from(b'0' + d as u8))
                })
                .collect();
            digits.filter(|d| d.len() == n * n)
        });
    Ok(CorpusPuzzle {
        id: String::new(),
        title: object
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_string),
        author: object
            .get("author")
            .and_then(Value::as_str)
            .map(str::to_string),
        rules: object
            .get("ruleset")
            .and_then(Value::as_str)
            .map(str::to_string),
        size,
        givens,
        regions,
        constraints,
        tags: Vec::new(),
        solution,
        decorations: decorations::read(object, size),
    })
}

/// The cells of the row or column an outside clue at `cell` reads, from
/// its side.
fn outside_line(cell: &str, size: u32) -> Option<Vec<String>> {
    let [r, c] = engine::corpus::place(cell).ok()?;
    let n = size as i32;
    let line: Vec<[i32; 2]> = if r == -1 && (0..n).contains(&c) {
        (0..n).map(|k| [k, c]).collect()
    } else if r == n && (0..n).contains(&c) {
        (0..n).rev().map(|k| [k, c]).collect()
    } else if c == -1 && (0..n).contains(&r) {
        (0..n).map(|k| [r, k]).collect()
    } else if c == n && (0..n).contains(&r) {
        (0..n).rev().map(|k| [r, k]).collect()
    } else {
        return None;
    };
    Some(line.into_iter().map(engine::corpus::place_name).collect())
}

/// The f-puzzles JSON of a corpus puzzle (rules, givens, regions, title,
/// author, solution).
pub fn from_corpus(p: &CorpusPuzzle) -> Value {
    let n = p.size as usize;
    let grid: Vec<Vec<Value>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let mut cell = Map::new();
                    if let Some(d) = p
                        .givens
                        .as_bytes()
                        .get(r * n + c)
                        .filter(|b| b.is_ascii_digit() && **b != b'0')
                    {
                        cell.insert("value".into(), json!(d - b'0'));
                        cell.insert("given".into(), json!(true));
                    }
                    let default = default_region(p.size, r, c);
                    let region = p
                        .regions
                        .get(r)
                        .and_then(|row| row.get(c))
                        .copied()
                        .unwrap_or(default);
                    if region != default {
                        cell.insert(
                            "region".into(),
                            if region < 0 {
                                Value::Null
                            } else {
                                json!(region)
                            },
                        );
                    }
                    Value::Object(cell)
                })
                .collect()
        })
        .collect();
    let mut out = Map::new();
    out.insert("size".into(), json!(p.size));
    if let Some(t) = &p.title {
        out.insert("title".into(), json!(t));
    }
    if let Some(a) = &p.author {
        out.insert("author".into(), json!(a));
    }
    if let Some(r) = &p.rules {
        out.insert("ruleset".into(), json!(r));
    }
    out.insert("grid".into(), json!(grid));
    decorations::write(&p.decorations, &mut out);
    let value_of = |v: &Option<CorpusValue>| match v {
        Some(CorpusValue::Number(n)) => json!(n.to_string()),
        Some(CorpusValue::Text(t)) => json!(t),
        None => Value::Null,
    };
    let push = |out: &mut Map<String, Value>, key: &str, entry: Value| {
        if let Some(list) = out
            .entry(key.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
        {
            list.push(entry);
        }
    };
    for c in &p.constraints {
        let kind = c.kind.as_str();
        if FLAGS.contains(&kind) {
            out.insert(kind.into(), json!(true));
        } else if kind == "negative" {
            out.insert(kind.into(), json!(c.types));
        } else if LINES.contains(&kind) {
            let mut e = json!({"lines": [c.cells]});
            if kind == "whispers" {
                if let Some(CorpusValue::Number(d)) = &c.value {
                    e["value"] = json!(d);
                }
            }
            push(&mut out, kind, e);
        } else if SINGLE.contains(&kind) {
            push(&mut out, kind, json!({"cell": c.cells.first()}));
        } else if kind == "arrow" {
            let mut line = vec![c.cells.first().cloned().unwrap_or_default()];
            line.extend(c.line.iter().cloned());
            push(&mut out, kind, json!({"cells": c.cells, "lines": [line]}));
        } else if OUTSIDE.contains(&kind) {
            push(
                &mut out,
                kind,
                json!({"cell": c.cell, "value": value_of(&c.value)}),
            );
        } else {
            let mut e = json!({"cells": c.cells});
            match kind {
                "killercage" if c.value.is_some() => e["value"] = value_of(&c.value),
                "littlekillersum" => {
                    e["value"] = value_of(&c.value);
                    e["cell"] = json!(c.cell);
                    e["direction"] = json!(c.direction);
                }
                "difference" | "ratio" | "xv" => e["value"] = value_of(&c.value),
                "quadruple" => e["values"] = json!(c.values),
                "clone" => e["cloneCells"] = json!(c.clone_cells),
                _ => {}
            }
            push(&mut out, kind, e);
        }
    }
    if let Some(s) = &p.solution {
        let digits: Vec<u32> = s
            .bytes()
            .map(|b| u32::from(b.saturating_sub(b'0')))
            .collect();
        out.insert("solution".into(), json!(digits));
    }
    Value::Object(out)
}

/// An f-puzzles link to `puzzle` (its JSON compressed after `?load=`).
pub fn fpuzzles_link(puzzle: &Value) -> String {
    format!(
        "{FPUZZLES_URL}{}",
        lzstring::compress_to_base64(&puzzle.to_string())
    )
}

/// A link that opens `puzzle` in SudokuPad.
pub fn sudokupad_link(puzzle: &Value) -> String {
    format!(
        "{SUDOKUPAD_URL}{}",
        lzstring::compress_to_base64(&puzzle.to_string())
    )
}

/// "Open in f-puzzles" and "Open in SudokuPad" links to a puzzle being
/// played (its title, setter and rules along; no solution), or none when the
/// corpus schema cannot hold it (a grid above 9x9, a Samurai).
pub fn share_links(
    puzzle: &engine::Puzzle,
    public: &protocol::PuzzleV1,
) -> Vec<protocol::wire::ShareLink> {
    let Ok(mut corpus) = engine::corpus::to_corpus(puzzle, None) else {
        return Vec::new();
    };
    corpus.title = public.title.clone();
    corpus.author = public.author.clone();
    corpus.rules = public.rules.clone();
    corpus.decorations = public.decorations.clone();
    let json = from_corpus(&corpus);
    vec![
        protocol::wire::ShareLink {
            site: "f-puzzles".into(),
            url: fpuzzles_link(&json),
        },
        protocol::wire::ShareLink {
            site: "SudokuPad".into(),
            url: sudokupad_link(&json),
        },
    ]
}
