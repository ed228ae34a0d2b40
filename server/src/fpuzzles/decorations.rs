//! f-puzzles' cosmetic elements — lines, circles, rectangles, text and cages
//! without a total, which the setter draws and no rule reads — kept as
//! drawing primitives, so the board shows them as the setter drew them, and
//! written back. Best effort: a circle or rectangle on one cell is a shape,
//! on the edge between two a dot, where four cells meet a corner circle;
//! anything else or unreadable is left out, never an error.

use protocol::{Coord, Drawing, ShapeKind};
use serde_json::{json, Map, Value};

/// The f-puzzles keys read here.
pub const KEYS: [&str; 5] = ["line", "circle", "rectangle", "text", "cage"];

/// The colour drawn where an element's own is missing or unreadable.
const GREY: &str = "#a0a0a0";

/// The decorations under `object`'s cosmetic keys, in key order, inside an
/// `n` x `n` grid.
pub fn read(object: &Map<String, Value>, n: u32) -> Vec<Drawing> {
    let mut out = Vec::new();
    for key in KEYS {
        let Some(entries) = object.get(key).and_then(Value::as_array) else {
            continue;
        };
        for entry in entries {
            out.extend(read_one(key, entry, n));
        }
    }
    out
}

/// A list of cell names inside an `n` x `n` grid, if every one is.
fn cells_in(list: Option<&Value>, n: u32) -> Option<Vec<Coord>> {
    list?
        .as_array()?
        .iter()
        .map(|v| {
            let [r, c] = engine::corpus::place(v.as_str()?).ok()?;
            let cell = [u32::try_from(r).ok()?, u32::try_from(c).ok()?];
            (cell[0] < n && cell[1] < n).then_some(cell)
        })
        .collect()
}

fn read_one(key: &str, entry: &Value, n: u32) -> Vec<Drawing> {
    let cells = |field: &str| cells_in(entry.get(field), n);
    let colour = |field: &str| colour(entry.get(field));
    let percent = |field: &str| {
        let v = entry.get(field).and_then(Value::as_f64).unwrap_or(0.5);
        (v * 100.0).round().clamp(5.0, 100.0) as u32
    };
    let text = entry
        .get("value")
        .map(|v| match v {
            Value::String(s) => s.clone(),
            Value::Number(k) => k.to_string(),
            _ => String::new(),
        })
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(12).collect::<String>());
    match key {
        "line" => entry
            .get("lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|line| {
                Some(Drawing::Line {
                    cells: cells_in(Some(line), n).filter(|c| c.len() >= 2)?,
                    color: colour("outlineC"),
                    thickness: percent("width").min(60),
                    arrow: false,
                })
            })
            .collect(),
        "circle" | "rectangle" => {
            let Some(cells) = cells("cells") else {
                return Vec::new();
            };
            let shape = if key == "circle" {
                ShapeKind::Circle
            } else {
                ShapeKind::Square
            };
            match cells.as_slice() {
                [cell] => {
                    let mut out = vec![Drawing::Shape {
                        cells: vec![*cell],
                        shape,
                        fill: Some(colour("baseC")),
                        stroke: Some(colour("outlineC")),
                        size: percent("width"),
                        joined: false,
                    }];
                    out.extend(text.map(|text| Drawing::Text { cell: *cell, text }));
                    out
                }
                [a, b] if a[0].abs_diff(b[0]) + a[1].abs_diff(b[1]) == 1 => vec![Drawing::Dot {
                    cells: [*a, *b],
                    fill: colour("baseC"),
                    text,
                }],
                four => engine::drawing::corner_of(four)
                    .map(|cells| Drawing::Corner {
                        cells,
                        fill: colour("baseC"),
                        text: text.unwrap_or_default(),
                    })
                    .into_iter()
                    .collect(),
            }
        }
        "text" => match (cells("cells").as_deref(), text) {
            (Some([cell, ..]), Some(text)) => vec![Drawing::Text { cell: *cell, text }],
            _ => Vec::new(),
        },
        "cage" => match cells("cells") {
            Some(cells) if !cells.is_empty() => vec![Drawing::Cage { cells, label: text }],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A colour safe to draw: `#` and 3 to 8 hex digits, else grey.
pub(super) fn colour(value: Option<&Value>) -> String {
    value
        .and_then(Value::as_str)
        .filter(|s| {
            s.len() >= 4
                && s.len() <= 9
                && s.starts_with('#')
                && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
        })
        .unwrap_or(GREY)
        .to_string()
}

/// `decorations` as f-puzzles keys, added to `out`.
pub fn write(decorations: &[Drawing], out: &mut Map<String, Value>) {
    let name = |cell: &Coord| engine::corpus::place_name([cell[0] as i32, cell[1] as i32]);
    let names = |cells: &[Coord]| cells.iter().map(name).collect::<Vec<_>>();
    let mut push = |key: &str, value: Value| {
        let list = out.entry(key.to_string()).or_insert_with(|| json!([]));
        if let Value::Array(list) = list {
            list.push(value);
        }
    };
    let mut folded = false;
    for (i, d) in decorations.iter().enumerate() {
        // A shape's own text (read from its `value`) goes back into it.
        if std::mem::take(&mut folded) {
            continue;
        }
        match d {
            Drawing::Line {
                cells,
                color,
                thickness,
                ..
            } => push(
                "line",
                json!({"lines": [names(cells)], "outlineC": color, "width": f64::from(*thickness) / 100.0}),
            ),
            Drawing::Shape {
                cells,
                shape,
                fill,
                stroke,
                size,
                ..
            } => {
                let key = match shape {
                    ShapeKind::Circle => "circle",
                    ShapeKind::Square => "rectangle",
                };
                let side = f64::from(*size) / 100.0;
                let value = match (cells.as_slice(), decorations.get(i + 1)) {
                    ([only], Some(Drawing::Text { cell, text })) if cell == only => {
                        folded = true;
                        text.clone()
                    }
                    _ => String::new(),
                };
                for cell in cells {
                    push(
                        key,
                        json!({"cells": [name(cell)], "baseC": fill.as_deref().unwrap_or("#FFFFFF00"),
                               "outlineC": stroke.as_deref().unwrap_or("#FFFFFF00"), "fontC": "#000000",
                               "width": side, "height": side, "angle": 0, "value": value}),
                    );
                }
            }
            Drawing::Dot { cells, fill, text } => push(
                "circle",
                json!({"cells": names(cells), "baseC": fill, "outlineC": "#000000", "fontC": "#000000",
                       "width": 0.3, "height": 0.3, "value": text.clone().unwrap_or_default()}),
            ),
            Drawing::Corner { cells, fill, text } => push(
                "circle",
                json!({"cells": names(cells), "baseC": fill, "outlineC": "#000000", "fontC": "#000000",
                       "width": 0.6, "height": 0.6, "value": text}),
            ),
            Drawing::Text { cell, text } => push(
                "text",
                json!({"cells": [name(cell)], "value": text, "fontC": "#000000", "size": 0.5, "angle": 0}),
            ),
            Drawing::Cage { cells, label } => push(
                "cage",
                json!({"cells": names(cells), "value": label.clone().unwrap_or_default(),
                       "outlineC": "#000000", "fontC": "#000000"}),
            ),
            Drawing::Letter { .. } | Drawing::Clue { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosmetic_elements_become_drawings_and_go_back() {
        let fpuzzles = json!({
            "line": [{"lines": [["R1C1", "R1C2", "R2C2"]], "outlineC": "#FFA600", "width": 0.5}],
            "circle": [
                {"cells": ["R3C3"], "baseC": "#CFCFCF", "outlineC": "#000000", "width": 0.8, "height": 0.8, "value": "7"},
                {"cells": ["R4C4", "R4C5"], "baseC": "#FFFFFF", "outlineC": "#000000", "width": 0.3, "height": 0.3},
                {"cells": ["R5C5", "R5C6", "R6C5", "R6C6"], "baseC": "#FFFFFF", "width": 0.3},
            ],
            "rectangle": [{"cells": ["R9C9"], "baseC": "\"/><script>", "outlineC": "#000", "width": 1, "height": 1}],
            "text": [{"cells": ["R2C8"], "value": "A", "fontC": "#000000", "size": 0.5}],
            "cage": [{"cells": ["R7C1", "R8C1"], "value": "", "outlineC": "#000000"}],
        });
        let object = fpuzzles.as_object().expect("object");
        let drawn = read(object, 9);
        let kinds: Vec<&str> = drawn
            .iter()
            .map(|d| match d {
                Drawing::Line { .. } => "line",
                Drawing::Shape { .. } => "shape",
                Drawing::Dot { .. } => "dot",
                Drawing::Text { .. } => "text",
                Drawing::Cage { .. } => "cage",
                Drawing::Corner { .. } => "corner",
                _ => "other",
            })
            .collect();
        // The corner circle is a corner; the rectangle's bad colour is drawn grey.
        assert_eq!(
            kinds,
            ["line", "shape", "text", "dot", "corner", "shape", "text", "cage"]
        );
        // A colour that is not a colour is drawn grey.
        assert!(matches!(&drawn[5], Drawing::Shape { fill: Some(f), .. } if f == GREY));
        let mut back = Map::new();
        write(&drawn, &mut back);
        assert_eq!(read(&back, 9), drawn, "written back, read the same");
    }

    #[test]
    fn cells_off_the_grid_or_unreadable_leave_the_element_out() {
        let fpuzzles = json!({
            "text": [{"cells": ["R10C1"], "value": "A"}, {"cells": ["X"], "value": "B"}],
            "line": [{"lines": [["R1C1"]]}],
        });
        assert!(read(fpuzzles.as_object().expect("object"), 9).is_empty());
    }
}
