//! Anti-Knight Sudoku as a Sudoku Arena plugin: classic 9x9, and two cells a chess
//! knight's move apart never hold the same digit.

use plugin_sdk::engine::geometry::{classic_builder, knight_pairs};
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::{standard_difficulties, Manifest, Params, Variant};

/// Anti-Knight Sudoku.
struct AntiKnight;

/// Every unordered pair of cells a knight's move apart that do not already share a
/// box (a shared box forbids equal digits anyway).
impl Variant for AntiKnight {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "anti-knight".into(),
            name: "Anti-Knight Sudoku".into(),
            rules: "Classic Sudoku, and two cells a chess knight's move apart never hold \
                    the same digit."
                .into(),
            params: vec![],
            difficulties: standard_difficulties(),
            clues: Vec::new(),
        }
    }

    fn model(&self, _params: &Params) -> Result<Model, PuzzleError> {
        let mut b = classic_builder(3, 3)?;
        for [a, z] in knight_pairs() {
            b = b.different(a, z);
        }
        b.build()
    }
}

plugin_sdk::export_variant!(AntiKnight);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_pairs_are_symmetric_and_outside_boxes() {
        let pairs = knight_pairs();
        assert!(pairs
            .iter()
            .all(|[a, b]| (a[0] / 3, a[1] / 3) != (b[0] / 3, b[1] / 3)));
        // The centre cell r5c5 has 8 knight neighbours, none in its own box.
        let centre = pairs.iter().filter(|p| p.contains(&[4, 4])).count();
        assert_eq!(centre, 8);
        assert!(AntiKnight.model(&Params::new()).is_ok());
    }
}
