//! The Sudoku Arena server crate: for now the `arena` command line (solve, count,
//! validate, generate); the multiplayer server, plugin host and persistence join it
//! in later issues.
//!
//! - [`cli`]: argument parsing and one module per subcommand.
//! - [`input`]: reading puzzle files (format v1 JSON / JSON Lines, or one classic
//!   puzzle per line) into named puzzles.

pub mod cli;
pub mod input;
