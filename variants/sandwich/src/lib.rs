//! Sandwich as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are sandwich sums outside the grid (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "sandwich",
    name: "Sandwich",
    rules: "Classic Sudoku. A number outside the grid is the sum of the digits between \
            the 1 and the 9 of its row or column.",
    kinds: &[ClueKind::Sandwich],
    sizes: &[("9x9", 3, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
