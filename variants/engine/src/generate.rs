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
use crate::puzzle::{count_givens, Puzzle, Query, Solver, SolverPath};
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

/// What a budgeted random fill of an empty grid found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fill {
    /// A complete solution, one value per active cell.
    Solution(Vec<u8>),
    /// The rules admit no solution at all.
    NoSolution,
    /// The node budget ran out first (a bad layout: try another).
    GaveUp,
}

/// A uniformly shuffled complete solution of `model`, or `None` if it has none.
pub fn random_solution(model: &Model, rng: &mut Rng) -> Option<Vec<u8>> {
    random_solution_by(model, rng, None).ok().flatten()
}

/// [`random_solution`] with a deadline (`Err` once it passed).
///
/// On a model with constraints beyond houses and cages (thermometers, dots,
/// non-consecutive, …) one random fill can wander for hundreds of
/// milliseconds where another finishes in one: the fill restarts with a
/// fresh random order under a node budget that grows by half each time, from
/// [`RESTART_NODES`] up to [`RESTART_NODES_MOST`], and the deadline is
/// checked between restarts. A non-consecutive 9x9's median fill of 30 went
/// from 80 to 13 ms. Other models fill in one search as before (their
/// puzzles per seed are archived: the daily archive stays reproducible).
pub fn random_solution_by(
    model: &Model,
    rng: &mut Rng,
    deadline: Option<std::time::Instant>,
) -> Result<Option<Vec<u8>>, GenerateError> {
    if model.compiled.primitives.is_empty() {
        return Ok(match random_solution_within(model, rng, None) {
            Fill::Solution(s) => Some(s),
            Fill::NoSolution | Fill::GaveUp => None,
        });
    }
    let mut budget = RESTART_NODES;
    loop {
        if crate::deadline_passed(deadline) {
            return Err(GenerateError::Deadline);
        }
        match random_solution_within(model, rng, Some(budget)) {
            Fill::Solution(s) => return Ok(Some(s)),
            Fill::NoSolution => return Ok(None),
            Fill::GaveUp => budget = (budget + budget / 2).min(RESTART_NODES_MOST),
        }
    }
}

/// The first restart budget of a random fill on a model with constraints
/// (branch points).
pub const RESTART_NODES: usize = 64;

/// The largest restart budget: a restart's time stays within tens of
/// milliseconds, so the deadline is checked that often.
pub const RESTART_NODES_MOST: usize = 1024;

/// A random complete solution of `model`, exploring at most `budget` branch
/// points (none: no limit). A variant whose rules differ per puzzle (a jigsaw
/// layout) uses the budget to give up on a layout that is slow to fill rather
/// than search it for seconds. A node count, not a time: deterministic.
pub fn random_solution_within(model: &Model, rng: &mut Rng, budget: Option<usize>) -> Fill {
    let empty = vec![0; model.cell_count()];
    let found = match (SolverPath::Auto.pick(model), model.bits()) {
        // The band solver has no random order; the bitboard fills classic 9x9.
        (Solver::Classic9, Some(tables)) | (Solver::Bitboard(tables), _) => {
            let mut s = BitSearch::new(tables);
            if let Some(nodes) = budget {
                s.set_budget(nodes);
            }
            s.count(&empty, None, 1, Some(rng))
        }
        (Solver::Classic9 | Solver::Cells, _) => {
            let mut g = General::new(&model.compiled);
            let Some(mut cand) = g.start(&empty) else {
                return Fill::NoSolution;
            };
            if !g.propagate(&mut cand) {
                return Fill::NoSolution;
            }
            if let Some(nodes) = budget {
                g.set_budget(nodes);
            }
            g.search(cand, 1, Some(rng))
        }
    };
    match found.first {
        Some(solution) => Fill::Solution(solution),
        None if found.gave_up => Fill::GaveUp,
        None => Fill::NoSolution,
    }
}

/// How many solutions a set of givens has, as far as a budgeted search can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// None.
    NoSolution,
    /// Exactly one.
    Unique,
    /// Two or more.
    Several,
    /// The budget ran out before the search could tell.
    Unknown,
}

/// Whether `givens` on `model` have exactly one solution, exploring at most
/// `budget` branch points (none: no limit, never `Unknown`).
pub fn uniqueness_within(model: &Model, givens: &[u8], budget: Option<usize>) -> Uniqueness {
    let count = count_givens(
        model,
        givens,
        Query {
            budget,
            keep_first: false,
            ..Query::new(2)
        },
    );
    uniqueness_of(count.solutions, count.gave_up)
}

/// What a count to 2 that found `solutions` says, `gave_up` when its budget
/// ran out first.
fn uniqueness_of(solutions: usize, gave_up: bool) -> Uniqueness {
    match solutions {
        0 | 1 if gave_up => Uniqueness::Unknown,
        0 => Uniqueness::NoSolution,
        1 => Uniqueness::Unique,
        _ => Uniqueness::Several,
    }
}

/// [`uniqueness_within`] from candidate masks (bit `v - 1` for value `v`;
/// a placed cell: its value's bit) rather than givens: the count after sound
/// deductions, which keep every solution, searches a far smaller space.
fn uniqueness_of_candidates(model: &Model, candidates: &[u32], budget: usize) -> Uniqueness {
    let mut g = General::new(&model.compiled);
    let mut cand = candidates.to_vec();
    if !g.propagate(&mut cand) {
        return Uniqueness::NoSolution;
    }
    g.set_budget(budget);
    g.set_keep_first(false);
    let found = g.search(cand, 2, None);
    uniqueness_of(found.count, found.gave_up)
}

/// Where a puzzle stands against a requested tier ([`tier_fit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TierFit {
    /// An easier tier's techniques solve it.
    TooEasy,
    /// It needs exactly the requested tier.
    Exact,
    /// The requested tier's techniques do not solve it, or it has several
    /// solutions.
    TooHard,
}

/// How [`tier_fit`] judges a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitRules {
    /// Branch points for the uniqueness counts run before the tier's own
    /// solve (`None`: no counts): a short one (a tenth of the budget) from the
    /// givens, and, when that cannot tell, one of the whole budget from where
    /// the easier tier's techniques stopped (far fewer candidates there). A
    /// puzzle with several solutions is then too hard at once: on such a
    /// puzzle the ladder would try every chain it knows before giving up. A
    /// count is a node budget, not a time: deterministic.
    pub count_budget: Option<usize>,
    /// Whether the tier's solve may use dynamic forcing chains, the ladder's
    /// last rungs (false: a puzzle only they solve is too hard). A failed
    /// solve ends with a full pass of them, the most expensive search there is.
    pub dynamic_chains: bool,
}

/// Judges `givens` against the tier `target` under `rules`, for a generator
/// that shapes a puzzle by other means than removing clues (a killer's cages).
pub fn tier_fit(model: &Model, givens: &[u8], target: Difficulty, rules: FitRules) -> TierFit {
    let count = |candidates: Option<&[u32]>| match (rules.count_budget, candidates) {
        (None, _) => Uniqueness::Unknown,
        (Some(budget), None) => uniqueness_within(model, givens, Some(budget / 10)),
        (Some(budget), Some(c)) => uniqueness_of_candidates(model, c, budget),
    };
    let settled = |u| matches!(u, Uniqueness::Several | Uniqueness::NoSolution);
    let first = count(None);
    if settled(first) {
        return TierFit::TooHard;
    }
    let solves = |after: Option<&crate::logic::Stopped>| {
        let dynamic = rules.dynamic_chains;
        if crate::logic::solves_after(model, givens, after, target, dynamic) {
            TierFit::Exact
        } else {
            TierFit::TooHard
        }
    };
    let Some(easier) = target.easier() else {
        return solves(None);
    };
    let stopped = crate::logic::stop_within(model, givens, easier);
    if stopped.solved {
        return TierFit::TooEasy;
    }
    if first == Uniqueness::Unknown && settled(count(Some(&stopped.candidates))) {
        return TierFit::TooHard;
    }
    solves(Some(&stopped))
}

/// Removes the clue in `cell` if the puzzle provably stays unique (no solution
/// puts anything else there, found within `budget` branch points); otherwise
/// keeps it. Whether it went.
fn remove_if_unique(model: &Model, givens: &mut [u8], cell: usize, budget: Option<usize>) -> bool {
    let value = givens[cell];
    givens[cell] = 0;
    let other = count_givens(
        model,
        givens,
        Query {
            budget,
            ..Query::without(cell, value)
        },
    );
    if other.solutions > 0 || other.gave_up {
        givens[cell] = value;
        return false;
    }
    true
}

/// The unique puzzle `givens` made minimal while `keep` holds (it keeps its
/// tier, say): every clue whose removal is proven to leave the puzzle unique
/// and that `keep` allows goes, in cell order. `Some` only if the result is
/// minimal (each clue left needed for uniqueness); `None` when a clue could
/// go but `keep` refuses every way of taking it (the puzzle has no minimal
/// form this way). Proofs run without a budget, as [`Target::Minimal`]'s.
pub fn minimal_keeping(
    model: &Model,
    givens: &[u8],
    keep: impl Fn(&[u8]) -> bool,
) -> Option<Vec<u8>> {
    let mut g = givens.to_vec();
    let mut refused = Vec::new();
    for cell in 0..g.len() {
        let value = g[cell];
        if value == 0 || !remove_if_unique(model, &mut g, cell, None) {
            continue;
        }
        if !keep(&g) {
            g[cell] = value;
            refused.push(cell);
        }
    }
    // A clue kept only for `keep` may have become needed since: else no luck.
    let needed = |cell: usize| {
        let mut probe = g.clone();
        !remove_if_unique(model, &mut probe, cell, None)
    };
    refused.into_iter().all(needed).then_some(g)
}

/// Generates one unique puzzle: a random solution, then clues removed towards
/// `target`. `None` if the model has no solution at all.
pub fn generate(model: &Arc<Model>, rng: &mut Rng, target: Target) -> Option<Generated> {
    let solution = random_solution(model, rng)?;
    let mut order: Vec<usize> = (0..model.cell_count()).collect();
    order.shuffle(rng);
    let givens = reduce(model, &solution, &order, target);
    let puzzle = Puzzle::new(Arc::clone(model), givens).ok()?;
    Some(Generated { puzzle, solution })
}

/// Clue reduction from a complete `solution`: tries to remove each cell's clue in
/// `order`, keeping only removals that leave the puzzle provably unique, until
/// `target` is reached. Returns the givens (0 = empty).
pub fn reduce(model: &Model, solution: &[u8], order: &[usize], target: Target) -> Vec<u8> {
    // A minimal puzzle must prove every kept clue necessary; a clue target only
    // needs each removal proven safe, so hard-to-decide clues may stay.
    let budget = match target {
        Target::Minimal => None,
        Target::Clues(_) => Some(CHECK_BUDGET),
    };
    let mut givens = solution.to_vec();
    let mut clues = givens.iter().filter(|&&v| v != 0).count();
    for &cell in order {
        if let Target::Clues(k) = target {
            if clues <= k {
                break;
            }
        }
        if givens[cell] != 0 && remove_if_unique(model, &mut givens, cell, budget) {
            clues -= 1;
        }
    }
    givens
}

/// Solution grids tried for one difficulty before settling for the closest
/// puzzle found.
const ATTEMPTS: usize = 48;

/// Models up to this many cells get puzzles of the requested tier by default
/// ([`Tiering::Auto`]). Larger ones (16x16, 25x25) keep the clue band alone: a
/// logical solve after each removal would take seconds there, and inside the
/// band their puzzles rarely need more than singles anyway.
pub const TIERED_CELLS: usize = 100;

/// Whether generation reaches for the requested technique tier or keeps the
/// clue band alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiering {
    /// Tiered up to [`TIERED_CELLS`] cells, band alone beyond.
    Auto,
    /// Tiered whatever the size (a variant that measured it fast enough).
    Tiered,
    /// The band alone, aiming at its middle.
    BandOnly,
}

impl Tiering {
    fn applies(self, model: &Model) -> bool {
        match self {
            Tiering::Auto => model.cell_count() <= TIERED_CELLS,
            Tiering::Tiered => true,
            Tiering::BandOnly => false,
        }
    }
}

/// Generates a puzzle for a difficulty from a seed string: same model, seed and
/// difficulty give the same puzzle. The puzzle's tier (the logical solver's) is
/// the difficulty and its clue count is inside the difficulty's band, where a
/// try reaches both; see [`generate_for_difficulty_by`].
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
    /// The deadline passed (checked between removals and between a tier
    /// check's searches; never changes the result of a run that finishes in
    /// time).
    Deadline,
}

/// [`generate_for_difficulty`] with a deadline: [`generate_in_band`] with the
/// difficulty's standard clue band and an RNG seeded from `seed`.
pub fn generate_for_difficulty_by(
    model: &Arc<Model>,
    seed: &str,
    difficulty: Difficulty,
    deadline: Option<std::time::Instant>,
) -> Result<Generated, GenerateError> {
    let band = difficulty.clue_band(model.cell_count(), model.size());
    generate_in_band(
        model,
        &mut rng_for(seed),
        difficulty,
        band,
        Tiering::Auto,
        deadline,
    )
}

/// A unique puzzle of `difficulty` with a clue count inside `band` (inclusive),
/// drawing every random choice from `rng`.
///
/// Each try takes a random solution grid and removes clues in a random order,
/// keeping the puzzle unique: first down to the top of the clue band, then one
/// clue at a time while the puzzle stays solvable with the difficulty's
/// techniques (a removal that would need harder ones is undone). It stops as
/// soon as the puzzle needs its tier's techniques (easier ones alone no longer
/// solve it) with a clue count inside the band. A try that ends elsewhere is
/// kept if it is the closest so far (right tier first, then fewest clues), and
/// another grid from the same RNG stream is tried, up to [`ATTEMPTS`]. Without
/// tiering (see [`Tiering`]) the band alone is kept, aiming at its middle.
pub fn generate_in_band(
    model: &Arc<Model>,
    rng: &mut Rng,
    difficulty: Difficulty,
    band: (usize, usize),
    tiering: Tiering,
    deadline: Option<std::time::Instant>,
) -> Result<Generated, GenerateError> {
    let mut best: Option<Reduced> = None;
    for _ in 0..ATTEMPTS {
        let solution =
            random_solution_by(model, rng, deadline)?.ok_or(GenerateError::NoSolution)?;
        let g = reduce_to_tier(model, solution, rng, difficulty, band, tiering, deadline)?;
        if g.hit() {
            return Ok(g.generated);
        }
        if best.as_ref().is_none_or(|b| g.closer_than(b)) {
            best = Some(g);
        }
    }
    best.map(|t| t.generated).ok_or(GenerateError::NoSolution)
}

/// What one reduction of a solution grid reached.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The unique puzzle and its solution.
    pub generated: Generated,
    /// Whether it needs exactly the requested tier (the band may have been
    /// missed).
    pub tier_ok: bool,
    /// Whether the clue count is inside the band.
    pub in_band: bool,
}

impl Reduced {
    /// Both: the requested tier inside the band.
    pub fn hit(&self) -> bool {
        self.tier_ok && self.in_band
    }

    /// Whether this is closer to the request than `other`: the right tier
    /// first (a puzzle's label is its grade; a variant offers only the tiers
    /// its generator reaches), then inside the band.
    pub fn closer_than(&self, other: &Reduced) -> bool {
        (self.tier_ok, self.in_band) > (other.tier_ok, other.in_band)
    }
}

/// One try from a complete `solution` of `model`: clues removed in a random
/// order (from `rng`) while the puzzle stays unique, first down to the top of
/// `band`, then (when tiered) one at a time while the puzzle stays solvable
/// with the difficulty's techniques, until it needs them inside the band. A
/// variant that makes its own solution grid (a jigsaw layout filled under a
/// node budget) composes this with [`random_solution_within`].
pub fn reduce_to_tier(
    model: &Arc<Model>,
    solution: Vec<u8>,
    rng: &mut Rng,
    difficulty: Difficulty,
    (lo, hi): (usize, usize),
    tiering: Tiering,
    deadline: Option<std::time::Instant>,
) -> Result<Reduced, GenerateError> {
    let tiered = tiering.applies(model);
    let mut givens = solution.clone();
    let mut order: Vec<usize> = (0..model.cell_count()).collect();
    order.shuffle(rng);
    let mut clues = givens.len();
    let easier = difficulty.easier();
    // Whether the puzzle needs its tier (something easier cannot solve it), and
    // whether the tier's techniques solve it; both hold untested when untiered.
    // A tier check the deadline cuts short proves nothing: the try ends.
    let solves = |g: &[u8], cap| {
        crate::logic::solves_within_until(model, g, cap, deadline).ok_or(GenerateError::Deadline)
    };
    let needs_tier = |g: &[u8]| -> Result<bool, GenerateError> {
        Ok(!tiered || easier.map_or(Ok(true), |e| solves(g, e).map(|s| !s))?)
    };
    let within =
        |g: &[u8]| -> Result<bool, GenerateError> { Ok(!tiered || solves(g, difficulty)?) };
    // Untiered, aim at the middle of the band.
    let stop_at = if tiered { hi } else { (lo + hi) / 2 };
    let expired = || crate::deadline_passed(deadline);
    // Remove clues while the puzzle stays unique and solvable with the tier's
    // techniques, until it needs them with no more clues than the band allows.
    let mut reached = false;
    let mut at_band_floor: Option<Vec<u8>> = None;
    for &cell in &order {
        if reached && clues <= stop_at {
            break;
        }
        if expired() {
            return Err(GenerateError::Deadline);
        }
        let value = givens[cell];
        if !remove_if_unique(model, &mut givens, cell, Some(CHECK_BUDGET)) {
            continue;
        }
        if clues - 1 > hi {
            clues -= 1;
            continue;
        }
        let needs = needs_tier(&givens)?;
        if needs && !within(&givens)? {
            givens[cell] = value;
            continue;
        }
        clues -= 1;
        reached = needs;
        if clues == lo && !reached {
            // Where this try ends if the tier is never reached: inside the band.
            at_band_floor = Some(givens.clone());
        }
    }
    // Below the band: give clues back while the puzzle still needs its tier
    // (a clue can only make it easier, never harder).
    if reached && clues < lo {
        for &cell in order.iter().rev() {
            if clues >= lo {
                break;
            }
            if expired() {
                return Err(GenerateError::Deadline);
            }
            if givens[cell] != 0 {
                continue;
            }
            givens[cell] = solution[cell];
            if needs_tier(&givens)? {
                clues += 1;
            } else {
                givens[cell] = 0;
            }
        }
    }
    let mut in_band = (lo..=hi).contains(&clues);
    if !reached && !in_band {
        if let Some(floor) = at_band_floor {
            givens = floor;
            in_band = true;
        }
    }
    let puzzle = Puzzle::new(Arc::clone(model), givens).map_err(|_| GenerateError::NoSolution)?;
    let generated = Generated { puzzle, solution };
    Ok(Reduced {
        generated,
        tier_ok: reached,
        in_band,
    })
}
