//! XV as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are X and V marks (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "xv",
    name: "XV",
    rules: "Classic Sudoku. Digits joined by an X add up to 10, digits joined by a V \
            to 5. Not every such pair is marked.",
    kinds: &[ClueKind::Xv],
    sizes: &[("9x9", 3, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
