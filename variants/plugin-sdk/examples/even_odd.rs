//! Worked example, cell rules: Even-Odd. Grey squares hold even digits, grey
//! circles odd ones; the SDK places them per puzzle as its clues.
//! Build: `cargo build -p plugin-sdk --example even_odd` (a plugin library
//! in `target/debug/examples/`). See docs/writing-a-variant.md.

use plugin_sdk::engine::constraint_clues::ClueKind;
use plugin_sdk::engine::Difficulty;
use plugin_sdk::ClueVariant;

plugin_sdk::export_variant!(ClueVariant {
    id: "example-even-odd",
    name: "Even-Odd (example)",
    rules: "Classic Sudoku. A digit in a grey square is even, in a grey circle odd.",
    kinds: &[ClueKind::EvenOdd],
    sizes: &[("9x9", 3, 3), ("6x6", 2, 3)],
    difficulties: &[Difficulty::Easy, Difficulty::Medium],
});
