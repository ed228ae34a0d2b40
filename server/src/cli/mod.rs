//! The `arena` command line: one module per subcommand, dispatched from [`main`].

mod count;
mod generate;
mod solve;
mod validate;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Sudoku Arena: solve, count, validate and generate puzzles of every variant.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count each puzzle's solutions: `0`, `1`, … or `K+` (one line per puzzle).
    Count {
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        limit: u64,
        /// Puzzle files: format v1 JSON / JSON Lines, or one classic 9x9 per line.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the solution of each puzzle, in the form it was written in.
    Solve {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Check structure, uniqueness and any shipped solution; exit 1 on a failure.
    Validate {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Generate unique puzzles (JSON Lines, format v1, with solutions).
    Generate(generate::GenerateArgs),
}

/// Parses the process arguments, runs the subcommand and returns the exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Count { limit, files } => count::run(&files, limit as usize),
        Command::Solve { files } => solve::run(&files),
        Command::Validate { files } => validate::run(&files),
        Command::Generate(args) => generate::run(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("arena: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Reads every file, reporting unreadable ones on stderr. Returns the entries and
/// whether every file could be read.
fn read_all(files: &[PathBuf]) -> (Vec<crate::input::Entry>, bool) {
    let mut entries = Vec::new();
    let mut all_read = true;
    for f in files {
        match crate::input::read_file(f) {
            Ok(mut e) => entries.append(&mut e),
            Err(message) => {
                eprintln!("{message}");
                all_read = false;
            }
        }
    }
    (entries, all_read)
}
