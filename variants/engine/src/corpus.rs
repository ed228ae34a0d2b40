//! The variant corpus schema (`protocol::corpus`) to and from the puzzle
//! format: f-puzzles' constraint kinds and `R1C1` names on one side, the
//! vocabulary (`protocol::Constraint`) and `[row, column]` on the other.

use crate::error::PuzzleError;
use crate::geometry::sub_grid;
use crate::puzzle::Puzzle;
use protocol::corpus::{CorpusConstraint, CorpusPuzzle, CorpusValue};
use protocol::{
    Axis, Constraint, Coord, House, HouseKind, Layout, Place, PuzzleV1, PUZZLE_FORMAT_V2,
};

/// The puzzle a corpus object describes, in the puzzle format (v2).
pub fn from_corpus(p: &CorpusPuzzle) -> Result<PuzzleV1, PuzzleError> {
    let n = p.size;
    if !(1..=9).contains(&n) {
        return Err(PuzzleError::new(format!("size {n} is outside 1..=9")));
    }
    let line = |kind, cells| House { kind, cells };
    let mut houses: Vec<House> = (0..n)
        .map(|r| line(HouseKind::Row, (0..n).map(|c| [r, c]).collect()))
        .chain((0..n).map(|c| line(HouseKind::Column, (0..n).map(|r| [r, c]).collect())))
        .collect();
    houses.extend(regions(p)?);
    let mut constraints = Vec::new();
    for (i, c) in p.constraints.iter().enumerate() {
        let named = |e: String| PuzzleError::new(format!("constraint {i} ({}): {e}", c.kind));
        match read_constraint(c, n).map_err(named)? {
            Read::House(kind, cells) => houses.push(House { kind, cells }),
            Read::Constraint(c) => constraints.push(c),
        }
    }
    Ok(PuzzleV1 {
        format: PUZZLE_FORMAT_V2.into(),
        variant: None,
        params: Default::default(),
        difficulty: None,
        seed: None,
        date: None,
        title: p.title.clone(),
        author: p.author.clone(),
        rules: p.rules.clone(),
        size: n,
        symbols: None,
        layout: Layout { rows: n, cols: n },
        cells: None,
        houses,
        cages: Vec::new(),
        different: Vec::new(),
        constraints,
        drawings: Vec::new(),
        rule_notes: Vec::new(),
        decorations: p.decorations.clone(),
        grid: digits(&p.givens, n, "givens")?,
        clue_count: None,
        solution: p
            .solution
            .as_deref()
            .map(|s| digits(s, n, "solution"))
            .transpose()?,
        grade: None,
    })
}

/// What one corpus constraint is here: a house, or a constraint.
enum Read {
    House(HouseKind, Vec<Coord>),
    Constraint(Constraint),
}

/// The regions of a corpus object, as boxes when they are the default
/// boxes of its size, else as jigsaw regions.
fn regions(p: &CorpusPuzzle) -> Result<Vec<House>, PuzzleError> {
    let n = p.size as usize;
    if p.regions.len() != n || p.regions.iter().any(|r| r.len() != n) {
        return Err(PuzzleError::new(format!("regions must be {n}x{n}")));
    }
    let mut by_index: Vec<Vec<Coord>> = Vec::new();
    for (r, row) in p.regions.iter().enumerate() {
        for (c, &region) in row.iter().enumerate() {
            let Ok(k) = usize::try_from(region) else {
                continue;
            };
            if k >= n {
                return Err(PuzzleError::new(format!(
                    "region {region} at R{}C{} is outside 0..{n}",
                    r + 1,
                    c + 1
                )));
            }
            if by_index.len() <= k {
                by_index.resize(k + 1, Vec::new());
            }
            by_index[k].push([r as u32, c as u32]);
        }
    }
    // The corpus's default boxes: 2x2 for 4, 2x3 for 6, 2x4 for 8, 3x3 for 9.
    let shape = match p.size {
        4 => Some((2, 2)),
        6 => Some((2, 3)),
        8 => Some((2, 4)),
        9 => Some((3, 3)),
        _ => None,
    };
    let boxes: Vec<Vec<Coord>> = shape
        .map(|(rows, cols)| sub_grid(rows, cols, [0, 0]))
        .into_iter()
        .flatten()
        .filter(|(kind, _)| *kind == HouseKind::Box)
        .map(|(_, mut b)| {
            b.sort_unstable();
            b
        })
        .collect();
    let is_default = by_index.len() == boxes.len() && by_index.iter().all(|r| boxes.contains(r));
    let kind = if is_default {
        HouseKind::Box
    } else {
        HouseKind::Region
    };
    Ok(by_index
        .into_iter()
        .filter(|cells| !cells.is_empty())
        .map(|cells| House { kind, cells })
        .collect())
}

/// A grid of N·N characters (`.` or `0` empty) as rows.
fn digits(text: &str, n: u32, what: &str) -> Result<Vec<Vec<u32>>, PuzzleError> {
    let values: Vec<u32> = text
        .chars()
        .map(|ch| match ch {
            '.' | '0' => Ok(0),
            d => d.to_digit(10).filter(|&v| v <= n).ok_or_else(|| {
                PuzzleError::new(format!("{what}: '{d}' is not a digit of 1..={n}"))
            }),
        })
        .collect::<Result<_, _>>()?;
    if values.len() != (n * n) as usize {
        return Err(PuzzleError::new(format!(
            "{what} has {} characters, expected {}",
            values.len(),
            n * n
        )));
    }
    Ok(values.chunks(n as usize).map(<[u32]>::to_vec).collect())
}

/// `R<row>C<col>` (from 1; 0 and N+1 are outside) as a place from 0.
pub fn place(name: &str) -> Result<Place, String> {
    let bad = || format!("'{name}' is not a cell name like R1C1");
    let rest = name.strip_prefix('R').ok_or_else(bad)?;
    let (r, c) = rest.split_once('C').ok_or_else(bad)?;
    let r: i32 = r.parse().map_err(|_| bad())?;
    let c: i32 = c.parse().map_err(|_| bad())?;
    Ok([r - 1, c - 1])
}

/// The name of a place from 0: `R<row + 1>C<col + 1>`.
pub fn place_name([r, c]: Place) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A cell inside the `n` x `n` grid.
fn cell(name: &str, n: u32) -> Result<Coord, String> {
    let [r, c] = place(name)?;
    match (u32::try_from(r), u32::try_from(c)) {
        (Ok(r), Ok(c)) if r < n && c < n => Ok([r, c]),
        _ => Err(format!("{name} is outside the {n}x{n} grid")),
    }
}

fn cells(names: &[String], n: u32) -> Result<Vec<Coord>, String> {
    names.iter().map(|name| cell(name, n)).collect()
}

/// The two cells of a dot or mark.
fn pair(names: &[String], n: u32) -> Result<[Coord; 2], String> {
    match cells(names, n)?[..] {
        [a, b] => Ok([a, b]),
        _ => Err(format!("needs two cells, has {}", names.len())),
    }
}

/// The numeric `value`, or `default` when absent.
fn number(c: &CorpusConstraint, default: Option<u32>) -> Result<u32, String> {
    match &c.value {
        Some(CorpusValue::Number(v)) => Ok(*v),
        Some(CorpusValue::Text(t)) => Err(format!("value '{t}' is not a number")),
        None => default.ok_or_else(|| "needs a value".to_string()),
    }
}

/// The outside clue's place, if given.
fn clue(c: &CorpusConstraint) -> Result<Option<Place>, String> {
    c.cell.as_deref().map(place).transpose()
}

fn read_constraint(c: &CorpusConstraint, n: u32) -> Result<Read, String> {
    let cs = || cells(&c.cells, n);
    let constraint = match c.kind.as_str() {
        "diagonal+" => {
            let cells = (0..n).map(|i| [n - 1 - i, i]).collect();
            return Ok(Read::House(HouseKind::Diagonal, cells));
        }
        "diagonal-" => {
            let cells = (0..n).map(|i| [i, i]).collect();
            return Ok(Read::House(HouseKind::Diagonal, cells));
        }
        "extraregion" => return Ok(Read::House(HouseKind::Extra, cs()?)),
        "even" => Constraint::Even { cells: cs()? },
        "odd" => Constraint::Odd { cells: cs()? },
        "thermometer" | "slowthermometer" => Constraint::Thermometer {
            cells: cs()?,
            slow: c.kind == "slowthermometer",
        },
        "arrow" => Constraint::Arrow {
            circle: cs()?,
            line: cells(&c.line, n)?,
        },
        "difference" => Constraint::Difference {
            cells: pair(&c.cells, n)?,
            value: number(c, Some(1))?,
        },
        "ratio" => Constraint::Ratio {
            cells: pair(&c.cells, n)?,
            value: number(c, Some(2))?,
        },
        "xv" => {
            let sum = match &c.value {
                Some(CorpusValue::Text(t)) if t == "X" => 10,
                Some(CorpusValue::Text(t)) if t == "V" => 5,
                _ => return Err("value must be \"X\" or \"V\"".into()),
            };
            Constraint::Xv {
                cells: pair(&c.cells, n)?,
                sum,
            }
        }
        "littlekillersum" => Constraint::LittleKiller {
            cells: cs()?,
            sum: number(c, None)?,
            clue: clue(c)?,
        },
        "sandwichsum" => Constraint::Sandwich {
            cells: cs()?,
            sum: number(c, None)?,
            clue: clue(c)?,
        },
        "xsum" => Constraint::XSum {
            cells: cs()?,
            sum: number(c, None)?,
            clue: clue(c)?,
        },
        "skyscraper" => Constraint::Skyscraper {
            cells: cs()?,
            count: number(c, None)?,
            clue: clue(c)?,
        },
        "killercage" => Constraint::Cage {
            cells: cs()?,
            sum: c.value.as_ref().map(|_| number(c, None)).transpose()?,
        },
        "renban" => Constraint::Renban { cells: cs()? },
        "whispers" => Constraint::Whispers {
            cells: cs()?,
            difference: number(c, Some(5))?,
        },
        "palindrome" => Constraint::Palindrome { cells: cs()? },
        "betweenline" => Constraint::Between { cells: cs()? },
        "zipperline" => Constraint::Zipper { cells: cs()? },
        "entropicline" => Constraint::Entropic { cells: cs()? },
        "regionsumline" => Constraint::RegionSum { cells: cs()? },
        "minimum" => Constraint::Minimum { cells: cs()? },
        "maximum" => Constraint::Maximum { cells: cs()? },
        "quadruple" => Constraint::Quadruple {
            cells: cs()?,
            values: c.values.clone(),
        },
        "columnindexer" | "rowindexer" => Constraint::Indexer {
            cells: cs()?,
            axis: if c.kind == "rowindexer" {
                Axis::Row
            } else {
                Axis::Column
            },
        },
        "clone" => Constraint::Clone {
            cells: cs()?,
            clones: cells(&c.clone_cells, n)?,
        },
        "nonconsecutive" => Constraint::NonConsecutive,
        "antiking" => Constraint::AntiKing,
        "antiknight" => Constraint::AntiKnight,
        "disjointgroups" => Constraint::DisjointGroups,
        "negative" => {
            if let Some(t) = c
                .types
                .iter()
                .find(|t| !matches!(t.as_str(), "ratio" | "xv"))
            {
                return Err(format!("negative type '{t}' is not known (ratio, xv)"));
            }
            Constraint::Negative {
                ratio: c.types.iter().any(|t| t == "ratio"),
                xv: c.types.iter().any(|t| t == "xv"),
            }
        }
        other => return Err(format!("kind '{other}' is not known")),
    };
    Ok(Read::Constraint(constraint))
}

/// A puzzle (and optionally its solution) as a corpus object: an N x N grid
/// of digits 1..=9 with rows and columns; its boxes or regions, diagonals,
/// extra houses and constraints as the corpus names them.
pub fn to_corpus(puzzle: &Puzzle, solution: Option<&[u8]>) -> Result<CorpusPuzzle, PuzzleError> {
    let m = puzzle.model();
    let n = m.size();
    if m.rows() != n || m.cols() != n || !m.is_full_layout() || n > 9 {
        return Err(PuzzleError::new(
            "the corpus holds full N x N grids of digits 1..=9 only",
        ));
    }
    let (houses, cages, different) = m.authored();
    if !different.is_empty() {
        return Err(PuzzleError::new(
            "the corpus has no different-pairs (write anti-knight as a constraint)",
        ));
    }
    let name = |[r, c]: Coord| format!("R{}C{}", r + 1, c + 1);
    let names = |cells: &[Coord]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>();
    let coords = |cells: &[u32]| {
        cells
            .iter()
            .map(|&c| m.coord(c as usize))
            .collect::<Vec<_>>()
    };
    let mut regions = vec![vec![-1; n as usize]; n as usize];
    let mut out: Vec<CorpusConstraint> = Vec::new();
    let mut region = 0;
    for h in houses {
        let cells = coords(&h.cells);
        match h.kind {
            HouseKind::Row | HouseKind::Column => {}
            HouseKind::Box | HouseKind::Region => {
                for &[r, c] in &cells {
                    regions[r as usize][c as usize] = region;
                }
                region += 1;
            }
            HouseKind::Diagonal => {
                let positive = cells.iter().all(|&[r, c]| r + c == n - 1);
                out.push(CorpusConstraint {
                    kind: if positive { "diagonal+" } else { "diagonal-" }.into(),
                    ..Default::default()
                });
            }
            _ => out.push(CorpusConstraint {
                kind: "extraregion".into(),
                cells: names(&cells),
                ..Default::default()
            }),
        }
    }
    for cage in cages {
        out.push(CorpusConstraint {
            kind: "killercage".into(),
            cells: names(&coords(&cage.cells)),
            value: Some(CorpusValue::Number(cage.sum)),
            ..Default::default()
        });
    }
    for c in m.constraints() {
        out.push(write_constraint(c, &names)?);
    }
    let text = |values: &[u8]| -> String {
        values
            .iter()
            .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
            .collect()
    };
    Ok(CorpusPuzzle {
        id: String::new(),
        title: None,
        author: None,
        rules: None,
        size: n,
        givens: text(puzzle.givens()),
        regions,
        constraints: out,
        tags: Vec::new(),
        solution: solution.map(text),
        decorations: Vec::new(),
    })
}

/// One constraint of the vocabulary as the corpus writes it.
fn write_constraint(
    c: &Constraint,
    names: &dyn Fn(&[Coord]) -> Vec<String>,
) -> Result<CorpusConstraint, PuzzleError> {
    let outside = |p: &Option<Place>| p.map(place_name);
    let num = |v: u32| Some(CorpusValue::Number(v));
    let of = |kind: &str, cells: &[Coord]| CorpusConstraint {
        kind: kind.into(),
        cells: names(cells),
        ..Default::default()
    };
    Ok(match c {
        Constraint::Even { cells } => of("even", cells),
        Constraint::Odd { cells } => of("odd", cells),
        Constraint::Thermometer { cells, slow } => of(
            if *slow {
                "slowthermometer"
            } else {
                "thermometer"
            },
            cells,
        ),
        Constraint::Arrow { circle, line } => CorpusConstraint {
            line: names(line),
            ..of("arrow", circle)
        },
        Constraint::Difference { cells, value } => CorpusConstraint {
            value: num(*value),
            ..of("difference", cells)
        },
        Constraint::Ratio { cells, value } => CorpusConstraint {
            value: num(*value),
            ..of("ratio", cells)
        },
        Constraint::Xv { cells, sum } => CorpusConstraint {
            value: Some(CorpusValue::Text(
                match sum {
                    10 => "X",
                    5 => "V",
                    _ => {
                        return Err(PuzzleError::new(format!(
                            "an XV sum of {sum} has no letter"
                        )))
                    }
                }
                .into(),
            )),
            ..of("xv", cells)
        },
        Constraint::LittleKiller { cells, sum, clue } => CorpusConstraint {
            value: num(*sum),
            cell: outside(clue),
            ..of("littlekillersum", cells)
        },
        Constraint::Sandwich { cells, sum, clue } => CorpusConstraint {
            value: num(*sum),
            cell: outside(clue),
            ..of("sandwichsum", cells)
        },
        Constraint::XSum { cells, sum, clue } => CorpusConstraint {
            value: num(*sum),
            cell: outside(clue),
            ..of("xsum", cells)
        },
        Constraint::Skyscraper { cells, count, clue } => CorpusConstraint {
            value: num(*count),
            cell: outside(clue),
            ..of("skyscraper", cells)
        },
        Constraint::Cage { cells, sum } => CorpusConstraint {
            value: sum.map(CorpusValue::Number),
            ..of("killercage", cells)
        },
        Constraint::Renban { cells } => of("renban", cells),
        Constraint::Whispers { cells, difference } => CorpusConstraint {
            value: num(*difference),
            ..of("whispers", cells)
        },
        Constraint::Palindrome { cells } => of("palindrome", cells),
        Constraint::Between { cells } => of("betweenline", cells),
        Constraint::Zipper { cells } => of("zipperline", cells),
        Constraint::Entropic { cells } => of("entropicline", cells),
        Constraint::RegionSum { cells } => of("regionsumline", cells),
        Constraint::Minimum { cells } => of("minimum", cells),
        Constraint::Maximum { cells } => of("maximum", cells),
        Constraint::Quadruple { cells, values } => CorpusConstraint {
            values: values.clone(),
            ..of("quadruple", cells)
        },
        Constraint::Indexer { cells, axis } => of(
            match axis {
                Axis::Column => "columnindexer",
                Axis::Row => "rowindexer",
            },
            cells,
        ),
        Constraint::Clone { cells, clones } => CorpusConstraint {
            clone_cells: names(clones),
            ..of("clone", cells)
        },
        Constraint::NonConsecutive => of("nonconsecutive", &[]),
        Constraint::AntiKing => of("antiking", &[]),
        Constraint::AntiKnight => of("antiknight", &[]),
        Constraint::DisjointGroups => of("disjointgroups", &[]),
        Constraint::Negative { ratio, xv } => CorpusConstraint {
            types: [(*ratio, "ratio"), (*xv, "xv")]
                .into_iter()
                .filter(|(on, _)| *on)
                .map(|(_, t)| t.to_string())
                .collect(),
            ..of("negative", &[])
        },
        Constraint::Values { .. } | Constraint::Table { .. } => {
            return Err(PuzzleError::new(format!(
                "the corpus has no '{}' constraint",
                c.kind()
            )))
        }
    })
}
