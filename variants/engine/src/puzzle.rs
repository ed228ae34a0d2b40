//! A [`Puzzle`]: a shared [`Model`] plus givens, and the solving operations on it.

use crate::bits::{BitSearch, BitTables};
use crate::error::PuzzleError;
use crate::fast9::Board9;
use crate::general::General;
use crate::mask::bit;
use crate::model::Model;
use std::fmt;
use std::sync::Arc;

/// A model with givens: one value per active cell, 0 = empty.
#[derive(Clone, Debug)]
pub struct Puzzle {
    model: Arc<Model>,
    givens: Vec<u8>,
}

/// The result of counting solutions up to a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found; equal to `limit` means "at least that many".
    pub solutions: usize,
    /// The limit the count stopped at.
    pub limit: usize,
    /// The first solution found, one value per active cell.
    pub first: Option<Vec<u8>>,
    /// The search gave up on its node budget (only with a budget): `solutions` is
    /// then a lower bound.
    pub gave_up: bool,
}

impl Count {
    /// Whether the puzzle has exactly one solution (needs `limit >= 2`).
    pub fn is_unique(&self) -> bool {
        self.solutions == 1 && self.limit >= 2
    }
}

impl fmt::Display for Count {
    /// `0`, `1`, … or `K+` when the limit was reached.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.solutions >= self.limit {
            write!(f, "{}+", self.limit)
        } else {
            write!(f, "{}", self.solutions)
        }
    }
}

/// What solving a puzzle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Vec<u8>),
    /// Two or more; one of them.
    Several(Vec<u8>),
}

impl Puzzle {
    /// A puzzle on `model` with `givens` (one per active cell). Rejects a wrong
    /// length, a value above N, and givens that break a house, pair or cage.
    pub fn new(model: Arc<Model>, givens: Vec<u8>) -> Result<Puzzle, PuzzleError> {
        if givens.len() != model.cell_count() {
            return Err(PuzzleError::new(format!(
                "{} givens for {} active cells",
                givens.len(),
                model.cell_count()
            )));
        }
        if let Some((i, &g)) = givens
            .iter()
            .enumerate()
            .find(|(_, &g)| u32::from(g) > model.size())
        {
            let [r, c] = model.coord(i);
            return Err(PuzzleError::new(format!(
                "given {g} at [{r},{c}] is outside 1..={}",
                model.size()
            )));
        }
        if let Some(problem) = crate::check::first_conflict(&model, &givens, false) {
            return Err(PuzzleError::new(format!(
                "givens contradict the rules: {problem}"
            )));
        }
        Ok(Puzzle { model, givens })
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The shared model.
    pub fn model_arc(&self) -> &Arc<Model> {
        &self.model
    }

    /// The givens, one per active cell (0 = empty).
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }

    /// The number of givens.
    pub fn clue_count(&self) -> usize {
        self.givens.iter().filter(|&&g| g != 0).count()
    }

    /// Counts solutions, stopping at `limit` (use 2 to test uniqueness), and keeps
    /// the first solution found.
    pub fn count(&self, limit: usize) -> Count {
        self.query(Query::new(limit))
    }

    /// The number of solutions up to `limit`, without keeping any: the quickest
    /// uniqueness check (`solution_count(2) == 1`).
    pub fn solution_count(&self, limit: usize) -> usize {
        self.solution_count_on(SolverPath::Auto, limit)
    }

    /// Counts like [`Puzzle::count`] but explores at most `nodes` branch points;
    /// if it runs out, `gave_up` is set and `solutions` is a lower bound. (The 9x9
    /// solver is fast enough to always finish.)
    pub fn count_within(&self, limit: usize, nodes: usize) -> Count {
        self.query(Query {
            budget: Some(nodes),
            ..Query::new(limit)
        })
    }

    /// Solves: no solution, the unique one, or one of several.
    pub fn solve(&self) -> Solution {
        let c = self.count(2);
        match (c.solutions, c.first) {
            (0, _) | (_, None) => Solution::None,
            (1, Some(s)) => Solution::Unique(s),
            (_, Some(s)) => Solution::Several(s),
        }
    }

    /// The first solution the search meets, without looking for a second
    /// (`None`: no solution). Half the work of [`Puzzle::solve`] on a unique
    /// puzzle; says nothing about uniqueness.
    pub fn first_solution(&self) -> Option<Vec<u8>> {
        self.count(1).first
    }

    /// The candidates (value bitmasks, value `v` = bit `v-1`) of every cell after
    /// constraint propagation, or `None` if propagation finds a contradiction.
    pub fn propagate(&self) -> Option<Vec<u32>> {
        let mut g = General::new(&self.model.compiled);
        let mut cand = g.start(&self.givens)?;
        g.propagate(&mut cand).then_some(cand)
    }

    /// Whether the puzzle has a solution in which `cell` does not hold `value`.
    /// With a unique solution holding `value` there, this says whether removing
    /// that clue would break uniqueness.
    pub fn has_solution_without(&self, cell: usize, value: u8) -> bool {
        self.query(Query::without(cell, value)).solutions > 0
    }

    /// A solution other than `first` (one value per active cell), found within
    /// about `nodes` branch points: for each empty cell in turn, a solution
    /// without `first`'s value there (each search may spend a quarter of the
    /// budget; after four run out, it stops). `None`: `first` is the only one,
    /// or the budget ran out. What a setter is shown of an ambiguous puzzle.
    pub fn other_solution(&self, first: &[u8], nodes: usize) -> Option<Vec<u8>> {
        let mut ran_out = 0;
        for (cell, (&given, &value)) in self.givens.iter().zip(first).enumerate() {
            if given != 0 || value == 0 {
                continue;
            }
            let count = self.query(Query {
                forbid: Some((cell, value)),
                budget: Some((nodes / 4).max(1)),
                ..Query::new(1)
            });
            if count.first.is_some() {
                return count.first;
            }
            ran_out += usize::from(count.gave_up);
            if ran_out == 4 {
                break;
            }
        }
        None
    }

    fn query(&self, query: Query) -> Count {
        count_givens(&self.model, &self.givens, query)
    }

    /// Counts with a chosen solver (benchmarks and tests compare them). A path
    /// that cannot take this model (the 9x9 path on another model, the bitboard
    /// path beyond 128 cells) falls back to the cell-by-cell solver.
    pub fn count_on(&self, path: SolverPath, limit: usize) -> Count {
        self.query(Query {
            path,
            ..Query::new(limit)
        })
    }

    /// [`Puzzle::solution_count`] with a chosen solver: counts without keeping a
    /// solution.
    pub fn solution_count_on(&self, path: SolverPath, limit: usize) -> usize {
        self.query(Query {
            path,
            keep_first: false,
            ..Query::new(limit)
        })
        .solutions
    }
}

/// Which solver counts a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverPath {
    /// The fastest that applies: 9x9 for classic 9x9; bitboard for other models of
    /// up to 128 cells without cages; cells otherwise.
    Auto,
    /// The specialised classic 9x9 band solver.
    Classic9,
    /// The general bitboard solver (models of up to 128 cells).
    Bitboard,
    /// The general cell-by-cell solver (any model).
    Cells,
}

/// What a count asks: how many solutions at most, and what may vary around it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query {
    /// Stop at this many solutions.
    pub limit: usize,
    /// One value forbidden in one cell (cell index, value 1..=N).
    pub forbid: Option<(usize, u8)>,
    /// At most this many branch points (`gave_up` when they run out).
    pub budget: Option<usize>,
    /// The solver.
    pub path: SolverPath,
    /// Whether to keep the first solution found.
    pub keep_first: bool,
}

impl Query {
    /// Count to `limit` on the fastest solver, keeping the first solution.
    pub fn new(limit: usize) -> Query {
        Query {
            limit,
            forbid: None,
            budget: None,
            path: SolverPath::Auto,
            keep_first: true,
        }
    }

    /// Is there any solution with `value` not in `cell`? (Counts to 1 and keeps
    /// no solution.)
    pub fn without(cell: usize, value: u8) -> Query {
        Query {
            forbid: Some((cell, value)),
            keep_first: false,
            ..Query::new(1)
        }
    }
}

/// Counts the solutions of `givens` on `model` as `query` asks.
pub(crate) fn count_givens(model: &Model, givens: &[u8], query: Query) -> Count {
    let Query {
        limit,
        forbid,
        budget,
        path,
        keep_first,
    } = query;
    let none = Count {
        solutions: 0,
        limit,
        first: None,
        gave_up: false,
    };
    let found = match path.pick(model) {
        Solver::Classic9 => {
            let mut grid = [0u8; 81];
            grid.copy_from_slice(givens);
            let Some(mut board) = Board9::new(&grid) else {
                return none;
            };
            if let Some((cell, value)) = forbid {
                board.forbid(cell, value);
            }
            let found = board.count(limit, keep_first);
            return Count {
                solutions: found.count,
                limit,
                first: found.first.map(|g| g.to_vec()),
                gave_up: false,
            };
        }
        Solver::Bitboard(tables) => {
            let mut s = BitSearch::new(tables);
            s.set_keep_first(keep_first);
            if let Some(nodes) = budget {
                s.set_budget(nodes);
            }
            s.count(givens, forbid, limit, None)
        }
        Solver::Cells => {
            let mut g = General::new(&model.compiled);
            let Some(mut cand) = g.start(givens) else {
                return none;
            };
            if let Some((cell, value)) = forbid {
                cand[cell] &= !bit(u32::from(value));
            }
            if !g.propagate(&mut cand) {
                return none;
            }
            if let Some(nodes) = budget {
                g.set_budget(nodes);
            }
            g.set_keep_first(keep_first);
            g.search(cand, limit, None)
        }
    };
    Count {
        solutions: found.count,
        limit,
        first: found.first,
        gave_up: found.gave_up,
    }
}

/// The solver one query runs on: chosen in one place for counting, uniqueness
/// checks and random filling alike (see [`SolverPath::pick`]).
pub(crate) enum Solver<'m> {
    /// The classic 9x9 band solver.
    Classic9,
    /// The bitboard solver, with the model's tables.
    Bitboard(&'m BitTables),
    /// The cell-by-cell solver.
    Cells,
}

impl SolverPath {
    /// The solver this path means on `model`. `Auto`: the 9x9 band solver for
    /// classic 9x9; the bitboard for other models of up to 128 cells without
    /// cages (cage reasoning works on per-cell masks, which the cell solver keeps
    /// natively: on killer puzzles it is the faster of the two, see
    /// docs/benchmarks.md); cells otherwise. A path that cannot take the model
    /// falls back to cells.
    pub(crate) fn pick(self, model: &Model) -> Solver<'_> {
        let classic9 =
            model.is_classic9() && matches!(self, SolverPath::Auto | SolverPath::Classic9);
        if classic9 {
            return Solver::Classic9;
        }
        let bitboard = match self {
            SolverPath::Auto => model.cages().is_empty(),
            SolverPath::Bitboard => true,
            SolverPath::Classic9 | SolverPath::Cells => false,
        };
        match model.bits() {
            Some(tables) if bitboard => Solver::Bitboard(tables),
            _ => Solver::Cells,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;

    #[test]
    fn an_ambiguous_puzzle_shows_a_second_solution_and_a_unique_one_none() {
        for (boxes, cells) in [((3, 3), 81), ((2, 3), 36)] {
            let model = Arc::new(classic(boxes.0, boxes.1).expect("a classic model"));
            let mut givens = vec![0u8; cells];
            let open = Puzzle::new(Arc::clone(&model), givens.clone()).expect("a puzzle");
            let first = open.first_solution().expect("solvable");
            let other = open.other_solution(&first, 10_000).expect("another");
            assert_ne!(other, first);
            assert_eq!(
                Puzzle::new(Arc::clone(&model), other.clone())
                    .map(|p| p.count(2).solutions)
                    .ok(),
                Some(1)
            );
            // Every clue but the first: still unique, so no other solution.
            givens.copy_from_slice(&first);
            givens[0] = 0;
            let full = Puzzle::new(model, givens).expect("a puzzle");
            assert_eq!(full.other_solution(&first, 10_000), None);
        }
    }
}
