//! Sudoku Arena's shared data types: what travels between tools, the server, plugins
//! and clients.
//!
//! This crate holds serde types only and performs no I/O, so every other crate
//! (engine, plugins, server, tests) can depend on it cheaply.
//!
//! - [`puzzle`]: the self-describing puzzle file format ([`PuzzleV1`]; v2 when it
//!   has [`constraint`]s), used in JSON files and inside MessagePack messages.
//! - [`constraint`]: the modern variant vocabulary (thermometers, arrows, dots, …);
//!   [`corpus`]: the variant corpus schema it is read from and written to;
//!   [`drawing`]: the primitives a client draws them with, knowing no rule.
//! - [`plugin`]: the requests and answers of the variant plugin operations.
//! - [`setter`]: the puzzle setter's drafts and the step-through solver's
//!   analyses.
//! - [`wire`]: the messages between web clients and the server.

pub mod constraint;
pub mod coords;
pub mod corpus;
pub mod drawing;
pub mod plugin;
pub mod puzzle;
pub mod setter;
pub mod wire;

pub use constraint::{Axis, Constraint, Place};
pub use drawing::{Drawing, ShapeKind};
pub use puzzle::{
    Cage, Coord, House, HouseKind, Layout, ParamValue, PuzzleGrade, PuzzleV1, PUZZLE_FORMAT_V1,
    PUZZLE_FORMAT_V2,
};
