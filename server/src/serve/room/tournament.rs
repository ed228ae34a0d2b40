//! A finished tournament race (see `serve::tournament`) is stored as its
//! result — every racer's place, a finish faster than the puzzle's plausible
//! floor counted as no finish — and counted in the tournament's standings,
//! which its watchers are then shown.

use super::state::Room;
use crate::serve::store::Write;
use crate::serve::tournament::{RaceResult, RacerPlace};

impl Room {
    /// Counts the race that just ended in its tournament, if it is in one.
    pub(super) async fn count_in_tournament(&mut self) {
        let Some(result) = self.tournament_result() else {
            return;
        };
        if let Err(e) = self
            .persist(Write::TournamentResult(Box::new(result.clone())))
            .await
        {
            tracing::error!(room = %self.code, error = %e, "cannot save a tournament race's result; not counted");
            return;
        }
        self.tournaments.count(&result);
    }

    /// The race's result, when it belongs to a tournament and had two racers
    /// or more.
    fn tournament_result(&self) -> Option<RaceResult> {
        let tournament = self.settings.tournament.clone()?;
        if self.seats.len() < 2 {
            return None;
        }
        let finishers = self.plausible_finishers();
        let racers = (0..self.seats.len())
            .map(|i| RacerPlace {
                player: self.seats[i].who.id.clone(),
                name: self.seats[i].who.name.clone(),
                place: super::core::place_among(&finishers, i),
            })
            .collect();
        Some(RaceResult {
            tournament,
            room: self.code.clone(),
            at_ms: crate::serve::clock::now_ms(),
            racers,
        })
    }
}
