//! A room's data, membership (join, watch, leave), the start and the clock, and
//! writing changes to the store.

use super::{
    Command, ConnectionId, Failure, Game, Link, Outgoing, Services, CLOSE_OPENED_ELSEWHERE,
};
use crate::serve::clock::now_ms;
use crate::serve::event::RoomEvent;
use crate::serve::limit::Bucket;
use crate::serve::session::Identity;
use crate::serve::store::{SavedRoom, Store, Write};
use protocol::wire::{ErrorCode, Mode, RoomSettings, RoomState, RoomSummary};
use protocol::PuzzleV1;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// A player at the table.
pub(super) struct Seat {
    pub who: Identity,
    /// The player's connection, while they are here.
    pub link: Option<Link>,
    /// Left the room on purpose (not just disconnected).
    pub left: bool,
    pub board: Vec<u8>,
    pub finished_ms: Option<u64>,
    pub mistakes: u32,
    pub out_of_lives: bool,
    pub hints: u32,
    pub chat: Bucket,
    /// Said they are ready (waiting rooms only; not stored).
    pub ready: bool,
    /// A hint for this seat is being worked out.
    pub hint_pending: bool,
}

impl Seat {
    /// A fresh seat with an empty board (the givens only).
    pub fn new(who: Identity, link: Option<Link>, givens: &[u8]) -> Seat {
        Seat {
            who,
            link,
            left: false,
            board: givens.to_vec(),
            finished_ms: None,
            mistakes: 0,
            out_of_lives: false,
            hints: 0,
            chat: chat_bucket(),
            ready: false,
            hint_pending: false,
        }
    }
}

/// Someone watching.
pub(super) struct Watcher {
    pub who: Identity,
    pub link: Option<Link>,
    pub chat: Bucket,
}

/// Who a message is addressed to.
#[derive(Clone, Copy)]
pub(super) enum Member {
    Seat(usize),
    Watcher(usize),
}

/// The shared board of a co-op room, changed only in server order.
pub(super) struct CoopBoard {
    pub values: Vec<u8>,
    pub authors: Vec<Option<String>>,
    pub pencil: Vec<u32>,
}

/// Everything a room task owns.
pub(super) struct Room {
    pub code: String,
    pub settings: RoomSettings,
    pub host: String,
    pub state: RoomState,
    pub game: Game,
    pub seats: Vec<Seat>,
    pub watchers: Vec<Watcher>,
    pub countdown: Duration,
    /// When play begins: the local instant and the same moment on the wire clock.
    pub start: Option<(Instant, f64)>,
    pub had_players: bool,
    /// Nobody can use the room again (a solo player left; everyone left a
    /// finished room, or a waiting one): the room closes.
    pub abandoned: bool,
    /// Who to tell once the abandoned room has closed.
    pub closing_ack: Option<oneshot::Sender<()>>,
    pub coop: CoopBoard,
    /// The number of the last stored move (co-op: the last event's `seq`).
    pub seq: u64,
    pub store: Option<Arc<Store>>,
    pub generator: crate::serve::generator::Generator,
    pub generate_deadline: Duration,
    /// Solo: when the current pause began.
    pub paused_since: Option<Instant>,
    /// Solo: time spent paused so far.
    pub paused_total: Duration,
    /// The room's own queue, for the results of its background work (weak: the
    /// room still closes when its handles are gone).
    pub inbox: Option<mpsc::WeakSender<Command>>,
    /// Which game this is (a rematch starts the next): late results of work for
    /// an earlier game are dropped.
    pub game_no: u64,
    /// A rematch puzzle is being generated.
    pub rematch_pending: bool,
}

/// A chat allowance: a burst of 5 lines, then one every two seconds.
pub(super) fn chat_bucket() -> Bucket {
    Bucket::new(5, 0.5)
}

impl Room {
    pub fn new(
        code: String,
        settings: RoomSettings,
        game: Game,
        countdown: Duration,
        services: Services,
    ) -> Room {
        let cells = game.puzzle.givens().len();
        Room {
            code,
            settings,
            host: String::new(),
            state: RoomState::Waiting,
            coop: CoopBoard {
                values: game.puzzle.givens().to_vec(),
                authors: vec![None; cells],
                pencil: vec![0; cells],
            },
            game,
            seats: Vec::new(),
            watchers: Vec::new(),
            countdown,
            start: None,
            had_players: false,
            abandoned: false,
            closing_ack: None,
            seq: 0,
            store: services.store,
            generator: services.generator,
            generate_deadline: services.generate_deadline,
            paused_since: None,
            paused_total: Duration::ZERO,
            inbox: None,
            game_no: 0,
            rematch_pending: false,
        }
    }

    /// The lobby's view of the room.
    pub fn summary(&self) -> RoomSummary {
        RoomSummary {
            code: self.code.clone(),
            settings: self.settings.clone(),
            players: self.seats.len() as u32,
            state: self.state,
        }
    }

    /// Writes a change; `Err` means it was not saved and must not be applied.
    pub async fn persist(&self, write: Write) -> Result<(), String> {
        match &self.store {
            Some(store) => store.write(write).await,
            None => Ok(()),
        }
    }

    pub async fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                who,
                spectator,
                link,
                reply,
            } => {
                let result = if spectator {
                    self.watch(who, link)
                } else {
                    self.join(who, link).await
                };
                let _ = reply.send(result);
            }
            Command::Leave {
                player,
                conn,
                for_good,
                done,
            } => self.leave(&player, conn, for_good, done).await,
            Command::Ready { player, ready } => self.ready(&player, ready),
            Command::Start { player } => self.start(&player).await,
            Command::Move {
                player,
                row,
                col,
                value,
            } => self.play(&player, row, col, value).await,
            Command::Chat { player, text } => self.chat(&player, text),
            Command::Pencil {
                player,
                row,
                col,
                marks,
            } => self.pencil(&player, row, col, marks).await,
            Command::Cursor { player, row, col } => self.cursor(&player, row, col),
            Command::Hint { player } => self.hint(&player),
            Command::HintAnswered {
                player,
                game,
                answer,
            } => self.hint_answered(&player, game, answer).await,
            Command::Rematch { player } => self.rematch(&player),
            Command::RematchGenerated { game, puzzle } => {
                self.rematch_generated(game, puzzle).await
            }
            Command::Pause { player } => self.pause(&player, true).await,
            Command::Resume { player } => self.pause(&player, false).await,
        }
    }

    pub(super) fn member(&self, player: &str) -> Option<Member> {
        if let Some(i) = self.seats.iter().position(|s| s.who.id == player) {
            return Some(Member::Seat(i));
        }
        self.watchers
            .iter()
            .position(|w| w.who.id == player)
            .map(Member::Watcher)
    }

    /// The seat of `player`; a spectator is told `why` they cannot, and someone
    /// not in the room is ignored (`None` either way).
    pub(super) fn seat_or_refuse(&mut self, player: &str, why: &str) -> Option<usize> {
        match self.member(player)? {
            Member::Seat(i) => Some(i),
            Member::Watcher(w) => {
                self.send_error(Member::Watcher(w), ErrorCode::Spectator, why);
                None
            }
        }
    }

    async fn join(&mut self, who: Identity, link: Link) -> Result<(), Failure> {
        if let Some(i) = self.seats.iter().position(|s| s.who.id == who.id) {
            take_over(&mut self.seats[i].link, link);
            self.seats[i].left = false;
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
        let seat = Write::Seat {
            room: self.code.clone(),
            who: who.clone(),
            seat: self.seats.len() as u32,
        };
        self.persist(seat).await.map_err(|e| {
            (
                ErrorCode::Unavailable,
                format!("cannot save your seat: {e}"),
            )
        })?;
        if self.seats.is_empty() {
            self.set_host(who.id.clone()).await;
        }
        self.watchers.retain(|w| w.who.id != who.id);
        self.had_players = true;
        let seat = Seat::new(who, Some(link), self.game.puzzle.givens());
        self.seats.push(seat);
        self.send_snapshots();
        Ok(())
    }

    /// Records and sets the host (a failed write is logged: the host is not a move).
    async fn set_host(&mut self, player: String) {
        let write = Write::Host {
            room: self.code.clone(),
            player: player.clone(),
        };
        if let Err(e) = self.persist(write).await {
            tracing::error!(room = %self.code, error = %e, "cannot save the host");
        }
        self.host = player;
    }

    pub(super) fn watch(&mut self, who: Identity, link: Link) -> Result<(), Failure> {
        if self.seats.iter().any(|s| s.who.id == who.id) {
            return Err((ErrorCode::Invalid, "you are a player in this room".into()));
        }
        let i = match self.watchers.iter().position(|w| w.who.id == who.id) {
            Some(i) => {
                take_over(&mut self.watchers[i].link, link);
                i
            }
            None => {
                self.watchers.push(Watcher {
                    who,
                    link: Some(link),
                    chat: chat_bucket(),
                });
                self.watchers.len() - 1
            }
        };
        self.send_snapshot(Member::Watcher(i));
        Ok(())
    }

    async fn leave(
        &mut self,
        player: &str,
        conn: ConnectionId,
        for_good: bool,
        done: Option<oneshot::Sender<()>>,
    ) {
        let linked = |link: &Option<Link>| link.as_ref().is_some_and(|l| l.conn == conn);
        match self.member(player) {
            // A newer connection took this member over: the old one's leave is stale.
            Some(Member::Seat(i)) if !linked(&self.seats[i].link) => {}
            Some(Member::Watcher(i)) if !linked(&self.watchers[i].link) => {}
            Some(Member::Seat(_)) if for_good && self.settings.mode == Mode::Solo => {
                // Nobody else can finish a solo game: leaving it ends it.
                self.close_for_good(done).await;
            }
            Some(Member::Seat(i)) if self.state == RoomState::Waiting => {
                let unseat = Write::Unseat {
                    room: self.code.clone(),
                    player: player.to_string(),
                };
                if let Err(e) = self.persist(unseat).await {
                    tracing::error!(room = %self.code, error = %e, "cannot save a departure");
                }
                self.seats.remove(i);
                if self.seats.is_empty() && for_good {
                    // Nobody is left to start it: the room has no further use.
                    return self.close_for_good(done).await;
                }
                if self.host == player {
                    if let Some(next) = self.seats.first().map(|s| s.who.id.clone()) {
                        self.set_host(next).await;
                    }
                }
                self.send_snapshots();
            }
            Some(Member::Seat(i)) => {
                self.seats[i].link = None;
                self.seats[i].left |= for_good;
                if self.state == RoomState::Finished && self.seats.iter().all(|s| s.left) {
                    // The results are in and everyone has gone: no rematch can follow.
                    self.close_for_good(done).await;
                }
            }
            Some(Member::Watcher(i)) => {
                self.watchers.remove(i);
            }
            None => {}
        }
    }

    /// Marks the room finished in the store and closes it; `done` hears once it
    /// has closed (so the lobby no longer counts it).
    async fn close_for_good(&mut self, done: Option<oneshot::Sender<()>>) {
        let finish = Write::Finish {
            room: self.code.clone(),
        };
        if let Err(e) = self.persist(finish).await {
            tracing::error!(room = %self.code, error = %e, "cannot save a closed room");
        }
        self.abandoned = true;
        self.closing_ack = done;
    }

    fn ready(&mut self, player: &str, ready: bool) {
        match self.member(player) {
            None => {}
            Some(Member::Watcher(w)) => self.send_error(
                Member::Watcher(w),
                ErrorCode::Spectator,
                "spectators do not play",
            ),
            Some(me) if self.state != RoomState::Waiting => {
                self.send_error(me, ErrorCode::WrongState, "the game has already started")
            }
            Some(Member::Seat(i)) if self.seats[i].ready != ready => {
                self.seats[i].ready = ready;
                self.send_snapshots();
            }
            // Nothing changed: the answer is the player's own snapshot.
            Some(Member::Seat(i)) => self.send_snapshot(Member::Seat(i)),
        }
    }

    async fn start(&mut self, player: &str) {
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
        let wire = now_ms() + self.countdown.as_secs_f64() * 1e3;
        let write = Write::Start {
            room: self.code.clone(),
            start_ms: wire,
        };
        if let Err(e) = self.persist(write).await {
            return self.send_error(
                member,
                ErrorCode::Unavailable,
                &format!("cannot save the start: {e}"),
            );
        }
        self.start = Some((Instant::now() + self.countdown, wire));
        self.state = RoomState::Countdown;
        if self.countdown.is_zero() {
            self.begin_play();
        } else {
            self.send_snapshots();
        }
    }

    pub(super) fn begin_play(&mut self) {
        if self.state == RoomState::Countdown {
            self.state = RoomState::Playing;
            self.send_snapshots();
        }
    }

    /// The host, after a game: a new puzzle from the variant with the same
    /// settings, every board cleared, back to waiting for the start.
    fn rematch(&mut self, player: &str) {
        let Some(member) = self.member(player) else {
            return;
        };
        if player != self.host {
            return self.send_error(
                member,
                ErrorCode::NotHost,
                "only the host can ask for a rematch",
            );
        }
        if self.state != RoomState::Finished {
            return self.send_error(
                member,
                ErrorCode::WrongState,
                "a rematch follows a finished game",
            );
        }
        if self.rematch_pending {
            return self.send_error(
                member,
                ErrorCode::WrongState,
                "a rematch is already being prepared",
            );
        }
        self.rematch_pending = true;
        let kind = crate::serve::pool::Kind {
            variant: self.settings.variant.clone(),
            params: self.settings.params.clone(),
            difficulty: self.settings.difficulty.clone(),
        };
        // The puzzle is generated off the room, which keeps serving meanwhile.
        let (generator, deadline) = (self.generator.clone(), self.generate_deadline);
        let game = self.game_no;
        self.in_background(async move {
            let puzzle = generator
                .fresh(&kind, deadline)
                .await
                .map(|(_, p)| Box::new(p));
            Command::RematchGenerated { game, puzzle }
        });
    }

    /// The rematch's puzzle is ready (or failed): the room starts over with it,
    /// if it is still waiting for one.
    pub(super) async fn rematch_generated(
        &mut self,
        game: u64,
        puzzle: Result<Box<PuzzleV1>, String>,
    ) {
        self.rematch_pending = false;
        if game != self.game_no || self.state != RoomState::Finished {
            return;
        }
        let host = self.host.clone();
        let Some(member) = self.member(&host) else {
            return;
        };
        let puzzle = match puzzle {
            Ok(puzzle) => puzzle,
            Err(e) => return self.send_error(member, ErrorCode::Plugin, &e),
        };
        let game = match Game::from_puzzle((*puzzle).clone()) {
            Ok(game) => game,
            Err((code, message)) => return self.send_error(member, code, &message),
        };
        let write = Write::Rematch {
            room: self.code.clone(),
            puzzle,
        };
        if let Err(e) = self.persist(write).await {
            return self.send_error(
                member,
                ErrorCode::Unavailable,
                &format!("cannot save the rematch: {e}"),
            );
        }
        let cells = game.puzzle.givens().len();
        for seat in &mut self.seats {
            seat.board = game.puzzle.givens().to_vec();
            seat.finished_ms = None;
            seat.mistakes = 0;
            seat.out_of_lives = false;
            seat.hints = 0;
        }
        self.coop = CoopBoard {
            values: game.puzzle.givens().to_vec(),
            authors: vec![None; cells],
            pencil: vec![0; cells],
        };
        self.game = game;
        self.game_no += 1;
        self.seq = 0;
        self.start = None;
        self.paused_since = None;
        self.paused_total = Duration::ZERO;
        self.state = RoomState::Waiting;
        self.send_snapshots();
    }

    /// Runs `work` on its own task; what it returns comes back to this room as
    /// a command, so plugin calls never hold the room.
    pub(super) fn in_background(
        &self,
        work: impl std::future::Future<Output = Command> + Send + 'static,
    ) {
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let done = work.await;
            if let Some(room) = inbox.and_then(|weak| weak.upgrade()) {
                let _ = room.send(done).await;
            }
        });
    }

    /// Rebuilds a stored room: seats (all away), the start, then every move.
    pub fn replay(&mut self, saved: &SavedRoom) {
        self.host = saved.host.clone();
        self.had_players = !saved.seats.is_empty();
        for who in &saved.seats {
            let seat = Seat::new(who.clone(), None, self.game.puzzle.givens());
            self.seats.push(seat);
        }
        if let Some(start_ms) = saved.start_ms {
            // The same wall-clock instant, on this process's monotonic clock.
            let ahead = Duration::from_secs_f64(((start_ms - now_ms()) / 1e3).max(0.0));
            let behind = Duration::from_secs_f64(((now_ms() - start_ms) / 1e3).max(0.0));
            let at = Instant::now() + ahead;
            let at = at.checked_sub(behind).unwrap_or(at);
            self.start = Some((at, start_ms));
            self.state = if ahead.is_zero() {
                RoomState::Playing
            } else {
                RoomState::Countdown
            };
        }
        // Wall-clock time paused so far (solo), and when the open pause began.
        let mut paused_ms = 0.0;
        let mut pause_began: Option<f64> = None;
        for e in &saved.events {
            self.seq = e.seq;
            let seat = self.seats.iter().position(|s| s.who.id == e.player);
            let elapsed = (e.at_ms - saved.start_ms.unwrap_or(e.at_ms) - paused_ms).max(0.0) as u64;
            let model = self.game.puzzle.model();
            match e.event {
                RoomEvent::Hint { .. } => {
                    if let Some(i) = seat {
                        self.seats[i].hints += 1;
                    }
                }
                RoomEvent::Pause => pause_began = Some(e.at_ms),
                RoomEvent::Resume => {
                    paused_ms += pause_began.take().map_or(0.0, |p| (e.at_ms - p).max(0.0));
                }
                RoomEvent::Value { row, col, value } => match model.cell_at(row, col) {
                    Some(cell) if self.settings.mode == Mode::Coop => {
                        self.apply_coop_value(&e.player, cell, value, elapsed)
                    }
                    Some(cell) => {
                        if let Some(i) = seat {
                            self.apply_move(i, cell, value, elapsed);
                        }
                    }
                    None => {}
                },
                RoomEvent::Pencil { row, col, marks } => {
                    if let Some(cell) = model.cell_at(row, col) {
                        self.coop.pencil[cell] = marks;
                    }
                }
            }
        }
        self.paused_total = Duration::from_secs_f64(paused_ms / 1e3);
        if pause_began.is_some() {
            // Paused when the server stopped: still paused, downtime included.
            self.paused_since = Some(Instant::now());
        }
        if !self.seats.is_empty()
            && self
                .seats
                .iter()
                .all(|s| s.finished_ms.is_some() || s.out_of_lives)
        {
            self.state = RoomState::Finished;
        }
    }
}

/// Puts a member's new connection in place of the old one; an old connection
/// that is still open is told why it is being closed.
fn take_over(current: &mut Option<Link>, new: Link) {
    if let Some(old) = current.replace(new) {
        if current.as_ref().is_some_and(|l| l.conn != old.conn) {
            let _ = old.out.try_send(Outgoing::Close {
                code: CLOSE_OPENED_ELSEWHERE,
                reason: "opened elsewhere: this seat is now played from another connection",
            });
        }
    }
}
