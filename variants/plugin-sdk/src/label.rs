//! What a generated puzzle's label may say: its grade, where the logical
//! solver fits the generation budget, or what a cheaper proof shows where it
//! does not (a 25x25 the hard techniques cannot finish is extreme, whatever
//! its hardest step). A puzzle whose label is not proved is not handed out.

use engine::logic::{self, Grade};
use engine::{Difficulty, Puzzle};
use protocol::PuzzleGrade;
use std::time::Instant;

/// Models up to this many cells and values are graded in full: a 16x16 grades
/// in under half a second even at extreme; a 25x25 extreme takes seconds.
const GRADED_CELLS: usize = 400;
/// The most values a fully graded model has (16x16).
const GRADED_SIZE: u32 = 16;

/// The tier proved for a generated puzzle and the grade players are shown.
pub(crate) struct Verdict {
    /// The puzzle's tier, where it is proved.
    pub tier: Option<Difficulty>,
    /// The grade to publish: tier, rating and hardest technique (the last two
    /// empty when only the tier is proved).
    pub grade: Option<PuzzleGrade>,
}

/// The deadline passed before the verdict was proved.
pub(crate) struct Expired;

/// The verdict on `puzzle`; `kept` is a grade the variant already computed.
/// Gives up once `until` has passed: a generated puzzle is graded within
/// the generation's deadline.
pub(crate) fn verdict(
    puzzle: &Puzzle,
    kept: Option<Grade>,
    until: Option<Instant>,
) -> Result<Verdict, Expired> {
    let (model, givens) = (puzzle.model(), puzzle.givens());
    // Uniqueness techniques allowed (a generated puzzle is unique); no nested
    // forcing chains: generation's tier checks never climb them, so a puzzle
    // they would finish is no puzzle of any offered tier, and on a large grid
    // their search takes far longer than the generation deadline.
    let full = move || match kept {
        Some(grade) => Ok(from_grade(&grade)),
        None => {
            let options = logic::Options { uniqueness: true };
            logic::grade_until(model, givens, options, logic::Chains::Dynamic, until)
                .map(|g| from_grade(&g))
                .ok_or(Expired)
        }
    };
    let solves = |cap| logic::solves_within_until(model, givens, cap, until).ok_or(Expired);
    if model.cell_count() <= GRADED_CELLS && model.size() <= GRADED_SIZE {
        return full();
    }
    // Singles settle an easy grid of any size quickly, so its grade is cheap.
    if solves(Difficulty::Easy)? {
        return full();
    }
    if !solves(Difficulty::Hard)? {
        return Ok(Verdict {
            tier: Some(Difficulty::Extreme),
            grade: Some(PuzzleGrade {
                tier: Difficulty::Extreme.to_string(),
                rating: String::new(),
                hardest: String::new(),
            }),
        });
    }
    Ok(Verdict {
        tier: None,
        grade: None,
    })
}

fn from_grade(g: &Grade) -> Verdict {
    Verdict {
        tier: g.tier,
        grade: g.puzzle_grade(),
    }
}
