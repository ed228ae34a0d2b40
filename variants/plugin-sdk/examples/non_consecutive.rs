//! Worked example, a global rule: Non-Consecutive. Fixed rules (one model
//! for every puzzle), so the SDK's standard generation removes givens from
//! a random solution as for classic Sudoku.
//! Build: `cargo build -p plugin-sdk --example non_consecutive`. See
//! docs/writing-a-variant.md.

use plugin_sdk::engine::geometry::classic_builder;
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::protocol::Constraint;
use plugin_sdk::{standard_difficulties, Manifest, Params, Variant};

/// Classic Sudoku where no two orthogonal neighbours are consecutive.
struct NonConsecutive;

impl Variant for NonConsecutive {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "example-non-consecutive".into(),
            name: "Non-Consecutive (example)".into(),
            rules: "Classic Sudoku, and no two cells side by side hold consecutive digits.".into(),
            params: vec![],
            difficulties: standard_difficulties(),
            clues: Vec::new(),
        }
    }

    fn model(&self, _params: &Params) -> Result<Model, PuzzleError> {
        classic_builder(3, 3)?
            .constraint(Constraint::NonConsecutive)
            .build()
    }
}

plugin_sdk::export_variant!(NonConsecutive);
