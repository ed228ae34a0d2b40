//! Kropki as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are Kropki dots (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "kropki",
    name: "Kropki",
    rules: "Classic Sudoku. Digits joined by a white dot are consecutive; digits joined \
            by a black dot are in a ratio of 2. Not every such pair is marked.",
    kinds: &[ClueKind::Kropki],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
