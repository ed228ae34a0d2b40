//! A finished rated race (a quick race, or a race its host marked rated)
//! moves its racers' ratings (see `serve::ratings`):
//! finishers placed by time, the rest sharing the last place; a finish faster
//! than the puzzle's plausible floor takes its racer out of the race (never
//! rated on a scripted solve), so do racers who share an address with another
//! (two identities of one player; unless `--rate-shared-addresses`), and a
//! race of a pasted puzzle is not rated.
//! Every racer in the room hears the changes (`rated`, after `finished`).

use super::state::Room;
use crate::serve::ratings::{RacePlace, RatedRace};
use crate::serve::records::under_floor;
use crate::serve::store::Write;
use protocol::wire::{RoomState, ServerMessage};

impl Room {
    /// Rates the race that just ended, if it is a rated one.
    pub(super) async fn rate_race(&mut self) {
        let Some(race) = self.rated_race() else {
            return;
        };
        if let Err(e) = self.persist(Write::RatedRace(Box::new(race.clone()))).await {
            tracing::error!(room = %self.code, error = %e, "cannot save a rated race; ratings unchanged");
            return;
        }
        let changes = self.ratings.apply(&race);
        self.broadcast(&super::encode(&ServerMessage::Rated { changes }));
    }

    /// The race's places, when it is rated: a rated race of a generated
    /// puzzle with two or more racers left once implausible finishes are out.
    fn rated_race(&self) -> Option<RatedRace> {
        if !self.settings.rated || self.game.full.seed.is_none() {
            return None;
        }
        let finishers = self.play.finishers();
        let plausible = self.plausible_finishers();
        let alone = |i: usize| self.ratings.rates_shared_addresses() || !self.shares_address(i);
        let mut places: Vec<RacePlace> = Vec::new();
        for &i in plausible.iter().filter(|&&i| alone(i)) {
            places.push(self.place(i, places.len() as u32 + 1));
        }
        let last = places.len() as u32 + 1;
        for i in (0..self.seats.len()).filter(|&i| !finishers.contains(&i) && alone(i)) {
            places.push(self.place(i, last));
        }
        if places.len() < 2 {
            return None;
        }
        Some(RatedRace {
            variant: self.settings.variant.clone(),
            params: self.resolved_params(),
            difficulty: self.settings.difficulty.clone(),
            room: self.code.clone(),
            at_ms: crate::serve::clock::now_ms(),
            places,
        })
    }

    /// A waiting quick race's racers' mean rating of its kind (what matching
    /// reads), else none: once under way nobody joins it, and the summary this
    /// feeds is taken after every command, moves included.
    pub(super) fn mean_rating(&self) -> Option<i32> {
        if !self.settings.quick || self.play.phase != RoomState::Waiting || self.seats.is_empty() {
            return None;
        }
        let kind = crate::serve::records::kind_key(
            &self.settings.variant,
            &self.resolved_params(),
            &self.settings.difficulty,
        );
        let sum: i64 = (self.seats.iter())
            .map(|s| i64::from(self.ratings.shown_of(&kind, &s.who.id)))
            .sum();
        Some((sum / self.seats.len() as i64) as i32)
    }

    /// The seats that finished, fastest first, but for finishes faster than
    /// the puzzle's plausible floor (a scripted solve counts as no finish).
    pub(super) fn plausible_finishers(&self) -> Vec<usize> {
        let floor = self.plausible_ms();
        (self.play.finishers().into_iter())
            .filter(|&i| {
                let time = self.play.players[i].finished_ms.unwrap_or_default();
                !under_floor(time, self.play.penalty_ms(i), floor)
            })
            .collect()
    }

    /// Whether another racer of this race connected from seat `seat`'s
    /// address (two identities of one player, as far as the server can tell).
    fn shares_address(&self, seat: usize) -> bool {
        let Some(mine) = self.seats[seat].address else {
            return false;
        };
        (self.seats.iter().enumerate()).any(|(i, s)| i != seat && s.address == Some(mine))
    }

    fn place(&self, seat: usize, place: u32) -> RacePlace {
        RacePlace {
            player: self.seats[seat].who.id.clone(),
            name: self.seats[seat].who.name.clone(),
            place,
        }
    }
}
