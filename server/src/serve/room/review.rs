//! A race that ends gets its review (see `serve::review`): built off the
//! room from its log, stored, kept among the recent ones, and announced to
//! everyone in the room (`review_ready`, after `finished`).

use super::state::Room;
use super::Command;
use crate::serve::review::{self, Race, Racer, ANALYSIS_BUDGET};
use crate::serve::store::Write;
use protocol::wire::{Mode, ServerMessage};
use std::sync::Arc;
use std::time::Instant;

impl Room {
    /// Starts the review of the race that just ended (not of solo or co-op
    /// games).
    pub(super) fn review_race(&self) {
        let Some(race) = self.race_to_review() else {
            return;
        };
        let (store, reviews, game) = (self.store.clone(), Arc::clone(&self.reviews), self.game_no);
        let room = self.code.clone();
        self.in_background(async move {
            let id = race.id.clone();
            let until = Instant::now() + ANALYSIS_BUDGET;
            let made = tokio::task::spawn_blocking(move || {
                crate::allocator::with_cache(|| review::review(&race, Some(until)))
            })
            .await;
            let stored = match made {
                Ok(stored) => Arc::new(stored),
                Err(e) => {
                    let id = Err(format!("the review's analysis failed: {e}"));
                    return Command::ReviewReady { game, id };
                }
            };
            let mut saved = false;
            if let Some(store) = &store {
                let write = Write::RaceReview(Box::new(stored.as_ref().clone()));
                match store.write(write).await {
                    Ok(()) => saved = true,
                    // Still shown from memory on this node, not after a restart.
                    Err(e) => tracing::error!(%room, error = %e, "cannot save a race review"),
                }
            }
            reviews.add(stored, saved);
            Command::ReviewReady { game, id: Ok(id) }
        });
    }

    /// The review is ready: everyone in the room hears of it (if the room
    /// still plays the game it reviews).
    pub(super) fn review_ready(&mut self, game: u64, id: Result<String, String>) {
        match id {
            Ok(id) if game == self.game_no => {
                self.broadcast(&super::encode(&ServerMessage::ReviewReady { id }));
            }
            Ok(_) => {}
            Err(e) => tracing::error!(room = %self.code, error = %e, "no review of the race"),
        }
    }

    /// What the review of the race just ended is made from.
    fn race_to_review(&self) -> Option<Race> {
        if self.settings.mode != Mode::Race {
            return None;
        }
        let start_ms = self.play.start_ms?;
        let finishers = self.play.finishers();
        let racers = (0..self.seats.len())
            .map(|i| {
                let state = &self.play.players[i];
                Racer {
                    id: self.seats[i].who.id.clone(),
                    name: self.seats[i].who.name.clone(),
                    place: super::core::place_among(&finishers, i),
                    time_ms: state.finished_ms,
                    penalty_ms: self.play.penalty_ms(i),
                    mistakes: state.mistakes,
                    hints: state.hints,
                    forfeited: state.forfeited,
                }
            })
            .collect();
        Some(Race {
            id: crate::serve::identity::link_id(),
            variant: self.settings.variant.clone(),
            params: self.resolved_params(),
            difficulty: self.settings.difficulty.clone(),
            daily: self.settings.daily.clone(),
            at_ms: crate::serve::clock::now_ms(),
            puzzle: self.game.full.clone(),
            game: self.game.puzzle.clone(),
            solution: self.game.solution.clone(),
            start_ms,
            racers,
            log: (self.log.iter())
                .map(|e| (e.seat, e.event.clone(), e.at_ms))
                .collect(),
        })
    }
}
