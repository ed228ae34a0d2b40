//! Broken puzzles get an error, never a panic. Two breakers: one knows the
//! corpus schema (puzzles of `../shared/datasets/variants/` with a
//! constraint of another puzzle added, a value zero, huge or a stray
//! letter, cells off the grid or repeated, a kind swapped for another, a
//! bad arrow, outside clue, quadruple, clone or given); the other knows
//! nothing and breaks puzzle files (format v1/v2, from the corpus and from
//! the bundled layouts: 4x4, 25x25, Samurai, Windoku) anywhere in their
//! JSON. Each broken puzzle is read, compiled, counted, graded, hinted and
//! written back; each step may refuse, none may panic.

use arena_tests::variant_corpus;
use engine::corpus::{from_corpus, to_corpus};
use engine::v1::{from_v1, to_v1};
use protocol::corpus::{CorpusConstraint, CorpusPuzzle, CorpusValue};
use protocol::PuzzleV1;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Broken puzzles tried (each from its own seed, so a failure names one).
const TRIES: u64 = 1_000;

/// Branch points each count may use.
const NODES: usize = 200;

/// How long each grade may take.
const GRADE_FOR: Duration = Duration::from_millis(20);

#[test]
fn broken_corpus_puzzles_get_an_error_or_an_answer_never_a_panic() {
    let puzzles = variant_corpus();
    let pool: Vec<CorpusConstraint> = puzzles
        .iter()
        .flat_map(|p| p.constraints.iter().cloned())
        .collect();
    let mut kinds: Vec<String> = pool.iter().map(|c| c.kind.clone()).collect();
    kinds.sort();
    kinds.dedup();
    without_panics(|rng| {
        let mut puzzle = puzzles[rng.gen_range(0..puzzles.len())].clone();
        for _ in 0..rng.gen_range(1..4) {
            break_once(&mut puzzle, &pool, &kinds, rng);
        }
        let json = serde_json::to_string(&puzzle).expect("json");
        (json, Box::new(move || outcome(from_corpus(&puzzle).ok())))
    });
}

#[test]
fn broken_puzzle_files_get_an_error_or_an_answer_never_a_panic() {
    let mut files: Vec<Value> = variant_corpus()
        .iter()
        .map(|p| serde_json::to_value(from_corpus(p).expect("reads")).expect("json"))
        .collect();
    let samurai = engine::geometry::GattaiMode::by_id("samurai").expect("samurai");
    let windoku = engine::geometry::classic_builder(3, 3)
        .expect("9x9")
        .houses(engine::geometry::windoku_windows());
    for model in [
        engine::geometry::classic(2, 2),
        engine::geometry::classic(5, 5),
        samurai.model(),
        windoku.build(),
    ] {
        let model = Arc::new(model.expect("a bundled layout"));
        let givens = vec![0; model.cell_count()];
        let puzzle = engine::Puzzle::new(model, givens).expect("an empty grid");
        files.push(serde_json::to_value(to_v1(&puzzle, None)).expect("json"));
    }
    without_panics(|rng| {
        let mut file = files[rng.gen_range(0..files.len())].clone();
        for _ in 0..rng.gen_range(1..4) {
            break_json(&mut file, rng, 5);
        }
        let json = file.to_string();
        let read = serde_json::from_value::<PuzzleV1>(file).ok();
        (json, Box::new(move || outcome(read)))
    });
}

/// A broken puzzle as text (to name it when it fails) and its trial.
type Trial = (
    String,
    Box<dyn FnOnce() -> &'static str + std::panic::UnwindSafe>,
);

/// Runs [`TRIES`] trials, each made from its own seed; fails naming every
/// seed and puzzle that panicked, and unless the breakage reached every
/// stage (some puzzles refused, some counted).
fn without_panics(mut make: impl FnMut(&mut ChaCha8Rng) -> Trial) {
    let mut outcomes = BTreeMap::<&str, usize>::new();
    let mut panics = Vec::new();
    for seed in 0..TRIES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (text, trial) = make(&mut rng);
        match std::panic::catch_unwind(trial) {
            Ok(o) => *outcomes.entry(o).or_default() += 1,
            Err(_) => panics.push(format!("seed {seed}: {text}")),
        }
    }
    println!("{outcomes:?}");
    assert!(panics.is_empty(), "{}", panics.join("\n"));
    for stage in ["refused", "counted"] {
        assert!(outcomes.get(stage).is_some_and(|&n| n > 0), "{outcomes:?}");
    }
}

/// What became of one broken puzzle (`None`: its file did not read):
/// `refused` (not read, or read or compiled to an error) or `counted` (then
/// graded for a moment, hinted and written back).
fn outcome(file: Option<PuzzleV1>) -> &'static str {
    let Some(loaded) = file.and_then(|f| from_v1(&f).ok()) else {
        return "refused";
    };
    let (model, givens) = (loaded.puzzle.model(), loaded.puzzle.givens());
    engine::check::conflicting_cells(model, givens);
    if let Some(solution) = &loaded.solution {
        engine::check::check_solution(model, solution).ok();
    }
    let count = loaded.puzzle.count_within(2, NODES);
    if let (1, false, Some(solution)) = (count.solutions, count.gave_up, &count.first) {
        engine::logic::grade_until(
            model,
            givens,
            engine::logic::Options::default(),
            engine::logic::Chains::Dynamic,
            Some(Instant::now() + GRADE_FOR),
        );
        engine::logic::hint(model, solution, givens, None);
    }
    to_corpus(&loaded.puzzle, None).ok();
    to_v1(&loaded.puzzle, loaded.solution.as_deref());
    "counted"
}

/// Breaks one value somewhere in `value`, at most `depth` levels down: a
/// field or element replaced by a stray value, removed, or repeated; a
/// character of a string changed.
fn break_json(value: &mut Value, rng: &mut ChaCha8Rng, depth: u32) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            let keys: Vec<String> = fields.keys().cloned().collect();
            let key = &keys[rng.gen_range(0..keys.len())];
            if depth > 0 && rng.gen_bool(0.7) {
                if let Some(inner) = fields.get_mut(key) {
                    break_json(inner, rng, depth - 1);
                }
            } else if rng.gen_bool(0.15) {
                fields.remove(key);
            } else {
                fields.insert(key.clone(), stray(rng));
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let at = rng.gen_range(0..items.len());
            if depth > 0 && rng.gen_bool(0.7) {
                break_json(&mut items[at], rng, depth - 1);
            } else if rng.gen_bool(0.2) {
                items.remove(at);
            } else if rng.gen_bool(0.3) {
                items.push(items[at].clone());
            } else {
                items[at] = stray(rng);
            }
        }
        Value::String(text) if !text.is_empty() && rng.gen_bool(0.5) => {
            let mut bytes = std::mem::take(text).into_bytes();
            let at = rng.gen_range(0..bytes.len());
            bytes[at] = b"0123456789.x-A"[rng.gen_range(0..14)];
            *text = String::from_utf8_lossy(&bytes).into_owned();
        }
        _ => *value = stray(rng),
    }
}

/// A value out of place: null, negative, zero, huge, fractional, a letter,
/// an empty or repeated list, a far cell.
fn stray(rng: &mut ChaCha8Rng) -> Value {
    match rng.gen_range(0..14) {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!(rng.gen_range(0..100)),
        3 => json!(u64::MAX),
        4 => json!(u32::MAX),
        5 => json!([rng.gen_range(0..12), rng.gen_range(0..12)]),
        6 => json!([]),
        7 => json!({}),
        8 => json!(1.5),
        9 => json!([[0, 0], [0, 0], [99, 1]]),
        10 => json!("X"),
        11 => json!(0),
        12 => json!([[1, 1], [1, 2], [2, 2]]),
        _ => json!(true),
    }
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
