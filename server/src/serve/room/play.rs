//! Moves (race and co-op), pencil marks, cursors, chat and results. Every move is
//! written to the store before anyone hears of it.

use super::state::{Member, Room, Seat};
use super::{encode, Command};
use crate::serve::clock::now_ms;
use crate::serve::event::RoomEvent;
use crate::serve::store::Write;
use crate::serve::text::clean_chat;
use protocol::plugin::{GridRequest, HintResponse};
use protocol::wire::{
    Contribution, CoopChange, ErrorCode, HintPolicy, MistakePolicy, Mode, Rank, RoomState,
    ServerMessage,
};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// How long the plugin has for a hint.
const HINT_DEADLINE: Duration = Duration::from_secs(5);

impl Room {
    /// Checks that `player` may change cell `[row, col]` now; returns the seat and
    /// the cell, or sends the error and returns `None`.
    pub(super) fn playable(&mut self, player: &str, row: u32, col: u32) -> Option<(usize, usize)> {
        let i = self.seat_or_refuse(player, "spectators cannot play")?;
        let me = Member::Seat(i);
        if self.state != RoomState::Playing {
            self.send_error(
                me,
                ErrorCode::WrongState,
                "moves are accepted while playing",
            );
            return None;
        }
        if self.paused_since.is_some() {
            self.send_error(me, ErrorCode::WrongState, "the game is paused");
            return None;
        }
        if self.seats[i].finished_ms.is_some() || self.seats[i].out_of_lives {
            self.send_error(me, ErrorCode::WrongState, "you are no longer playing");
            return None;
        }
        let Some(cell) = self.game.puzzle.model().cell_at(row, col) else {
            self.send_error(
                me,
                ErrorCode::Invalid,
                &format!("[{row},{col}] is not a cell of this puzzle"),
            );
            return None;
        };
        if self.game.puzzle.givens()[cell] != 0 {
            self.send_error(me, ErrorCode::Given, "that cell is a given");
            return None;
        }
        Some((i, cell))
    }

    /// Stores a move; on failure tells the player and returns `false`.
    async fn store_move(&mut self, i: usize, event: RoomEvent) -> bool {
        let write = Write::Event {
            room: self.code.clone(),
            seq: self.seq + 1,
            player: self.seats[i].who.id.clone(),
            event,
            at_ms: now_ms(),
        };
        match self.persist(write).await {
            Ok(()) => {
                self.seq += 1;
                true
            }
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "cannot save a move");
                self.send_error(
                    Member::Seat(i),
                    ErrorCode::Unavailable,
                    "the move could not be saved; try again",
                );
                false
            }
        }
    }

    pub(super) async fn play(&mut self, player: &str, row: u32, col: u32, value: u32) {
        let Some((i, cell)) = self.playable(player, row, col) else {
            return;
        };
        let size = self.game.puzzle.model().size();
        if value > size {
            return self.send_error(
                Member::Seat(i),
                ErrorCode::Invalid,
                &format!("{value} is outside 0..={size}"),
            );
        }
        if !self
            .store_move(i, RoomEvent::Value { row, col, value })
            .await
        {
            return;
        }
        let elapsed = self.elapsed_ms();
        if self.settings.mode == Mode::Coop {
            let author = self.seats[i].who.id.clone();
            self.apply_coop_value(&author, cell, value, elapsed);
            let event = encode(&ServerMessage::CoopEvent {
                seq: self.seq,
                player: author,
                row,
                col,
                change: CoopChange::Value { value },
            });
            self.broadcast(&event);
        } else {
            let hidden = !self.board_shown_to_spectators(i);
            let correct = self.apply_move(i, cell, value, elapsed);
            self.send_to(
                Member::Seat(i),
                encode(&ServerMessage::MoveAccepted {
                    row,
                    col,
                    value,
                    correct,
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
        self.finish_if_done().await;
    }

    /// Race: puts `value` on seat `i`'s board at `elapsed` ms into the game,
    /// counting mistakes and finishing per the policy. Returns the feedback the
    /// policy gives (`None` under `none`).
    pub(super) fn apply_move(
        &mut self,
        i: usize,
        cell: usize,
        value: u32,
        elapsed: u64,
    ) -> Option<bool> {
        self.seats[i].board[cell] = value as u8;
        let right = value == 0 || u32::from(self.game.solution[cell]) == value;
        let correct = match self.settings.mistakes {
            MistakePolicy::None => None,
            MistakePolicy::Penalty { .. } | MistakePolicy::Lives { .. } => Some(right),
        };
        if correct == Some(false) {
            self.seats[i].mistakes += 1;
            if let MistakePolicy::Lives { lives } = self.settings.mistakes {
                self.seats[i].out_of_lives = self.seats[i].mistakes >= lives;
            }
        }
        if self.seats[i].board == self.game.solution {
            let penalty = self.hint_penalty_ms(self.seats[i].hints)
                + match self.settings.mistakes {
                    MistakePolicy::Penalty { seconds } => {
                        u64::from(seconds) * 1000 * u64::from(self.seats[i].mistakes)
                    }
                    _ => 0,
                };
            self.seats[i].finished_ms = Some(elapsed + penalty);
        }
        correct
    }

    /// Co-op: puts `value` on the shared board; solving it finishes every seat.
    pub(super) fn apply_coop_value(&mut self, author: &str, cell: usize, value: u32, elapsed: u64) {
        self.coop.values[cell] = value as u8;
        self.coop.authors[cell] = (value != 0).then(|| author.to_string());
        if self.coop.values == self.game.solution {
            let hints = self.seats.iter().map(|s| s.hints).sum();
            let team = elapsed + self.hint_penalty_ms(hints);
            for seat in &mut self.seats {
                seat.finished_ms = Some(team);
            }
        }
    }

    /// Ends the game once every seat has finished (or is out): results to all.
    async fn finish_if_done(&mut self) {
        if self.state != RoomState::Playing
            || !self
                .seats
                .iter()
                .all(|s| s.finished_ms.is_some() || s.out_of_lives)
        {
            return;
        }
        self.state = RoomState::Finished;
        if let Err(e) = self
            .persist(crate::serve::store::Write::Finish {
                room: self.code.clone(),
            })
            .await
        {
            tracing::error!(room = %self.code, error = %e, "cannot save the end of a room");
        }
        let finished = if self.settings.mode == Mode::Coop {
            let contributions = self
                .seats
                .iter()
                .map(|s| Contribution {
                    player: s.who.id.clone(),
                    name: s.who.name.clone(),
                    cells: self
                        .coop
                        .authors
                        .iter()
                        .filter(|a| a.as_deref() == Some(&s.who.id))
                        .count() as u32,
                })
                .collect();
            ServerMessage::Finished {
                ranks: Vec::new(),
                team_ms: self.seats.first().and_then(|s| s.finished_ms),
                contributions,
            }
        } else {
            ServerMessage::Finished {
                ranks: self.ranks(),
                team_ms: None,
                contributions: Vec::new(),
            }
        };
        self.broadcast(&encode(&finished));
        // Every board may be seen now that the game is over.
        self.send_spectator_snapshots();
    }

    /// Milliseconds of play so far: since the start, minus time paused.
    pub(super) fn elapsed_ms(&self) -> u64 {
        let Some((at, _)) = self.start else {
            return 0;
        };
        let now = Instant::now();
        let paused = self.paused_total
            + self
                .paused_since
                .map_or(Duration::ZERO, |p| now.saturating_duration_since(p));
        now.saturating_duration_since(at)
            .saturating_sub(paused)
            .as_millis() as u64
    }

    /// What `hints` hints add to a time, ms.
    pub(super) fn hint_penalty_ms(&self, hints: u32) -> u64 {
        match self.settings.hints {
            HintPolicy::Off => 0,
            HintPolicy::Penalty { seconds } => u64::from(seconds) * 1000 * u64::from(hints),
        }
    }

    /// Checks that seat `i` may take a hint now; sends the error if not.
    fn may_hint(&mut self, i: usize) -> bool {
        let me = Member::Seat(i);
        let why = if self.settings.hints == HintPolicy::Off {
            "this room plays without hints"
        } else if self.state != RoomState::Playing || self.paused_since.is_some() {
            "hints are given while playing"
        } else if self.seats[i].finished_ms.is_some() || self.seats[i].out_of_lives {
            "you are no longer playing"
        } else {
            return true;
        };
        self.send_error(me, ErrorCode::WrongState, why);
        false
    }

    /// Asks the variant plugin, off the room, for the next step on the player's
    /// board (the team's in co-op); the answer comes back as `HintAnswered`.
    pub(super) fn hint(&mut self, player: &str) {
        let Some(i) = self.seat_or_refuse(player, "spectators cannot take hints") else {
            return;
        };
        if !self.may_hint(i) {
            return;
        }
        if self.seats[i].hint_pending {
            let why = "your last hint is still being worked out";
            return self.send_error(Member::Seat(i), ErrorCode::WrongState, why);
        }
        self.seats[i].hint_pending = true;
        let values = if self.settings.mode == Mode::Coop {
            &self.coop.values
        } else {
            &self.seats[i].board
        };
        let request = GridRequest {
            puzzle: self.game.full.clone(),
            grid: engine::v1::to_grid(self.game.puzzle.model(), values),
        };
        let plugins = Arc::clone(self.generator.plugins());
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
                .map_err(|e| e.to_string());
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
        self.seats[i].hint_pending = false;
        let me = Member::Seat(i);
        if game != self.game_no {
            return self.send_error(me, ErrorCode::WrongState, "that game is over");
        }
        if !self.may_hint(i) {
            return;
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
        if !self
            .store_move(
                i,
                RoomEvent::Hint {
                    row: hint.cell[0],
                    col: hint.cell[1],
                },
            )
            .await
        {
            return;
        }
        self.seats[i].hints += 1;
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

    /// Solo: stops (`pause`) or restarts the clock; a paused board is hidden.
    pub(super) async fn pause(&mut self, player: &str, pause: bool) {
        let Some(i) = self.seat_or_refuse(player, "spectators cannot pause the game") else {
            return;
        };
        let me = Member::Seat(i);
        if self.settings.mode != Mode::Solo {
            return self.send_error(me, ErrorCode::WrongState, "only solo games can pause");
        }
        if self.state != RoomState::Playing || self.paused_since.is_some() == pause {
            let why = if pause { "not running" } else { "not paused" };
            return self.send_error(me, ErrorCode::WrongState, why);
        }
        let event = if pause {
            RoomEvent::Pause
        } else {
            RoomEvent::Resume
        };
        if !self.store_move(i, event).await {
            return;
        }
        let now = Instant::now();
        match self.paused_since.take() {
            Some(began) => self.paused_total += now.saturating_duration_since(began),
            None => self.paused_since = Some(now),
        }
        self.send_snapshots();
    }

    pub(super) async fn pencil(&mut self, player: &str, row: u32, col: u32, marks: u32) {
        let Some((i, cell)) = self.playable(player, row, col) else {
            return;
        };
        if self.settings.mode != Mode::Coop {
            return self.send_error(
                Member::Seat(i),
                ErrorCode::WrongState,
                "shared pencil marks are for co-op rooms",
            );
        }
        if marks & !engine::full_mask(self.game.puzzle.model().size()) != 0 {
            return self.send_error(Member::Seat(i), ErrorCode::Invalid, "a mark is above N");
        }
        if !self
            .store_move(i, RoomEvent::Pencil { row, col, marks })
            .await
        {
            return;
        }
        self.coop.pencil[cell] = marks;
        let event = encode(&ServerMessage::CoopEvent {
            seq: self.seq,
            player: player.to_string(),
            row,
            col,
            change: CoopChange::Pencil { marks },
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
        if self.state != RoomState::Playing {
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

    fn ranks(&self) -> Vec<Rank> {
        let mut done: Vec<&Seat> = self
            .seats
            .iter()
            .filter(|s| s.finished_ms.is_some())
            .collect();
        done.sort_by_key(|s| s.finished_ms);
        done.iter()
            .enumerate()
            .map(|(n, s)| Rank {
                rank: n as u32 + 1,
                player: s.who.id.clone(),
                name: s.who.name.clone(),
                time_ms: s.finished_ms.unwrap_or_default(),
            })
            .collect()
    }
}
