//! Arrow as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are arrows (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "arrow",
    name: "Arrow",
    rules: "Classic Sudoku. The digits along each arrow add up to the digit in its \
            circle; digits may repeat on an arrow where the rules allow.",
    kinds: &[ClueKind::Arrow],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
