//! `arena search --fewest`: a neighbourhood search for puzzles with fewer
//! clues. From a minimal puzzle of the variant, each try removes one clue
//! and places a digit on an empty cell; a unique result not met before (up
//! to symmetry: `engine::canon`) is made minimal again (clues removed in a
//! random order while unique) and, with no more clues than the current
//! one, becomes the current one. Deterministic per seed for a number of
//! tries; a progress line on stderr; the fewest-clue puzzle found on stdout
//! (its line for classic 9x9, else v1 JSON).

use super::generate::parse_params;
use crate::plugins::PluginHost;
use anyhow::{bail, Context};
use engine::generate::{reduce, uniqueness_within, Target, Uniqueness};
use engine::seed::rng_for;
use engine::Puzzle;
use protocol::plugin::GenerateRequest;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Arguments of `arena search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Look for puzzles with fewer clues (the only search so far).
    #[arg(long)]
    pub fewest: bool,
    /// Variant id (see `arena variants`).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Variant parameter `key=value`, repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Any string: the start and every random choice follow from it.
    #[arg(long, default_value = "search")]
    pub seed: String,
    /// How many tries (each: remove a clue, place a digit).
    #[arg(long, default_value_t = 100_000)]
    pub tries: u64,
    /// Stop after this many minutes even if tries remain (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub minutes: u64,
}

/// Branch points a uniqueness check may take: a sparse grid with no
/// solution can take long to prove so, and the search has other tries.
const NODES: usize = 20_000;

/// Whether `givens` on `like`'s model have exactly one solution, proved
/// within [`NODES`].
fn unique(like: &Puzzle, givens: &[u8]) -> bool {
    uniqueness_within(like.model(), givens, Some(NODES)) == Uniqueness::Unique
}

/// `givens` (unique) made minimal: clues removed in `rng`'s order while
/// unique.
fn minimal(like: &Puzzle, givens: &[u8], rng: &mut impl Rng) -> Vec<u8> {
    let mut order: Vec<usize> = (0..givens.len()).filter(|&i| givens[i] != 0).collect();
    order.shuffle(rng);
    reduce(like.model(), givens, &order, Target::Minimal)
}

fn clues(givens: &[u8]) -> usize {
    givens.iter().filter(|&&v| v != 0).count()
}

/// Runs the search and prints the best puzzle.
pub fn run(args: &SearchArgs, host: &PluginHost) -> anyhow::Result<bool> {
    if !args.fewest {
        bail!("say what to search for: --fewest");
    }
    let manifest = host
        .manifest(&args.variant)
        .with_context(|| format!("unknown variant '{}'", args.variant))?;
    let params = parse_params(manifest, &args.params)?;
    let difficulty = manifest
        .difficulties_for(&params)
        .first()
        .cloned()
        .context("the variant offers no difficulty")?;
    let request = GenerateRequest {
        minimal: false,
        params,
        difficulty,
        seed: args.seed.clone(),
    };
    let v1 = host.generate(&args.variant, &request, Duration::from_secs(120))?;
    let start = engine::v1::from_v1(&v1)?.puzzle;
    let mut rng = rng_for(&format!("search {}", args.seed));
    let size = start.model().size() as u8;
    let mut current = minimal(&start, start.givens(), &mut rng);
    let mut best = current.clone();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let form = |g: &[u8]| engine::canon::canonical_form(start.model(), g).1.key;
    seen.insert(form(&current));
    eprintln!("start: {} clues", clues(&current));
    let began = Instant::now();
    let deadline = (args.minutes > 0).then(|| began + Duration::from_secs(args.minutes * 60));
    let mut report = Instant::now();
    for t in 1..=args.tries {
        if engine::deadline_passed(deadline) {
            break;
        }
        if report.elapsed() >= Duration::from_secs(10) {
            report = Instant::now();
            eprintln!(
                "try {t}: best {} clues, {} puzzles met, {:.0} s",
                clues(&best),
                seen.len(),
                began.elapsed().as_secs_f64()
            );
        }
        let filled: Vec<usize> = (0..current.len()).filter(|&i| current[i] != 0).collect();
        let empty: Vec<usize> = (0..current.len()).filter(|&i| current[i] == 0).collect();
        let (Some(&out), Some(&into)) = (filled.choose(&mut rng), empty.choose(&mut rng)) else {
            break;
        };
        let mut next = current.clone();
        next[out] = 0;
        next[into] = rng.gen_range(1..=size);
        if !unique(&start, &next) || !seen.insert(form(&next)) {
            continue;
        }
        let reduced = minimal(&start, &next, &mut rng);
        if clues(&reduced) <= clues(&current) {
            if clues(&reduced) < clues(&best) {
                best = reduced.clone();
                eprintln!(
                    "try {t}: {} clues after {:.1} s",
                    clues(&best),
                    began.elapsed().as_secs_f64()
                );
            }
            current = reduced;
        }
    }
    let puzzle = Puzzle::new(start.model_arc().clone(), best.clone())?;
    if puzzle.model().is_classic9() {
        println!("{}", engine::text::format_line(puzzle.givens()));
    } else {
        println!(
            "{}",
            serde_json::to_string(&engine::v1::to_v1(&puzzle, None))?
        );
    }
    eprintln!(
        "best: {} clues ({} puzzles met in {:.1} s)",
        clues(&best),
        seen.len(),
        began.elapsed().as_secs_f64()
    );
    Ok(true)
}
