//! Killer puzzles in the forms other tools write, read into the engine's model
//! with every cage checked, and errors that name the cage:
//! - the reference web solver's text form: one token per cell, row by row; a
//!   one- or two-digit number is the total of a new cage, a letter `L`, `U`,
//!   `R` or `D` joins the cage of the neighbour to the left, above, to the right
//!   or below. Tokens are separated by spaces, commas or line breaks (a letter
//!   needs no separator: `3R L`, `3RL` and `3,R,L` are the same).
//! - the krazydad CSV (`ptitle, vol, book, puzzle, puzz_color, puzz_hint,
//!   solved, sOrder`): a cage letter per cell, the totals in letter order.
//!
//! Square grids of side 4, 6 or 9 (boxes 2x2, 2x3, 3x3), no givens.

use engine::geometry::classic_builder;
use engine::{Model, Puzzle};
use std::sync::Arc;

/// A killer read from text: its side and its cages (cells row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Killer {
    /// Cells per side.
    pub side: usize,
    /// The cages, in reading order of their first cell.
    pub cages: Vec<Cage>,
}

/// One cage: its cells (row-major indices, ascending) and total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// Row-major cell indices, ascending.
    pub cells: Vec<usize>,
    /// What its digits add up to.
    pub total: u32,
}

/// The name of row-major cell `i` on a grid of `side` columns (`r1c1`).
fn cell_name(i: usize, side: usize) -> String {
    format!("r{}c{}", i / side + 1, i % side + 1)
}

/// What is wrong with a killer read here: its cages, or the text or CSV row
/// it came from. Cells are named `r1c1`, cages by their first cell.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KillerError {
    /// Not 4x4, 6x6 or 9x9.
    #[error("{side}x{side} is not a killer size read here (4x4, 6x6 or 9x9)")]
    Size {
        /// Cells per side.
        side: usize,
    },
    /// A layout that is not a full square.
    #[error("a killer is a full square grid")]
    NotSquare,
    /// A cage without cells.
    #[error("a cage has no cells")]
    EmptyCage,
    /// A cage reaching outside the grid.
    #[error("cage at {cage}: a cell is outside the grid")]
    OutsideGrid {
        /// The cage's first cell.
        cage: String,
    },
    /// A cell in two cages.
    #[error("{cell} is in two cages: {first} and {second}")]
    TwoCages {
        /// The cell.
        cell: String,
        /// One cage.
        first: String,
        /// The other.
        second: String,
    },
    /// A cage with more cells than digits.
    #[error("{cage} has more cells than there are digits (1-{digits})")]
    TooLarge {
        /// The cage.
        cage: String,
        /// The grid's digits.
        digits: u32,
    },
    /// A total no set of different digits makes.
    #[error("{cage}: {cells} different digits add up to {low}..={high}, never {total}")]
    ImpossibleTotal {
        /// The cage.
        cage: String,
        /// Its cells.
        cells: u32,
        /// The least total.
        low: u32,
        /// The greatest total.
        high: u32,
        /// Its total.
        total: u32,
    },
    /// A cell in no cage.
    #[error("{cell} is in no cage")]
    Uncaged {
        /// The cell.
        cell: String,
    },
    /// Totals that do not add up to the grid's.
    #[error("the cage totals add up to {sum}; a {side}x{side} killer's add up to {expected}")]
    TotalsSum {
        /// Their sum.
        sum: u32,
        /// Cells per side.
        side: usize,
        /// What they must add up to.
        expected: u32,
    },
    /// The engine refused the rules.
    #[error("{0}")]
    Rules(String),
    /// Something in the text form that is not a total or a letter.
    #[error("line {line}, column {column}: {what}")]
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is there.
        what: String,
    },
    /// A text whose cells are not whole killers.
    #[error("{cells} cells: a killer has 81 (9x9), 36 (6x6) or 16 (4x4)")]
    CellCount {
        /// Cells read.
        cells: usize,
    },
    /// A letter pointing off the grid.
    #[error("{cell}: its letter points outside the grid")]
    PointsOutside {
        /// The cell.
        cell: String,
    },
    /// Letters that never reach a total.
    #[error("{cell}: its letters lead round in a loop and never reach a cage total")]
    Loop {
        /// A cell on the loop's way.
        cell: String,
    },
    /// A krazydad CSV row that does not read.
    #[error("{title}: {what}")]
    Row {
        /// Its `ptitle` (may be empty).
        title: String,
        /// What is wrong.
        what: String,
    },
}

/// The box shape of a square killer of `side` cells per side.
fn box_shape(side: usize) -> Result<(u32, u32), KillerError> {
    match side {
        4 => Ok((2, 2)),
        6 => Ok((2, 3)),
        9 => Ok((3, 3)),
        _ => Err(KillerError::Size { side }),
    }
}

impl Killer {
    /// A killer from a cage id per cell (row-major) and each cage's total.
    fn from_ids(side: usize, ids: &[usize], totals: &[u32]) -> Killer {
        let mut cages: Vec<Cage> = totals
            .iter()
            .map(|&total| Cage {
                cells: Vec::new(),
                total,
            })
            .collect();
        for (cell, &id) in ids.iter().enumerate() {
            cages[id].cells.push(cell);
        }
        cages.retain(|c| !c.cells.is_empty());
        cages.sort_by_key(|c| c.cells[0]);
        Killer { side, cages }
    }

    /// Checks the cages: every cell in exactly one, no cage larger than the
    /// grid's digits, every total possible for its size, and the totals adding
    /// up to the grid's.
    pub fn check(&self) -> Result<(), KillerError> {
        let side = self.side;
        box_shape(side)?;
        let name = |c: &Cage| {
            format!(
                "the cage at {} ({} cells, total {})",
                cell_name(c.cells[0], side),
                c.cells.len(),
                c.total
            )
        };
        let mut owner: Vec<Option<&Cage>> = vec![None; side * side];
        for cage in &self.cages {
            let Some(&first) = cage.cells.first() else {
                return Err(KillerError::EmptyCage);
            };
            for &cell in &cage.cells {
                let slot = owner
                    .get_mut(cell)
                    .ok_or_else(|| KillerError::OutsideGrid {
                        cage: cell_name(first, side),
                    })?;
                if let Some(other) = slot {
                    return Err(KillerError::TwoCages {
                        cell: cell_name(cell, side),
                        first: name(other),
                        second: name(cage),
                    });
                }
                *slot = Some(cage);
            }
            let k = cage.cells.len() as u32;
            let n = side as u32;
            if k > n {
                return Err(KillerError::TooLarge {
                    cage: name(cage),
                    digits: n,
                });
            }
            let (low, high) = (k * (k + 1) / 2, k * (2 * n - k + 1) / 2);
            if !(low..=high).contains(&cage.total) {
                return Err(KillerError::ImpossibleTotal {
                    cage: name(cage),
                    cells: k,
                    low,
                    high,
                    total: cage.total,
                });
            }
        }
        if let Some(cell) = owner.iter().position(Option::is_none) {
            return Err(KillerError::Uncaged {
                cell: cell_name(cell, side),
            });
        }
        let sum: u32 = self.cages.iter().map(|c| c.total).sum();
        let expected = (side * side * (side + 1) / 2) as u32;
        if sum != expected {
            return Err(KillerError::TotalsSum {
                sum,
                side,
                expected,
            });
        }
        Ok(())
    }

    /// The engine's model: classic rules plus the cages (checked first).
    pub fn model(&self) -> Result<Model, KillerError> {
        self.check()?;
        let (rows, cols) = box_shape(self.side)?;
        let side = self.side as u32;
        let rules = |e: engine::PuzzleError| KillerError::Rules(e.to_string());
        let mut builder = classic_builder(rows, cols).map_err(rules)?;
        for cage in &self.cages {
            let cells = cage
                .cells
                .iter()
                .map(|&i| [i as u32 / side, i as u32 % side])
                .collect();
            builder = builder.cage(cells, cage.total);
        }
        builder.build().map_err(rules)
    }

    /// The puzzle: the model with no givens.
    pub fn puzzle(&self) -> Result<Puzzle, KillerError> {
        let model = self.model()?;
        let empty = vec![0; model.cell_count()];
        Puzzle::new(Arc::new(model), empty).map_err(|e| KillerError::Rules(e.to_string()))
    }
}

/// Checks the cages of a v1 puzzle that says it is a killer, as [`Killer::check`]
/// does (a square classic layout of side 4, 6 or 9).
pub fn check_model(model: &Model) -> Result<(), KillerError> {
    let side = model.cols() as usize;
    if model.rows() as usize != side || model.cell_count() != side * side {
        return Err(KillerError::NotSquare);
    }
    let cages = model
        .cages()
        .iter()
        .map(|c| Cage {
            cells: c.cells.iter().map(|&i| i as usize).collect(),
            total: c.sum,
        })
        .collect();
    Killer { side, cages }.check()
}

/// One token of the text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// A cage total: this cell starts a cage.
    Total(u32),
    /// Joins the cage of the neighbour (row step, column step).
    Join(i32, i32),
}

/// Where a token was read: line and column, 1-based.
type At = (usize, usize);

/// The tokens of `text`, each with where it starts; `#` starts a comment to
/// the end of the line.
fn tokens(text: &str) -> Result<Vec<(Token, At)>, KillerError> {
    let mut out = Vec::new();
    for (l, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let mut digits = String::new();
        let mut start = 0;
        let flush = |digits: &mut String, start: usize, out: &mut Vec<(Token, At)>| {
            if digits.is_empty() {
                return Ok(());
            }
            let at = |what: String| KillerError::Text {
                line: l + 1,
                column: start + 1,
                what,
            };
            if digits.len() > 2 {
                return Err(at(format!(
                    "'{digits}' is not a one- or two-digit total \
                     (separate cells with spaces or commas)"
                )));
            }
            let total = digits.parse::<u32>().map_err(|e| at(e.to_string()))?;
            out.push((Token::Total(total), (l + 1, start + 1)));
            digits.clear();
            Ok(())
        };
        for (c, ch) in line.chars().enumerate() {
            if ch.is_ascii_digit() {
                if digits.is_empty() {
                    start = c;
                }
                digits.push(ch);
                continue;
            }
            flush(&mut digits, start, &mut out)?;
            let join = match ch.to_ascii_uppercase() {
                'L' => (0, -1),
                'U' => (-1, 0),
                'R' => (0, 1),
                'D' => (1, 0),
                ',' | ';' => continue,
                w if w.is_whitespace() => continue,
                other => {
                    return Err(KillerError::Text {
                        line: l + 1,
                        column: c + 1,
                        what: format!("'{other}' is neither a cage total nor L, U, R or D"),
                    })
                }
            };
            out.push((Token::Join(join.0, join.1), (l + 1, c + 1)));
        }
        flush(&mut digits, start, &mut out)?;
    }
    Ok(out)
}

/// Whether `text` looks like the text form: no JSON, and some L, U, R or D
/// outside comments among digits.
pub fn is_text_form(text: &str) -> bool {
    let mut directions = false;
    for line in text.lines() {
        for c in line.split('#').next().unwrap_or("").chars() {
            match c {
                'L' | 'U' | 'R' | 'D' | 'l' | 'u' | 'r' | 'd' => directions = true,
                ',' | ';' => {}
                c if c.is_ascii_digit() || c.is_whitespace() => {}
                _ => return false,
            }
        }
    }
    directions
}

/// One killer of a text, read or not, with the line it starts on.
pub type TextKiller = (usize, Result<Killer, KillerError>);

/// Every killer in the text form, in order: each `side`² tokens (81 for 9x9,
/// or 36 for 6x6 and 16 for 4x4 when the count says so) make one puzzle. Each
/// is named by the line it starts on.
pub fn parse_text(text: &str) -> Result<Vec<TextKiller>, KillerError> {
    let tokens = tokens(text)?;
    let side = [9usize, 6, 4]
        .into_iter()
        .find(|s| !tokens.is_empty() && tokens.len() % (s * s) == 0)
        .ok_or(KillerError::CellCount {
            cells: tokens.len(),
        })?;
    Ok(tokens
        .chunks(side * side)
        .map(|chunk| (chunk[0].1 .0, killer_of(chunk, side)))
        .collect())
}

/// One killer from its `side`² tokens.
fn killer_of(tokens: &[(Token, At)], side: usize) -> Result<Killer, KillerError> {
    let n = side * side;
    // Each cell's next cell towards its cage's total (itself for a total).
    let mut next = vec![0usize; n];
    let mut totals = Vec::new();
    let mut total_of = vec![usize::MAX; n];
    for (i, &(token, _)) in tokens.iter().enumerate() {
        match token {
            Token::Total(t) => {
                next[i] = i;
                total_of[i] = totals.len();
                totals.push(t);
            }
            Token::Join(dr, dc) => {
                let (r, c) = ((i / side) as i32 + dr, (i % side) as i32 + dc);
                if r < 0 || c < 0 || r >= side as i32 || c >= side as i32 {
                    return Err(KillerError::PointsOutside {
                        cell: cell_name(i, side),
                    });
                }
                next[i] = r as usize * side + c as usize;
            }
        }
    }
    let mut ids = vec![0usize; n];
    for (i, id) in ids.iter_mut().enumerate() {
        let mut at = i;
        for _ in 0..n {
            if next[at] == at {
                break;
            }
            at = next[at];
        }
        if next[at] != at {
            return Err(KillerError::Loop {
                cell: cell_name(i, side),
            });
        }
        *id = total_of[at];
    }
    Ok(Killer::from_ids(side, &ids, &totals))
}

/// One data row of the krazydad CSV: its title, the killer and the solution.
#[derive(Clone, Debug)]
pub struct KrazydadRow {
    /// The `ptitle` column.
    pub title: String,
    /// The puzzle.
    pub killer: Killer,
    /// The `solved` column, row-major.
    pub solution: Vec<u8>,
}

/// Whether `line` is the krazydad CSV header (it may start with an unnamed
/// index column).
pub fn is_krazydad_header(line: &str) -> bool {
    line.split(',').any(|f| f.trim() == "ptitle")
}

/// Splits one CSV line, honouring double-quoted fields.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            _ => {
                if let Some(last) = fields.last_mut() {
                    last.push(ch);
                }
            }
        }
    }
    fields
}

/// Parses one data row of the krazydad CSV (see the module comment; a leading
/// index column is allowed). The killer is not checked yet ([`Killer::check`]).
pub fn parse_krazydad_row(line: &str) -> Result<KrazydadRow, KillerError> {
    let f = csv_fields(line);
    let row = |title: &str, what: String| KillerError::Row {
        title: title.to_string(),
        what,
    };
    // The cage letters: `K` and 81 letters; the title is four columns before.
    let at = f
        .iter()
        .position(|c| {
            c.starts_with('K') && c.len() == 82 && c.chars().all(|ch| ch.is_ascii_alphabetic())
        })
        .ok_or_else(|| row("", "no puzz_color column (K and 81 cage letters)".into()))?;
    let title = at.checked_sub(4).map_or("", |t| f[t].as_str()).to_string();
    let (Some(hints), Some(solved)) = (f.get(at + 1), f.get(at + 2)) else {
        return Err(row(
            &title,
            "no puzz_hint and solved columns after the cage letters".into(),
        ));
    };
    let letters: Vec<char> = f[at][1..].chars().collect();
    // Letters in A-Z then a-z order line up with the totals.
    let mut names = letters.clone();
    names.sort_by_key(|&c| (c.is_ascii_lowercase(), c));
    names.dedup();
    let totals: Vec<u32> = hints
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<u32>()
                .map_err(|e| row(&title, format!("cage total {s:?}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    if totals.len() != names.len() {
        return Err(row(
            &title,
            format!("{} totals for {} cages", totals.len(), names.len()),
        ));
    }
    let ids: Vec<usize> = letters
        .iter()
        .map(|l| names.iter().position(|n| n == l).unwrap_or(0))
        .collect();
    let solution: Vec<u8> = solved.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if solution.len() != 81 || solution.iter().any(|&v| !(1..=9).contains(&v)) {
        return Err(row(&title, "the solution is not 81 digits 1-9".into()));
    }
    Ok(KrazydadRow {
        title,
        killer: Killer::from_ids(9, &ids, &totals),
        solution,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 killer: two-cell cages across each row pair, in the text form.
    const FOUR: &str = "3 L 7 L\n7 L 3 L\n5 6 5 4\nU U U U\n";

    #[test]
    fn text_form_is_told_from_classic_lines_and_json() {
        assert!(is_text_form(FOUR));
        assert!(is_text_form(
            "# a comment with other words\n3 l 7 l\n7;l,3 l\n"
        ));
        let classic =
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
        assert!(!is_text_form(classic), "digits alone");
        assert!(!is_text_form(&classic.replace('0', ".")));
        assert!(!is_text_form("{\"cells\": \"LURD\"}"));
        assert!(!is_text_form("3 L 7 X\n"), "a letter that is no direction");
    }

    #[test]
    fn reads_the_text_form() {
        let read = parse_text(FOUR).expect("tokens");
        assert_eq!(read.len(), 1);
        let killer = read[0].1.clone().expect("killer");
        assert_eq!(killer.side, 4);
        assert_eq!(killer.cages.len(), 8);
        assert_eq!(
            killer.cages[0],
            Cage {
                cells: vec![0, 1],
                total: 3
            }
        );
        assert_eq!(
            killer.cages[4],
            Cage {
                cells: vec![8, 12],
                total: 5
            }
        );
        killer.check().expect("valid");
        let compact = parse_text("3L7L7L3L5,6,5,4UUUU").expect("tokens");
        assert_eq!(compact[0].1, Ok(killer));
    }

    #[test]
    fn errors_name_the_cell_or_cage() {
        let e = |text: &str| match parse_text(text) {
            Err(e) => e,
            Ok(read) => match &read[0].1 {
                Err(e) => e.clone(),
                Ok(k) => k.check().expect_err("should be refused"),
            },
        };
        let cell = |name: &str| name.to_string();
        assert_eq!(
            e("3 L 7 L\n7 L 3 L\n5 6 5 4\nD U U U\n"),
            KillerError::PointsOutside { cell: cell("r4c1") }
        );
        assert!(matches!(
            e("R L 7 L\n7 L 3 L\n5 6 5 4\nU U U U\n"),
            KillerError::Loop { .. }
        ));
        let letter = e("3 L 7 L\n7 L 3 X\n5 6 5 4\nU U U U\n");
        assert!(
            matches!(&letter, KillerError::Text { line: 2, column: 7, what } if what.contains("'X'")),
            "{letter}"
        );
        assert_eq!(
            e("3 L 7 L\n7 L 3 L\n5 6 5 4\nU U U\n"),
            KillerError::CellCount { cells: 15 }
        );
        assert!(e("3 L 7 L\n7 L 3 L\n5 6 5 123\nU U U U\n")
            .to_string()
            .contains("'123'"));
        let wrong_total = e("3 L 7 L\n7 L 3 L\n5 6 5 5\nU U U U\n");
        assert_eq!(
            wrong_total,
            KillerError::TotalsSum {
                sum: 41,
                side: 4,
                expected: 40
            }
        );
        let impossible = e("2 L 8 L\n7 L 3 L\n5 6 5 4\nU U U U\n");
        assert!(
            impossible
                .to_string()
                .contains("the cage at r1c1 (2 cells, total 2)"),
            "{impossible}"
        );
        let twice = Killer {
            side: 4,
            cages: vec![
                Cage {
                    cells: vec![0, 1],
                    total: 3,
                },
                Cage {
                    cells: vec![1, 2],
                    total: 5,
                },
            ],
        }
        .check()
        .expect_err("overlap");
        assert!(
            matches!(&twice, KillerError::TwoCages { cell, .. } if cell == "r1c2"),
            "{twice}"
        );
    }

    #[test]
    fn reads_a_krazydad_row_with_or_without_the_index_column() {
        let row = "KD_1,1,1,1,KABBBCDDEEAAFBCGGHIJAFKLMMHIJNNKLOOPPJJJJQQPPPJRRSTUUPPJVWSTXXYZVVWabccYZVaaabddee,\"11,25,14,9,12,15,4,14,6,40,3,15,9,8,12,38,11,15,13,6,4,17,7,13,10,6,26,4,15,11,12\",184652793526793184739184562653278419941365827278941356895427631412836975367519248,\"41,42\"";
        for line in [row.to_string(), format!("0,{row}")] {
            let read = parse_krazydad_row(&line).expect("row");
            assert_eq!(read.title, "KD_1");
            assert_eq!(read.killer.cages.len(), 31);
            assert_eq!(read.solution[..3], [1, 8, 4]);
            read.killer.check().expect("valid");
        }
        assert!(is_krazydad_header(
            ",ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder"
        ));
        assert!(parse_krazydad_row("a,b,c").is_err());
    }
}
