//! Worked example, lines: Thermo. Digits rise from each thermometer's bulb;
//! the SDK draws the thermometers per puzzle as its clues.
//! Build: `cargo build -p plugin-sdk --example thermo`. See
//! docs/writing-a-variant.md.

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "example-thermo",
    name: "Thermo (example)",
    rules: "Classic Sudoku. Along each thermometer the digits strictly increase from \
            the bulb.",
    kinds: &[ClueKind::Thermometer],
    sizes: &[("9x9", 3, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
