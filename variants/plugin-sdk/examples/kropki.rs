//! Worked example, marks between cells: Kropki. A white dot joins digits one
//! apart, a black dot a digit and its double (only the dots shown).
//! Build: `cargo build -p plugin-sdk --example kropki`. See
//! docs/writing-a-variant.md.

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "example-kropki",
    name: "Kropki (example)",
    rules: "Classic Sudoku. Digits joined by a white dot are consecutive; digits joined \
            by a black dot are in a ratio of 2. Not every such pair is marked.",
    kinds: &[ClueKind::Kropki],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium, Difficulty::Hard],
});
