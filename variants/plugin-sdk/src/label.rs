//! What a generated puzzle's label may say: its grade, where the logical
//! solver fits the generation budget, or what a cheaper proof shows where it
//! does not (a 25x25 the hard techniques cannot finish is extreme, whatever
//! its hardest step). A puzzle whose label is not proved is not handed out.

use engine::logic::{self, Grade};
use engine::{Difficulty, Puzzle};
use protocol::PuzzleGrade;

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

/// The verdict on `puzzle`; `kept` is a grade the variant already computed.
pub(crate) fn verdict(puzzle: &Puzzle, kept: Option<Grade>) -> Verdict {
    let (model, givens) = (puzzle.model(), puzzle.givens());
    // Uniqueness techniques allowed (a generated puzzle is unique); no nested
    // forcing chains: generation's tier checks never climb them, so a puzzle
    // they would finish is no puzzle of any offered tier, and on a large grid
    // their search takes far longer than the generation deadline.
    let full = move || {
        kept.unwrap_or_else(|| {
            logic::grade_without_nested_chains(model, givens, logic::Options { uniqueness: true })
        })
    };
    if model.cell_count() <= GRADED_CELLS && model.size() <= GRADED_SIZE {
        return from_grade(&full());
    }
    // Singles settle an easy grid of any size quickly, so its grade is cheap.
    if logic::solves_within(model, givens, Difficulty::Easy) {
        return from_grade(&full());
    }
    if !logic::solves_within(model, givens, Difficulty::Hard) {
        return Verdict {
            tier: Some(Difficulty::Extreme),
            grade: Some(PuzzleGrade {
                tier: Difficulty::Extreme.to_string(),
                rating: String::new(),
                hardest: String::new(),
            }),
        };
    }
    Verdict {
        tier: None,
        grade: None,
    }
}

fn from_grade(g: &Grade) -> Verdict {
    Verdict {
        tier: g.tier,
        grade: g.puzzle_grade(),
    }
}
