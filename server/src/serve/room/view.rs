//! What each member sees, and sending it: snapshots, errors, broadcasts. A full
//! outbox drops that member's connection; nobody else waits.

use super::state::{Member, Room};
use super::{encode, Frame, Outgoing};
use protocol::wire::{
    ErrorCode, Mode, PlayerBoard, PlayerView, RoomState, RoomView, ServerMessage,
};
use std::sync::Arc;

impl Room {
    pub(super) fn player_view(&self, i: usize) -> PlayerView {
        let (seat, play) = (&self.seats[i], &self.play.players[i]);
        let filled = if self.settings.mode == Mode::Coop {
            self.play.cells_by(i)
        } else {
            play.board.iter().filter(|&&v| v != 0).count()
        };
        PlayerView {
            id: seat.who.id.clone(),
            name: seat.who.name.clone(),
            filled: filled as u32,
            finished_ms: play.finished_ms,
            mistakes: play.mistakes,
            out: play.out_of_lives,
            left: play.forfeited,
            hints: play.hints,
            ready: seat.ready,
            rematch: seat.rematch_vote,
        }
    }

    /// Whether spectators may see seat `i`'s digits. In a race, only once that
    /// player is done (finished or out) or the game is over: a racer watching
    /// from a second identity must learn nothing but the progress everyone sees.
    pub(super) fn board_shown_to_spectators(&self, i: usize) -> bool {
        self.settings.mode != Mode::Race
            || self.play.phase == RoomState::Finished
            || self.play.players[i].done()
    }

    /// A member's view: the puzzle once play has begun; a player's own board, or
    /// for a spectator every board they may see.
    pub(super) fn view(&self, member: Member) -> RoomView {
        // A paused solo board is hidden: pausing must not give free thinking time.
        let playing = matches!(self.play.phase, RoomState::Playing | RoomState::Finished)
            && self.play.paused_since_ms.is_none();
        let model = self.game.puzzle.model();
        let grid = |values: &[u8]| engine::v1::to_grid(model, values);
        let coop = self.settings.mode == Mode::Coop;
        let (board, spectator, boards) = match member {
            Member::Seat(_) if coop => (
                playing.then(|| grid(&self.play.coop.values)),
                false,
                Vec::new(),
            ),
            Member::Watcher(_) if coop => (
                playing.then(|| grid(&self.play.coop.values)),
                true,
                Vec::new(),
            ),
            Member::Seat(i) => (
                playing.then(|| grid(&self.play.players[i].board)),
                false,
                Vec::new(),
            ),
            Member::Watcher(_) => {
                let boards = if playing {
                    (0..self.seats.len())
                        .filter(|&i| self.board_shown_to_spectators(i))
                        .map(|i| PlayerBoard {
                            player: self.seats[i].who.id.clone(),
                            board: grid(&self.play.players[i].board),
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                (None, true, boards)
            }
        };
        RoomView {
            code: self.code.clone(),
            settings: self.settings.clone(),
            state: self.play.phase,
            host: self.play.host.clone(),
            players: (0..self.seats.len()).map(|j| self.player_view(j)).collect(),
            puzzle: playing.then(|| self.game.public.clone()),
            board,
            start_at: self.play.start_ms,
            auto_start_at: self.quick_start.map(|q| q.at_ms),
            spectator,
            boards,
            seq: self.play.seq,
            paused: self.play.paused_since_ms.is_some(),
            paused_ms: self.play.paused_total_ms as u64,
            ghosts: if playing {
                self.game.ghosts.clone()
            } else {
                Vec::new()
            },
            links: if playing {
                self.game.links.clone()
            } else {
                Vec::new()
            },
            pencil: (coop && playing)
                .then(|| engine::v1::to_marks_grid(model, &self.play.coop.pencil)),
            authors: (coop && playing).then(|| self.authors_grid()),
        }
    }

    pub(super) fn send_snapshot(&mut self, member: Member) {
        let frame = encode(&ServerMessage::Room {
            room: Box::new(self.view(member)),
        });
        self.send_to(member, frame);
    }

    pub(super) fn send_snapshots(&mut self) {
        for i in 0..self.seats.len() {
            self.send_snapshot(Member::Seat(i));
        }
        self.send_spectator_snapshots();
    }

    pub(super) fn send_spectator_snapshots(&mut self) {
        for w in 0..self.watchers.len() {
            self.send_snapshot(Member::Watcher(w));
        }
    }

    /// Co-op: who put each value, laid out as rows x cols ("" for none and in holes).
    fn authors_grid(&self) -> Vec<Vec<String>> {
        let model = self.game.puzzle.model();
        let mut g = vec![vec![String::new(); model.cols() as usize]; model.rows() as usize];
        for (c, author) in self.play.coop.authors.iter().enumerate() {
            let [r, col] = model.coord(c);
            g[r as usize][col as usize] = author.clone().unwrap_or_default();
        }
        g
    }

    pub(super) fn send_error(&mut self, member: Member, code: ErrorCode, message: &str) {
        self.send_refusal(member, code, message, Vec::new());
    }

    /// An error that names the board cells of the refused change (`[row, col]`),
    /// so the client puts them back as they are here.
    pub(super) fn send_refusal(
        &mut self,
        member: Member,
        code: ErrorCode,
        message: &str,
        cells: Vec<[u32; 2]>,
    ) {
        let frame = encode(&ServerMessage::Error {
            code,
            message: message.to_string(),
            cells,
        });
        self.send_to(member, frame);
    }

    /// Queues a frame for a member. A full queue means the client cannot keep up:
    /// its outbox is dropped, which closes its connection (it may come back and
    /// get a fresh snapshot).
    pub(super) fn send_to(&mut self, member: Member, frame: Frame) {
        let (link, who) = match member {
            Member::Seat(i) => {
                let seat = &mut self.seats[i];
                (&mut seat.link, &seat.who)
            }
            Member::Watcher(i) => {
                let watcher = &mut self.watchers[i];
                (&mut watcher.link, &watcher.who)
            }
        };
        if let Some(l) = link {
            if l.out.try_send(Outgoing::Frame(frame)).is_err() {
                tracing::info!(room = %self.code, player = %who.id, "dropping a slow or gone client");
                *link = None;
                if let Member::Seat(i) = member {
                    self.seats[i].away_since = Some(tokio::time::Instant::now());
                }
            }
        }
    }

    /// Sends a frame to every player and spectator.
    pub(super) fn broadcast(&mut self, frame: &Frame) {
        for i in 0..self.seats.len() {
            self.send_to(Member::Seat(i), Arc::clone(frame));
        }
        for w in 0..self.watchers.len() {
            self.send_to(Member::Watcher(w), Arc::clone(frame));
        }
    }
}
