//! X-Sudoku as a Sudoku Arena plugin: classic 9x9 plus both main diagonals.

use plugin_sdk::engine::geometry::classic_builder;
use plugin_sdk::engine::{Model, ModelBuilder, PuzzleError};
use plugin_sdk::protocol::HouseKind;
use plugin_sdk::{standard_difficulties, Manifest, Params, Variant};

/// Adds the two main diagonals of a 9x9 grid as houses.
pub(crate) fn with_diagonals(b: ModelBuilder) -> ModelBuilder {
    b.house(HouseKind::Diagonal, (0..9).map(|i| [i, i]).collect())
        .house(HouseKind::Diagonal, (0..9).map(|i| [i, 8 - i]).collect())
}

/// X-Sudoku.
struct XSudoku;

impl Variant for XSudoku {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "x-sudoku".into(),
            name: "X-Sudoku".into(),
            rules: "Classic Sudoku, and each of the two main diagonals also holds 1-9 \
                    exactly once."
                .into(),
            params: vec![],
            difficulties: standard_difficulties(),
            clues: Vec::new(),
        }
    }

    fn model(&self, _params: &Params) -> Result<Model, PuzzleError> {
        with_diagonals(classic_builder(3, 3)?).build()
    }
}

plugin_sdk::export_variant!(XSudoku);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_two_diagonals() {
        let m = XSudoku.model(&Params::new()).expect("model");
        let diagonals = m
            .houses()
            .iter()
            .filter(|h| h.kind == HouseKind::Diagonal)
            .count();
        assert_eq!((m.houses().len(), diagonals), (29, 2));
        assert!(!m.is_classic9());
    }
}
