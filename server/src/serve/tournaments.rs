//! The arena tournaments this node knows (see `tournament` for the rules):
//! created here or heard of from the store (loaded at start-up; on
//! PostgreSQL, other nodes' new tournaments and results arrive by
//! notification), their standings folded from their stored results, and the
//! connections watching each one, pushed a fresh view at every change.

use super::frame::{encode, Frame};
use super::identity::Identity;
use super::tournament::{RaceResult, Tournament, TournamentSpec};
use protocol::wire::{ServerMessage, TournamentState, TournamentSummary, TournamentView};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Where a connection is pushed what it watches: the latest frame wins (a
/// newer view makes an unsent older one moot).
pub type Pushes = Arc<watch::Sender<Option<Frame>>>;

/// How long a finished tournament stays in the list, ms.
const LISTED_AFTER_END_MS: f64 = 3_600_000.0;

/// One watching connection.
#[derive(Debug)]
struct Watcher {
    player: String,
    conn: u64,
    pushes: Pushes,
}

/// A tournament and who watches it.
#[derive(Debug)]
struct Entry {
    tournament: Tournament,
    watchers: Vec<Watcher>,
}

/// Every known tournament.
#[derive(Debug, Default)]
pub struct Tournaments {
    all: Mutex<HashMap<String, Entry>>,
}

impl Tournaments {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.all.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stored tournaments and results (at start-up, or another node's),
    /// folded: known ones and counted rooms change nothing; a row no server
    /// could write is logged and skipped.
    pub fn load(&self, specs: Vec<TournamentSpec>, results: Vec<RaceResult>) {
        for spec in specs {
            match spec.check() {
                Ok(()) => self.add(spec),
                Err(e) => {
                    tracing::warn!(error = %e, "a stored tournament no server could make; skipped")
                }
            }
        }
        for result in results {
            self.count(&result);
        }
    }

    /// Knows `spec` (nothing if known already).
    pub fn add(&self, spec: TournamentSpec) {
        self.lock().entry(spec.id.clone()).or_insert_with(|| Entry {
            tournament: Tournament::new(spec),
            watchers: Vec::new(),
        });
    }

    /// Its spec, if known.
    pub fn spec(&self, id: &str) -> Option<TournamentSpec> {
        self.lock().get(id).map(|e| e.tournament.spec.clone())
    }

    /// Counts a race's result (once per room) and tells the watchers; a
    /// result that does not check is logged and skipped.
    pub fn count(&self, result: &RaceResult) {
        if let Err(e) = result.check() {
            tracing::warn!(error = %e, "a tournament result no room could write; skipped");
            return;
        }
        let mut all = self.lock();
        let Some(entry) = all.get_mut(&result.tournament) else {
            tracing::warn!(tournament = %result.tournament, "a result of an unknown tournament; skipped");
            return;
        };
        if entry.tournament.apply(result) {
            push(entry);
        }
    }

    /// `who` joins tournament `id`'s standings (with no points); its
    /// watchers are told when they are new.
    pub fn join(&self, id: &str, who: &Identity) {
        if let Some(entry) = self.lock().get_mut(id) {
            if entry.tournament.join(&who.id, &who.name) {
                push(entry);
            }
        }
    }

    /// `player`'s connection `conn` watches tournament `id` (and no other):
    /// its view now, if the tournament is known.
    pub fn watch(
        &self,
        id: &str,
        player: &str,
        conn: u64,
        pushes: &Pushes,
    ) -> Option<TournamentView> {
        let mut all = self.lock();
        for entry in all.values_mut() {
            entry
                .watchers
                .retain(|w| w.conn != conn && !w.pushes.is_closed());
        }
        let entry = all.get_mut(id)?;
        entry.watchers.push(Watcher {
            player: player.to_string(),
            conn,
            pushes: Arc::clone(pushes),
        });
        Some(entry.tournament.view(player, super::clock::now_ms()))
    }

    /// The list: running ones (ending soonest first), then scheduled ones
    /// (starting soonest first), then those over within the last hour.
    pub fn list(&self) -> Vec<TournamentSummary> {
        let now = super::clock::now_ms();
        let mut out: Vec<TournamentSummary> = (self.lock().values())
            .map(|e| e.tournament.summary(now))
            .filter(|s| {
                s.state != TournamentState::Finished || now - s.ends_at_ms < LISTED_AFTER_END_MS
            })
            .collect();
        let order = |s: &TournamentSummary| match s.state {
            TournamentState::Running => (0, s.ends_at_ms),
            TournamentState::Scheduled => (1, s.starts_at_ms),
            TournamentState::Finished => (2, -s.ends_at_ms),
        };
        out.sort_by(|a, b| {
            order(a)
                .partial_cmp(&order(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        out
    }
}

/// Sends every live watcher of `entry` its own view (their row included);
/// watchers whose connection closed are dropped.
fn push(entry: &mut Entry) {
    let now = super::clock::now_ms();
    entry.watchers.retain(|w| !w.pushes.is_closed());
    let order = entry.tournament.order();
    for w in &entry.watchers {
        let view = entry.tournament.view_in(&order, &w.player, now);
        let frame = encode(&ServerMessage::Tournament {
            tournament: Box::new(view),
        });
        w.pushes.send_replace(Some(frame));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::tournament::RacerPlace;
    use protocol::plugin::Params;

    fn spec(id: &str, starts_at_ms: f64) -> TournamentSpec {
        TournamentSpec {
            id: id.into(),
            name: id.to_uppercase(),
            variant: "classic".into(),
            params: Params::new(),
            difficulty: "easy".into(),
            host: "h".into(),
            host_name: "Host".into(),
            starts_at_ms,
            minutes: 10,
        }
    }

    #[test]
    fn watchers_get_their_own_view_at_every_result_and_one_tournament_at_a_time() {
        let t = Tournaments::default();
        let now = crate::serve::clock::now_ms();
        t.add(spec("a", now - 1000.0));
        t.add(spec("b", now - 1000.0));
        let (tx, mut rx) = watch::channel(None);
        let pushes = Arc::new(tx);
        assert!(t.watch("nope", "ada", 7, &pushes).is_none());
        assert!(t.watch("a", "ada", 7, &pushes).is_some());
        // Watching b stops a's pushes to this connection.
        assert_eq!(
            t.watch("b", "ada", 7, &pushes).map(|v| v.id),
            Some("b".into())
        );
        let result = |tournament: &str, room: &str| RaceResult {
            tournament: tournament.into(),
            room: room.into(),
            at_ms: now,
            racers: ["ada", "bob"]
                .iter()
                .enumerate()
                .map(|(i, p)| RacerPlace {
                    player: p.to_string(),
                    name: p.to_uppercase(),
                    place: Some(i as u32 + 1),
                })
                .collect(),
        };
        t.count(&result("a", "r1"));
        assert!(!rx.has_changed().unwrap_or(true), "not watching a any more");
        t.count(&result("b", "r2"));
        assert!(rx.has_changed().unwrap_or(false));
        let frame = rx.borrow_and_update().clone().expect("a frame");
        let Ok(ServerMessage::Tournament { tournament }) = rmp_serde::from_slice(&frame) else {
            panic!("a tournament view");
        };
        assert_eq!(tournament.id, "b");
        assert!(tournament
            .standings
            .iter()
            .any(|r| r.me && r.name == "ADA" && r.points == 4));
    }

    #[test]
    fn the_list_puts_running_then_scheduled_then_recently_over_and_bad_rows_are_skipped() {
        let t = Tournaments::default();
        let now = crate::serve::clock::now_ms();
        t.load(
            vec![
                spec("later", now + 3_600_000.0),
                spec("soon", now + 60_000.0),
                spec("running", now - 60_000.0),
                spec("over", now - 700_000.0),
                spec("long-over", now - 10_000_000.0),
                TournamentSpec {
                    minutes: 999,
                    ..spec("corrupt", now)
                },
            ],
            Vec::new(),
        );
        let ids: Vec<String> = t.list().into_iter().map(|s| s.id).collect();
        assert_eq!(ids, ["running", "soon", "later", "over"]);
    }
}
