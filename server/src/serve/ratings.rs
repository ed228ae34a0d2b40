//! Race ratings: a rating per player and kind (variant, parameters,
//! difficulty), moved after every rated race by the Weng-Lin model
//! (OpenSkill's Bayesian approximation, from the `skillratings` crate) with
//! each racer a team of one, placed by finishing order; racers who did not
//! finish share the last place. Head-to-head it is the crate's `weng_lin`.
//!
//! A rated race is kept (the store's `rated_races`) and the ratings are folded
//! from them at start-up, like the leaderboards from the records.

use dashmap::DashMap;
use protocol::plugin::Params;
use protocol::wire::{RatingChange, RatingRow, ServerMessage};
use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// One racer's place in a rated race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RacePlace {
    /// Player id.
    pub player: String,
    /// Display name at the time.
    pub name: String,
    /// 1 for the winner; racers who did not finish share the place after
    /// the last finisher.
    pub place: u32,
}

/// A finished rated race: who raced, and where each placed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedRace {
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// The room it was raced in.
    pub room: String,
    /// When it ended (ms since the Unix epoch).
    pub at_ms: f64,
    /// Every rated racer (at least two).
    pub places: Vec<RacePlace>,
}

impl RatedRace {
    /// Whether a stored race is one a room could have written: 2 to
    /// [`MAX_PLAYERS`](crate::serve::limit::MAX_PLAYERS) racers, each once,
    /// places from 1 up to their number. A row that is not is refused.
    pub fn check(&self) -> Result<(), String> {
        check_places(
            self.places
                .iter()
                .map(|p| (p.player.as_str(), Some(p.place))),
        )
    }

    /// The key of the ratings it moves.
    pub fn kind_key(&self) -> String {
        super::records::kind_key(&self.variant, &self.params, &self.difficulty)
    }
}

/// Rated races before a rating stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 5;

/// Rows of a ratings leaderboard.
const TOP: usize = 10;

/// Ratings kept in a player's history per kind.
const HISTORY: usize = 30;

/// A model rating as players read it: 1500 for a newcomer (25 x 60).
pub fn shown(rating: &WengLinRating) -> i32 {
    (rating.rating * 60.0).round() as i32
}

/// One player's standing in one kind.
#[derive(Clone, Debug)]
struct Standing {
    name: String,
    rating: WengLinRating,
    games: u32,
    /// Shown ratings after each of the last [`HISTORY`] races, oldest first.
    history: Vec<i32>,
}

impl Standing {
    fn provisional(&self) -> bool {
        self.games < PROVISIONAL_GAMES
    }
}

/// Whether a race's `(player, place)` list is one a room could have written:
/// 2 to [`MAX_PLAYERS`](crate::serve::limit::MAX_PLAYERS) racers, each
/// once, places (where any: `None` did not finish) from 1 up to their number.
pub fn check_places<'a>(
    places: impl ExactSizeIterator<Item = (&'a str, Option<u32>)> + Clone,
) -> Result<(), String> {
    let n = places.len();
    if !(2..=crate::serve::limit::MAX_PLAYERS as usize).contains(&n) {
        return Err(format!("{n} racers"));
    }
    let mut players: Vec<&str> = places.clone().map(|(player, _)| player).collect();
    players.sort_unstable();
    players.dedup();
    if players.len() != n {
        return Err("a racer listed twice".into());
    }
    match places
        .filter_map(|(_, place)| place)
        .find(|&p| p == 0 || p as usize > n)
    {
        Some(p) => Err(format!("place {p} of {n}")),
        None => Ok(()),
    }
}

/// Every player's rating in every kind they raced rated.
#[derive(Debug, Default)]
pub struct Ratings {
    by: DashMap<(String, String), Standing>,
    /// Whether racers who share an address are rated (`--rate-shared-addresses`).
    shared_addresses: bool,
}

impl Ratings {
    /// No ratings yet; racers who share an address are rated against each
    /// other only if `shared_addresses` (by default they are two identities
    /// of one player, or a household: left out of the race's rating).
    pub fn new(shared_addresses: bool) -> Ratings {
        Ratings {
            by: DashMap::new(),
            shared_addresses,
        }
    }

    /// Whether racers who share an address are rated.
    pub fn rates_shared_addresses(&self) -> bool {
        self.shared_addresses
    }

    /// Folds in a stored race (at start-up, or another node's): one no room
    /// could write is logged and not counted.
    pub fn fold(&self, race: &RatedRace) {
        match race.check() {
            Ok(()) => {
                self.apply(race);
            }
            Err(why) => {
                tracing::warn!(room = %race.room, %why, "a stored rated race no room could write; not counted")
            }
        }
    }

    /// Moves the racers' ratings by a race's places; what changed, per racer.
    pub fn apply(&self, race: &RatedRace) -> Vec<RatingChange> {
        let kind = race.kind_key();
        let before: Vec<WengLinRating> = (race.places.iter())
            .map(|p| self.rating(&kind, &p.player))
            .collect();
        let after = rate(&before, &race.places);
        let mut changes = Vec::with_capacity(race.places.len());
        for ((place, old), new) in race.places.iter().zip(&before).zip(after) {
            let mut standing = self
                .by
                .entry((kind.clone(), place.player.clone()))
                .or_insert_with(|| Standing {
                    name: place.name.clone(),
                    rating: *old,
                    games: 0,
                    history: Vec::new(),
                });
            standing.name = place.name.clone();
            standing.rating = new;
            standing.games += 1;
            standing.history.push(shown(&new));
            if standing.history.len() > HISTORY {
                standing.history.remove(0);
            }
            changes.push(RatingChange {
                player: place.player.clone(),
                name: place.name.clone(),
                before: shown(old),
                after: shown(&new),
                provisional: standing.provisional(),
            });
        }
        changes
    }

    /// A player's shown rating of a kind (1500 before their first rated race).
    pub fn shown_of(&self, kind: &str, player: &str) -> i32 {
        shown(&self.rating(kind, player))
    }

    fn rating(&self, kind: &str, player: &str) -> WengLinRating {
        (self.by.get(&(kind.to_string(), player.to_string())))
            .map_or_else(WengLinRating::new, |s| s.rating)
    }

    /// The ratings board of a kind as `me` sees it: the top established
    /// ratings (provisional ones are not ranked), and my own with its history.
    pub fn view(
        &self,
        variant: &str,
        params: &Params,
        difficulty: &str,
        me: &str,
    ) -> ServerMessage {
        let kind = super::records::kind_key(variant, params, difficulty);
        let mut ranked: Vec<(String, Standing)> = (self.by.iter())
            .filter(|e| e.key().0 == kind && !e.value().provisional())
            .map(|e| (e.key().1.clone(), e.value().clone()))
            .collect();
        ranked.sort_by(|a, b| {
            b.1.rating
                .rating
                .total_cmp(&a.1.rating.rating)
                .then(a.0.cmp(&b.0))
        });
        let row = |(i, (player, s)): (usize, &(String, Standing))| RatingRow {
            rank: i as u32 + 1,
            name: s.name.clone(),
            rating: shown(&s.rating),
            games: s.games,
            me: player == me,
        };
        let mine = self.by.get(&(kind.clone(), me.to_string()));
        ServerMessage::Ratings {
            variant: variant.to_string(),
            params: params.clone(),
            difficulty: difficulty.to_string(),
            total: ranked.len() as u32,
            top: ranked.iter().enumerate().take(TOP).map(row).collect(),
            rating: mine.as_ref().map(|s| shown(&s.rating)),
            provisional: mine.as_ref().is_none_or(|s| s.provisional()),
            games: mine.as_ref().map_or(0, |s| s.games),
            history: mine.map(|s| s.history.clone()).unwrap_or_default(),
        }
    }
}

/// New ratings for racers rated `before`, placed as `places` says (each a
/// team of one).
fn rate(before: &[WengLinRating], places: &[RacePlace]) -> Vec<WengLinRating> {
    let teams: Vec<[WengLinRating; 1]> = before.iter().map(|r| [*r]).collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = (teams.iter())
        .zip(places)
        .map(|(t, p)| (&t[..], MultiTeamOutcome::new(p.place as usize)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .map(|team| team.first().copied().unwrap_or_default())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race(places: &[(&str, u32)]) -> RatedRace {
        RatedRace {
            variant: "classic".into(),
            params: Params::new(),
            difficulty: "easy".into(),
            room: "r".into(),
            at_ms: 0.0,
            places: (places.iter())
                .map(|(p, place)| RacePlace {
                    player: (*p).into(),
                    name: p.to_uppercase(),
                    place: *place,
                })
                .collect(),
        }
    }

    #[test]
    fn a_stored_race_no_room_could_write_is_refused() {
        assert_eq!(race(&[("a", 1), ("b", 2)]).check(), Ok(()));
        assert_eq!(race(&[("a", 1), ("b", 2), ("c", 2)]).check(), Ok(()));
        assert!(race(&[("a", 1)]).check().is_err(), "one racer");
        assert!(race(&[("a", 1), ("a", 2)]).check().is_err(), "twice");
        assert!(race(&[("a", 0), ("b", 1)]).check().is_err(), "place 0");
        assert!(
            race(&[("a", 1), ("b", 3)]).check().is_err(),
            "place past the racers"
        );
    }

    #[test]
    fn head_to_head_is_the_crates_published_example() {
        // skillratings' weng_lin example: 42.0 ± 1.3 beats a newcomer ->
        // 42.03 ± 1.30 and 23.91 ± 8.03 (its documented values, to 0.01).
        let before = [
            WengLinRating {
                rating: 42.0,
                uncertainty: 1.3,
            },
            WengLinRating::new(),
        ];
        let after = rate(&before, &race(&[("a", 1), ("b", 2)]).places);
        let hundredths = |x: f64| (x * 100.0).round();
        assert_eq!(hundredths(after[0].rating), 4203.0);
        assert_eq!(hundredths(after[0].uncertainty), 130.0);
        assert_eq!(hundredths(after[1].rating), 2391.0);
        assert_eq!(hundredths(after[1].uncertainty), 803.0);
    }

    #[test]
    fn a_race_moves_winners_up_losers_down_and_ties_share() {
        let ratings = Ratings::default();
        let changes = ratings.apply(&race(&[("a", 1), ("b", 2), ("c", 3), ("d", 3)]));
        let after: Vec<i32> = changes.iter().map(|c| c.after).collect();
        assert!(changes.iter().all(|c| c.before == 1500 && c.provisional));
        assert!(after[0] > 1500 && after[1] > after[2], "{after:?}");
        assert_eq!(after[2], after[3], "a shared last place moves alike");
        assert!(after[3] < 1500);
    }

    #[test]
    fn ratings_are_provisional_until_enough_races_and_only_then_ranked() {
        let ratings = Ratings::default();
        for _ in 0..PROVISIONAL_GAMES - 1 {
            ratings.apply(&race(&[("a", 1), ("b", 2)]));
        }
        let view = |me: &str| ratings.view("classic", &Params::new(), "easy", me);
        let ServerMessage::Ratings {
            total,
            provisional,
            games,
            history,
            ..
        } = view("a")
        else {
            panic!("ratings");
        };
        assert_eq!(
            (total, provisional, games),
            (0, true, PROVISIONAL_GAMES - 1)
        );
        assert_eq!(history.len(), (PROVISIONAL_GAMES - 1) as usize);
        assert!(history.windows(2).all(|w| w[0] < w[1]), "{history:?}");
        ratings.apply(&race(&[("a", 1), ("b", 2)]));
        let ServerMessage::Ratings {
            total,
            top,
            provisional,
            rating,
            ..
        } = view("b")
        else {
            panic!("ratings");
        };
        assert_eq!((total, provisional), (2, false));
        assert_eq!(top[0].name, "A");
        assert!(top[1].me && top[1].rating == rating.unwrap_or_default());
        // Another kind is untouched.
        let other = ratings.view("classic", &Params::new(), "hard", "a");
        assert!(matches!(
            other,
            ServerMessage::Ratings {
                games: 0,
                rating: None,
                ..
            }
        ));
    }
}
