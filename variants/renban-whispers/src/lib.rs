//! Renban & Whispers as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are renban and German whisper lines (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "renban-whispers",
    name: "Renban & Whispers",
    rules: "Classic Sudoku. A purple renban line holds a set of consecutive digits in \
            any order; along a green whisper line neighbouring digits differ by at least 5.",
    kinds: &[ClueKind::Renban, ClueKind::Whispers],
    sizes: &[("9x9", 3, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
