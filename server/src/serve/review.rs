//! A finished race looked back on: every racer's timeline — each digit with
//! the time it took and the easiest technique that placed it from their board
//! at that moment (`engine::logic::placing`), mistakes, erasures and hints —
//! and where their time went, tier by tier. Built once when the race ends,
//! off the async threads, from the room's log; stored, so that a share link
//! reads it on any node for as long as the data lives.

use crate::serve::event::RoomEvent;
use engine::logic::placing::placing;
use engine::Difficulty;
use protocol::plugin::Params;
use protocol::wire::{RaceReview, ReviewAct, ReviewRacer, ReviewStep, TierTime};
use protocol::PuzzleV1;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the analysis of a race's digits may take before the rest are
/// shown without a technique: a 9x9 race takes a few milliseconds (see the
/// review bench in docs/benchmarks.md); a 25x25 or a Samurai may not finish.
pub const ANALYSIS_BUDGET: Duration = Duration::from_secs(2);

/// A racer of a race to review, as the room knew them at its end.
#[derive(Clone, Debug)]
pub struct Racer {
    /// Player id (kept with the stored review, never shown).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Finishing place (1 for the winner), if they finished.
    pub place: Option<u32>,
    /// Finish time from the start, penalties included, ms.
    pub time_ms: Option<u64>,
    /// Of which penalties, ms.
    pub penalty_ms: u64,
    /// Wrong digits.
    pub mistakes: u32,
    /// Hints taken.
    pub hints: u32,
    /// Left the race.
    pub forfeited: bool,
}

/// Everything a review is made from: the race's puzzle, its racers (in seat
/// order) and its log.
#[derive(Clone, Debug)]
pub struct Race {
    /// The review's id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// The puzzle of the day's date, for a daily race.
    pub daily: Option<String>,
    /// When it ended (ms since the Unix epoch).
    pub at_ms: f64,
    /// The puzzle with its solution, as players are sent it.
    pub puzzle: PuzzleV1,
    /// Its givens on its model, as the engine reads them.
    pub game: engine::Puzzle,
    /// Its solution.
    pub solution: Vec<u8>,
    /// When play began (wall clock, ms since the Unix epoch).
    pub start_ms: f64,
    /// One per seat.
    pub racers: Vec<Racer>,
    /// `(seat, event, wall clock ms)`, in order.
    pub log: Vec<(usize, RoomEvent, f64)>,
}

/// A review as stored: what the players see, and who raced (a daily
/// race's review opens to anyone else only once its day is over).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredReview {
    /// The review.
    pub review: RaceReview,
    /// The racers' player ids.
    pub racers: Vec<String>,
    /// The puzzle of the day's date, for a daily race.
    pub daily: Option<String>,
}

impl StoredReview {
    /// Whether `player` may read it on `today` (UTC, `YYYY-MM-DD`): anyone,
    /// but a daily race's before its day is over, which only its racers may
    /// (the review holds the solution of a puzzle others are still solving).
    pub fn open_to(&self, player: &str, today: &str) -> bool {
        match &self.daily {
            Some(day) if day.as_str() >= today => self.racers.iter().any(|r| r == player),
            _ => true,
        }
    }
}

/// The most recent reviews, kept in memory for the racers who open them
/// right after the race (older ones are read from the store).
#[derive(Debug, Default)]
pub struct Reviews {
    /// Each review, and whether the store holds it too.
    recent: std::sync::Mutex<std::collections::VecDeque<(Arc<StoredReview>, bool)>>,
}

/// How many reviews [`Reviews`] keeps.
const RECENT: usize = 256;

impl Reviews {
    /// Keeps `review` (dropping the oldest beyond [`RECENT`]); `stored` when
    /// the store holds it too.
    pub fn add(&self, review: Arc<StoredReview>, stored: bool) {
        let mut recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        if recent.len() >= RECENT {
            recent.pop_front();
        }
        recent.push_back((review, stored));
    }

    /// A kept review by id.
    pub fn get(&self, id: &str) -> Option<Arc<StoredReview>> {
        let recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        (recent.iter().rev())
            .find(|(r, _)| r.review.id == id)
            .map(|(r, _)| Arc::clone(r))
    }

    /// Lets go of every review the store holds (the server is idle: the next
    /// one asked for is read back); returns how many.
    pub fn forget_stored(&self) -> usize {
        let mut recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        let before = recent.len();
        recent.retain(|(_, stored)| !stored);
        recent.shrink_to_fit();
        before - recent.len()
    }
}

/// The review of `race`, its digits analysed until `until` (those left
/// after it are shown without a technique).
pub fn review(race: &Race, until: Option<Instant>) -> StoredReview {
    let mut racers: Vec<(usize, ReviewRacer)> = race
        .racers
        .iter()
        .enumerate()
        .map(|(seat, r)| (seat, racer(race, seat, r, until)))
        .collect();
    racers.sort_by_key(|(seat, r)| (r.place.is_none(), r.place, *seat));
    StoredReview {
        review: RaceReview {
            id: race.id.clone(),
            variant: race.variant.clone(),
            params: race.params.clone(),
            difficulty: race.difficulty.clone(),
            at_ms: race.at_ms,
            puzzle: race.puzzle.clone(),
            racers: racers.into_iter().map(|(_, r)| r).collect(),
        },
        racers: race.racers.iter().map(|r| r.id.clone()).collect(),
        daily: race.daily.clone(),
    }
}

/// One racer's timeline, replayed from the givens.
fn racer(race: &Race, seat: usize, who: &Racer, until: Option<Instant>) -> ReviewRacer {
    let model = race.game.model();
    // The racer's right digits (and the givens): the position the grader
    // reads, wrong digits left out.
    let mut right = race.game.givens().to_vec();
    let mut steps = Vec::new();
    let mut last_ms = 0;
    for (_, event, at) in race.log.iter().filter(|(s, _, _)| *s == seat) {
        let at_ms = (at - race.start_ms).max(0.0) as u64;
        let mut step = ReviewStep {
            at_ms,
            took_ms: at_ms.saturating_sub(last_ms),
            act: ReviewAct::Hint,
            row: 0,
            col: 0,
            value: 0,
            technique: None,
            tier: None,
        };
        match *event {
            RoomEvent::Value { row, col, value } => {
                let Some(cell) = model.cell_at(row, col) else {
                    continue;
                };
                (step.row, step.col, step.value) = (row, col, value);
                let correct = u32::from(race.solution[cell]) == value;
                step.act = if value == 0 {
                    ReviewAct::Erased
                } else if correct {
                    if let Some(p) = placing(model, &right, cell, until) {
                        step.technique = Some(p.technique.name().to_string());
                        step.tier = Some(p.tier.to_string());
                    }
                    ReviewAct::Placed
                } else {
                    ReviewAct::Mistake
                };
                right[cell] = if correct { value as u8 } else { 0 };
            }
            RoomEvent::Hint { row, col } => (step.row, step.col) = (row, col),
            RoomEvent::Candidates => step.act = ReviewAct::Candidates,
            RoomEvent::Forfeit => break,
            _ => continue,
        }
        last_ms = at_ms;
        steps.push(step);
    }
    steps.shrink_to_fit();
    ReviewRacer {
        name: who.name.clone(),
        place: who.place,
        time_ms: who.time_ms,
        penalty_ms: who.penalty_ms,
        mistakes: who.mistakes,
        hints: who.hints,
        forfeited: who.forfeited,
        by_tier: by_tier(&steps),
        steps,
    }
}

/// The right digits' time by tier, easiest first, then those without one;
/// tiers with no digit left out.
fn by_tier(steps: &[ReviewStep]) -> Vec<TierTime> {
    let tiers = Difficulty::ALL.map(Difficulty::as_str);
    let mut out: Vec<TierTime> = (tiers.iter().chain(&[""]))
        .map(|tier| TierTime {
            tier: tier.to_string(),
            digits: 0,
            ms: 0,
        })
        .collect();
    for s in steps.iter().filter(|s| s.act == ReviewAct::Placed) {
        let at = s
            .tier
            .as_ref()
            .and_then(|t| tiers.iter().position(|x| x == t))
            .unwrap_or(tiers.len());
        out[at].digits += 1;
        out[at].ms += s.took_ms;
    }
    out.retain(|t| t.digits > 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::geometry::classic;
    use engine::text::parse_line;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    fn race(log: Vec<(usize, RoomEvent, f64)>) -> Race {
        let model = Arc::new(classic(3, 3).expect("classic"));
        let givens = parse_line(EASY).expect("line").expect("puzzle").to_vec();
        let puzzle = engine::Puzzle::new(Arc::clone(&model), givens.clone()).expect("puzzle");
        let engine::Solution::Unique(solution) = puzzle.solve() else {
            panic!("a unique puzzle");
        };
        let racer = |id: &str, place| Racer {
            id: id.into(),
            name: id.to_uppercase(),
            place,
            time_ms: place.map(|p| 60_000 * u64::from(p)),
            penalty_ms: 0,
            mistakes: 0,
            hints: 0,
            forfeited: false,
        };
        Race {
            id: "r1".into(),
            variant: "classic".into(),
            params: Params::new(),
            difficulty: "easy".into(),
            daily: None,
            at_ms: 0.0,
            puzzle: engine::v1::to_v1(&puzzle, Some(&solution)),
            game: puzzle,
            solution,
            start_ms: 1000.0,
            racers: vec![racer("ada", None), racer("bob", Some(1))],
            log,
        }
    }

    fn value(seat: usize, cell: usize, value: u8, at: f64) -> (usize, RoomEvent, f64) {
        let (row, col) = ((cell / 9) as u32, (cell % 9) as u32);
        let value = u32::from(value);
        (seat, RoomEvent::Value { row, col, value }, at)
    }

    #[test]
    fn every_act_is_in_the_timeline_with_its_time_and_technique() {
        let base = race(Vec::new());
        let empty: Vec<usize> = (0..81).filter(|&c| base.game.givens()[c] == 0).collect();
        let (a, b) = (empty[0], empty[1]);
        let wrong = base.solution[a] % 9 + 1;
        let race = race(vec![
            value(1, a, wrong, 3000.0),
            value(1, a, 0, 4000.0),
            (1, RoomEvent::Hint { row: 0, col: 0 }, 5000.0),
            value(1, a, base.solution[a], 9000.0),
            value(0, b, base.solution[b], 2000.0),
            (1, RoomEvent::Candidates, 9500.0),
            (0, RoomEvent::Forfeit, 10_000.0),
            value(0, a, base.solution[a], 11_000.0),
        ]);
        let stored = review(&race, None);
        let r = &stored.review;
        assert_eq!(stored.racers, ["ada", "bob"]);
        assert_eq!(r.racers[0].name, "BOB", "the winner first");
        let acts: Vec<_> = r.racers[0]
            .steps
            .iter()
            .map(|s| (s.act, s.at_ms, s.took_ms))
            .collect();
        assert_eq!(
            acts,
            [
                (ReviewAct::Mistake, 2000, 2000),
                (ReviewAct::Erased, 3000, 1000),
                (ReviewAct::Hint, 4000, 1000),
                (ReviewAct::Placed, 8000, 4000),
                (ReviewAct::Candidates, 8500, 500),
            ]
        );
        let placed = &r.racers[0].steps[3];
        assert_eq!(placed.tier.as_deref(), Some("easy"));
        assert!(placed.technique.is_some());
        assert_eq!(
            r.racers[0].steps[0].technique, None,
            "a mistake has no technique"
        );
        assert_eq!(
            r.racers[0].by_tier,
            [TierTime {
                tier: "easy".into(),
                digits: 1,
                ms: 4000
            }]
        );
        assert_eq!(r.racers[1].steps.len(), 1, "nothing after a forfeit");
    }

    #[test]
    fn without_time_digits_have_no_technique_and_count_apart() {
        let base = race(Vec::new());
        let cell = (0..81)
            .find(|&c| base.game.givens()[c] == 0)
            .expect("empty");
        let race = race(vec![value(0, cell, base.solution[cell], 2500.0)]);
        let stored = review(&race, Some(Instant::now()));
        let ada = &stored.review.racers[1];
        assert_eq!(ada.steps[0].technique, None);
        assert_eq!(ada.by_tier[0].tier, "");
        assert_eq!(ada.by_tier[0].ms, 1500);
    }

    #[test]
    fn a_daily_review_opens_to_others_once_its_day_is_over() {
        let mut stored = review(&race(Vec::new()), None);
        assert!(stored.open_to("eve", "2026-11-28"));
        stored.daily = Some("2026-11-28".into());
        assert!(!stored.open_to("eve", "2026-11-28"));
        assert!(stored.open_to("ada", "2026-11-28"));
        assert!(stored.open_to("eve", "2026-11-29"));
    }

    #[test]
    fn idle_lets_go_of_stored_reviews_only() {
        let reviews = Reviews::default();
        let made = |id: &str| {
            let mut race = race(Vec::new());
            race.id = id.into();
            Arc::new(review(&race, None))
        };
        reviews.add(made("stored"), true);
        reviews.add(made("memory-only"), false);
        assert_eq!(reviews.forget_stored(), 1);
        assert!(reviews.get("stored").is_none(), "read back from the store");
        assert!(
            reviews.get("memory-only").is_some(),
            "the only copy of a review the store refused stays"
        );
    }
}
