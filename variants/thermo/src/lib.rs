//! Thermo as a Sudoku Arena plugin: classic rules, and generated puzzles whose
//! clues are thermometers (with as few givens as it takes).

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "thermo",
    name: "Thermo",
    rules: "Classic Sudoku. Along each thermometer the digits strictly increase from \
            the bulb.",
    kinds: &[ClueKind::Thermometer],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
