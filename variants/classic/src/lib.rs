//! Classic n-Sudoku as a Sudoku Arena plugin: rows, columns and R x C boxes.
//! Parameter `box`: 2x2 (4x4), 2x3 (Mini 6x6), 3x3 (9x9, default), 4x4 (16x16),
//! 5x5 (25x25).
//!
//! This crate is the template other variants copy: a [`Variant`] with a manifest
//! and a model, and one `export_variant!` line.

use plugin_sdk::engine::geometry::{classic, parse_box};
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::{params, standard_difficulties, Manifest, ParamSpec, ParamValue, Params, Variant};

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
            clues: Vec::new(),
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
    fn every_offered_box_builds() {
        for b in BOXES {
            let p = Params::from([("box".to_string(), ParamValue::Text(b.into()))]);
            let m = Classic.model(&p).expect("model");
            let (r, c) = parse_box(b).expect("box");
            assert_eq!(m.size(), r * c);
        }
    }
}
