//! Worked example, sums: Arrow. The digits along each arrow add up to the
//! digit in its circle (they may repeat where cells do not share a house).
//! Build: `cargo build -p plugin-sdk --example arrow`. See
//! docs/writing-a-variant.md.

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "example-arrow",
    name: "Arrow (example)",
    rules: "Classic Sudoku. The digits along each arrow add up to the digit in its \
            circle; digits may repeat on an arrow where the rules allow.",
    kinds: &[ClueKind::Arrow],
    sizes: &[("9x9", 3, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium],
});
