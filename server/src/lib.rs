//! The Sudoku Arena server crate: the `arena` command line and the variant plugin
//! host; the multiplayer server and persistence join it in later issues.
//!
//! - [`cli`]: argument parsing and one module per subcommand.
//! - [`input`]: reading puzzle files (format v1 JSON / JSON Lines, or one classic
//!   puzzle per line) into named puzzles.
//! - [`plugins`]: loading variant plugins and calling them safely.
//! - [`serve`]: the HTTP/WebSocket server, lobby and room actors.

pub mod cli;
pub mod input;
pub mod plugins;
pub mod serve;
