//! X-Sudoku as a Sudoku Arena plugin: classic 9x9 plus both main diagonals.

use plugin_sdk::engine::geometry::{classic_builder, diagonals};
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::{standard_difficulties, Manifest, Params, Variant};

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
        classic_builder(3, 3)?.houses(diagonals(9, [0, 0])).build()
    }
}

plugin_sdk::export_variant!(XSudoku);

#[cfg(test)]
mod tests {
    use super::*;
    use plugin_sdk::protocol::HouseKind;

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
