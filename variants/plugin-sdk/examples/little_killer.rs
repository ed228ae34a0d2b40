//! Worked example, clues outside the grid: Little Killer. A number beside
//! the grid gives the sum of the diagonal its arrow points along.
//! Build: `cargo build -p plugin-sdk --example little_killer`. See
//! docs/writing-a-variant.md.

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "example-little-killer",
    name: "Little Killer (example)",
    rules: "Classic Sudoku. A number outside the grid is the sum of the digits along \
            the diagonal its arrow points to; digits may repeat on a diagonal.",
    kinds: &[ClueKind::LittleKiller],
    sizes: &[("9x9", 3, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium],
});
