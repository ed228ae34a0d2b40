//! Deterministic generation: a random complete solution from a seeded RNG, then clues
//! removed in a random order while the puzzle stays unique.
//!
//! Removing clue `c` (value `v`) keeps the puzzle unique exactly when no solution
//! puts something other than `v` in `c`, so each step is one search for a single
//! solution rather than a count to two. One pass over all cells yields a minimal
//! puzzle: a clue needed once stays needed as more clues go.

use crate::bits::BitSearch;
use crate::difficulty::Difficulty;
use crate::general::General;
use crate::model::Model;
use crate::puzzle::{count_givens, Puzzle, Query};
use crate::seed::{rng_for, Rng};
use rand::seq::SliceRandom;
use std::sync::Arc;

/// How far to remove clues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Stop once this many clues remain (or earlier, if the puzzle becomes minimal).
    Clues(usize),
    /// Remove every clue that can go.
    Minimal,
}

/// A generated puzzle with its solution.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle (unique).
    pub puzzle: Puzzle,
    /// Its solution, one value per active cell.
    pub solution: Vec<u8>,
}

/// Branch points one removal check may explore before the clue is kept (the
/// puzzle stays provably unique; it may just keep a clue it could have lost).
/// A node count, not a time, so generation stays deterministic.
const CHECK_BUDGET: usize = 64;

/// A uniformly shuffled complete solution of `model`, or `None` if it has none.
pub fn random_solution(model: &Model, rng: &mut Rng) -> Option<Vec<u8>> {
    if let Some(tables) = &model.bits {
        let empty = vec![0; model.cell_count()];
        return BitSearch::new(tables)
            .count(&empty, None, 1, Some(rng))
            .first;
    }
    let mut g = General::new(&model.compiled);
    let mut cand = g.start(&vec![0; model.cell_count()])?;
    if !g.propagate(&mut cand) {
        return None;
    }
    g.search(cand, 1, Some(rng)).first
}

/// Generates one unique puzzle: a random solution, then clues removed towards
/// `target`. `None` if the model has no solution at all.
pub fn generate(model: &Arc<Model>, rng: &mut Rng, target: Target) -> Option<Generated> {
    let solution = random_solution(model, rng)?;
    // A minimal puzzle must prove every kept clue necessary; a clue target only
    // needs each removal proven safe, so hard-to-decide clues may stay.
    let budget = match target {
        Target::Minimal => None,
        Target::Clues(_) => Some(CHECK_BUDGET),
    };
    let mut givens = solution.clone();
    let mut order: Vec<usize> = (0..model.cell_count()).collect();
    order.shuffle(rng);
    let mut clues = givens.len();
    for cell in order {
        if let Target::Clues(k) = target {
            if clues <= k {
                break;
            }
        }
        let value = givens[cell];
        givens[cell] = 0;
        let other = count_givens(
            model,
            &givens,
            Query {
                budget,
                ..Query::without(cell, value)
            },
        );
        // Keep the clue unless its removal is proven to keep the puzzle unique.
        if other.solutions > 0 || other.gave_up {
            givens[cell] = value;
        } else {
            clues -= 1;
        }
    }
    let puzzle = Puzzle::new(Arc::clone(model), givens).ok()?;
    Some(Generated { puzzle, solution })
}

/// Attempts made to land inside a difficulty's clue band before taking the closest.
const BAND_ATTEMPTS: usize = 16;

/// Generates a puzzle for a difficulty from a seed string: same model, seed and
/// difficulty give the same puzzle. Aims at the middle of the clue band; if a
/// solution grid cannot get that low, tries further grids from the same RNG stream
/// and keeps the one with the fewest clues.
pub fn generate_for_difficulty(
    model: &Arc<Model>,
    seed: &str,
    difficulty: Difficulty,
) -> Option<Generated> {
    generate_for_difficulty_by(model, seed, difficulty, None).ok()
}

/// Why [`generate_for_difficulty_by`] produced nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The model has no solution at all.
    NoSolution,
    /// The deadline passed (checked between attempts; never changes the result of
    /// a run that finishes in time).
    Deadline,
}

/// [`generate_for_difficulty`] with a deadline, checked before each attempt.
pub fn generate_for_difficulty_by(
    model: &Arc<Model>,
    seed: &str,
    difficulty: Difficulty,
    deadline: Option<std::time::Instant>,
) -> Result<Generated, GenerateError> {
    let mut rng = rng_for(seed);
    let (cells, size) = (model.cell_count(), model.size());
    let (_, hi) = difficulty.clue_band(cells, size);
    let target = Target::Clues(difficulty.target_clues(cells, size));
    let mut best: Option<Generated> = None;
    for _ in 0..BAND_ATTEMPTS {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(GenerateError::Deadline);
        }
        let g = generate(model, &mut rng, target).ok_or(GenerateError::NoSolution)?;
        let clues = g.puzzle.clue_count();
        if best.as_ref().is_none_or(|b| clues < b.puzzle.clue_count()) {
            best = Some(g);
        }
        if clues <= hi {
            break;
        }
    }
    best.ok_or(GenerateError::NoSolution)
}
