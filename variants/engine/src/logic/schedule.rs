//! The schedule: which of the ladder's rungs a solve climbs, and in what
//! order. The ladder (`ladder.rs`) says what each rung finds, its tier and its
//! rating; a rung's [`When`] and a solve's [`Climb`] say when it runs.

use crate::difficulty::Difficulty;
use crate::logic::Options;

/// When a rung runs, beyond its tier.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct When {
    /// A dynamic forcing chain: the last resort, and on large grids a search
    /// that can take seconds.
    pub dynamic: bool,
    /// Every deduction it finds, the last rung finds too (its chains are the
    /// last rung's with fewer kinds of links): skipped when any deduction will
    /// do ([`Climb::first`]), where only the rating would tell them apart.
    pub subsumed: bool,
    /// A direct form of a later rung of the same tier (its eliminations
    /// only where they leave a single): skipped when any deduction will do,
    /// where it only finds sooner what that rung, or a naked set of the
    /// complement, finds too.
    pub direct: bool,
    /// A nested forcing chain: climbed only with [`Chains::Nested`].
    pub nested: bool,
    /// Tried first of the extreme tier's rungs when any deduction will do:
    /// the rung that most often finds one, and cheaply (Nishio chains, on
    /// the positions a killer's tier checks meet).
    pub eager: bool,
}

impl When {
    /// No condition beyond the rung's tier.
    pub const ALWAYS: When = When {
        dynamic: false,
        subsumed: false,
        direct: false,
        nested: false,
        eager: false,
    };
}

/// How deep into forcing chains a solve may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Chains {
    /// No dynamic forcing chains (a large grid's grade that must stay quick).
    Static,
    /// Dynamic forcing chains, not nested ones (tier checks, grades on request).
    Dynamic,
    /// Every rung, nested forcing chains included.
    Nested,
}

/// Which rungs a solve climbs.
#[derive(Clone, Copy)]
pub(crate) struct Climb {
    pub options: Options,
    pub cap: Difficulty,
    /// Only Sudoku Explainer's rungs (for ratings and the recorded solution).
    pub rated_only: bool,
    /// How deep into forcing chains it may go.
    pub chains: Chains,
    /// Whether any deduction of a rung will do (`Ctx::first`): the steps
    /// are not recorded for a rating or shown to a player.
    pub first: bool,
    /// Rungs of this tier and below are known to find nothing in the grid
    /// searched: a solve that goes on where one capped at that tier stopped
    /// skips them in its first search (`solves_after`).
    pub exhausted: Option<Difficulty>,
    /// When the solve gives up: no rung is searched after it (the solve
    /// stops unsolved; a caller with a deadline asks [`Climb::expired`]).
    pub until: Option<std::time::Instant>,
}

impl Climb {
    /// Whether the solve's deadline has passed.
    pub fn expired(&self) -> bool {
        crate::deadline_passed(self.until)
    }

    /// Whether a rung of `tier` (relying on uniqueness, rated by Sudoku
    /// Explainer) that runs `when` is climbed.
    pub fn allows(&self, tier: Difficulty, unique: bool, rated: bool, when: When) -> bool {
        (self.options.uniqueness || !unique)
            && tier <= self.cap
            && (rated || !self.rated_only)
            && (self.chains >= Chains::Dynamic || !when.dynamic)
            && (self.chains >= Chains::Nested || !when.nested)
            && !(self.first && self.chains >= Chains::Dynamic && when.subsumed)
            && !(self.first && when.direct)
            && self.exhausted.is_none_or(|t| tier > t)
    }

    /// Which pass a climbed rung runs in (rungs run pass by pass, in the
    /// ladder's order within one): one pass in the ladder's order; when any
    /// deduction will do, the easier tiers' rungs, then the extreme tier's
    /// eager ones, then the rest.
    pub fn pass(&self, tier: Difficulty, when: When) -> u8 {
        match (self.first, tier) {
            (false, _) => 0,
            (true, Difficulty::Extreme) if when.eager => 1,
            (true, Difficulty::Extreme) => 2,
            (true, _) => 0,
        }
    }
}
