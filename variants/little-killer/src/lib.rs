//! Little Killer as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are diagonal sums outside the grid (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "little-killer",
    name: "Little Killer",
    rules: "Classic Sudoku. A number outside the grid is the sum of the digits along \
            the diagonal its arrow points to; digits may repeat on a diagonal.",
    kinds: &[ClueKind::LittleKiller],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
