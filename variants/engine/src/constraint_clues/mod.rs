//! Puzzles whose clues are constraints: thermometers, arrows, Kropki dots, XV
//! marks, parity circles, little killers, sandwiches, renban and whisper
//! lines placed on a random solution, then taken away while the puzzle stays
//! unique and inside its tier, as givens are.
//!
//! One try: a random solution of the base rules; the constraints of the
//! requested kinds it satisfies (random lines, every mark that holds, see
//! [`candidates`]), all of them, shuffled; givens where two solutions still
//! differ until the puzzle is unique, and givens while the tier's
//! techniques cannot solve it; then
//! every given and every constraint, givens first, removed if the puzzle
//! stays unique and solvable with the tier's techniques. The try hits when an
//! easier tier cannot solve what is left; otherwise the next try starts from
//! a fresh solution, and after [`ATTEMPTS`] the closest puzzle is kept (the
//! right tier first, then fewest givens). Every choice comes from the RNG:
//! one seed, one puzzle. The deadline only ever stops a run.

mod candidates;

pub use candidates::whisper_difference;

use crate::difficulty::Difficulty;
use crate::general::General;
use crate::generate::{random_solution_by, GenerateError, Generated};
use crate::model::Model;
use crate::puzzle::{count_givens, Puzzle, Query};
use crate::rules::ModelBuilder;
use crate::seed::Rng;
use candidates::{candidates, Solved};
use protocol::Constraint;
use rand::seq::SliceRandom;
use std::sync::Arc;
use std::time::Instant;

/// A kind of constraint a generated puzzle can carry as clues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClueKind {
    /// Strict thermometers, 3-6 cells, bulb lowest.
    Thermometer,
    /// Arrows: a one-cell circle whose digit the 2-4 cells of its shaft add up to.
    Arrow,
    /// Kropki dots: white (neighbours one apart) and black (one double the other).
    Kropki,
    /// X (neighbours add up to 10) and V (to 5).
    Xv,
    /// Grey squares (even) and circles (odd) on single cells.
    EvenOdd,
    /// Little killer clues: the sum of a diagonal, from outside the grid.
    LittleKiller,
    /// Sandwich clues: the sum between a row's or column's 1 and highest digit.
    Sandwich,
    /// Renban lines, 3-5 cells: a set of consecutive digits in any order.
    Renban,
    /// Whisper lines: neighbours differ by at least [`whisper_difference`].
    Whispers,
}

/// Solutions tried before the closest puzzle is kept.
pub const ATTEMPTS: usize = 12;

/// Branch points one uniqueness count may explore before the clue it tests is
/// kept (a node count, not a time: deterministic).
const COUNT_BUDGET: usize = 1_000;

/// Branch points a random fill may explore: a fill that gives up adds a
/// given, cheaper than a long search on a nearly empty grid.
const FILL_BUDGET: usize = 100;

/// Random fills that found the generated solution itself before the
/// givens are settled cell by cell.
const FILLS: usize = 3;

/// The clues of one puzzle being reduced: constraints on top of the base
/// rules, and givens (0: empty).
#[derive(Clone)]
struct Clues {
    constraints: Vec<Constraint>,
    givens: Vec<u8>,
}

impl Clues {
    fn model(&self, base: &ModelBuilder) -> Option<Arc<Model>> {
        let builder = self
            .constraints
            .iter()
            .cloned()
            .fold(base.clone(), ModelBuilder::constraint);
        builder.build().ok().map(Arc::new)
    }

    fn given_count(&self) -> usize {
        self.givens.iter().filter(|&&v| v != 0).count()
    }
}

/// Whether `givens` on `model` have provably one solution within the budget.
fn unique(model: &Model, givens: &[u8]) -> bool {
    let query = Query {
        budget: Some(COUNT_BUDGET),
        keep_first: false,
        ..Query::new(2)
    };
    let count = count_givens(model, givens, query);
    count.solutions == 1 && !count.gave_up
}

/// Whether some solution of `givens` on `model` puts anything but `value` in
/// `cell` (or the search could not tell within the budget).
fn open(model: &Model, givens: &[u8], cell: usize, value: u8) -> bool {
    let query = Query {
        budget: Some(COUNT_BUDGET),
        ..Query::without(cell, value)
    };
    let count = count_givens(model, givens, query);
    count.solutions > 0 || count.gave_up
}

/// Adds givens from `solution` until `givens` on `model` are unique: at a
/// random cell where another solution (a random fill) differs, or, when the
/// fills cannot tell (they keep finding `solution` itself, or run out of
/// budget on a hard start), at the next empty cell in `cells` order. A fill
/// that differs already proves two solutions, and one that gives up says the
/// count would too, so uniqueness is counted only when a fill finds
/// `solution` itself. Whether it got there.
fn settle(
    model: &Model,
    givens: &mut [u8],
    solution: &[u8],
    cells: &[usize],
    rng: &mut Rng,
    expired: &dyn Fn() -> bool,
) -> Result<bool, GenerateError> {
    let mut same = 0;
    let mut next_empty = cells.iter().copied();
    loop {
        // Checked around each search: one may take tens of milliseconds.
        if expired() {
            return Err(GenerateError::Deadline);
        }
        let fill = random_fill(model, givens, rng);
        let differ: Vec<usize> = match fill {
            Some(other) if other != solution => (0..solution.len())
                .filter(|&i| other[i] != solution[i])
                .collect(),
            Some(_) => {
                if expired() {
                    return Err(GenerateError::Deadline);
                }
                if unique(model, givens) {
                    return Ok(true);
                }
                if same < FILLS {
                    same += 1;
                    continue;
                }
                next_empty.find(|&i| givens[i] == 0).into_iter().collect()
            }
            None => next_empty.find(|&i| givens[i] == 0).into_iter().collect(),
        };
        let Some(&cell) = differ.choose(rng) else {
            return Ok(false);
        };
        givens[cell] = solution[cell];
    }
}

/// A random solution of `givens` on `model`, if a budgeted search finds one.
fn random_fill(model: &Model, givens: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let mut search = General::new(&model.compiled);
    let mut cand = search.start(givens)?;
    if !search.propagate(&mut cand) {
        return None;
    }
    search.set_budget(FILL_BUDGET);
    search.search(cand, 1, Some(rng)).first
}

/// A unique puzzle of `difficulty` on the rules of `base` (a full square
/// layout, e.g. [`crate::geometry::classic_builder`]) whose clues are
/// constraints of `kinds` (and as few givens as it takes), drawing every
/// random choice from `rng`. See the module doc for how.
pub fn generate_with_constraints(
    base: &ModelBuilder,
    kinds: &[ClueKind],
    rng: &mut Rng,
    difficulty: Difficulty,
    deadline: Option<Instant>,
) -> Result<Generated, GenerateError> {
    let base_model = base
        .clone()
        .build()
        .map_err(|_| GenerateError::NoSolution)?;
    let side = base_model.size();
    let square = base_model.rows() == side && base_model.cols() == side;
    if !square || !base_model.is_full_layout() || kinds.is_empty() {
        return Err(GenerateError::NoSolution);
    }
    let mut best: Option<(bool, usize, Generated)> = None;
    for _ in 0..ATTEMPTS {
        let solution =
            random_solution_by(&base_model, rng, deadline)?.ok_or(GenerateError::NoSolution)?;
        let Some((clues, hit)) = one_try(base, &solution, kinds, rng, difficulty, deadline)? else {
            continue;
        };
        let givens = clues.given_count();
        let closer = best.as_ref().is_none_or(|(b_hit, b_givens, _)| {
            (hit, std::cmp::Reverse(givens)) > (*b_hit, std::cmp::Reverse(*b_givens))
        });
        if closer {
            let model = clues.model(base).ok_or(GenerateError::NoSolution)?;
            let puzzle = Puzzle::new(model, clues.givens).map_err(|_| GenerateError::NoSolution)?;
            let generated = Generated { puzzle, solution };
            if hit {
                return Ok(generated);
            }
            best = Some((hit, givens, generated));
        }
    }
    best.map(|(_, _, g)| g).ok_or(GenerateError::NoSolution)
}

/// One try from `solution`: the reduced clues, and whether they need exactly
/// `difficulty`. `None` when no clue set made the puzzle unique.
fn one_try(
    base: &ModelBuilder,
    solution: &[u8],
    kinds: &[ClueKind],
    rng: &mut Rng,
    difficulty: Difficulty,
    deadline: Option<Instant>,
) -> Result<Option<(Clues, bool)>, GenerateError> {
    let expired = || crate::deadline_passed(deadline);
    let side = (solution.len() as f64).sqrt() as u32;
    let grid = Solved {
        side,
        values: solution,
    };
    let mut used = vec![false; solution.len()];
    let mut pool: Vec<Constraint> = kinds
        .iter()
        .flat_map(|&kind| candidates(kind, &grid, rng, &mut used))
        .collect();
    pool.shuffle(rng);
    // Every constraint found; givens where solutions still differ, then
    // while the tier cannot solve it.
    let mut clues = Clues {
        constraints: pool,
        givens: vec![0; solution.len()],
    };
    let mut model = clues.model(base).ok_or(GenerateError::NoSolution)?;
    let mut cells: Vec<usize> = (0..solution.len()).collect();
    cells.shuffle(rng);
    if !settle(&model, &mut clues.givens, solution, &cells, rng, &expired)? {
        return Ok(None);
    }
    // The tier's techniques, without dynamic forcing chains (as Killer's
    // extreme): they follow every constraint, and a solve that fails ends
    // with a full pass of them, seconds on a constraint-heavy grid.
    let within = |model: &Model, clues: &Clues| {
        crate::logic::solves_after(model, &clues.givens, None, difficulty, false)
    };
    for &cell in &cells {
        if within(&model, &clues) {
            break;
        }
        clues.givens[cell] = solution[cell];
    }
    if !unique(&model, &clues.givens) || !within(&model, &clues) {
        return Ok(None);
    }
    // Givens first, then constraints: each goes if the rest still do.
    for &cell in &cells {
        if expired() {
            return Err(GenerateError::Deadline);
        }
        let value = clues.givens[cell];
        if value == 0 {
            continue;
        }
        clues.givens[cell] = 0;
        if open(&model, &clues.givens, cell, value) || !within(&model, &clues) {
            clues.givens[cell] = value;
        }
    }
    let mut order: Vec<usize> = (0..clues.constraints.len()).collect();
    order.shuffle(rng);
    let mut removed = vec![false; clues.constraints.len()];
    let all = clues.constraints.clone();
    for &i in &order {
        if expired() {
            return Err(GenerateError::Deadline);
        }
        removed[i] = true;
        let trial = Clues {
            constraints: kept(&all, &removed),
            givens: clues.givens.clone(),
        };
        let Some(trial_model) = trial.model(base) else {
            removed[i] = false;
            continue;
        };
        let kept_unique = unique(&trial_model, &trial.givens);
        if expired() {
            return Err(GenerateError::Deadline);
        }
        if kept_unique && within(&trial_model, &trial) {
            model = trial_model;
        } else {
            removed[i] = false;
        }
    }
    clues.constraints = kept(&all, &removed);
    let hit = difficulty
        .easier()
        .is_none_or(|easier| !crate::logic::solves_within(&model, &clues.givens, easier));
    Ok(Some((clues, hit)))
}

/// The constraints of `all` not marked `removed`.
fn kept(all: &[Constraint], removed: &[bool]) -> Vec<Constraint> {
    all.iter()
        .zip(removed)
        .filter(|(_, &gone)| !gone)
        .map(|(c, _)| c.clone())
        .collect()
}

#[cfg(test)]
mod tests;
