//! Arena tournaments, pure: what one is (its kind, start and length), what a
//! race in it scored, and the standings folded from its results — the same
//! on every node and after a restart, since results are stored and the
//! standings are only ever their fold. Points by place: 1st 4, 2nd 2, any
//! other finish 1, none 0; a player who won their last two races is on fire
//! and the next race's points count double (lichess's arena streak).

use protocol::plugin::Params;
use protocol::wire::{StandingRow, TournamentState, TournamentSummary, TournamentView};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The shortest and longest tournaments, minutes.
pub const MINUTES: std::ops::RangeInclusive<u32> = 10..=60;

/// How far ahead a tournament may be scheduled, minutes.
pub const LATEST_START_MINUTES: u32 = 24 * 60;

/// How long an hourly tournament runs, minutes (from the top of the hour).
pub const HOURLY_MINUTES: u32 = 30;

/// An hour, ms.
const HOUR_MS: f64 = 3_600_000.0;

/// A kind the server holds an arena of every hour
/// (`--hourly-tournament VARIANT:DIFFICULTY`, the variant's default
/// parameters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HourlyKind {
    /// Variant id.
    pub variant: String,
    /// Difficulty.
    pub difficulty: String,
}

impl std::str::FromStr for HourlyKind {
    type Err = String;

    fn from_str(s: &str) -> Result<HourlyKind, String> {
        match s.split_once(':') {
            Some((variant, difficulty)) if !variant.is_empty() && !difficulty.is_empty() => {
                Ok(HourlyKind {
                    variant: variant.to_string(),
                    difficulty: difficulty.to_string(),
                })
            }
            _ => Err(format!(
                "'{s}': expected VARIANT:DIFFICULTY, e.g. classic:easy"
            )),
        }
    }
}

impl HourlyKind {
    /// Its tournament starting at the top of the hour at or after `from_ms`
    /// (and the one after, if `next`), with `params` (the variant's
    /// defaults): the same id on every node and after a restart, so
    /// scheduling it again adds nothing.
    pub fn spec(&self, params: &Params, from_ms: f64, next: bool) -> TournamentSpec {
        let hour = (from_ms / HOUR_MS).floor() + f64::from(u8::from(next));
        let seed = format!("hourly/{}/{}/{hour}", self.variant, self.difficulty);
        TournamentSpec {
            id: stable_id(&seed),
            name: format!("Hourly arena: {}, {}", self.variant, self.difficulty),
            variant: self.variant.clone(),
            params: params.clone(),
            difficulty: self.difficulty.clone(),
            host: String::new(),
            host_name: "Sudoku Arena".into(),
            starts_at_ms: hour * HOUR_MS,
            minutes: HOURLY_MINUTES,
        }
    }
}

/// A 12-character id of letters and digits derived from `seed` (SHA-256: the
/// same on every build).
fn stable_id(seed: &str) -> String {
    use sha2::{Digest, Sha256};
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    (Sha256::digest(seed.as_bytes()).iter().take(12))
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect()
}

/// How many recent places a standing keeps.
const RECENT: usize = 10;

/// How many rows of standings a view shows (and the asking player's own).
const SHOWN: usize = 50;

/// What a host asks for (`create_tournament`), before it is checked.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTournament {
    /// Its name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Variant parameters (missing ones take their defaults).
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// How long it runs, minutes.
    pub minutes: u32,
    /// When it starts, minutes from now.
    pub starts_in_minutes: u32,
}

/// A tournament as created (stored as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSpec {
    /// Its id (12 letters and digits).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// The host's player id.
    pub host: String,
    /// The host's name.
    pub host_name: String,
    /// When it starts (ms since the Unix epoch).
    pub starts_at_ms: f64,
    /// How long it runs, minutes.
    pub minutes: u32,
}

impl TournamentSpec {
    /// When no new race starts.
    pub fn ends_at_ms(&self) -> f64 {
        self.starts_at_ms + f64::from(self.minutes) * 60_000.0
    }

    /// Where it is at `now_ms`.
    pub fn state(&self, now_ms: f64) -> TournamentState {
        if now_ms < self.starts_at_ms {
            TournamentState::Scheduled
        } else if now_ms < self.ends_at_ms() {
            TournamentState::Running
        } else {
            TournamentState::Finished
        }
    }

    /// Whether a stored spec is one this server could have made (a corrupt
    /// row is skipped, never trusted).
    pub fn check(&self) -> Result<(), String> {
        let plausible_time = self.starts_at_ms.is_finite() && self.starts_at_ms > 0.0;
        if !MINUTES.contains(&self.minutes) || !plausible_time || self.id.is_empty() {
            return Err(format!(
                "tournament {:?}: length {} min, start {}",
                self.id, self.minutes, self.starts_at_ms
            ));
        }
        Ok(())
    }
}

/// One racer of a tournament race: their place, if they finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RacerPlace {
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
    /// 1 for the winner; `None`: did not finish.
    pub place: Option<u32>,
}

/// One finished race of a tournament (stored as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceResult {
    /// The tournament's id.
    pub tournament: String,
    /// The room it was raced in.
    pub room: String,
    /// When it ended (ms since the Unix epoch).
    pub at_ms: f64,
    /// Every racer.
    pub racers: Vec<RacerPlace>,
}

impl RaceResult {
    /// Whether a stored result is one a room could have written
    /// ([`check_places`](crate::serve::ratings::check_places)).
    pub fn check(&self) -> Result<(), String> {
        let places = self.racers.iter().map(|r| (r.player.as_str(), r.place));
        crate::serve::ratings::check_places(places).map_err(|why| {
            format!(
                "result of room {} in tournament {}: {why}",
                self.room, self.tournament
            )
        })
    }
}

/// The points a place scores before any streak bonus.
pub fn points_for(place: Option<u32>) -> u32 {
    match place {
        Some(1) => 4,
        Some(2) => 2,
        Some(_) => 1,
        None => 0,
    }
}

/// One player's standing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Display name (the latest).
    pub name: String,
    /// Points so far.
    pub points: u32,
    /// Races played.
    pub races: u32,
    /// Races won.
    pub wins: u32,
    /// Wins in a row, ending with the last race.
    pub streak: u32,
    /// Last places, newest last (0: did not finish).
    pub recent: Vec<u32>,
    /// When they joined (an order among equals).
    pub joined: u64,
}

impl Standing {
    /// Two wins in a row: the next race counts double.
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }
}

/// A tournament and its standings.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// What it is.
    pub spec: TournamentSpec,
    /// By player id.
    pub standings: HashMap<String, Standing>,
    /// Races counted.
    pub races: u32,
    /// The rooms whose results are counted (a result is counted once).
    counted: std::collections::HashSet<String>,
    joins: u64,
}

impl Tournament {
    /// A tournament nobody has joined yet.
    pub fn new(spec: TournamentSpec) -> Tournament {
        Tournament {
            spec,
            standings: HashMap::new(),
            races: 0,
            counted: Default::default(),
            joins: 0,
        }
    }

    /// Adds `player` with no points; whether they were new.
    pub fn join(&mut self, player: &str, name: &str) -> bool {
        if self.standings.contains_key(player) {
            return false;
        }
        self.joins += 1;
        let standing = Standing {
            name: name.to_string(),
            joined: self.joins,
            ..Standing::default()
        };
        self.standings.insert(player.to_string(), standing);
        true
    }

    /// Counts a race (once per room; racers not yet in join); whether it
    /// was new.
    pub fn apply(&mut self, result: &RaceResult) -> bool {
        if !self.counted.insert(result.room.clone()) {
            return false;
        }
        self.races += 1;
        for r in &result.racers {
            self.join(&r.player, &r.name);
            let Some(s) = self.standings.get_mut(&r.player) else {
                continue;
            };
            let bonus = if s.on_fire() { 2 } else { 1 };
            s.name.clone_from(&r.name);
            s.points += points_for(r.place) * bonus;
            s.races += 1;
            if r.place == Some(1) {
                s.wins += 1;
                s.streak += 1;
            } else {
                s.streak = 0;
            }
            s.recent.push(r.place.unwrap_or(0));
            if s.recent.len() > RECENT {
                s.recent.remove(0);
            }
        }
        true
    }

    /// Player ids, leader first: points, then wins, then who joined first.
    pub fn order(&self) -> Vec<&String> {
        let mut ids: Vec<&String> = self.standings.keys().collect();
        ids.sort_by_key(|id| {
            let s = &self.standings[*id];
            (
                std::cmp::Reverse(s.points),
                std::cmp::Reverse(s.wins),
                s.joined,
            )
        });
        ids
    }

    /// The view for `me` at `now_ms`: the top rows and mine.
    pub fn view(&self, me: &str, now_ms: f64) -> TournamentView {
        self.view_in(&self.order(), me, now_ms)
    }

    /// [`Tournament::view`] with the standings' [`Tournament::order`]
    /// worked out already (one sort for every watcher of a change).
    pub fn view_in(&self, order: &[&String], me: &str, now_ms: f64) -> TournamentView {
        let mut rows = Vec::new();
        let mut rank = 0;
        let mut last: Option<(u32, u32)> = None;
        for (i, id) in order.iter().enumerate() {
            let s = &self.standings[*id];
            if last != Some((s.points, s.wins)) {
                rank = i as u32 + 1;
                last = Some((s.points, s.wins));
            }
            if i < SHOWN || id.as_str() == me {
                rows.push(StandingRow {
                    rank,
                    name: s.name.clone(),
                    points: s.points,
                    races: s.races,
                    wins: s.wins,
                    on_fire: s.on_fire(),
                    recent: s.recent.clone(),
                    me: id.as_str() == me,
                });
            }
        }
        TournamentView {
            id: self.spec.id.clone(),
            name: self.spec.name.clone(),
            variant: self.spec.variant.clone(),
            params: self.spec.params.clone(),
            difficulty: self.spec.difficulty.clone(),
            host: self.spec.host_name.clone(),
            starts_at_ms: self.spec.starts_at_ms,
            ends_at_ms: self.spec.ends_at_ms(),
            state: self.spec.state(now_ms),
            races: self.races,
            standings: rows,
            players: self.standings.len() as u32,
        }
    }

    /// Its line in the tournament list at `now_ms`.
    pub fn summary(&self, now_ms: f64) -> TournamentSummary {
        let leader = self
            .order()
            .first()
            .map(|id| &self.standings[*id])
            .filter(|s| s.points > 0)
            .map(|s| s.name.clone());
        TournamentSummary {
            id: self.spec.id.clone(),
            name: self.spec.name.clone(),
            variant: self.spec.variant.clone(),
            params: self.spec.params.clone(),
            difficulty: self.spec.difficulty.clone(),
            starts_at_ms: self.spec.starts_at_ms,
            ends_at_ms: self.spec.ends_at_ms(),
            state: self.spec.state(now_ms),
            players: self.standings.len() as u32,
            leader,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> TournamentSpec {
        TournamentSpec {
            id: "t1".into(),
            name: "Friday arena".into(),
            variant: "classic".into(),
            params: Params::new(),
            difficulty: "easy".into(),
            host: "h".into(),
            host_name: "Host".into(),
            starts_at_ms: 1_000_000.0,
            minutes: 10,
        }
    }

    fn race(room: &str, places: &[(&str, Option<u32>)]) -> RaceResult {
        RaceResult {
            tournament: "t1".into(),
            room: room.into(),
            at_ms: 0.0,
            racers: places
                .iter()
                .map(|(p, place)| RacerPlace {
                    player: p.to_string(),
                    name: p.to_uppercase(),
                    place: *place,
                })
                .collect(),
        }
    }

    #[test]
    fn points_by_place_and_a_streak_doubles_the_third_win_on() {
        let mut t = Tournament::new(spec());
        t.apply(&race(
            "r1",
            &[("ada", Some(1)), ("bob", Some(2)), ("cy", None)],
        ));
        t.apply(&race(
            "r2",
            &[("ada", Some(1)), ("bob", Some(2)), ("cy", Some(3))],
        ));
        // Ada won twice: on fire, her third win counts 8.
        assert!(t.standings["ada"].on_fire());
        t.apply(&race("r3", &[("ada", Some(1)), ("bob", Some(2))]));
        assert_eq!(t.standings["ada"].points, 4 + 4 + 8);
        // On fire, a second place counts 4, and the streak ends.
        t.apply(&race("r4", &[("bob", Some(1)), ("ada", Some(2))]));
        assert_eq!(t.standings["ada"].points, 16 + 4);
        assert!(!t.standings["ada"].on_fire());
        assert_eq!(t.standings["bob"].points, 2 + 2 + 2 + 4);
        assert_eq!(t.standings["cy"].points, 1);
        assert_eq!(t.standings["cy"].recent, [0, 3]);
        // A result counted twice counts once (a replayed notification).
        t.apply(&race("r4", &[("bob", Some(1)), ("ada", Some(2))]));
        assert_eq!(t.races, 4);
    }

    #[test]
    fn the_view_ranks_by_points_then_wins_and_shows_my_row() {
        let mut t = Tournament::new(spec());
        t.join("dee", "Dee");
        t.apply(&race("r1", &[("ada", Some(1)), ("bob", Some(2))]));
        t.apply(&race("r2", &[("bob", Some(1)), ("ada", Some(2))]));
        t.apply(&race("r3", &[("cy", Some(2)), ("eve", Some(2))]));
        let v = t.view("dee", spec().starts_at_ms + 1.0);
        assert_eq!(v.state, TournamentState::Running);
        let rows: Vec<_> = v
            .standings
            .iter()
            .map(|r| (r.rank, r.name.as_str(), r.points))
            .collect();
        assert_eq!(
            rows,
            [
                (1, "ADA", 6),
                (1, "BOB", 6),
                (3, "CY", 2),
                (3, "EVE", 2),
                (5, "Dee", 0)
            ]
        );
        assert!(v.standings.iter().any(|r| r.me && r.name == "Dee"));
        assert_eq!(t.view("x", 0.0).state, TournamentState::Scheduled);
        assert_eq!(t.view("x", 1e12).state, TournamentState::Finished);
        assert_eq!(t.summary(1e12).leader.as_deref(), Some("ADA"));
    }

    #[test]
    fn an_hourly_tournament_has_one_id_per_kind_and_hour() {
        let kind: HourlyKind = "classic:easy".parse().expect("a kind");
        let at = 1_800_000_000_000.0 + 1_234.0;
        let now = kind.spec(&Params::new(), at, false);
        assert_eq!(
            now,
            kind.spec(&Params::new(), at + 60_000.0, false),
            "the same hour"
        );
        assert!(crate::serve::identity::is_link_id(&now.id));
        assert!(now.starts_at_ms <= at && at - now.starts_at_ms < HOUR_MS);
        assert_eq!(now.starts_at_ms % HOUR_MS, 0.0);
        let next = kind.spec(&Params::new(), at, true);
        assert_eq!(next.starts_at_ms, now.starts_at_ms + HOUR_MS);
        assert_ne!(next.id, now.id);
        assert!(next.check().is_ok());
        for bad in ["classic", ":easy", "classic:", ""] {
            assert!(bad.parse::<HourlyKind>().is_err(), "{bad}");
        }
    }

    #[test]
    fn stored_rows_no_server_could_write_are_refused() {
        assert!(spec().check().is_ok());
        let long = TournamentSpec {
            minutes: 600,
            ..spec()
        };
        assert!(long.check().is_err());
        assert!(race("r", &[("ada", Some(1))]).check().is_err());
        assert!(race("r", &[("ada", Some(1)), ("ada", Some(2))])
            .check()
            .is_err());
        assert!(race("r", &[("ada", Some(1)), ("bob", Some(7))])
            .check()
            .is_err());
        assert!(race("r", &[("ada", Some(1)), ("bob", None)])
            .check()
            .is_ok());
    }
}
