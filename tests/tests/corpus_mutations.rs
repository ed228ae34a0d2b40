//! Bad constraints get an error, never a panic: puzzles of the variant
//! corpus (`../shared/datasets/variants/`) broken at random — a constraint
//! of another puzzle added, a value zero, huge or a stray letter, cells off
//! the grid or repeated, a kind swapped for another, a bad arrow, outside
//! clue, quadruple, clone or given — are read, compiled, counted, graded
//! and written back; each step may refuse, none may panic.

use arena_tests::read_dataset;
use engine::corpus::{from_corpus, to_corpus};
use engine::v1::from_v1;
use protocol::corpus::{CorpusConstraint, CorpusPuzzle, CorpusValue};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Broken puzzles tried (each from its own seed, so a failure names one).
const TRIES: u64 = 1_000;

/// Branch points each count may use.
const NODES: usize = 200;

/// How long each grade may take.
const GRADE_FOR: Duration = Duration::from_millis(20);

#[test]
fn broken_corpus_puzzles_get_an_error_or_an_answer_never_a_panic() {
    let puzzles: Vec<CorpusPuzzle> = read_dataset("variants/puzzles.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a corpus line"))
        .collect();
    let pool: Vec<CorpusConstraint> = puzzles
        .iter()
        .flat_map(|p| p.constraints.iter().cloned())
        .collect();
    let mut kinds: Vec<String> = pool.iter().map(|c| c.kind.clone()).collect();
    kinds.sort();
    kinds.dedup();
    let mut outcomes = std::collections::BTreeMap::<&str, usize>::new();
    let mut panics = Vec::new();
    for seed in 0..TRIES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut puzzle = puzzles[rng.gen_range(0..puzzles.len())].clone();
        for _ in 0..rng.gen_range(1..4) {
            break_once(&mut puzzle, &pool, &kinds, &mut rng);
        }
        match std::panic::catch_unwind(|| outcome(&puzzle)) {
            Ok(o) => *outcomes.entry(o).or_default() += 1,
            Err(_) => panics.push(format!(
                "seed {seed}: {}",
                serde_json::to_string(&puzzle).expect("json")
            )),
        }
    }
    println!("{outcomes:?}");
    assert!(panics.is_empty(), "{}", panics.join("\n"));
    // The breakage reaches every stage: some are refused, some compile.
    assert!(
        outcomes.get("refused").is_some_and(|&n| n > 0),
        "{outcomes:?}"
    );
    assert!(
        outcomes.get("counted").is_some_and(|&n| n > 0),
        "{outcomes:?}"
    );
}

/// What became of one broken puzzle: `refused` (read or compiled to an
/// error) or `counted` (then graded for a moment and written back).
fn outcome(puzzle: &CorpusPuzzle) -> &'static str {
    let Ok(loaded) = from_corpus(puzzle).and_then(|v1| from_v1(&v1)) else {
        return "refused";
    };
    let count = loaded.puzzle.count_within(2, NODES);
    if count.solutions == 1 && !count.gave_up {
        engine::logic::grade_until(
            loaded.puzzle.model(),
            loaded.puzzle.givens(),
            engine::logic::Options::default(),
            engine::logic::Chains::Dynamic,
            Some(Instant::now() + GRADE_FOR),
        );
    }
    to_corpus(&loaded.puzzle, None).expect("a compiled puzzle writes back");
    "counted"
}

/// Breaks `puzzle` in one random way.
fn break_once(
    puzzle: &mut CorpusPuzzle,
    pool: &[CorpusConstraint],
    kinds: &[String],
    rng: &mut ChaCha8Rng,
) {
    let n = puzzle.size as i64;
    // A cell on the grid mostly, now and then just off it.
    let place = |rng: &mut ChaCha8Rng| {
        let (lo, hi) = if rng.gen_bool(0.8) {
            (1, n)
        } else {
            (-1, n + 2)
        };
        format!("R{}C{}", rng.gen_range(lo..=hi), rng.gen_range(lo..=hi))
    };
    let choice = rng.gen_range(0..9);
    if choice == 0 || puzzle.constraints.is_empty() {
        puzzle
            .constraints
            .push(pool[rng.gen_range(0..pool.len())].clone());
        return;
    }
    let i = rng.gen_range(0..puzzle.constraints.len());
    let c = &mut puzzle.constraints[i];
    match choice {
        1 => {
            c.value = match rng.gen_range(0..5) {
                0 => None,
                1 => Some(CorpusValue::Number(0)),
                2 => Some(CorpusValue::Number(rng.gen_range(0..200))),
                3 => Some(CorpusValue::Text(
                    ["X", "V", "?", ""][rng.gen_range(0..4)].into(),
                )),
                _ => Some(CorpusValue::Number(u32::MAX)),
            }
        }
        2 => c.cells = (0..rng.gen_range(0..12)).map(|_| place(rng)).collect(),
        3 => c.kind = kinds[rng.gen_range(0..kinds.len())].clone(),
        4 => c.line = (0..rng.gen_range(0..5)).map(|_| place(rng)).collect(),
        5 => {
            c.cell = Some(place(rng));
            c.direction = Some(["UL", "UR", "DL", "DR", "X", ""][rng.gen_range(0..6)].into());
        }
        6 => {
            c.values = (0..rng.gen_range(0..6))
                .map(|_| rng.gen_range(0..12))
                .collect()
        }
        7 => {
            c.clone_cells = (0..rng.gen_range(0..4)).map(|_| place(rng)).collect();
            c.types = (0..rng.gen_range(0..3))
                .map(|_| ["ratio", "xv", "difference", ""][rng.gen_range(0..4)].to_string())
                .collect();
        }
        _ => {
            let mut givens = puzzle.givens.clone().into_bytes();
            if !givens.is_empty() {
                let at = rng.gen_range(0..givens.len());
                givens[at] = b"123456789.0x"[rng.gen_range(0..12)];
            }
            puzzle.givens = String::from_utf8(givens).expect("ascii");
        }
    }
}
