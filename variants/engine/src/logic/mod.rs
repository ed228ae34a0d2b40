//! The logical solver: solves a puzzle the way a person does, one technique step
//! at a time, always taking the easiest step available (as Sudoku Explainer
//! does), and records each step. Works on candidates over any model: houses of
//! any kind, cages and different-pairs (every technique asks the layout which
//! cells see each other, never a fixed 9x9 shape).
//!
//! - [`grade`]: the whole logical solution of a puzzle, its rating (the hardest
//!   step, on Sudoku Explainer's scale) and its tier.
//! - [`hint`]: the next step for a player's position (their digits and,
//!   optionally, their pencil marks): a wrong entry first, then the easiest
//!   technique, explained ([`explain`]).

mod aligned;
mod als;
mod cells;
mod chain_parts;
mod chains;
mod colouring;
mod combinations;
mod constraint_rule;
mod differential;
pub mod explain;
mod fish;
mod forcing_scan;
pub(crate) mod grid;
mod implied;
mod intersections;
mod killer;
mod ladder;
mod links;
mod memo;
pub mod placing;
mod reach;
mod reference;
mod schedule;
mod singles;
mod stamps;
mod static_chains;
mod step;
mod subsets;
mod uniqueness;
mod virtual_cage;
pub mod walkthrough;
mod wings;

use crate::difficulty::Difficulty;
use crate::model::Model;
pub use differential::{differential, Differential};
use grid::{Grid, Layout};
use ladder::{easiest, Watch, LADDER};
pub use schedule::Chains;
use schedule::Climb;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;
pub use step::{format_rating, CageFacts, Candidate, Rating, Step, Technique};
use Difficulty::{Easy, Extreme, Hard, Medium};

/// What the solver may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Allow uniqueness techniques (unique rectangles, BUG+1). Sound only when
    /// the puzzle is known to have one solution; used only on classic rules.
    pub uniqueness: bool,
}

/// The outcome of a logical solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Whether the steps solve the puzzle (false: the ladder ran out).
    pub solved: bool,
    /// The hardest step's rating, in tenths (Sudoku Explainer's ER).
    pub rating: Rating,
    /// The technique a player needs most: the hardest step's, or, when fewer
    /// techniques solve the puzzle at a lower tier (a finned fish standing in
    /// for a chain), the hardest of those.
    pub hardest: Option<Technique>,
    /// The tier: the highest tier of any step; `None` when not solved.
    pub tier: Option<Difficulty>,
}

impl Grade {
    /// The verdict as the puzzle format writes it (tier, rating, hardest
    /// technique); `None` when the steps did not solve the puzzle.
    pub fn puzzle_grade(&self) -> Option<protocol::PuzzleGrade> {
        self.tier
            .zip(self.hardest)
            .map(|(tier, hardest)| protocol::PuzzleGrade {
                tier: tier.as_str().to_string(),
                rating: format_rating(self.rating),
                hardest: hardest.name().to_string(),
            })
    }
}

/// What one technique finder sees.
pub(crate) struct Ctx<'a> {
    pub layout: &'a Layout,
    pub grid: &'a Grid,
    /// Keep Sudoku Explainer's search limits (e.g. a hidden triple only in a
    /// house with more than six empty cells, where no naked set of three or
    /// fewer is its complement), so ratings match its; off when any instance
    /// will do.
    pub se_limits: bool,
    /// Where finders record every instance they meet ([`find`]); `None` in
    /// the ladder, which wants only the first.
    pub every: Option<&'a RefCell<Vec<Step>>>,
    /// What earlier steps of this solve learned (ladder only).
    pub memo: Option<&'a RefCell<memo::Memo>>,
    /// Any deduction will do: the exhaustive searches (forcing chains) stop
    /// at the first they find instead of looking on for the easiest. For
    /// tier checks, which ask only whether the rungs solve the puzzle.
    pub first: bool,
    /// When the solve gives up: the forcing-chain searches (nested ones can
    /// take many seconds) stop there, finding nothing.
    pub until: Option<Instant>,
}

impl<'a> Ctx<'a> {
    /// What the ladder's finders see: Sudoku Explainer's limits, the first
    /// instance only.
    pub fn ladder(layout: &'a Layout, grid: &'a Grid) -> Ctx<'a> {
        Ctx {
            layout,
            grid,
            se_limits: true,
            every: None,
            memo: None,
            first: false,
            until: None,
        }
    }

    /// Whether the solve's deadline has passed.
    pub fn expired(&self) -> bool {
        crate::deadline_passed(self.until)
    }

    /// The places of `value` in every row and column (`None` without a memo
    /// or without lines): what a search over that value's lines depends on.
    pub fn line_places(&self, value: u8) -> Option<Vec<u32>> {
        self.memo?;
        let lines = self.layout.lines.as_ref()?;
        Some(
            lines
                .iter()
                .flatten()
                .map(|&g| self.grid.positions(&self.layout.groups[g as usize], value))
                .collect(),
        )
    }

    /// The cells where `value` is a candidate, a bit each (`None` without a
    /// memo): what a search over that value's places anywhere depends on.
    pub fn value_places(&self, value: u8) -> Option<Vec<u32>> {
        self.memo?;
        let mut bits = vec![0u32; self.grid.cand.len().div_ceil(32)];
        for c in 0..self.grid.cand.len() as u32 {
            if self.grid.has(c, value) {
                bits[c as usize / 32] |= 1 << (c % 32);
            }
        }
        Some(bits)
    }

    /// Whether `search` already found nothing for `value` at these `places`
    /// (from [`Ctx::line_places`] or [`Ctx::value_places`]) earlier in this solve.
    pub fn known_fruitless(&self, search: u8, value: u8, places: &Option<Vec<u32>>) -> bool {
        match (self.memo, places) {
            (Some(memo), Some(places)) => memo.borrow().is_fruitless(search, value, places),
            _ => false,
        }
    }

    /// Notes that `search` found nothing for `value` at `places`.
    pub fn note_fruitless(&self, search: u8, value: u8, places: Option<Vec<u32>>) {
        if let (Some(memo), Some(places)) = (self.memo, places) {
            memo.borrow_mut().note_fruitless(search, value, places);
        }
    }

    /// What `build` makes of `value`'s places (from [`Ctx::value_places`] or
    /// [`Ctx::line_places`]) for `search`: built once while those places stay
    /// as they are (in the ladder, with a memo), fresh each time without one.
    pub fn built_from_places<T: 'static>(
        &self,
        search: u8,
        value: u8,
        places: &Option<Vec<u32>>,
        build: impl FnOnce() -> T,
    ) -> Rc<T> {
        let (Some(memo), Some(places)) = (self.memo, places) else {
            return Rc::new(build());
        };
        if let Some(built) = memo.borrow().built(search, value, places) {
            return built;
        }
        let built = Rc::new(build());
        memo.borrow_mut()
            .keep_built(search, value, places.clone(), built.clone());
        built
    }

    /// What `build` makes of the position for `search`: built once per
    /// position (in the ladder, with a memo; several rungs read it), fresh
    /// each time without one.
    pub fn built_for_grid<T: 'static>(&self, search: u8, build: impl FnOnce() -> T) -> Rc<T> {
        self.built_from_places(search, 0, &self.memo.map(|_| self.grid.cand.clone()), build)
    }

    /// What `find` gives for whole-grid search `search`, told which cells
    /// changed since the search last found nothing in this solve (`None`:
    /// look everywhere — it never did, or there is no memo). A solve only
    /// removes candidates, so an instance of such a search that reads none
    /// of these cells is as fruitless as it was: `find` looks only at
    /// instances reading one, and with none changed is not asked.
    pub fn grid_step(
        &self,
        search: u8,
        find: impl FnOnce(Option<&cells::CellSet>) -> Option<Step>,
    ) -> Option<Step> {
        let changed = self.changed_since_fruitless(search);
        if changed.as_ref().is_some_and(cells::CellSet::is_empty) {
            return None;
        }
        let found = find(changed.as_ref());
        if let (None, Some(memo)) = (&found, self.memo) {
            memo.borrow_mut()
                .note_fruitless_grid(search, &self.grid.cand);
        }
        found
    }

    /// The cells whose candidates changed since whole-grid search `search`
    /// last found nothing ([`Ctx::grid_step`]).
    fn changed_since_fruitless(&self, search: u8) -> Option<cells::CellSet> {
        let memo = self.memo?.borrow();
        let before = memo.fruitless_grid(search)?;
        Some(cells::CellSet::of(
            self.layout,
            (0..self.grid.cand.len() as u32)
                .filter(|&c| before[c as usize] != self.grid.cand[c as usize]),
        ))
    }

    /// What `find` gives for group (or cage) `index` of search `search`,
    /// whose cells are `cells`: not asked again (in the ladder, with a memo)
    /// while those cells stay as they were when it last gave nothing.
    pub fn group_step(
        &self,
        search: memo::GroupSearch,
        index: usize,
        cells: &[u32],
        find: impl FnOnce() -> Option<Step>,
    ) -> Option<Step> {
        let Some(memo) = self.memo else {
            return find();
        };
        if memo
            .borrow()
            .is_group_fruitless(search, index, self.group_states(cells))
        {
            return None;
        }
        let found = find();
        if found.is_none() {
            memo.borrow_mut()
                .note_group_fruitless(search, index, self.group_states(cells));
        }
        found
    }

    /// The states of `cells` a group search reads.
    fn group_states<'c>(&'c self, cells: &'c [u32]) -> impl ExactSizeIterator<Item = u32> + 'c {
        cells
            .iter()
            .map(|&c| memo::cell_state(self.grid.cand[c as usize], self.grid.values[c as usize]))
    }

    /// Hands a found step over. In the ladder it comes straight back, for
    /// the finder to return; when every instance is wanted it is recorded and
    /// `None` tells the finder to search on.
    pub fn offer(&self, step: Step) -> Option<Step> {
        match self.every {
            None => Some(step),
            Some(every) => {
                every.borrow_mut().push(step);
                None
            }
        }
    }
}

/// Whether `values` is a position of `model`: one value per active cell, each
/// in range.
fn fits(model: &Model, values: &[u8]) -> bool {
    values.len() == model.cell_count() && values.iter().all(|&v| u32::from(v) <= model.size())
}

/// Applies `step` with every single of its kind and rating in the same
/// position ([`singles::batch`]), each while its placements are still open;
/// the steps applied.
fn apply_batch(model: &Model, grid: &mut Grid, step: &Step) -> Vec<Step> {
    let batch = singles::batch(&Ctx::ladder(model.logic_layout(), grid), step);
    let mut applied = Vec::new();
    for step in batch {
        let still_open = step
            .placements
            .iter()
            .all(|p| grid.values[p.cell as usize] == 0 && grid.has(p.cell, p.value));
        if still_open {
            apply(model, grid, &step);
            applied.push(step);
        }
    }
    applied
}

/// Applies a step's eliminations (but a direct technique's, which only
/// explain its placement: [`Technique::places_only`]), then its placements.
fn apply(model: &Model, grid: &mut Grid, step: &Step) {
    if !step.technique.places_only() {
        for &e in &step.eliminations {
            grid.eliminate(model.logic_layout(), e);
        }
    }
    for p in &step.placements {
        if grid.values[p.cell as usize] == 0 {
            grid.place(model.logic_layout(), p.cell, p.value);
        }
    }
}

/// Solves `givens` (one value per active cell, 0 = empty) logically: the
/// steps Sudoku Explainer's order takes (for the rating and the explanation),
/// and the tier ([`tier`]).
pub fn grade(model: &Model, givens: &[u8], options: Options) -> Grade {
    grade_by(model, givens, options, Chains::Nested, None)
}

/// [`grade`] without dynamic forcing chains, the ladder's last rungs, whose
/// search on a large grid (a Samurai's 369 cells) can take seconds a step: a
/// generator that will not offer such puzzles asks this, and the puzzle is
/// unsolved (`solved` false) where only those chains would go on. When it does
/// solve, the grade is [`grade`]'s (the chains come last, so they were never
/// reached).
pub fn grade_without_dynamic_chains(model: &Model, givens: &[u8], options: Options) -> Grade {
    grade_by(model, givens, options, Chains::Static, None)
}

/// [`grade`] without nested forcing chains, whose search takes up to seconds
/// a puzzle on the hardest known 9x9s: for a grade anyone may ask for again
/// and again (a pasted puzzle). The puzzle is unsolved where only those
/// chains would go on; when it does solve, the grade is [`grade`]'s.
pub fn grade_without_nested_chains(model: &Model, givens: &[u8], options: Options) -> Grade {
    grade_by(model, givens, options, Chains::Dynamic, None)
}

/// [`grade`] with forcing chains as deep as `chains` (what
/// [`grade_without_dynamic_chains`] and [`grade_without_nested_chains`]
/// climb), giving up at `until`: `None` once it has passed (a solve cut
/// short proves no grade). A plugin that must answer by a deadline grades
/// with it.
pub fn grade_until(
    model: &Model,
    givens: &[u8],
    options: Options,
    chains: Chains,
    until: Option<Instant>,
) -> Option<Grade> {
    let grade = grade_by(model, givens, options, chains, until);
    (!crate::deadline_passed(until)).then_some(grade)
}

/// [`grade`], with forcing chains as deep as `chains`, giving up at `until`.
fn grade_by(
    model: &Model,
    givens: &[u8],
    options: Options,
    chains: Chains,
    until: Option<Instant>,
) -> Grade {
    let (steps, solved) = solve(
        model,
        givens,
        Climb {
            options,
            cap: Extreme,
            rated_only: true,
            chains,
            first: false,
            exhausted: None,
            until,
        },
    );
    let hardest = steps.iter().max_by_key(|s| s.rating);
    let rating = hardest.map_or(0, |s| s.rating);
    let mut hardest = hardest.map(|s| s.technique);
    let tier = solved.then(|| {
        // Steps of at most tier `used`, none relying on uniqueness, already show
        // that tier suffices; a lower one may too (the rating order can prefer,
        // say, a direct pointing to a naked single, and a finned fish stands in
        // for a chain), so it is tried first, and then its hardest technique is
        // the one a player needs. No tier below extreme solving it, the
        // puzzle is extreme: the rated steps solved it, and a solve capped at
        // extreme could only say so again (so it is not run; with uniqueness
        // steps among the rated ones, it was a fifth of a classic grade's
        // tier checks).
        let used = steps
            .iter()
            .map(|s| s.technique.tier())
            .max()
            .unwrap_or(Easy);
        let unique = steps.iter().any(|s| s.technique.needs_uniqueness());
        for t in [Easy, Medium, Hard] {
            if t == used && !unique {
                return t;
            }
            // The rated steps up to the first beyond tier `t` are steps of
            // tier `t`: the capped solve goes on from there.
            let known = steps
                .iter()
                .take_while(|s| s.technique.tier() <= t && !s.technique.needs_uniqueness())
                .count();
            let climb = Climb {
                until,
                ..tier_climb(t)
            };
            let (lower, ok) = solve_after(model, givens, &steps[..known], climb);
            if ok {
                if t < used {
                    hardest = steps[..known]
                        .iter()
                        .chain(&lower)
                        .max_by_key(|s| (s.technique.tier(), s.rating))
                        .map(|s| s.technique);
                }
                return t;
            }
        }
        Extreme
    });
    Grade {
        rating,
        hardest,
        tier,
        steps,
        solved,
    }
}

/// The tier of `givens`: the lowest whose techniques solve it, never counting
/// on uniqueness (a deadly pattern a new clue fills in would otherwise make a
/// puzzle harder by giving more). `None`: the whole ladder does not solve it.
pub fn tier(model: &Model, givens: &[u8]) -> Option<Difficulty> {
    [Easy, Medium, Hard, Extreme]
        .into_iter()
        .find(|&t| solves_within(model, givens, t))
}

/// Whether the techniques of tiers up to `cap` alone solve `givens` (no
/// uniqueness): the cheap test generation makes after each clue it removes.
pub fn solves_within(model: &Model, givens: &[u8], cap: Difficulty) -> bool {
    solve_within(model, givens, cap).1
}

/// [`solves_within`] that gives up at `until`: `None` once it has passed.
pub fn solves_within_until(
    model: &Model,
    givens: &[u8],
    cap: Difficulty,
    until: Option<Instant>,
) -> Option<bool> {
    let climb = Climb {
        until,
        ..tier_climb(cap)
    };
    let solved = solve(model, givens, climb).1;
    (!crate::deadline_passed(until)).then_some(solved)
}

/// The steps the techniques of tiers up to `cap` take on `givens` (no
/// uniqueness; named techniques such as finned fish included, unlike
/// [`grade`]'s steps), and whether they solve it. A forcing chain step is
/// the first such chain found, not the easiest: what matters is whether the
/// tier's techniques get through, and the exhaustive search for the easiest
/// chain is most of an extreme solve's time.
pub fn solve_within(model: &Model, givens: &[u8], cap: Difficulty) -> (Vec<Step>, bool) {
    solve(model, givens, tier_climb(cap))
}

/// Every rung up to tier `cap`, without uniqueness: what a tier means. Any
/// deduction of a rung will do.
fn tier_climb(cap: Difficulty) -> Climb {
    Climb {
        chains: Chains::Dynamic,
        options: Options { uniqueness: false },
        cap,
        rated_only: false,
        first: true,
        exhausted: None,
        until: None,
    }
}

/// Solves with the rungs `climb` allows; the steps taken and whether they
/// solve the puzzle.
fn solve(model: &Model, givens: &[u8], climb: Climb) -> (Vec<Step>, bool) {
    solve_after(model, givens, &[], climb)
}

/// Replays `known` (steps already found true, each within `climb`), then
/// solves on with the rungs `climb` allows; the steps taken after `known` and
/// whether the puzzle is solved.
fn solve_after(model: &Model, givens: &[u8], known: &[Step], climb: Climb) -> (Vec<Step>, bool) {
    let (steps, grid) = run(model, givens, known, climb);
    (steps, grid.is_solved())
}

/// Where a capped solve stopped: its cap, its steps, whether they solve the
/// puzzle, and every cell's candidates then (a placed cell: its value's bit).
pub(crate) struct Stopped {
    pub cap: Difficulty,
    pub steps: Vec<Step>,
    pub solved: bool,
    pub candidates: Vec<u32>,
}

/// [`solve_within`], with the candidates where it stopped: a generator
/// narrows a uniqueness count with them (the steps are sound, so every
/// solution keeps its candidates).
pub(crate) fn stop_within(model: &Model, givens: &[u8], cap: Difficulty) -> Stopped {
    let (steps, grid) = run(model, givens, &[], tier_climb(cap));
    let candidates = (0..grid.values.len() as u32)
        .map(|c| grid.mask(c))
        .collect();
    Stopped {
        cap,
        steps,
        solved: grid.is_solved(),
        candidates,
    }
}

/// Whether the techniques of tiers up to `cap` solve `givens`, going on
/// where a solve capped at an easier tier stopped (`after`, if any):
/// [`solves_within`] without finding its steps again, nor searching again
/// with its rungs where it found nothing; without dynamic forcing chains
/// unless `dynamic`.
pub(crate) fn solves_after(
    model: &Model,
    givens: &[u8],
    after: Option<&Stopped>,
    cap: Difficulty,
    dynamic: bool,
) -> bool {
    let climb = Climb {
        chains: if dynamic {
            Chains::Dynamic
        } else {
            Chains::Static
        },
        exhausted: after.map(|s| s.cap),
        ..tier_climb(cap)
    };
    let known = after.map_or(&[][..], |s| &s.steps);
    solve_after(model, givens, known, climb).1
}

/// [`solve_after`], ending with the grid where the solve stopped.
fn run(model: &Model, givens: &[u8], known: &[Step], climb: Climb) -> (Vec<Step>, Grid) {
    run_watched(model, givens, known, climb, &mut |_, _, _| {})
}

/// [`run`], showing every rung's outcome at every position to `watch`.
fn run_watched(
    model: &Model,
    givens: &[u8],
    known: &[Step],
    climb: Climb,
    watch: Watch,
) -> (Vec<Step>, Grid) {
    let layout = model.logic_layout();
    if !fits(model, givens) {
        // Not a position of this model: nothing to solve.
        return (Vec::new(), Grid::new(layout, &vec![0; model.cell_count()]));
    }
    let mut grid = Grid::new(layout, givens);
    for step in known {
        apply(model, &mut grid, step);
    }
    let mut steps = Vec::new();
    let mut solved = grid.is_solved();
    let memo = RefCell::new(memo::Memo::default());
    // Only the first search may skip what `known` is known to exhaust.
    let mut now = climb;
    while !solved && grid.check(layout).is_ok() {
        let Some(step) = easiest(layout, &grid, now, &memo, watch) else {
            break;
        };
        now.exhausted = None;
        steps.extend(apply_batch(model, &mut grid, &step));
        solved = grid.is_solved();
    }
    (steps, grid)
}

/// Every instance of `technique` the ladder's finders meet in a position given
/// as placed values and candidate masks (bit `v - 1` for value `v`; placed
/// cells' masks are ignored), without Sudoku Explainer's search limits: every
/// instance the rungs up to the first that finds the technique meet. For
/// technique libraries and tests; uniqueness allowed.
pub fn find(model: &Model, values: &[u8], cand: &[u32], technique: Technique) -> Vec<Step> {
    let layout = model.logic_layout();
    let cand = (0..values.len())
        .map(|c| if values[c] == 0 { cand[c] } else { 0 })
        .collect();
    let grid = Grid::from_parts(layout, values.to_vec(), cand);
    let every = RefCell::new(Vec::new());
    let cx = Ctx {
        layout,
        grid: &grid,
        se_limits: false,
        every: Some(&every),
        memo: None,
        first: false,
        until: None,
    };
    match technique {
        Technique::FullHouse | Technique::HiddenSingle | Technique::NakedSingle => {
            return singles::all(&cx, technique)
        }
        Technique::Claiming => {
            let first = intersections::claiming(&cx);
            every.borrow_mut().extend(first);
        }
        _ => {
            // Rungs after the one that finds the technique cannot add to it.
            for rung in LADDER {
                let first = (rung.find)(&cx);
                every.borrow_mut().extend(first);
                if every.borrow().iter().any(|s| s.technique == technique) {
                    break;
                }
            }
        }
    }
    let mut steps = every.into_inner();
    steps.retain(|s| s.technique == technique);
    steps
}

/// A hint for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// `cell` holds a value that is not the solution's.
    WrongValue {
        /// The cell.
        cell: u32,
    },
    /// `cell`'s pencil marks leave out its value.
    WrongMarks {
        /// The cell.
        cell: u32,
    },
    /// The easiest logical step.
    Step(Step),
    /// The ladder found nothing: the value of the cell with fewest candidates.
    Reveal {
        /// The cell and its value.
        placement: Candidate,
    },
}

/// The next hint for a player whose board holds `values` (one per active cell,
/// 0 = empty; givens included) and, where given, pencil `marks` (a candidate
/// mask per cell, bit `v - 1` for value `v`; 0 = no marks in that cell), on a
/// puzzle whose only solution is `solution`. `None` when the board is solved.
pub fn hint(model: &Model, solution: &[u8], values: &[u8], marks: Option<&[u32]>) -> Option<Hint> {
    if let Some(cell) = (0..values.len()).find(|&c| values[c] != 0 && values[c] != solution[c]) {
        return Some(Hint::WrongValue { cell: cell as u32 });
    }
    let layout = model.logic_layout();
    let mut grid = Grid::new(model.logic_layout(), values);
    if let Some(marks) = marks {
        let bit = |v: u8| crate::mask::bit(u32::from(v));
        if let Some(cell) = (0..values.len())
            .find(|&c| values[c] == 0 && marks[c] != 0 && marks[c] & bit(solution[c]) == 0)
        {
            return Some(Hint::WrongMarks { cell: cell as u32 });
        }
        let cand = (0..values.len())
            .map(|c| match marks[c] {
                0 => grid.cand[c],
                m => grid.cand[c] & m,
            })
            .collect();
        grid = Grid::from_parts(layout, values.to_vec(), cand);
    }
    if grid.is_solved() {
        return None;
    }
    // The easiest tier first: a finned fish teaches more than a short chain
    // Sudoku Explainer would try before it. Uniqueness is safe: the puzzle
    // has one solution. No nested forcing chain: seconds of search for a step
    // nobody learns from; a revealed cell serves better.
    let cx = Ctx::ladder(layout, &grid);
    for tier in [Easy, Medium, Hard, Extreme] {
        let step = LADDER
            .iter()
            .filter(|r| r.tier == tier && !r.when.nested)
            .find_map(|r| (r.find)(&cx));
        if let Some(step) = step {
            return Some(Hint::Step(step));
        }
    }
    let cell = (0..values.len())
        .filter(|&c| values[c] == 0)
        .min_by_key(|&c| grid.cand[c].count_ones())?;
    Some(Hint::Reveal {
        placement: Candidate::new(cell as u32, solution[cell]),
    })
}

#[cfg(test)]
mod tests;
