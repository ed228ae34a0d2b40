//! The Sudoku Arena server crate: the `arena` command line and the variant plugin
//! host; the multiplayer server and persistence join it in later issues.
//!
//! - [`cli`]: argument parsing and one module per subcommand.
//! - [`input`]: reading puzzle files (format v1 or the daily archive's schema as
//!   JSON / JSON Lines, or one classic puzzle per line) into named puzzles.
//! - [`archive`]: the daily archive's JSON schema, read and written.
//! - [`fpuzzles`]: f-puzzles JSON and links (LZString), read into and written
//!   from the variant corpus schema; SudokuPad links.
//! - [`daily`]: calendar dates and the seed of each puzzle of the day.
//! - [`plugins`]: loading variant plugins and calling them safely.
//! - [`serve`]: the HTTP/WebSocket server, lobby and room actors.
//! - [`allocator`]: what the binary's allocator lets the server do: per-thread
//!   caches off on threads that mostly wait, the heap's size for metrics.

pub mod allocator;
pub mod archive;
pub mod cli;
pub mod daily;
pub mod fpuzzles;
pub mod input;
pub mod killer;
pub mod plugins;
pub mod serve;
