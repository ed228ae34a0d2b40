//! A corpus puzzle turned and mirrored: the eight symmetries of the square
//! applied to every cell, outside clue, arrow direction, region, given and
//! the solution. The rules do not change, only where they sit — so the
//! same puzzle, with the same one solution (turned), that a search meets in
//! a different order. One orientation's branch count is partly luck (the
//! search breaks ties by cell order); tuning a search on all eight says
//! more than tuning it on the one the setter drew.

use protocol::corpus::{CorpusConstraint, CorpusPuzzle};

/// A symmetry of the square: `transpose` first, then the rows and the
/// columns reversed as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// All eight, the identity first.
    fn all() -> impl Iterator<Item = Symmetry> {
        (0..8u8).map(|k| Symmetry {
            transpose: k & 4 != 0,
            flip_rows: k & 2 != 0,
            flip_cols: k & 1 != 0,
        })
    }

    /// Where the position `(row, col)` goes; positions run `0..=last`
    /// (the grid `1..last`, outside clues on `0` and `last`).
    fn place(self, (row, col): (u32, u32), last: u32) -> (u32, u32) {
        let (row, col) = if self.transpose {
            (col, row)
        } else {
            (row, col)
        };
        (
            if self.flip_rows { last - row } else { row },
            if self.flip_cols { last - col } else { col },
        )
    }

    /// Where a step `(down, right)` goes.
    fn step(self, (down, right): (i32, i32)) -> (i32, i32) {
        let (down, right) = if self.transpose {
            (right, down)
        } else {
            (down, right)
        };
        (
            if self.flip_rows { -down } else { down },
            if self.flip_cols { -right } else { right },
        )
    }
}

/// The orientations of `p` this module can write, the puzzle as drawn
/// first. Left out: transposed ones where the boxes are not square (a 6x6's
/// 2x3 boxes would turn into 3x2), any that would change a column
/// indexer's columns (the rule reads column numbers), or read a pill
/// arrow's digits in another order.
pub fn orientations(p: &CorpusPuzzle) -> Vec<CorpusPuzzle> {
    let square_boxes = (1..=p.size).any(|b| b * b == p.size);
    let indexed = p.constraints.iter().any(|c| c.kind == "columnindexer");
    Symmetry::all()
        .filter(|s| !s.transpose || square_boxes)
        .filter(|s| !indexed || (!s.transpose && !s.flip_cols))
        .filter_map(|s| turned(p, s))
        .collect()
}

/// `p` under `s`, or `None` when a cell does not read or a pill would read
/// differently.
fn turned(p: &CorpusPuzzle, s: Symmetry) -> Option<CorpusPuzzle> {
    let n = p.size;
    let last = n + 1;
    let cell = |name: &String| -> Option<String> {
        let (row, col) = parse_cell(name)?;
        let (row, col) = s.place((row, col), last);
        Some(format!("R{row}C{col}"))
    };
    let cells = |names: &[String]| names.iter().map(cell).collect::<Option<Vec<_>>>();
    let mut constraints = Vec::with_capacity(p.constraints.len());
    for c in &p.constraints {
        let mut t = CorpusConstraint {
            cells: cells(&c.cells)?,
            line: cells(&c.line)?,
            clone_cells: cells(&c.clone_cells)?,
            cell: match &c.cell {
                Some(name) => Some(cell(name)?),
                None => None,
            },
            ..c.clone()
        };
        if let Some(direction) = &c.direction {
            t.direction = Some(turned_direction(direction, s)?);
        }
        match c.kind.as_str() {
            "diagonal+" | "diagonal-" => {
                // The negative diagonal runs from R1C1; does R1C1 stay on it?
                let corner = s.place((1, 1), last);
                let kept = corner == (1, 1) || corner == (n, n);
                let negative = (c.kind == "diagonal-") == kept;
                t.kind = if negative { "diagonal-" } else { "diagonal+" }.into();
            }
            "arrow" if c.cells.len() > 1 => {
                // A pill reads its digits in reading order: its cells so
                // read must still be read in the same order when turned.
                let mut read: Vec<(u32, u32)> = c
                    .cells
                    .iter()
                    .map(|name| parse_cell(name))
                    .collect::<Option<Vec<_>>>()?;
                read.sort_unstable();
                let turned: Vec<(u32, u32)> = read.iter().map(|&at| s.place(at, last)).collect();
                if !turned.is_sorted() {
                    return None;
                }
            }
            _ => {}
        }
        constraints.push(t);
    }
    let grid = |text: &str| -> Option<String> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != (n * n) as usize {
            return None;
        }
        let mut out = vec!['.'; chars.len()];
        for (i, &ch) in chars.iter().enumerate() {
            let (row, col) = s.place((i as u32 / n + 1, i as u32 % n + 1), last);
            out[((row - 1) * n + col - 1) as usize] = ch;
        }
        Some(out.into_iter().collect())
    };
    let mut regions = p.regions.clone();
    for (r, row) in p.regions.iter().enumerate() {
        for (c, &region) in row.iter().enumerate() {
            let (row, col) = s.place((r as u32 + 1, c as u32 + 1), last);
            *regions
                .get_mut(row as usize - 1)?
                .get_mut(col as usize - 1)? = region;
        }
    }
    Some(CorpusPuzzle {
        id: format!("{}/{}", p.id, name(s)),
        givens: grid(&p.givens)?,
        solution: match &p.solution {
            Some(solution) => Some(grid(solution)?),
            None => None,
        },
        regions,
        constraints,
        // The setter's marks are drawn where the setter put them: not turned.
        decorations: Vec::new(),
        ..p.clone()
    })
}

/// A short name of a symmetry, for ids: `t` transposed, `r` rows reversed,
/// `c` columns reversed, `id` none.
fn name(s: Symmetry) -> String {
    let mut out = String::new();
    for (on, letter) in [(s.transpose, 't'), (s.flip_rows, 'r'), (s.flip_cols, 'c')] {
        if on {
            out.push(letter);
        }
    }
    if out.is_empty() {
        out.push_str("id");
    }
    out
}

/// A corpus cell `R<row>C<col>` as numbers (from 1; outside clues on 0
/// and N + 1).
pub fn parse_cell(name: &str) -> Option<(u32, u32)> {
    let (row, col) = name.strip_prefix('R')?.split_once('C')?;
    Some((row.parse().ok()?, col.parse().ok()?))
}

/// A little killer's direction (`UL`, `UR`, `DL`, `DR`) under `s`.
fn turned_direction(direction: &str, s: Symmetry) -> Option<String> {
    let mut letters = direction.chars();
    let down = match letters.next()? {
        'U' => -1,
        'D' => 1,
        _ => return None,
    };
    let right = match letters.next()? {
        'L' => -1,
        'R' => 1,
        _ => return None,
    };
    let (down, right) = s.step((down, right));
    Some(format!(
        "{}{}",
        if down < 0 { 'U' } else { 'D' },
        if right < 0 { 'L' } else { 'R' }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_symmetries_are_different_and_each_keeps_the_corners_on_corners() {
        let all: Vec<Symmetry> = Symmetry::all().collect();
        let mut images: Vec<Vec<(u32, u32)>> = all
            .iter()
            .map(|&s| [(1, 2), (3, 1)].map(|p| s.place(p, 10)).to_vec())
            .collect();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        for s in all {
            let corner = s.place((1, 1), 10);
            assert!([(1, 1), (1, 9), (9, 1), (9, 9)].contains(&corner), "{s:?}");
            // A step goes where its two ends go.
            let (a, b) = (s.place((4, 4), 10), s.place((5, 3), 10));
            let step = s.step((1, -1));
            assert_eq!(
                (b.0 as i32 - a.0 as i32, b.1 as i32 - a.1 as i32),
                step,
                "{s:?}"
            );
        }
    }

    #[test]
    fn a_little_killer_direction_turns_as_its_steps_do() {
        let turned_right = Symmetry {
            transpose: true,
            flip_rows: false,
            flip_cols: true,
        };
        // A quarter turn clockwise: up-right becomes down-right.
        assert_eq!(turned_direction("UR", turned_right).as_deref(), Some("DR"));
        assert_eq!(turned_direction("DR", turned_right).as_deref(), Some("DL"));
        assert_eq!(turned_direction("XX", turned_right), None);
    }
}
