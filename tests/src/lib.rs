//! Shared helpers for Sudoku Arena's dataset tests and benchmarks: where the shared
//! datasets live and how to read them into engine puzzles.
//!
//! The datasets (`../shared/datasets/` beside the project root) are real puzzles
//! nobody here wrote; they are read in place, never copied into the repository.

pub mod cluster;
pub mod orientations;
pub mod postgres;
pub mod proc;
pub mod process;
pub mod reglib;
pub mod serve;
pub mod ws;

use engine::{Model, Puzzle};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

/// A benchmark's `--name VALUE` argument, or `default` when it is missing or
/// does not read.
pub fn bench_arg<T: FromStr>(name: &str, default: T) -> T {
    let raw: Vec<String> = std::env::args().collect();
    raw.iter()
        .position(|a| a == name)
        .and_then(|i| raw.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The median of `xs` (the upper one of an even count; NaN when empty).
pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Whether a benchmark was given the flag `name`.
pub fn bench_flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}

/// The shared datasets directory: `$ARENA_DATASETS` if set, else `shared/datasets`
/// in the nearest ancestor of the project root that has one (normally
/// `../shared/datasets` beside the root).
pub fn datasets_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ARENA_DATASETS") {
        return PathBuf::from(dir);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    root.ancestors()
        .map(|a| a.join("shared/datasets"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| root.join("../shared/datasets"))
}

/// A fresh, empty temporary directory `arena-NAME-PID` for a test or a bench.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The path of a file under the shared datasets directory.
pub fn dataset(relative: &str) -> PathBuf {
    datasets_dir().join(relative)
}

/// Reads a dataset file, panicking with a clear message if it is missing.
pub fn read_dataset(relative: &str) -> String {
    let path = dataset(relative);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read dataset {}: {e}", path.display()))
}

/// Every puzzle of the variant corpus (`variants/puzzles.jsonl`), as its
/// schema reads it.
pub fn variant_corpus() -> Vec<protocol::corpus::CorpusPuzzle> {
    read_dataset("variants/puzzles.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a corpus line"))
        .collect()
}

/// Every puzzle of a classic one-line-per-puzzle file, as row-major grids.
pub fn classic_grids(relative: &str) -> Vec<[u8; 81]> {
    read_dataset(relative)
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            engine::text::parse_line(line).unwrap_or_else(|e| panic!("{relative}:{}: {e}", i + 1))
        })
        .collect()
}

/// The shared classic 9x9 model.
pub fn classic9() -> Arc<Model> {
    Arc::new(engine::geometry::classic(3, 3).expect("classic 9x9 model"))
}

/// A 9x9 variant model as its plugin builds it, by the plugin's name:
/// `x-sudoku`, `windoku`, `windoku-x` (windows and diagonals) or
/// `anti-knight`.
pub fn variant9(name: &str) -> Arc<Model> {
    use engine::geometry::{classic_builder, diagonals, knight_pairs, windoku_windows};
    let classic = classic_builder(3, 3).expect("classic 9x9");
    let builder = match name {
        "x-sudoku" => classic.houses(diagonals(9, [0, 0])),
        "windoku" => classic.houses(windoku_windows()),
        "windoku-x" => classic.houses(windoku_windows().into_iter().chain(diagonals(9, [0, 0]))),
        "anti-knight" => knight_pairs()
            .into_iter()
            .fold(classic, |b, [p, q]| b.different(p, q)),
        other => panic!("no 9x9 variant {other}"),
    };
    Arc::new(builder.build().expect("variant model"))
}

/// One killer puzzle from the krazydad CSV with its shipped solution.
pub struct KillerRecord {
    /// The puzzle's title (`ptitle` column).
    pub title: String,
    /// The puzzle: classic 9x9 rules plus cages, no givens.
    pub puzzle: Puzzle,
    /// The shipped solution, row-major.
    pub solution: Vec<u8>,
}

/// Parses one data row of the killer CSV (see the datasets README) with the
/// importer `arena` uses.
pub fn killer_record(line: &str) -> Result<KillerRecord, String> {
    let row = server::killer::parse_krazydad_row(line).map_err(|e| e.to_string())?;
    let puzzle = row
        .killer
        .puzzle()
        .map_err(|e| format!("{}: {e}", row.title))?;
    Ok(KillerRecord {
        title: row.title,
        puzzle,
        solution: row.solution,
    })
}

/// Every puzzle of the killer CSV.
pub fn killer_records(relative: &str) -> Vec<KillerRecord> {
    read_dataset(relative)
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| killer_record(l).unwrap_or_else(|e| panic!("{relative}: {e}")))
        .collect()
}

/// Where cargo put the built plugins for this test run (`target/<profile>`): the
/// test binary lives in `target/<profile>/deps/`.
pub fn built_plugin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps directory");
    deps.parent().expect("profile directory").to_path_buf()
}

/// The file name cargo gives the cdylib of `crate_name` on this platform.
pub fn plugin_file(crate_name: &str) -> String {
    format!(
        "{}{}.{}",
        std::env::consts::DLL_PREFIX,
        crate_name.replace('-', "_"),
        std::env::consts::DLL_EXTENSION
    )
}

/// The `arena` binary cargo built beside the plugins (`make test` builds it).
pub fn built_arena() -> PathBuf {
    built_plugin_dir().join(format!("arena{}", std::env::consts::EXE_SUFFIX))
}

/// The moves that solve `puzzle`, worked out on the client side from the rules the
/// puzzle spells out (the server never sends the solution).
pub fn solving_moves(puzzle: &protocol::PuzzleV1) -> Vec<protocol::wire::ClientMessage> {
    let loaded = engine::v1::from_v1(puzzle).expect("a valid puzzle");
    let engine::Solution::Unique(values) = loaded.puzzle.solve() else {
        panic!("the puzzle must be unique");
    };
    let model = loaded.puzzle.model();
    (0..values.len())
        .filter(|&c| loaded.puzzle.givens()[c] == 0)
        .map(|c| {
            let [row, col] = model.coord(c);
            protocol::wire::ClientMessage::Move {
                row,
                col,
                value: u32::from(values[c]),
            }
        })
        .collect()
}
