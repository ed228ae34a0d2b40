//! The Sudoku Arena engine: one constraint model for every variant, and the
//! operations on it.
//!
//! - [`Rules`] / [`ModelBuilder`]: values 1..=N (N ≤ 32), a layout with active
//!   cells, houses (all different), cages (all different with a sum),
//!   different-pairs and the modern vocabulary's constraints
//!   (`protocol::Constraint`, compiled into relations, sums, patterns and
//!   tables that the cell-by-cell solver propagates). [`geometry`] builds the standard shapes. A [`Model`] is
//!   the rules with the tables the solvers build from them once.
//! - [`Puzzle`]: a model plus givens, with [`Puzzle::propagate`],
//!   [`Puzzle::count`] (stop at 2 for uniqueness; [`Puzzle::solution_count`] when
//!   the solution itself is not needed) and [`Puzzle::solve`]. Classic
//!   9x9 goes through a specialised band solver; any other cage-free model of up
//!   to 128 cells through a bitboard solver; the rest through a cell-by-cell solver.
//!   The last two apply the same rules (naked and hidden singles, cage
//!   combinations, locked candidates); [`SolverPath`] picks one explicitly.
//! - [`generate`]: deterministic random solutions and unique puzzles from a seed
//!   string ([`seed`]), to a clue target, a minimal puzzle, or a [`Difficulty`]:
//!   the logical solver's tier inside the difficulty's clue band.
//! - [`constraint_clues`]: puzzles whose clues are constraints (thermometers,
//!   arrows, dots, …) placed on a random solution and reduced as givens are.
//! - [`logic`]: the logical solver, solving as a person does; grades puzzles on
//!   Sudoku Explainer's scale and in tiers, explains steps, gives hints.
//! - [`v1`]: the self-describing puzzle file format v1 (`protocol::PuzzleV1`) to
//!   and from [`Puzzle`]; [`text`]: the one-line classic format.
//! - [`drawing`]: how each constraint is drawn (`protocol::Drawing`).
//! - [`corpus`]: the variant corpus schema (f-puzzles' kinds) to and from the
//!   puzzle format.
//! - [`check`]: which cells of a grid break a rule, and whether a grid is a solution.
//! - [`canon`]: canonical forms up to a model's symmetries (copies in
//!   disguise found).

mod bits;
#[cfg(target_arch = "x86_64")]
mod bits_avx512;
mod cage;
pub mod canon;
pub mod check;
pub mod constraint_clues;
mod constraints;
pub use constraints::digit_tuples;
pub mod corpus;
pub mod describe;
pub mod difficulty;
pub mod drawing;
mod error;
mod fast9;
mod general;
pub mod generate;
pub mod geometry;
pub mod logic;
mod mask;
mod model;
mod puzzle;
mod rules;
pub mod seed;
pub mod text;
pub mod v1;

pub use cage::combinations;
pub use difficulty::Difficulty;
pub use error::PuzzleError;
pub use generate::{Generated, Target};
pub use mask::full_mask;
pub use model::Model;
pub use puzzle::{Count, Puzzle, Solution, SolverPath};
pub use rules::{default_symbols, ModelBuilder, ModelCage, ModelHouse, Rules, MAX_SIDE, MAX_SIZE};

/// Whether `deadline` (if any) has passed: every search that must answer in
/// time asks this between its steps.
pub fn deadline_passed(deadline: Option<std::time::Instant>) -> bool {
    deadline.is_some_and(|d| std::time::Instant::now() >= d)
}
