//! One room = one task (an actor) that owns its state: seats, boards, the clock.
//! Connections talk to it over a bounded channel; it answers through each
//! player's bounded outbox. No lock is held across an `.await`; broadcast frames
//! are encoded once and shared.

use super::clock::now_ms;
use super::limit::Bucket;
use super::session::Identity;
use engine::Puzzle;
use protocol::wire::{
    Contribution, CoopChange, ErrorCode, MistakePolicy, Mode, PlayerBoard, PlayerView, Rank,
    RoomSettings, RoomState, RoomSummary, RoomView, ServerMessage,
};
use protocol::PuzzleV1;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// An encoded server message, shared by every recipient.
pub type Frame = Arc<[u8]>;

/// A player's queue of frames to send.
pub type Outbox = mpsc::Sender<Frame>;

/// A request failure: code and message.
pub type Failure = (ErrorCode, String);

/// Encodes a message once (MessagePack, named fields).
pub fn encode(message: &ServerMessage) -> Frame {
    rmp_serde::to_vec_named(message).unwrap_or_default().into()
}

/// The puzzle a room plays.
#[derive(Debug)]
pub struct Game {
    /// The puzzle as the engine sees it.
    pub puzzle: Puzzle,
    /// Its solution, one value per active cell (never sent while it could help).
    pub solution: Vec<u8>,
    /// What players get: geometry and givens, no solution.
    pub public: PuzzleV1,
}

/// Commands a connection sends to its room.
#[derive(Debug)]
pub enum Command {
    /// Take a seat (or return to one), or watch, with this outbox.
    Join {
        /// Who.
        who: Identity,
        /// Watch instead of play.
        spectator: bool,
        /// Where to send their frames.
        out: Outbox,
        /// Whether the seat was granted.
        reply: oneshot::Sender<Result<(), Failure>>,
    },
    /// The connection went away.
    Leave {
        /// Player id.
        player: String,
    },
    /// The host starts the game.
    Start {
        /// Player id.
        player: String,
    },
    /// A move on the player's own board.
    Move {
        /// Player id.
        player: String,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Value, 0 = erase.
        value: u32,
    },
    /// Co-op: pencil marks on the shared board.
    Pencil {
        /// Player id.
        player: String,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Candidate bitmask.
        marks: u32,
    },
    /// Co-op: the player's selected cell.
    Cursor {
        /// Player id.
        player: String,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// A chat line.
    Chat {
        /// Sender id.
        player: String,
        /// The text.
        text: String,
    },
}

/// A cheap, cloneable handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    /// Join code.
    pub code: String,
    tx: mpsc::Sender<Command>,
    summary: Arc<Mutex<RoomSummary>>,
}

impl RoomHandle {
    /// Asks for a seat (or a place to watch from).
    pub async fn join(&self, who: Identity, spectator: bool, out: Outbox) -> Result<(), Failure> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Join {
                who,
                spectator,
                out,
                reply,
            })
            .await
            .map_err(|_| (ErrorCode::NoRoom, "the room has closed".to_string()))?;
        answer
            .await
            .map_err(|_| (ErrorCode::NoRoom, "the room has closed".to_string()))?
    }

    /// Sends a command without waiting; `false` if the room is gone or its queue
    /// is full (the caller reports that to the player).
    pub fn send(&self, command: Command) -> bool {
        self.tx.try_send(command).is_ok()
    }

    /// The lobby's view of the room.
    pub fn summary(&self) -> RoomSummary {
        self.summary
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Whether the room task has ended.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// A player at the table.
struct Seat {
    who: Identity,
    out: Option<Outbox>,
    board: Vec<u8>,
    finished_ms: Option<u64>,
    mistakes: u32,
    out_of_lives: bool,
    chat: Bucket,
}

/// Someone watching.
struct Watcher {
    who: Identity,
    out: Option<Outbox>,
    chat: Bucket,
}

/// Who a message is addressed to.
#[derive(Clone, Copy)]
enum Member {
    Seat(usize),
    Watcher(usize),
}

struct Room {
    code: String,
    settings: RoomSettings,
    host: String,
    state: RoomState,
    game: Game,
    seats: Vec<Seat>,
    watchers: Vec<Watcher>,
    countdown: Duration,
    /// When play begins: the local instant and the same moment on the wire clock.
    start: Option<(Instant, f64)>,
    summary: Arc<Mutex<RoomSummary>>,
    had_players: bool,
    coop: CoopBoard,
}

/// The shared board of a co-op room, changed only in server order.
struct CoopBoard {
    values: Vec<u8>,
    authors: Vec<Option<String>>,
    pencil: Vec<u32>,
    seq: u64,
}

/// Commands a room queues before senders wait.
const ROOM_QUEUE: usize = 1024;

fn chat_bucket() -> Bucket {
    Bucket::new(5, 0.5)
}

/// Starts a room task and returns its handle. `grace` is how long a room whose
/// players all disconnected waits for one to come back.
pub fn spawn(
    code: String,
    settings: RoomSettings,
    game: Game,
    countdown: Duration,
    grace: Duration,
) -> RoomHandle {
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    let summary = Arc::new(Mutex::new(RoomSummary {
        code: code.clone(),
        settings: settings.clone(),
        players: 0,
        state: RoomState::Waiting,
    }));
    let room = Room {
        code: code.clone(),
        settings,
        host: String::new(),
        state: RoomState::Waiting,
        seats: Vec::new(),
        watchers: Vec::new(),
        countdown,
        start: None,
        summary: Arc::clone(&summary),
        had_players: false,
        coop: CoopBoard {
            values: game.puzzle.givens().to_vec(),
            authors: vec![None; game.puzzle.givens().len()],
            pencil: vec![0; game.puzzle.givens().len()],
            seq: 0,
        },
        game,
    };
    tokio::spawn(run(room, rx, grace));
    RoomHandle { code, tx, summary }
}

async fn run(mut room: Room, mut rx: mpsc::Receiver<Command>, grace: Duration) {
    // When everyone who sat here is gone, the room waits `grace` for a return.
    let mut empty_since: Option<Instant> = None;
    loop {
        let begin = match (room.state, room.start) {
            (RoomState::Countdown, Some((at, _))) => Some(at),
            _ => None,
        };
        let expire = empty_since.map(|t| t + grace);
        tokio::select! {
            command = rx.recv() => match command {
                Some(c) => room.handle(c),
                None => break,
            },
            _ = tokio::time::sleep_until(begin.unwrap_or_else(Instant::now)), if begin.is_some() => {
                room.begin_play();
            }
            _ = tokio::time::sleep_until(expire.unwrap_or_else(Instant::now)), if expire.is_some() => {
                break;
            }
        }
        room.publish_summary();
        let empty = room.had_players && room.seats.iter().all(|s| s.out.is_none());
        empty_since = match (empty, empty_since) {
            (false, _) => None,
            (true, Some(t)) => Some(t),
            (true, None) => Some(Instant::now()),
        };
    }
    tracing::debug!(room = %room.code, "room closed");
}

impl Room {
    fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                who,
                spectator,
                out,
                reply,
            } => {
                let result = if spectator {
                    self.watch(who, out)
                } else {
                    self.join(who, out)
                };
                let _ = reply.send(result);
            }
            Command::Leave { player } => self.leave(&player),
            Command::Start { player } => self.start(&player),
            Command::Move {
                player,
                row,
                col,
                value,
            } => self.play(&player, row, col, value),
            Command::Chat { player, text } => self.chat(&player, text),
            Command::Pencil {
                player,
                row,
                col,
                marks,
            } => self.pencil(&player, row, col, marks),
            Command::Cursor { player, row, col } => self.cursor(&player, row, col),
        }
    }

    fn member(&self, player: &str) -> Option<Member> {
        if let Some(i) = self.seats.iter().position(|s| s.who.id == player) {
            return Some(Member::Seat(i));
        }
        self.watchers
            .iter()
            .position(|w| w.who.id == player)
            .map(Member::Watcher)
    }

    fn join(&mut self, who: Identity, out: Outbox) -> Result<(), Failure> {
        if let Some(i) = self.seats.iter().position(|s| s.who.id == who.id) {
            self.seats[i].out = Some(out);
            self.send_snapshot(Member::Seat(i));
            return Ok(());
        }
        if self.state != RoomState::Waiting {
            return Err((
                ErrorCode::Closed,
                "the game has already started; join as a spectator".into(),
            ));
        }
        if self.seats.len() >= self.settings.max_players as usize {
            return Err((ErrorCode::Closed, "the room is full".into()));
        }
        self.watchers.retain(|w| w.who.id != who.id);
        if self.seats.is_empty() {
            self.host = who.id.clone();
        }
        self.had_players = true;
        self.seats.push(Seat {
            who,
            out: Some(out),
            board: self.game.puzzle.givens().to_vec(),
            finished_ms: None,
            mistakes: 0,
            out_of_lives: false,
            chat: chat_bucket(),
        });
        self.send_snapshots();
        Ok(())
    }

    fn watch(&mut self, who: Identity, out: Outbox) -> Result<(), Failure> {
        if self.seats.iter().any(|s| s.who.id == who.id) {
            return Err((ErrorCode::Invalid, "you are a player in this room".into()));
        }
        let i = match self.watchers.iter().position(|w| w.who.id == who.id) {
            Some(i) => {
                self.watchers[i].out = Some(out);
                i
            }
            None => {
                self.watchers.push(Watcher {
                    who,
                    out: Some(out),
                    chat: chat_bucket(),
                });
                self.watchers.len() - 1
            }
        };
        self.send_snapshot(Member::Watcher(i));
        Ok(())
    }

    fn leave(&mut self, player: &str) {
        match self.member(player) {
            Some(Member::Seat(i)) if self.state == RoomState::Waiting => {
                self.seats.remove(i);
                if self.host == player {
                    self.host = self
                        .seats
                        .first()
                        .map(|s| s.who.id.clone())
                        .unwrap_or_default();
                }
                self.send_snapshots();
            }
            Some(Member::Seat(i)) => self.seats[i].out = None,
            Some(Member::Watcher(i)) => {
                self.watchers.remove(i);
            }
            None => {}
        }
    }

    fn start(&mut self, player: &str) {
        let Some(member) = self.member(player) else {
            return;
        };
        if player != self.host {
            return self.send_error(member, ErrorCode::NotHost, "only the host can start");
        }
        if self.state != RoomState::Waiting {
            return self.send_error(
                member,
                ErrorCode::WrongState,
                "the game has already started",
            );
        }
        let at = Instant::now() + self.countdown;
        self.start = Some((at, now_ms() + self.countdown.as_secs_f64() * 1e3));
        self.state = RoomState::Countdown;
        if self.countdown.is_zero() {
            self.begin_play();
        } else {
            self.send_snapshots();
        }
    }

    fn begin_play(&mut self) {
        if self.state == RoomState::Countdown {
            self.state = RoomState::Playing;
            self.send_snapshots();
        }
    }

    /// Checks that `player` may change cell `[row, col]` now; returns the seat and
    /// the cell, or sends the error and returns `None`.
    fn playable(&mut self, player: &str, row: u32, col: u32) -> Option<(usize, usize)> {
        let i = match self.member(player)? {
            Member::Watcher(w) => {
                self.send_error(
                    Member::Watcher(w),
                    ErrorCode::Spectator,
                    "spectators cannot play",
                );
                return None;
            }
            Member::Seat(i) => i,
        };
        let me = Member::Seat(i);
        if self.state != RoomState::Playing {
            self.send_error(
                me,
                ErrorCode::WrongState,
                "moves are accepted while playing",
            );
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

    fn play(&mut self, player: &str, row: u32, col: u32, value: u32) {
        let Some((i, cell)) = self.playable(player, row, col) else {
            return;
        };
        let me = Member::Seat(i);
        if value > self.game.puzzle.model().size() {
            let size = self.game.puzzle.model().size();
            return self.send_error(
                me,
                ErrorCode::Invalid,
                &format!("{value} is outside 0..={size}"),
            );
        }
        if self.settings.mode == Mode::Coop {
            return self.coop_play(i, cell, row, col, value);
        }
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
        self.send_to(
            me,
            encode(&ServerMessage::MoveAccepted {
                row,
                col,
                value,
                correct,
            }),
        );
        let changed = encode(&ServerMessage::CellChanged {
            player: player.to_string(),
            row,
            col,
            value,
        });
        for w in 0..self.watchers.len() {
            self.send_to(Member::Watcher(w), Arc::clone(&changed));
        }
        if self.seats[i].board == self.game.solution {
            let penalty = match self.settings.mistakes {
                MistakePolicy::Penalty { seconds } => {
                    u64::from(seconds) * 1000 * u64::from(self.seats[i].mistakes)
                }
                _ => 0,
            };
            self.seats[i].finished_ms = Some(self.elapsed_ms() + penalty);
        }
        let progress = encode(&ServerMessage::Progress {
            player: self.player_view(i),
        });
        self.broadcast(&progress);
        if self
            .seats
            .iter()
            .all(|s| s.finished_ms.is_some() || s.out_of_lives)
        {
            self.state = RoomState::Finished;
            let finished = encode(&ServerMessage::Finished {
                ranks: self.ranks(),
                team_ms: None,
                contributions: Vec::new(),
            });
            self.broadcast(&finished);
        }
    }

    /// Milliseconds since play began.
    fn elapsed_ms(&self) -> u64 {
        let elapsed = self
            .start
            .map(|(at, _)| Instant::now().saturating_duration_since(at));
        elapsed.unwrap_or_default().as_millis() as u64
    }

    /// Co-op: applies a value to the shared board in server order and tells
    /// everyone; the room finishes when the board is the solution.
    fn coop_play(&mut self, i: usize, cell: usize, row: u32, col: u32, value: u32) {
        let author = self.seats[i].who.id.clone();
        self.coop.values[cell] = value as u8;
        self.coop.authors[cell] = (value != 0).then(|| author.clone());
        self.coop.seq += 1;
        let event = encode(&ServerMessage::CoopEvent {
            seq: self.coop.seq,
            player: author,
            row,
            col,
            change: CoopChange::Value { value },
        });
        self.broadcast(&event);
        if self.coop.values == self.game.solution {
            self.state = RoomState::Finished;
            let team_ms = self.elapsed_ms();
            for seat in &mut self.seats {
                seat.finished_ms = Some(team_ms);
            }
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
            let finished = encode(&ServerMessage::Finished {
                ranks: Vec::new(),
                team_ms: Some(team_ms),
                contributions,
            });
            self.broadcast(&finished);
        }
    }

    fn pencil(&mut self, player: &str, row: u32, col: u32, marks: u32) {
        let Some((i, cell)) = self.playable(player, row, col) else {
            return;
        };
        let full = engine::full_mask(self.game.puzzle.model().size());
        if self.settings.mode != Mode::Coop {
            return self.send_error(
                Member::Seat(i),
                ErrorCode::WrongState,
                "shared pencil marks are for co-op rooms",
            );
        }
        if marks & !full != 0 {
            return self.send_error(Member::Seat(i), ErrorCode::Invalid, "a mark is above N");
        }
        self.coop.pencil[cell] = marks;
        self.coop.seq += 1;
        let event = encode(&ServerMessage::CoopEvent {
            seq: self.coop.seq,
            player: player.to_string(),
            row,
            col,
            change: CoopChange::Pencil { marks },
        });
        self.broadcast(&event);
    }

    fn cursor(&mut self, player: &str, row: u32, col: u32) {
        let Some(Member::Seat(i)) = self.member(player) else {
            return;
        };
        if self.settings.mode != Mode::Coop || self.state != RoomState::Playing {
            return;
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

    fn chat(&mut self, player: &str, text: String) {
        let Some(member) = self.member(player) else {
            return;
        };
        let text = text.trim().to_string();
        let chars = text.chars().count();
        if chars == 0 || chars > MAX_CHAT_CHARS || text.chars().any(|c| c.is_control() && c != '\n')
        {
            return self.send_error(
                member,
                ErrorCode::Invalid,
                &format!("a chat line has 1-{MAX_CHAT_CHARS} printable characters"),
            );
        }
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

    fn player_view(&self, i: usize) -> PlayerView {
        let seat = &self.seats[i];
        let filled = if self.settings.mode == Mode::Coop {
            self.coop
                .authors
                .iter()
                .filter(|a| a.as_deref() == Some(&seat.who.id))
                .count()
        } else {
            seat.board.iter().filter(|&&v| v != 0).count()
        };
        PlayerView {
            id: seat.who.id.clone(),
            name: seat.who.name.clone(),
            filled: filled as u32,
            finished_ms: seat.finished_ms,
            mistakes: seat.mistakes,
            out: seat.out_of_lives,
        }
    }

    /// A member's view: the puzzle once play has begun; a player's own board, or
    /// for a spectator every board.
    fn view(&self, member: Member) -> RoomView {
        let playing = matches!(self.state, RoomState::Playing | RoomState::Finished);
        let model = self.game.puzzle.model();
        let grid = |values: &[u8]| engine::v1::to_grid(model, values);
        let coop = self.settings.mode == Mode::Coop;
        let (board, spectator, boards) = match member {
            Member::Seat(_) if coop => {
                (playing.then(|| grid(&self.coop.values)), false, Vec::new())
            }
            Member::Watcher(_) if coop => {
                (playing.then(|| grid(&self.coop.values)), true, Vec::new())
            }
            Member::Seat(i) => (
                playing.then(|| grid(&self.seats[i].board)),
                false,
                Vec::new(),
            ),
            Member::Watcher(_) => {
                let boards = if playing {
                    self.seats
                        .iter()
                        .map(|s| PlayerBoard {
                            player: s.who.id.clone(),
                            board: grid(&s.board),
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
            state: self.state,
            host: self.host.clone(),
            players: (0..self.seats.len()).map(|j| self.player_view(j)).collect(),
            puzzle: playing.then(|| self.game.public.clone()),
            board,
            start_at: self.start.map(|(_, wire)| wire),
            spectator,
            boards,
            seq: self.coop.seq,
            pencil: (coop && playing).then(|| {
                let mut g = vec![vec![0u32; model.cols() as usize]; model.rows() as usize];
                for (c, &m) in self.coop.pencil.iter().enumerate() {
                    let [r, col] = model.coord(c);
                    g[r as usize][col as usize] = m;
                }
                g
            }),
        }
    }

    fn send_snapshot(&mut self, member: Member) {
        let frame = encode(&ServerMessage::Room {
            room: Box::new(self.view(member)),
        });
        self.send_to(member, frame);
    }

    fn send_snapshots(&mut self) {
        for i in 0..self.seats.len() {
            self.send_snapshot(Member::Seat(i));
        }
        for w in 0..self.watchers.len() {
            self.send_snapshot(Member::Watcher(w));
        }
    }

    fn send_error(&mut self, member: Member, code: ErrorCode, message: &str) {
        let frame = encode(&ServerMessage::Error {
            code,
            message: message.to_string(),
        });
        self.send_to(member, frame);
    }

    /// Queues a frame for a member. A full queue means the client cannot keep up:
    /// its outbox is dropped, which closes its connection (it may come back and
    /// get a fresh snapshot).
    fn send_to(&mut self, member: Member, frame: Frame) {
        let (out, who) = match member {
            Member::Seat(i) => {
                let seat = &mut self.seats[i];
                (&mut seat.out, &seat.who)
            }
            Member::Watcher(i) => {
                let watcher = &mut self.watchers[i];
                (&mut watcher.out, &watcher.who)
            }
        };
        if let Some(tx) = out {
            if tx.try_send(frame).is_err() {
                tracing::info!(room = %self.code, player = %who.id, "dropping a slow or gone client");
                *out = None;
            }
        }
    }

    /// Sends a frame to every player and spectator.
    fn broadcast(&mut self, frame: &Frame) {
        for i in 0..self.seats.len() {
            self.send_to(Member::Seat(i), Arc::clone(frame));
        }
        for w in 0..self.watchers.len() {
            self.send_to(Member::Watcher(w), Arc::clone(frame));
        }
    }

    fn publish_summary(&self) {
        let mut s = self.summary.lock().unwrap_or_else(|p| p.into_inner());
        s.players = self.seats.len() as u32;
        s.state = self.state;
    }
}
