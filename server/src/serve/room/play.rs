//! Moves (race and co-op), pencil marks, hints, pauses, cursors, chat and
//! results. Each request is checked by the rules (`core::Play::decide`), its event
//! written to the store, and only then applied (`core::Play::apply`) and told.

use super::core::{Applied, Play};
use super::state::{Member, Room};
use super::{encode, Command};
use crate::serve::clock::now_ms;
use crate::serve::event::RoomEvent;
use crate::serve::records::{GameRecord, RecordedMove};
use crate::serve::store::Write;
use crate::serve::text::clean_chat;
use protocol::plugin::{GridRequest, HintResponse};
use protocol::wire::{
    CellMarks, Contribution, CoopChange, ErrorCode, HintPolicy, Mode, Rank, RoomState,
    ServerMessage,
};
use std::sync::Arc;
use std::time::Duration;

/// How long the plugin has for a hint.
const HINT_DEADLINE: Duration = Duration::from_secs(5);

impl Room {
    /// The rules' verdict on the event seat `i` asks for; a refusal is sent to
    /// the player (`false`).
    fn decide(&mut self, i: usize, event: &RoomEvent) -> bool {
        match self.play.decide(self.game.puzzle.model(), i, event) {
            Ok(()) => true,
            Err((code, message)) => {
                self.send_refusal(Member::Seat(i), code, &message, event.cells());
                false
            }
        }
    }

    /// Stores seat `i`'s event, then applies it; on a failed write the player is
    /// told and nothing changes (`None`).
    async fn commit(&mut self, i: usize, event: RoomEvent) -> Option<Applied> {
        let at_ms = now_ms();
        let write = Write::Event {
            room: self.code.clone(),
            seq: self.play.seq + 1,
            player: self.seats[i].who.id.clone(),
            event: event.clone(),
            at_ms,
        };
        if let Err(e) = self.persist(write).await {
            tracing::error!(room = %self.code, error = %e, "cannot save a move");
            self.send_refusal(
                Member::Seat(i),
                ErrorCode::Unavailable,
                "the move could not be saved; try again",
                event.cells(),
            );
            return None;
        }
        Some(self.fold(i, event, at_ms))
    }

    pub(super) async fn play(&mut self, player: &str, row: u32, col: u32, value: u32) {
        let Some(i) = self.seat_or_refuse(player, "spectators cannot play") else {
            return;
        };
        let event = RoomEvent::Value { row, col, value };
        if !self.decide(i, &event) {
            return;
        }
        let hidden = !self.board_shown_to_spectators(i);
        let Some(applied) = self.commit(i, event).await else {
            return;
        };
        if self.settings.mode == Mode::Coop {
            let event = encode(&ServerMessage::CoopEvent {
                seq: self.play.seq,
                player: player.to_string(),
                change: CoopChange::Value { row, col, value },
            });
            self.broadcast(&event);
        } else {
            self.send_to(
                Member::Seat(i),
                encode(&ServerMessage::MoveAccepted {
                    row,
                    col,
                    value,
                    correct: applied.correct,
                }),
            );
            if self.board_shown_to_spectators(i) {
                if hidden {
                    // Just finished (or out): spectators get the whole board now.
                    self.send_spectator_snapshots();
                } else {
                    let changed = encode(&ServerMessage::CellChanged {
                        player: player.to_string(),
                        row,
                        col,
                        value,
                    });
                    for w in 0..self.watchers.len() {
                        self.send_to(Member::Watcher(w), Arc::clone(&changed));
                    }
                }
            }
            let progress = encode(&ServerMessage::Progress {
                player: self.player_view(i),
            });
            self.broadcast(&progress);
        }
        if applied.game_over {
            self.finish().await;
        }
    }

    /// Seat `i` forfeits a running race: stored, told to everyone, and the race
    /// ends if nobody else is still racing. Anywhere else, nothing happens.
    pub(super) async fn forfeit(&mut self, i: usize) {
        let model = self.game.puzzle.model();
        if self.play.decide(model, i, &RoomEvent::Forfeit).is_err() {
            return;
        }
        let Some(applied) = self.commit(i, RoomEvent::Forfeit).await else {
            return;
        };
        let progress = encode(&ServerMessage::Progress {
            player: self.player_view(i),
        });
        self.broadcast(&progress);
        if applied.game_over {
            self.finish().await;
        }
    }

    /// The game is over (every seat finished, or is out): stored, and the
    /// results to all.
    async fn finish(&mut self) {
        if let Err(e) = self
            .persist(Write::Finish {
                room: self.code.clone(),
            })
            .await
        {
            tracing::error!(room = %self.code, error = %e, "cannot save the end of a room");
        }
        let finished = if self.settings.mode == Mode::Coop {
            let contributions = (0..self.seats.len())
                .map(|i| Contribution {
                    player: self.seats[i].who.id.clone(),
                    name: self.seats[i].who.name.clone(),
                    cells: self.play.cells_by(i) as u32,
                })
                .collect();
            ServerMessage::Finished {
                ranks: Vec::new(),
                team_ms: self.play.players.first().and_then(|p| p.finished_ms),
                contributions,
            }
        } else {
            self.record_finishers().await;
            ServerMessage::Finished {
                ranks: self.ranks(),
                team_ms: None,
                contributions: Vec::new(),
            }
        };
        self.broadcast(&encode(&finished));
        self.rate_race().await;
        self.count_in_tournament().await;
        self.review_race();
        // Everyone's view turns to finished (co-op players heard of the last move
        // only as an event, so their clocks stop here); spectators may now see
        // every board.
        self.send_snapshots();
    }

    /// Asks the variant plugin, off the room, for the next step on the player's
    /// board (the team's in co-op); the answer comes back as `HintAnswered`.
    pub(super) fn hint(&mut self, player: &str, own_marks: Option<Vec<Vec<u32>>>) {
        let Some(i) = self.seat_or_refuse(player, "spectators cannot take hints") else {
            return;
        };
        if let Some(m) = &own_marks {
            if let Err(e) = engine::v1::grid_marks(self.game.puzzle.model(), m) {
                let why = format!("hint marks: {e}");
                return self.send_error(Member::Seat(i), ErrorCode::Invalid, &why);
            }
        }
        // Any cell will do: the plugin names the real one.
        if !self.decide(i, &RoomEvent::Hint { row: 0, col: 0 }) {
            return;
        }
        if self.seats[i].hint_pending.is_some() {
            let why = "your last hint is still being worked out";
            return self.send_error(Member::Seat(i), ErrorCode::WrongState, why);
        }
        let model = self.game.puzzle.model();
        // Co-op marks are shared and known here; race and solo players send
        // theirs with the request.
        let (values, marks) = if self.settings.mode == Mode::Coop {
            let marks = engine::v1::to_marks_grid(model, &self.play.coop.pencil);
            (&self.play.coop.values, Some(marks))
        } else {
            (&self.play.players[i].board, own_marks)
        };
        let request = GridRequest {
            puzzle: self.game.full.clone(),
            grid: engine::v1::to_grid(model, values),
            marks,
        };
        let asked = fingerprint(&request.grid, request.marks.as_ref());
        if let Some((_, hint)) = self.seats[i]
            .last_hint
            .as_ref()
            .filter(|(f, _)| *f == asked)
        {
            // Nothing changed since that hint: the same one again, free.
            let frame = encode(&ServerMessage::Hint {
                player: player.to_string(),
                hint: hint.clone(),
                penalty_ms: 0,
            });
            return self.send_to(Member::Seat(i), frame);
        }
        self.seats[i].hint_pending = Some(asked);
        let plugins = Arc::clone(self.games.plugins());
        let variant = self.settings.variant.clone();
        let (player, game) = (player.to_string(), self.game_no);
        self.in_background(async move {
            let answer = plugins
                .call_async::<_, HintResponse>(
                    &variant,
                    plugin_abi::op::HINT,
                    &request,
                    HINT_DEADLINE,
                )
                .await
                .map_err(|e| {
                    tracing::warn!(variant = %variant, error = %e, "hint failed");
                    e.for_players()
                });
            Command::HintAnswered {
                player,
                game,
                answer,
            }
        });
    }

    /// The plugin's hint is back: if the player may still use it, it is stored,
    /// sent, and charged the room's hint penalty.
    pub(super) async fn hint_answered(
        &mut self,
        player: &str,
        game: u64,
        answer: Result<HintResponse, String>,
    ) {
        let Some(Member::Seat(i)) = self.member(player) else {
            return;
        };
        let asked = self.seats[i].hint_pending.take();
        let me = Member::Seat(i);
        if game != self.game_no {
            return self.send_error(me, ErrorCode::WrongState, "that game is over");
        }
        let HintPolicy::Penalty { seconds } = self.settings.hints else {
            return;
        };
        let hint = match answer {
            Ok(HintResponse { hint: Some(hint) }) => hint,
            Ok(HintResponse { hint: None }) => {
                return self.send_error(me, ErrorCode::WrongState, "nothing is left to hint");
            }
            Err(e) => return self.send_error(me, ErrorCode::Plugin, &e),
        };
        let event = RoomEvent::Hint {
            row: hint.cell[0],
            col: hint.cell[1],
        };
        // The game may have moved on while the plugin worked.
        if !self.decide(i, &event) {
            return;
        }
        if self.commit(i, event).await.is_none() {
            return;
        }
        self.seats[i].last_hint = asked.map(|f| (f, hint.clone()));
        let frame = encode(&ServerMessage::Hint {
            player: player.to_string(),
            hint,
            penalty_ms: u64::from(seconds) * 1000,
        });
        if self.settings.mode == Mode::Coop {
            self.broadcast(&frame);
        } else {
            self.send_to(me, frame);
        }
        let progress = encode(&ServerMessage::Progress {
            player: self.player_view(i),
        });
        self.broadcast(&progress);
    }

    /// Race: every candidate filled in, charged as a hint: stored, then the
    /// player is told to fill them and everyone sees the hint count.
    pub(super) async fn fill_candidates(&mut self, player: &str) {
        let Some(i) = self.seat_or_refuse(player, "spectators have no marks") else {
            return;
        };
        if !self.decide(i, &RoomEvent::Candidates)
            || self.commit(i, RoomEvent::Candidates).await.is_none()
        {
            return;
        }
        let penalty_ms = self.play.hint_penalty_ms(1);
        self.send_to(
            Member::Seat(i),
            encode(&ServerMessage::CandidatesFilled { penalty_ms }),
        );
        let progress = encode(&ServerMessage::Progress {
            player: self.player_view(i),
        });
        self.broadcast(&progress);
    }

    /// Solo: stops (`pause`) or restarts the clock; a paused board is hidden.
    pub(super) async fn pause(&mut self, player: &str, pause: bool) {
        let Some(i) = self.seat_or_refuse(player, "spectators cannot pause the game") else {
            return;
        };
        let event = if pause {
            RoomEvent::Pause
        } else {
            RoomEvent::Resume
        };
        if !self.decide(i, &event) {
            return;
        }
        if self.commit(i, event).await.is_some() {
            self.send_snapshots();
        }
    }

    /// Co-op: pencil marks of one or more cells, all or none, as one event.
    pub(super) async fn pencil(&mut self, player: &str, cells: Vec<CellMarks>) {
        let Some(i) = self.seat_or_refuse(player, "spectators cannot play") else {
            return;
        };
        let event = RoomEvent::Marks {
            cells: cells.clone(),
        };
        if !self.decide(i, &event) {
            return;
        }
        if self.commit(i, event).await.is_none() {
            return;
        }
        let event = encode(&ServerMessage::CoopEvent {
            seq: self.play.seq,
            player: player.to_string(),
            change: CoopChange::Pencil { cells },
        });
        self.broadcast(&event);
    }

    pub(super) fn cursor(&mut self, player: &str, row: u32, col: u32) {
        let Some(i) = self.seat_or_refuse(player, "spectators have no cursor") else {
            return;
        };
        if self.settings.mode != Mode::Coop {
            return self.send_error(
                Member::Seat(i),
                ErrorCode::WrongState,
                "cursors are shared in co-op rooms only",
            );
        }
        if self.play.phase != RoomState::Playing {
            return self.send_error(
                Member::Seat(i),
                ErrorCode::WrongState,
                "cursors are shared while playing",
            );
        }
        if self.game.puzzle.model().cell_at(row, col).is_none() {
            return self.send_error(
                Member::Seat(i),
                ErrorCode::Invalid,
                "not a cell of this puzzle",
            );
        }
        let frame = encode(&ServerMessage::Cursor {
            player: player.to_string(),
            row,
            col,
        });
        for j in 0..self.seats.len() {
            if j != i {
                self.send_to(Member::Seat(j), Arc::clone(&frame));
            }
        }
    }

    pub(super) fn chat(&mut self, player: &str, text: String) {
        let Some(member) = self.member(player) else {
            return;
        };
        let text = match clean_chat(&text) {
            Ok(text) => text,
            Err(why) => return self.send_error(member, ErrorCode::Invalid, &why),
        };
        let (who, bucket) = match member {
            Member::Seat(i) => (self.seats[i].who.clone(), &mut self.seats[i].chat),
            Member::Watcher(i) => (self.watchers[i].who.clone(), &mut self.watchers[i].chat),
        };
        if !bucket.take(std::time::Instant::now()) {
            return self.send_error(
                member,
                ErrorCode::RateLimited,
                "chat is limited to one line every two seconds",
            );
        }
        let line = encode(&ServerMessage::Chat {
            from: who.id,
            name: who.name,
            text,
            at: now_ms(),
        });
        self.broadcast(&line);
    }

    /// Records every finisher's game (race and solo) that replays to the same
    /// finish: the move log, applied again from the givens by the same rules,
    /// must solve the puzzle at the time the server measured. Then it goes on
    /// the leaderboards.
    async fn record_finishers(&mut self) {
        // Only puzzles generated here (they carry their seed) count: a pasted one
        // could be practised beforehand.
        if self.game.full.seed.is_none() {
            return;
        }
        for i in self.play.finishers() {
            let Some(record) = self.verified_record(i) else {
                tracing::error!(room = %self.code, seat = i, "a finish that does not replay; not recorded");
                continue;
            };
            if let Err(e) = self.persist(Write::Record(Box::new(record.clone()))).await {
                tracing::error!(room = %self.code, error = %e, "cannot save a game record");
                continue;
            }
            self.boards.add(&record);
        }
    }

    /// Seat `i`'s finished game as a record, if replaying the game's log gives
    /// the same finish.
    fn verified_record(&self, i: usize) -> Option<GameRecord> {
        let start_ms = self.play.start_ms?;
        let mut again = Play::new(
            &self.settings,
            self.game.puzzle.givens(),
            &self.game.solution,
        );
        for seat in &self.seats {
            again.seat(seat.who.id.clone());
        }
        again.start(start_ms);
        again.begin();
        let model = self.game.puzzle.model();
        for e in &self.log {
            again.apply(model, e.seat, &e.event, e.at_ms);
        }
        let (live, replayed) = (&self.play.players[i], again.players.get(i)?);
        let time_ms = live.finished_ms?;
        if replayed.board != self.game.solution || replayed.finished_ms != Some(time_ms) {
            return None;
        }
        let moves = self
            .log
            .iter()
            .filter(|e| e.seat == i)
            .filter_map(|e| match e.event {
                RoomEvent::Value { row, col, value } => Some(RecordedMove {
                    at_ms: (e.at_ms - start_ms).max(0.0) as u64,
                    row,
                    col,
                    value,
                }),
                _ => None,
            })
            .collect();
        Some(GameRecord {
            player: self.seats[i].who.id.clone(),
            name: self.seats[i].who.name.clone(),
            variant: self.settings.variant.clone(),
            params: self.resolved_params(),
            difficulty: self.settings.difficulty.clone(),
            daily: self.settings.daily.clone(),
            mode: self.settings.mode,
            time_ms,
            penalty_ms: self.play.penalty_ms(i),
            mistakes: live.mistakes,
            hints: live.hints,
            at_ms: now_ms(),
            room: self.code.clone(),
            moves,
            plausible_ms: self.plausible_ms(),
        })
    }

    fn ranks(&self) -> Vec<Rank> {
        self.play
            .finishers()
            .into_iter()
            .enumerate()
            .map(|(n, i)| Rank {
                rank: n as u32 + 1,
                player: self.seats[i].who.id.clone(),
                name: self.seats[i].who.name.clone(),
                time_ms: self.play.players[i].finished_ms.unwrap_or_default(),
            })
            .collect()
    }
}

/// A fingerprint of the board (and marks) a hint is asked for: the same
/// fingerprint, the same hint.
fn fingerprint(grid: &[Vec<u32>], marks: Option<&Vec<Vec<u32>>>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    grid.hash(&mut h);
    marks.hash(&mut h);
    h.finish()
}
