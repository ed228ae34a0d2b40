//! The `arena` command line: one module per subcommand, dispatched from [`main`].

mod backup;
mod canon;
mod config;
mod count;
mod daily;
mod export;
mod generate;
mod grade;
mod minimal;
mod search;
mod serve;
mod solve;
mod validate;
mod variants;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Sudoku Arena: solve, count, validate and generate puzzles of every variant.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about)]
pub struct Cli {
    /// A directory of variant plugins (repeatable). Default: the directory of
    /// the arena executable, then ./plugins.
    #[arg(long = "plugins", value_name = "DIR", global = true)]
    pub plugin_dirs: Vec<PathBuf>,
    /// Also load plugins built only for the test suite (never on a real server).
    #[arg(long, global = true, hide = true)]
    pub test_plugins: bool,
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
        /// Puzzle files: format v1 or daily archive JSON / JSON Lines, one
        /// classic 9x9 per line, or killers (the reference solver's text form,
        /// the krazydad CSV); a directory stands for the files below it.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print a solution of each puzzle (the first found; `arena count` says whether it is the only one), in the form it was written in.
    Solve {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Grade each puzzle by how a person solves it: tier, rating (Sudoku
    /// Explainer's scale), hardest technique, steps. A summary goes to stderr.
    Grade {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Give each puzzle at most this many seconds; one not graded by
        /// then is reported `unfinished` (the hardest given-less variant
        /// puzzles can take many minutes through nested forcing chains).
        #[arg(long, value_parser = grade::parse_seconds)]
        seconds: Option<std::time::Duration>,
    },
    /// The whole logical solution of each puzzle, one step per line.
    Explain {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print each puzzle's canonical form up to its variant's symmetries
    /// (rotations, reflections, band and row orders, digits renamed where
    /// the rules allow), one line each.
    Canon {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print each puzzle not equal up to symmetry to an earlier one, in the
    /// form it was written in; each dropped one is named on stderr with the
    /// one kept for it.
    Dedupe {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Say whether each puzzle is minimal (no clue can go with the puzzle
    /// staying unique), naming the clues that can go.
    Minimal {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Remove clues from each puzzle in reading order while it stays unique:
    /// a minimal puzzle, in the form it was written in.
    Minimize {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Search a variant for puzzles with fewer clues (`--fewest`): remove a
    /// clue, place a digit elsewhere, keep it unique and new up to symmetry,
    /// make it minimal again; the best found on stdout.
    Search(search::SearchArgs),
    /// Check structure, uniqueness and any shipped solution; exit 1 on a failure.
    Validate {
        /// Puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write the puzzles of the day (classic 9x9 and every Gattai mode, each
    /// difficulty) in the daily archive's layout under `--out DIR/puzzles/`;
    /// valid files already there are kept.
    Daily(daily::DailyArgs),
    /// Rewrite puzzles in another schema (`--format yendoku`: the daily
    /// archive's), one JSON object per line.
    Export(export::ExportArgs),
    /// Generate unique puzzles through a variant plugin (JSON Lines, format v1,
    /// with solutions).
    Generate(generate::GenerateArgs),
    /// List the loaded variant plugins: id, name, parameters, difficulties.
    Variants,
    /// Run the multiplayer server (HTTP + WebSocket on one port).
    Serve(Box<serve::ServeArgs>),
    /// Copy the embedded database to FILE while the server runs (one
    /// consistent snapshot, checked after); restore by stopping the server
    /// and putting the copy in place of DATA/arena.db.
    Backup {
        /// The server's `--data` directory.
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// The copy to write (must not exist).
        out: PathBuf,
    },
    /// Serve one plugin library's calls over standard input and output: what
    /// `arena serve` starts for each plugin (not for people).
    #[command(hide = true)]
    PluginHost {
        /// Address-space limit in MiB (0: none).
        #[arg(long, default_value_t = crate::plugins::process::DEFAULT_MEMORY_MB)]
        memory_mb: u64,
        /// The plugin library.
        library: PathBuf,
    },
}

/// Parses the process arguments, runs the subcommand and returns the exit status.
pub fn main() -> ExitCode {
    let args = match config::expand(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("arena: {e:#}");
            return ExitCode::from(2);
        }
    };
    let cli = Cli::parse_from(args);
    init_logging();
    let result = match &cli.command {
        Command::Count { limit, files } => count::run(files, *limit as usize),
        Command::Solve { files } => solve::run(files),
        Command::Validate { files } => validate::run(files),
        Command::Canon { files } => canon::run_canon(files),
        Command::Dedupe { files } => canon::run_dedupe(files),
        Command::Minimal { files } => minimal::run_minimal(files),
        Command::Minimize { files } => minimal::run_minimize(files),
        Command::Grade { files, seconds } => grade::run_grade(files, *seconds),
        Command::Explain { files } => grade::run_explain(files),
        Command::Export(args) => export::run(args),
        Command::Daily(args) => daily::run(args, &load_plugins(&cli)),
        Command::Generate(args) => generate::run(args, &load_plugins(&cli)),
        Command::Variants => variants::run(&load_plugins(&cli)),
        Command::Search(args) => search::run(args, &load_plugins(&cli)),
        Command::Serve(args) => serve::run(args, &cli),
        Command::Backup { data, out } => backup::run(data, out),
        Command::PluginHost { memory_mb, library } => {
            let limits = crate::plugins::host_main::Limits {
                memory_mb: *memory_mb,
            };
            crate::plugins::host_main::run(library, limits)
                .map(|()| true)
                .map_err(Into::into)
        }
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

/// Logs to stderr; `RUST_LOG` sets the level (default: warnings).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Plugin calls of one plugin that may run at once in the command line's own
/// process.
const PLUGIN_WORKERS: usize = 4;

/// Loads the plugins from `--plugins` (or the default directories when none are
/// given) into this process.
fn load_plugins(cli: &Cli) -> crate::plugins::PluginHost {
    load_plugins_with(cli, PLUGIN_WORKERS, crate::plugins::Isolation::InProcess)
}

/// Loads the plugins from `--plugins`, `workers` per plugin, running where
/// `isolation` says.
fn load_plugins_with(
    cli: &Cli,
    workers: usize,
    isolation: crate::plugins::Isolation,
) -> crate::plugins::PluginHost {
    let dirs = if cli.plugin_dirs.is_empty() {
        crate::plugins::default_plugin_dirs()
    } else {
        cli.plugin_dirs.clone()
    };
    let test_plugins = if cli.test_plugins {
        crate::plugins::TestPlugins::Load
    } else {
        crate::plugins::TestPlugins::Skip
    };
    let options = crate::plugins::LoadOptions {
        workers,
        test_plugins,
        isolation,
    };
    crate::plugins::PluginHost::load_with(&dirs, &options).0
}

/// The files named, with each directory replaced by the `.json`, `.jsonl`,
/// `.txt` and `.csv` files below it (recursively, sorted by path): a whole archive tree can
/// be validated in one command.
fn expand_dirs(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            collect_puzzle_files(path, &mut found);
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    out
}

fn collect_puzzle_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("{}: cannot read the directory", dir.display());
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            collect_puzzle_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|x| ["json", "jsonl", "txt", "csv"].iter().any(|e| x == *e))
        {
            out.push(path);
        }
    }
}

/// Reads every file, reporting unreadable ones on stderr. Returns the entries and
/// whether every file could be read.
fn read_all(files: &[PathBuf]) -> (Vec<crate::input::Entry>, bool) {
    let mut entries = Vec::new();
    let mut all_read = true;
    for f in &expand_dirs(files) {
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
