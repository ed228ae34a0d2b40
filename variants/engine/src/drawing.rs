//! How each constraint looks (`protocol::Drawing`), in the conventions
//! players know from SudokuPad: grey thermometers with a bulb, arrows with a
//! circle and head, white and black dots, X and V letters, coloured lines,
//! grey squares and circles for even and odd, clues outside the grid. The
//! server sends these with a puzzle, so the client draws any kind without
//! knowing its rule. Global rules (non-consecutive, anti-king, …) and tables
//! draw nothing: the rules panel says them.

use protocol::{Constraint, Coord, Drawing, Place, ShapeKind};

/// Thermometers' and parity shading's grey.
const GREY: &str = "#c8c8c8";
/// Arrows' and circles' outline.
const OUTLINE: &str = "#888888";
/// A coloured line's thickness (hundredths of a cell).
const LINE: u32 = 30;

/// Fills in what a client reads beside the rules, knowing none: `drawings`
/// (the setter's decorations, then every constraint's drawings) and
/// `rule_notes` (what each kind of constraint means).
pub fn fill_in(puzzle: &mut protocol::PuzzleV1) {
    puzzle.drawings = puzzle.decorations.clone();
    puzzle.drawings.extend(drawings(&puzzle.constraints));
    puzzle.rule_notes = crate::describe::rule_notes(&puzzle.constraints);
}

/// The drawings of every constraint, in order.
pub fn drawings(constraints: &[Constraint]) -> Vec<Drawing> {
    constraints.iter().flat_map(drawing_of).collect()
}

/// The same corner text in each of `cells`.
fn texts(cells: &[Coord], text: &str) -> Vec<Drawing> {
    cells
        .iter()
        .map(|&cell| Drawing::Text {
            cell,
            text: text.into(),
        })
        .collect()
}

/// The four cells of a 2x2 square, in reading order, if `cells` are one.
pub fn corner_of(cells: &[Coord]) -> Option<[Coord; 4]> {
    let &[r, c] = cells.iter().min()?;
    let square = [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]];
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    (sorted == square).then_some(square)
}

/// Digits written together: "1234".
fn digits(values: &[u32]) -> String {
    values.iter().map(|v| v.to_string()).collect()
}

fn line(cells: &[Coord], color: &str) -> Drawing {
    Drawing::Line {
        cells: cells.to_vec(),
        color: color.into(),
        thickness: LINE,
        arrow: false,
    }
}

fn shape(cells: &[Coord], shape: ShapeKind, fill: Option<&str>, size: u32) -> Drawing {
    Drawing::Shape {
        cells: cells.to_vec(),
        shape,
        fill: fill.map(str::to_string),
        stroke: None,
        size,
        joined: false,
    }
}

/// Where a clue read along `cells` stands: `clue` when given, else one step
/// before the first cell, against the line's direction.
fn clue_place(cells: &[Coord], clue: Option<Place>) -> Option<(Place, [i32; 2])> {
    let (&[r0, c0], &[r1, c1]) = (cells.first()?, cells.get(1)?);
    let step = [r1 as i32 - r0 as i32, c1 as i32 - c0 as i32];
    let at = clue.unwrap_or([r0 as i32 - step[0], c0 as i32 - step[1]]);
    Some((at, step))
}

/// A clue outside the grid pointing along `cells`; `diagonal` keeps its
/// direction (a little killer's arrow), else it points straight in.
fn outside_clue(
    cells: &[Coord],
    clue: Option<Place>,
    text: String,
    diagonal: bool,
) -> Vec<Drawing> {
    clue_place(cells, clue)
        .map(|(at, step)| Drawing::Clue {
            at,
            text,
            direction: diagonal.then_some(step),
        })
        .into_iter()
        .collect()
}

fn drawing_of(c: &Constraint) -> Vec<Drawing> {
    use Constraint as C;
    match c {
        C::Even { cells } => vec![shape(cells, ShapeKind::Square, Some(GREY), 70)],
        C::Odd { cells } => vec![shape(cells, ShapeKind::Circle, Some(GREY), 70)],
        C::Values { cells, values } => texts(cells, &digits(values)),
        C::Thermometer { cells, slow } => {
            let mut out = vec![
                shape(
                    &cells[..cells.len().min(1)],
                    ShapeKind::Circle,
                    Some(GREY),
                    80,
                ),
                Drawing::Line {
                    cells: cells.clone(),
                    color: GREY.into(),
                    thickness: 35,
                    arrow: false,
                },
            ];
            if *slow {
                if let Some(&bulb) = cells.first() {
                    out.push(Drawing::Text {
                        cell: bulb,
                        text: "slow".into(),
                    });
                }
            }
            out
        }
        C::Arrow {
            circle,
            line: shaft,
        } => {
            let mut circle_sorted = circle.clone();
            circle_sorted.sort_unstable();
            // The shaft starts at the circle's cell next to it.
            let start = shaft.first().and_then(|&[r, c]| {
                circle_sorted
                    .iter()
                    .copied()
                    .find(|&[cr, cc]| r.abs_diff(cr) <= 1 && c.abs_diff(cc) <= 1)
            });
            let cells: Vec<Coord> = start.into_iter().chain(shaft.iter().copied()).collect();
            vec![
                Drawing::Shape {
                    cells: circle_sorted.clone(),
                    shape: ShapeKind::Circle,
                    fill: Some("white".into()),
                    stroke: Some(OUTLINE.into()),
                    size: 85,
                    joined: circle_sorted.len() > 1,
                },
                Drawing::Line {
                    cells,
                    color: OUTLINE.into(),
                    thickness: 6,
                    arrow: true,
                },
            ]
        }
        C::Difference { cells, value } => vec![Drawing::Dot {
            cells: *cells,
            fill: "white".into(),
            text: (*value != 1).then(|| value.to_string()),
        }],
        C::Ratio { cells, value } => vec![Drawing::Dot {
            cells: *cells,
            fill: "black".into(),
            text: (*value != 2).then(|| value.to_string()),
        }],
        C::Xv { cells, sum } => vec![Drawing::Letter {
            cells: *cells,
            text: match sum {
                10 => "X".into(),
                5 => "V".into(),
                s => s.to_string(),
            },
        }],
        C::LittleKiller { cells, sum, clue } => outside_clue(cells, *clue, sum.to_string(), true),
        C::Sandwich { cells, sum, clue } | C::XSum { cells, sum, clue } => {
            outside_clue(cells, *clue, sum.to_string(), false)
        }
        C::Skyscraper { cells, count, clue } => {
            outside_clue(cells, *clue, count.to_string(), false)
        }
        C::Cage { cells, sum } => vec![Drawing::Cage {
            cells: cells.clone(),
            label: sum.map(|s| s.to_string()),
        }],
        C::Renban { cells } => vec![line(cells, "#e08cf0")],
        C::Whispers { cells, difference } => {
            let color = if *difference >= 5 {
                "#67f067"
            } else {
                "#f0a040"
            };
            vec![line(cells, color)]
        }
        C::Palindrome { cells } => vec![line(cells, "#c0c0d8")],
        C::Between { cells } => {
            let ends: Vec<Coord> = [cells.first(), cells.last()]
                .into_iter()
                .flatten()
                .copied()
                .collect();
            vec![
                line(cells, "#a0c8f0"),
                Drawing::Shape {
                    cells: ends,
                    shape: ShapeKind::Circle,
                    fill: Some("white".into()),
                    stroke: Some(OUTLINE.into()),
                    size: 85,
                    joined: false,
                },
            ]
        }
        C::Zipper { cells } => vec![line(cells, "#d0a0f0")],
        C::Entropic { cells } => vec![line(cells, "#f0b060")],
        C::RegionSum { cells } => vec![line(cells, "#40a0f0")],
        C::Minimum { cells } | C::Maximum { cells } => {
            let text = if matches!(c, C::Minimum { .. }) {
                "min"
            } else {
                "max"
            };
            texts(cells, text)
        }
        C::Quadruple { cells, values } => {
            let text = digits(values);
            match corner_of(cells) {
                Some(cells) => vec![Drawing::Corner {
                    cells,
                    fill: "white".into(),
                    text,
                }],
                // Not a 2x2: the digits in its first cell's corner.
                None => cells
                    .iter()
                    .min()
                    .map(|&cell| Drawing::Text { cell, text })
                    .into_iter()
                    .collect(),
            }
        }
        C::Indexer { cells, .. } => vec![shape(cells, ShapeKind::Square, Some("#f4c8c8"), 100)],
        C::Clone { cells, clones } => {
            let all: Vec<Coord> = cells.iter().chain(clones).copied().collect();
            vec![shape(&all, ShapeKind::Square, Some("#f4f0b0"), 100)]
        }
        C::NonConsecutive
        | C::AntiKing
        | C::AntiKnight
        | C::DisjointGroups
        | C::Negative { .. }
        | C::Table { .. } => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_by_two_quadruple_is_a_circle_where_its_cells_meet() {
        let d = drawings(&[Constraint::Quadruple {
            cells: vec![[3, 4], [4, 3], [3, 3], [4, 4]],
            values: vec![1, 2, 2],
        }]);
        assert_eq!(
            d,
            [Drawing::Corner {
                cells: [[3, 3], [3, 4], [4, 3], [4, 4]],
                fill: "white".into(),
                text: "122".into(),
            }]
        );
        assert_eq!(corner_of(&[[0, 0], [0, 1], [1, 1], [2, 2]]), None);
    }

    #[test]
    fn a_thermometer_is_a_bulb_and_a_grey_line() {
        let d = drawings(&[Constraint::Thermometer {
            cells: vec![[8, 0], [7, 0]],
            slow: false,
        }]);
        assert!(matches!(&d[0], Drawing::Shape { cells, .. } if cells == &vec![[8, 0]]));
        assert!(matches!(&d[1], Drawing::Line { cells, .. } if cells.len() == 2));
    }

    #[test]
    fn a_little_killer_clue_stands_outside_pointing_along_its_diagonal() {
        let d = drawings(&[Constraint::LittleKiller {
            cells: vec![[0, 3], [1, 2], [2, 1], [3, 0]],
            sum: 14,
            clue: None,
        }]);
        assert_eq!(
            d,
            vec![Drawing::Clue {
                at: [-1, 4],
                text: "14".into(),
                direction: Some([1, -1]),
            }]
        );
    }

    #[test]
    fn an_arrow_shaft_starts_at_its_pill() {
        let d = drawings(&[Constraint::Arrow {
            circle: vec![[0, 8], [0, 7]],
            line: vec![[0, 6], [0, 5]],
        }]);
        assert!(matches!(&d[0], Drawing::Shape { joined: true, .. }));
        assert!(
            matches!(&d[1], Drawing::Line { cells, arrow: true, .. } if cells == &vec![[0, 7], [0, 6], [0, 5]])
        );
    }
}
