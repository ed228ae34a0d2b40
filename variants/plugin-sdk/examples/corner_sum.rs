//! Worked example, the escape hatch: a rule the vocabulary lacks, as a
//! predicate. "Corners": the four corner cells hold different digits adding
//! up to 20. `local_rule` lists the digit tuples the predicate accepts into a
//! table constraint once, when the model is built; the engine propagates it
//! like any other rule (no call into the plugin during a search).
//! Build: `cargo build -p plugin-sdk --example corner_sum`. See
//! docs/writing-a-variant.md.

use plugin_sdk::engine::geometry::classic_builder;
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::{local_rule, standard_difficulties, Manifest, Params, Variant};

/// Classic Sudoku with a rule over its four corners.
struct CornerSum;

impl Variant for CornerSum {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "example-corner-sum".into(),
            name: "Corners (example)".into(),
            rules: "Classic Sudoku, and the four corner cells hold four different digits \
                    adding up to 20."
                .into(),
            params: vec![],
            difficulties: standard_difficulties(),
            clues: Vec::new(),
        }
    }

    fn model(&self, _params: &Params) -> Result<Model, PuzzleError> {
        let corners = vec![[0, 0], [0, 8], [8, 0], [8, 8]];
        let rule = local_rule(corners, 9, "the corners add up to 20", |d| {
            let different = (0..4).all(|i| (i + 1..4).all(|j| d[i] != d[j]));
            different && d.iter().sum::<u32>() == 20
        })
        .map_err(PuzzleError::new)?;
        classic_builder(3, 3)?.constraint(rule).build()
    }
}

plugin_sdk::export_variant!(CornerSum);
