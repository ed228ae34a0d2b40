//! SudokuPad's own format, best effort: a link `…sudokupad.app/scl…` (or
//! `ctc…`) carries its puzzle JSON "zipped" (short keys, single quotes, bare
//! keys and colours, `t`/`f` for booleans, empty objects left out) and
//! LZString-compressed. Read here into the corpus schema: the grid's givens,
//! its regions, the title, setter, rules text and solution, killer cages
//! (a cage with a number), Kropki dots (a small round mark on the edge of two
//! cells: white consecutive, black one double the other) — and every other
//! line, arrow, shape and text kept as drawings. SudokuPad itself knows no
//! rule beyond its grid, so lines are never read as rules: a puzzle that needs
//! them gets the uniqueness check's "several solutions".

use super::{decorations, lzstring};
use protocol::corpus::{CorpusConstraint, CorpusPuzzle, CorpusValue};
use protocol::{Coord, Drawing, ShapeKind};
use serde_json::{Map, Number, Value};

/// The zipped key for each of SudokuPad's long keys.
const KEYS: [(&str, &str); 25] = [
    ("c", "color"),
    ("ca", "cages"),
    ("ct", "center"),
    ("c1", "borderColor"),
    ("c2", "backgroundColor"),
    ("ce", "cells"),
    ("cs", "cellSize"),
    ("a", "arrows"),
    ("o", "overlays"),
    ("u", "underlays"),
    ("w", "width"),
    ("h", "height"),
    ("v", "value"),
    ("vd", "videos"),
    ("l", "lines"),
    ("r", "rounded"),
    ("re", "regions"),
    ("fs", "fontSize"),
    ("th", "thickness"),
    ("hl", "headLength"),
    ("wp", "wayPoints"),
    ("t", "title"),
    ("te", "text"),
    ("d", "duration"),
    ("d2", "d"),
];

/// The puzzle JSON a SudokuPad link in its own format carries (keys long
/// again); `None` when the text is not one or cannot be read.
pub fn unpack(text: &str) -> Option<Value> {
    let text = text.trim();
    let at = text.find("/scl").or_else(|| text.find("/ctc"))?;
    let packed = text[at + 4..].split(['?', '&', '#']).next()?;
    let zipped = lzstring::decompress_from_base64(&super::url_decoded(packed))?;
    let mut value = Parser::new(&zipped).document()?;
    long_keys(&mut value);
    value.is_object().then_some(value)
}

/// Restores SudokuPad's long keys, everywhere.
fn long_keys(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(long_keys),
        Value::Object(map) => {
            let old = std::mem::take(map);
            for (key, mut v) in old {
                long_keys(&mut v);
                let long = KEYS
                    .iter()
                    .find(|(short, _)| *short == key)
                    .map_or(key, |(_, long)| (*long).to_string());
                map.insert(long, v);
            }
        }
        _ => {}
    }
}

/// A reader of the zipped syntax: JSON with bare keys, single-quoted strings,
/// bare words (`t`, `f`, `#0`, `#F`, six hex digits) and empty array items.
struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    /// How deep the arrays and objects being read are nested.
    depth: usize,
}

/// The deepest nesting read (a puzzle needs 4; a pasted text must not
/// overflow the stack).
const MAX_DEPTH: usize = 32;

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text: text.as_bytes(),
            at: 0,
            depth: 0,
        }
    }

    fn document(&mut self) -> Option<Value> {
        let value = self.value()?;
        self.skip_space();
        (self.at == self.text.len()).then_some(value)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.skip_space();
        match self.peek()? {
            b'{' | b'[' if self.depth >= MAX_DEPTH => None,
            b'{' => {
                self.depth += 1;
                let object = self.object();
                self.depth -= 1;
                object
            }
            b'[' => {
                self.depth += 1;
                let array = self.array();
                self.depth -= 1;
                array
            }
            b'\'' | b'"' => self.string().map(Value::String),
            _ => Some(bare(self.word()?)),
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.skip_space();
            match self.peek()? {
                b'}' => {
                    self.at += 1;
                    return Some(Value::Object(map));
                }
                b',' => self.at += 1,
                _ => {
                    let key = match self.peek()? {
                        b'\'' | b'"' => self.string()?,
                        _ => self.word()?.to_string(),
                    };
                    self.skip_space();
                    (self.peek()? == b':').then_some(())?;
                    self.at += 1;
                    let value = self.value()?;
                    map.insert(key, value);
                }
            }
        }
    }

    fn array(&mut self) -> Option<Value> {
        self.at += 1;
        let mut items = Vec::new();
        // An empty item (`[,,]`) is an empty object.
        let mut expect_item = true;
        loop {
            self.skip_space();
            match self.peek()? {
                b']' => {
                    self.at += 1;
                    // `[{v:1},]` ends with an empty item; `[]` has none.
                    if expect_item && !items.is_empty() {
                        items.push(Value::Object(Map::new()));
                    }
                    return Some(Value::Array(items));
                }
                b',' => {
                    self.at += 1;
                    if expect_item {
                        items.push(Value::Object(Map::new()));
                    }
                    expect_item = true;
                }
                _ => {
                    items.push(self.value()?);
                    expect_item = false;
                }
            }
        }
    }

    /// A quoted string, either quote, with JSON's escapes and `\'`.
    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let b = self.peek()?;
            self.at += 1;
            match b {
                b'\\' => {
                    let e = self.peek()?;
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'u' => {
                            let hex =
                                std::str::from_utf8(self.text.get(self.at..self.at + 4)?).ok()?;
                            let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                            self.at += 4;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                b if b == quote => return String::from_utf8(out).ok(),
                b => out.push(b),
            }
        }
    }

    /// A bare word: up to the next `,`, `:`, `}` or `]`.
    fn word(&mut self) -> Option<&'a str> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| !matches!(b, b',' | b':' | b'}' | b']') && !b.is_ascii_whitespace())
        {
            self.at += 1;
        }
        (self.at > start)
            .then(|| std::str::from_utf8(&self.text[start..self.at]).ok())
            .flatten()
    }
}

/// A bare word's value: a boolean, a colour, a number or the word.
fn bare(word: &str) -> Value {
    match word {
        "t" | "true" => Value::Bool(true),
        "f" | "false" => Value::Bool(false),
        "null" => Value::Null,
        "#0" => Value::String("#000000".into()),
        "#F" => Value::String("#FFFFFF".into()),
        w if w.len() == 6
            && w.bytes().all(|b| b.is_ascii_hexdigit())
            && w.parse::<f64>().is_err() =>
        {
            Value::String(format!("#{w}"))
        }
        w => w
            .parse::<i64>()
            .map(Value::from)
            .ok()
            .or_else(|| {
                w.parse::<f64>()
                    .ok()
                    .and_then(Number::from_f64)
                    .map(Value::Number)
            })
            .unwrap_or_else(|| Value::String(w.to_string())),
    }
}

/// A number or a numeric string.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Cells from `[y, x]` points `offset` from a cell's top-left corner (0:
/// cell indexes; 0.5: cell centres, as a line's way points), if every point
/// is one inside `n` x `n`.
fn grid_cells(v: Option<&Value>, n: u32, offset: f64) -> Option<Vec<Coord>> {
    v?.as_array()?
        .iter()
        .map(|p| {
            let p = p.as_array()?;
            let (y, x) = (number(p.first()?)? - offset, number(p.get(1)?)? - offset);
            let ok = |v: f64| v >= 0.0 && v < f64::from(n) && v.fract() == 0.0;
            (ok(y) && ok(x)).then_some([y as u32, x as u32])
        })
        .collect()
}

/// The entries of the list under `key` (none when absent).
fn list<'v>(object: &'v Map<String, Value>, key: &str) -> impl Iterator<Item = &'v Value> {
    object
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The metadata SudokuPad keeps, in `metadata` or (older puzzles) in cages
/// whose value reads `title: …`, `author: …`, `rules: …`, `solution: …`.
fn metadata(object: &Map<String, Value>, field: &str) -> Option<String> {
    let direct = object
        .get("metadata")
        .and_then(|m| m.get(field))
        .and_then(Value::as_str)
        .map(str::to_string);
    direct.or_else(|| {
        list(object, "cages").find_map(|cage| {
            let value = cage.get("value")?.as_str()?;
            let (key, rest) = value.split_once(':')?;
            (key.trim() == field).then(|| rest.trim().to_string())
        })
    })
}

/// Reads a SudokuPad puzzle into the corpus schema. `Err` says what could
/// not be read.
pub fn to_corpus(value: &Value) -> Result<CorpusPuzzle, String> {
    let object = value
        .as_object()
        .ok_or("a SudokuPad puzzle is a JSON object")?;
    let rows = object
        .get("cells")
        .and_then(Value::as_array)
        .ok_or("a SudokuPad puzzle without 'cells'")?;
    let n = rows.len();
    if !(1..=9).contains(&n) {
        return Err(format!(
            "a SudokuPad grid of {n} rows: only 1 to 9 are read"
        ));
    }
    let side = n as u32;
    let mut givens = String::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|cells| cells.len() == n)
            .ok_or_else(|| format!("SudokuPad 'cells' row {} must have {n} cells", r + 1))?;
        for cell in row {
            let v = cell
                .get("value")
                .and_then(number)
                .filter(|v| *v >= 1.0 && *v <= n as f64);
            givens.push(v.map_or('.', |v| char::from(b'0' + v as u8)));
        }
    }
    let mut regions = vec![vec![-1i32; n]; n];
    match object.get("regions").and_then(Value::as_array) {
        Some(list) => {
            for (i, region) in list.iter().enumerate() {
                for [r, c] in
                    grid_cells(Some(region), side, 0.0).ok_or("a SudokuPad region off the grid")?
                {
                    regions[r as usize][c as usize] = i as i32;
                }
            }
        }
        None => {
            for (r, row) in regions.iter_mut().enumerate() {
                for (c, cell) in row.iter_mut().enumerate() {
                    *cell = super::default_region(side, r, c);
                }
            }
        }
    }
    let mut constraints = Vec::new();
    let mut drawn = Vec::new();
    let name = |cell: &Coord| engine::corpus::place_name([cell[0] as i32, cell[1] as i32]);
    for cage in list(object, "cages") {
        let Some(members) = grid_cells(cage.get("cells"), side, 0.0).filter(|c| !c.is_empty())
        else {
            continue;
        };
        let sum = cage
            .get("value")
            .and_then(number)
            .filter(|s| s.fract() == 0.0 && *s > 0.0);
        constraints.push(CorpusConstraint {
            kind: "killercage".into(),
            cells: members.iter().map(name).collect(),
            value: sum.map(|s| CorpusValue::Number(s as u32)),
            ..CorpusConstraint::default()
        });
    }
    for overlay in list(object, "overlays") {
        match kropki_dot(overlay, side) {
            Some((kind, value, pair)) => constraints.push(CorpusConstraint {
                kind: kind.into(),
                cells: pair.iter().map(name).collect(),
                value: Some(CorpusValue::Number(value)),
                ..CorpusConstraint::default()
            }),
            None => drawn.extend(shape_drawing(overlay, side)),
        }
    }
    for shape in list(object, "underlays") {
        drawn.extend(shape_drawing(shape, side));
    }
    for (key, arrow) in [("lines", false), ("arrows", true)] {
        for line in list(object, key) {
            let Some(cells) = grid_cells(line.get("wayPoints"), side, 0.5).filter(|c| c.len() >= 2)
            else {
                continue;
            };
            let thickness = line.get("thickness").and_then(number).unwrap_or(8.0);
            drawn.push(Drawing::Line {
                cells,
                color: decorations::colour(line.get("color")),
                // SudokuPad's thickness is in pixels of a 64-pixel cell.
                thickness: ((thickness / 64.0 * 100.0).round() as u32).clamp(2, 60),
                arrow,
            });
        }
    }
    let solution = metadata(object, "solution")
        .filter(|s| s.len() == n * n && s.bytes().all(|b| (b'1'..=b'0' + n as u8).contains(&b)));
    Ok(CorpusPuzzle {
        id: String::new(),
        title: metadata(object, "title"),
        author: metadata(object, "author"),
        rules: metadata(object, "rules"),
        size: side,
        givens,
        regions,
        constraints,
        tags: Vec::new(),
        solution,
        decorations: drawn,
    })
}

/// A Kropki dot: a small round mark centred on the edge of two cells,
/// white (`difference` 1) or black (`ratio` 2).
fn kropki_dot(overlay: &Value, n: u32) -> Option<(&'static str, u32, [Coord; 2])> {
    let centre = overlay.get("center")?.as_array()?;
    let (y, x) = (number(centre.first()?)?, number(centre.get(1)?)?);
    let small = overlay
        .get("width")
        .and_then(number)
        .is_some_and(|w| w <= 0.45);
    let round = overlay
        .get("rounded")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let text = overlay.get("text").and_then(Value::as_str).unwrap_or("");
    if !small || !round || !text.is_empty() {
        return None;
    }
    let fill = decorations::colour(overlay.get("backgroundColor")).to_ascii_uppercase();
    let kind = match fill.as_str() {
        "#FFFFFF" | "#FFF" => ("difference", 1),
        "#000000" | "#000" => ("ratio", 2),
        _ => return None,
    };
    // On a vertical edge (x whole, y a centre) or a horizontal one.
    let half = |v: f64| (v - 0.5).fract() == 0.0 && v > 0.0;
    let whole = |v: f64| v.fract() == 0.0 && v >= 1.0;
    let pair = if half(y) && whole(x) {
        let (r, c) = ((y - 0.5) as u32, x as u32);
        [[r, c - 1], [r, c]]
    } else if whole(y) && half(x) {
        let (r, c) = (y as u32, (x - 0.5) as u32);
        [[r - 1, c], [r, c]]
    } else {
        return None;
    };
    pair.iter()
        .all(|&[r, c]| r < n && c < n)
        .then_some((kind.0, kind.1, pair))
}

/// An overlay or underlay on one cell as a shape (with its text), if it is one.
fn shape_drawing(shape: &Value, n: u32) -> Vec<Drawing> {
    let Some(centre) = shape.get("center").and_then(Value::as_array) else {
        return Vec::new();
    };
    let (Some(y), Some(x)) = (
        centre.first().and_then(number),
        centre.get(1).and_then(number),
    ) else {
        return Vec::new();
    };
    let cell_of = |v: f64| {
        ((v - 0.5).fract() == 0.0 && v > 0.0 && v < f64::from(n)).then_some((v - 0.5) as u32)
    };
    let (Some(r), Some(c)) = (cell_of(y), cell_of(x)) else {
        return Vec::new();
    };
    let size = shape.get("width").and_then(number).unwrap_or(0.8);
    let round = shape
        .get("rounded")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut out = vec![Drawing::Shape {
        cells: vec![[r, c]],
        shape: if round {
            ShapeKind::Circle
        } else {
            ShapeKind::Square
        },
        fill: Some(decorations::colour(shape.get("backgroundColor"))),
        stroke: shape
            .get("borderColor")
            .map(|b| decorations::colour(Some(b))),
        size: ((size * 100.0).round() as u32).clamp(5, 100),
        joined: false,
    }];
    if let Some(text) = shape
        .get("text")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
    {
        out.push(Drawing::Text {
            cell: [r, c],
            text: text.chars().take(12).collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zipped SudokuPad puzzle, as SudokuPad writes one: a 4x4 with five
    /// givens, its regions, metadata, a killer cage, a white and a black dot
    /// (which make it unique), a red line and a grey circle.
    const ZIPPED: &str = "{id:'test',metadata:{author:'Ada',rules:'Normal rules. It\\'s a test.',t:'Tiny',\
        solution:'1234341221434321'},\
        ce:[[{v:1},,{v:3},],[,{v:4},,{v:'2'}],[,,,],[,,{v:2},]],\
        re:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],\
        ca:[{ce:[[2,0],[2,1]],v:3}],\
        o:[{ct:[3.5,1],w:0.3,h:0.3,r:t,c2:#F,c1:#0},{ct:[3,2.5],w:0.3,h:0.3,r:t,c2:#0},{ct:[0.5,3.5],w:0.8,h:0.8,r:t,c2:CFCFCF}],\
        l:[{wp:[[0.5,0.5],[1.5,1.5]],c:FF0000,th:10}]}";

    #[test]
    fn a_zipped_puzzle_reads_into_the_corpus_schema() {
        let link = format!(
            "https://sudokupad.app/scl{}",
            lzstring::compress_to_base64(ZIPPED)
        );
        let value = unpack(&link).expect("unpacks");
        assert_eq!(value["metadata"]["title"], "Tiny");
        let p = to_corpus(&value).expect("reads");
        assert_eq!(p.title.as_deref(), Some("Tiny"));
        assert_eq!(p.author.as_deref(), Some("Ada"));
        assert_eq!(p.rules.as_deref(), Some("Normal rules. It's a test."));
        assert_eq!(p.givens, "1.3..4.2......2.");
        assert_eq!(p.solution.as_deref(), Some("1234341221434321"));
        assert_eq!(p.regions[3], [2, 2, 3, 3]);
        let kinds: Vec<(&str, Vec<String>)> = p
            .constraints
            .iter()
            .map(|c| (c.kind.as_str(), c.cells.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("killercage", vec!["R3C1".to_string(), "R3C2".into()]),
                ("difference", vec!["R4C1".into(), "R4C2".into()]),
                ("ratio", vec!["R3C3".into(), "R4C3".into()]),
            ]
        );
        assert!(
            matches!(&p.decorations[0], Drawing::Shape { fill: Some(f), .. } if f == "#CFCFCF")
        );
        assert!(
            matches!(&p.decorations[1], Drawing::Line { color, cells, .. }
            if color == "#FF0000" && cells == &vec![[0, 0], [1, 1]])
        );
    }

    #[test]
    fn a_pasted_sudokupad_link_is_a_puzzle_with_one_solution() {
        let link = format!(
            "https://sudokupad.app/scl{}",
            lzstring::compress_to_base64(ZIPPED)
        );
        let entries = crate::input::read_text("pasted", &link);
        let loaded = entries[0].puzzle.as_ref().expect("a puzzle");
        let solution: Vec<u8> = b"1234341221434321".iter().map(|b| b - b'0').collect();
        assert_eq!(loaded.puzzle.solve(), engine::Solution::Unique(solution));
    }

    #[test]
    fn what_is_not_a_zipped_puzzle_is_none() {
        assert!(unpack("https://sudokupad.app/sclnotlzstring").is_none());
        let garbage = lzstring::compress_to_base64("{ce:[[,,]");
        assert!(unpack(&format!("https://sudokupad.app/scl{garbage}")).is_none());
        assert!(unpack("https://example.com/puzzle").is_none());
        // Nesting deep enough to overflow a recursive reader's stack is refused.
        let deep = lzstring::compress_to_base64(&"[".repeat(200_000));
        assert!(unpack(&format!("https://sudokupad.app/scl{deep}")).is_none());
    }
}
