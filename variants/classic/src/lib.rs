//! Classic n-Sudoku as a Sudoku Arena plugin: rows, columns and R x C boxes.
//! Parameter `box`: 2x2 (4x4), 2x3 (Mini 6x6), 3x3 (9x9, default), 4x4 (16x16),
//! 5x5 (25x25).
//!
//! This crate is the template other variants copy: a [`Variant`] with a manifest
//! and a model, and one `export_variant!` line.

use plugin_sdk::engine::geometry::{classic, parse_box};
use plugin_sdk::engine::{Difficulty, Model, PuzzleError};
use plugin_sdk::{
    params, standard_clues, standard_difficulties, ClueRange, Manifest, ParamSpec, ParamValue,
    Params, Variant,
};

/// The box shapes offered.
const BOXES: [&str; 5] = ["2x2", "2x3", "3x3", "4x4", "5x5"];

/// How players know each box shape: the grid's size (shown in titles).
const BOX_LABELS: [&str; 5] = [
    "4x4 (2x2 boxes)",
    "Mini 6x6 (2x3 boxes)",
    "9x9",
    "16x16",
    "25x25",
];

/// The difficulties each box shape offers: those its generator reaches with
/// a proved grade (docs/benchmarks.md, "Labels for every size"). A 4x4 falls
/// to singles whatever its clues; a 6x6 that needs chains is rare (the
/// generator found one in about 1 of 10 tries, most 6x6 "extreme" puzzles
/// graded easy); a 16x16 or 25x25 made by clue count is easy or extreme,
/// rarely anything between.
fn offered(box_shape: &str) -> &'static [Difficulty] {
    use Difficulty::*;
    match box_shape {
        "2x2" => &[Easy],
        "2x3" => &[Easy, Medium, Hard],
        "3x3" => &[Easy, Medium, Hard, Extreme],
        _ => &[Easy, Extreme],
    }
}

/// The clue ranges of every box shape's offered difficulties: the standard
/// bands of its size.
fn clue_ranges() -> Vec<ClueRange> {
    BOXES
        .iter()
        .flat_map(|b| {
            let (rows, cols) = parse_box(b).unwrap_or((3, 3));
            let size = rows * cols;
            let when = Params::from([("box".to_string(), ParamValue::Text((*b).into()))]);
            let names: Vec<String> = offered(b).iter().map(|d| d.to_string()).collect();
            standard_clues(&when, (size * size) as usize, size, &names)
        })
        .collect()
}

/// Classic n-Sudoku.
struct Classic;

impl Variant for Classic {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "classic".into(),
            name: "Classic Sudoku".into(),
            rules: "Fill the grid so that every row, every column and every box holds each \
                    value exactly once."
                .into(),
            params: vec![ParamSpec {
                key: "box".into(),
                name: "Box size (rows x columns)".into(),
                default: ParamValue::Text("3x3".into()),
                allowed: BOXES
                    .iter()
                    .map(|b| ParamValue::Text((*b).into()))
                    .collect(),
                labels: BOX_LABELS.iter().map(|l| (*l).into()).collect(),
            }],
            difficulties: standard_difficulties(),
            clues: clue_ranges(),
        }
    }

    fn model(&self, params: &Params) -> Result<Model, PuzzleError> {
        let (rows, cols) = parse_box(params::text(params, "box")?)?;
        classic(rows, cols)
    }
}

plugin_sdk::export_variant!(Classic);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_box_offers_the_tiers_its_generator_reaches() {
        let m = Classic.manifest();
        let offered = |b: &str| {
            m.difficulties_for(&Params::from([(
                "box".to_string(),
                ParamValue::Text(b.into()),
            )]))
        };
        assert_eq!(offered("2x2"), ["easy"]);
        assert_eq!(offered("2x3"), ["easy", "medium", "hard"]);
        assert_eq!(offered("3x3"), ["easy", "medium", "hard", "extreme"]);
        assert_eq!(offered("5x5"), ["easy", "extreme"]);
        assert_eq!(
            m.difficulties_for(&Params::new()),
            offered("3x3"),
            "the default box"
        );
        assert!(!m.offers(
            &Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
            "hard"
        ));
    }

    #[test]
    fn every_offered_box_builds() {
        for b in BOXES {
            let p = Params::from([("box".to_string(), ParamValue::Text(b.into()))]);
            let m = Classic.model(&p).expect("model");
            let (r, c) = parse_box(b).expect("box");
            assert_eq!(m.size(), r * c);
        }
    }
}
