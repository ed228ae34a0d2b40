//! Even-Odd as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are grey squares and circles (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "even-odd",
    name: "Even-Odd",
    rules: "Classic Sudoku. A digit in a grey square is even, in a grey circle odd.",
    kinds: &[ClueKind::EvenOdd],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
