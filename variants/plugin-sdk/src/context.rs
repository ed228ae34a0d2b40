//! [`GenerateContext`]: what a variant's [`generate`](crate::Variant::generate)
//! hook gets to build one puzzle — the request, seed-derived RNG streams, the
//! deadline, the declared clue range — and [`GenerateContext::standard`], today's
//! generation on a fixed model, for variants that only need to compose it.

use engine::generate::{generate_in_band, GenerateError as EngineError, Tiering};
use engine::seed::{rng_for, Rng};
use engine::{Difficulty, Generated, Model, PuzzleError};
use protocol::plugin::Params;
use std::sync::Arc;
use std::time::Instant;

/// Why a variant generated no puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The deadline passed: the host tries another seed later.
    Deadline,
    /// Anything else, for the host's logs.
    Failed(String),
}

impl From<EngineError> for GenerateError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Deadline => GenerateError::Deadline,
            EngineError::NoSolution => {
                GenerateError::Failed("the variant's rules admit no solution".into())
            }
        }
    }
}

impl From<PuzzleError> for GenerateError {
    fn from(e: PuzzleError) -> Self {
        GenerateError::Failed(e.to_string())
    }
}

/// One generation request, as a variant's hook sees it.
#[derive(Debug)]
pub struct GenerateContext {
    params: Params,
    difficulty: Difficulty,
    seed: String,
    deadline: Option<Instant>,
    clues: (usize, usize),
    /// A grade the variant computed for the givens it returns (see
    /// [`GenerateContext::keep_grade`]).
    kept_grade: std::cell::RefCell<Option<(Vec<u8>, engine::logic::Grade)>>,
}

impl GenerateContext {
    /// A context for resolved `params`, a `difficulty`, a `seed`, an optional
    /// deadline and the clue range (inclusive) the manifest declares for them.
    pub fn new(
        params: Params,
        difficulty: Difficulty,
        seed: impl Into<String>,
        deadline: Option<Instant>,
        clues: (usize, usize),
    ) -> GenerateContext {
        GenerateContext {
            params,
            difficulty,
            seed: seed.into(),
            deadline,
            clues,
            kept_grade: std::cell::RefCell::new(None),
        }
    }

    /// Hands over the grade the variant already computed for the puzzle with
    /// `givens` it is about to return — [`engine::logic::grade`] with
    /// uniqueness allowed, or a grade equal to it — so the SDK, which reports
    /// every generated puzzle's grade, does not compute it again.
    pub fn keep_grade(&self, givens: &[u8], grade: engine::logic::Grade) {
        *self.kept_grade.borrow_mut() = Some((givens.to_vec(), grade));
    }

    /// The grade kept for exactly these `givens`, if any.
    pub(crate) fn kept_grade(&self, givens: &[u8]) -> Option<engine::logic::Grade> {
        let kept = self.kept_grade.borrow_mut().take()?;
        (kept.0 == givens).then_some(kept.1)
    }

    /// The parameters, resolved against the manifest (every key present, every
    /// value allowed).
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The requested difficulty (a technique tier).
    pub fn difficulty(&self) -> Difficulty {
        self.difficulty
    }

    /// The request's seed string.
    pub fn seed(&self) -> &str {
        &self.seed
    }

    /// An RNG of its own for each `stream` name ("regions", "solution", …),
    /// derived from the seed: a variant that draws its layout from one stream and
    /// its clues from another can change one without disturbing the other.
    pub fn rng(&self, stream: &str) -> Rng {
        rng_for(&format!("{}/{stream}", self.seed))
    }

    /// When the host stops waiting, if it said.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        engine::deadline_passed(self.deadline)
    }

    /// Fails with [`GenerateError::Deadline`] once the deadline has passed: call
    /// it between tries.
    pub fn check_deadline(&self) -> Result<(), GenerateError> {
        if self.expired() {
            Err(GenerateError::Deadline)
        } else {
            Ok(())
        }
    }

    /// `givens`' grade ([`engine::logic::grade`] with uniqueness allowed,
    /// forcing chains as deep as `chains`), within the deadline: a variant
    /// that grades its own candidates calls this, so that a long grade does
    /// not outlast the host's patience.
    pub fn grade(
        &self,
        model: &Model,
        givens: &[u8],
        chains: engine::logic::Chains,
    ) -> Result<engine::logic::Grade, GenerateError> {
        let options = engine::logic::Options { uniqueness: true };
        engine::logic::grade_until(model, givens, options, chains, self.deadline)
            .ok_or(GenerateError::Deadline)
    }

    /// The clue range (inclusive) the manifest declares for this request.
    pub fn clue_range(&self) -> (usize, usize) {
        self.clues
    }

    /// Standard generation on a fixed `model`: a random solution, then clues
    /// removed while the puzzle stays unique, until it needs the requested tier
    /// with a clue count inside [`clue_range`](Self::clue_range). Draws from the
    /// seed itself (not a stream), so variants with a fixed model keep the
    /// puzzles they always had.
    pub fn standard(&self, model: Model) -> Result<Generated, GenerateError> {
        self.standard_with(&Arc::new(model), &mut rng_for(&self.seed), Tiering::Auto)
    }

    /// [`standard`](Self::standard) on a shared model with a given RNG and
    /// tiering: for a variant that builds one model per puzzle, retries with the
    /// same stream, or has measured that tiering a large model is fast enough.
    pub fn standard_with(
        &self,
        model: &Arc<Model>,
        rng: &mut Rng,
        tiering: Tiering,
    ) -> Result<Generated, GenerateError> {
        Ok(generate_in_band(
            model,
            rng,
            self.difficulty,
            self.clues,
            tiering,
            self.deadline,
        )?)
    }
}
