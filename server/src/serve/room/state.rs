//! A room's data, membership (join, watch, leave), the start, rematches, and
//! writing changes to the store. The game itself — boards, the clock, the rules —
//! is `core::Play`, beside the seats (one player state per seat, same order).

use super::core::{Applied, Play};
use super::{
    Command, ConnectionId, Failure, Game, Link, Outgoing, Services, CLOSE_OPENED_ELSEWHERE,
};
use crate::serve::clock::now_ms;
use crate::serve::event::RoomEvent;
use crate::serve::limit::Bucket;
use crate::serve::session::Identity;
use crate::serve::store::{SavedRoom, Store, StoreError, Write};
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
    /// When the player's connection went (a racer away past the grace window
    /// forfeits).
    pub away_since: Option<Instant>,
    pub chat: Bucket,
    /// Said they are ready (waiting rooms only; not stored).
    pub ready: bool,
    /// A hint for this seat is being worked out: for the board (and marks)
    /// with this fingerprint.
    pub hint_pending: Option<u64>,
    /// The last hint this seat was given, and the fingerprint of the board
    /// (and marks) it was for: asked again with nothing changed, it is shown
    /// again, free.
    pub last_hint: Option<(u64, protocol::plugin::Hint)>,
    /// Voted for a rematch (finished games only; not stored).
    pub rematch_vote: bool,
    /// The address the player last connected from (not stored: unknown in
    /// a room restored after a restart until they come back).
    pub address: Option<std::net::IpAddr>,
}

impl Seat {
    /// A fresh seat (its game is `Play::players` at the same index).
    pub fn new(who: Identity, link: Option<Link>) -> Seat {
        Seat {
            who,
            address: link.as_ref().map(|l| l.address),
            link,
            left: false,
            away_since: None,
            chat: chat_bucket(),
            ready: false,
            hint_pending: None,
            last_hint: None,
            rematch_vote: false,
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

/// When an armed quick race starts: the instant for the room's timer and the
/// wall clock (ms since the Unix epoch) its players are told.
#[derive(Clone, Copy, Debug)]
pub(super) struct QuickStart {
    /// On the room task's clock.
    pub at: Instant,
    /// On the wall clock, for the room view.
    pub at_ms: f64,
}

/// Everything a room task owns.
pub(super) struct Room {
    pub code: String,
    pub settings: RoomSettings,
    pub game: Game,
    /// The game being played: phase, boards, clock.
    pub play: Play,
    pub seats: Vec<Seat>,
    pub watchers: Vec<Watcher>,
    pub countdown: Duration,
    /// A quick race's wait for more players after its second arrives.
    pub quick_wait: Duration,
    /// When an armed quick race starts by itself (see `quick.rs`).
    pub quick_start: Option<QuickStart>,
    pub had_players: bool,
    /// Nobody can use the room again (a solo player left; everyone left a
    /// finished room, or a waiting one): the room closes.
    pub abandoned: bool,
    /// Who to tell once the abandoned room has closed.
    pub closing_ack: Option<oneshot::Sender<()>>,
    pub store: Option<Arc<Store>>,
    pub games: crate::serve::games::Games,
    /// The room's own queue, for the results of its background work (weak: the
    /// room still closes when its handles are gone).
    pub inbox: Option<mpsc::WeakSender<Command>>,
    /// Which game this is (a rematch starts the next): late results of work for
    /// an earlier game are dropped.
    pub game_no: u64,
    /// A rematch puzzle is being generated.
    pub rematch_pending: bool,
    /// Every event of the current game, in order: what a finished game is
    /// replayed from before it is recorded.
    pub log: Vec<Logged>,
    /// The leaderboards finished games go on.
    pub boards: Arc<crate::serve::records::Boards>,
    /// The race ratings a rated race moves.
    pub ratings: Arc<crate::serve::ratings::Ratings>,
    /// The recent race reviews a finished race adds to.
    pub reviews: Arc<crate::serve::review::Reviews>,
    /// The arena tournaments a tournament race counts in.
    pub tournaments: Arc<crate::serve::tournaments::Tournaments>,
}

/// One event of the current game, as it was committed.
#[derive(Clone, Debug)]
pub(super) struct Logged {
    /// The seat it came from.
    pub seat: usize,
    /// What happened.
    pub event: RoomEvent,
    /// Wall clock, ms since the Unix epoch.
    pub at_ms: f64,
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
        timing: super::Timing,
        services: Services,
    ) -> Room {
        let play = Play::new(&settings, game.puzzle.givens(), &game.solution);
        Room {
            code,
            settings,
            game,
            play,
            seats: Vec::new(),
            watchers: Vec::new(),
            countdown: timing.countdown,
            quick_wait: timing.quick_wait,
            quick_start: None,
            had_players: false,
            abandoned: false,
            closing_ack: None,
            store: services.store,
            games: services.games,
            inbox: None,
            game_no: 0,
            rematch_pending: false,
            log: Vec::new(),
            boards: services.boards,
            ratings: services.ratings,
            reviews: services.reviews,
            tournaments: services.tournaments,
        }
    }

    /// The room's parameters with the variant's defaults filled in (as the
    /// leaderboards and ratings key them).
    pub(super) fn resolved_params(&self) -> protocol::plugin::Params {
        (self.games.kind(&self.settings)).map_or_else(|| self.settings.params.clone(), |k| k.params)
    }

    /// The puzzle's fastest plausible solving time (see `records`).
    pub(super) fn plausible_ms(&self) -> u64 {
        let empty = self
            .game
            .puzzle
            .givens()
            .iter()
            .filter(|&&g| g == 0)
            .count();
        self.boards.plausible_ms(empty, &self.settings.difficulty)
    }

    /// The lobby's view of the room.
    pub fn summary(&self) -> RoomSummary {
        RoomSummary {
            code: self.code.clone(),
            settings: self.settings.clone(),
            players: self.seats.len() as u32,
            state: self.play.phase,
            host: self
                .seats
                .iter()
                .find(|s| s.who.id == self.play.host)
                .map(|s| s.who.name.clone())
                .unwrap_or_default(),
            connected: self.seats.iter().filter(|s| s.link.is_some()).count() as u32,
            rating: self.mean_rating(),
        }
    }

    /// Writes a change; `Err` means it was not saved and must not be applied.
    pub async fn persist(&self, write: Write) -> Result<(), StoreError> {
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
            Command::Start { player } => {
                self.start(&player).await;
            }
            Command::Move {
                player,
                row,
                col,
                value,
            } => self.play(&player, row, col, value).await,
            Command::Chat { player, text } => self.chat(&player, text),
            Command::Pencil { player, cells } => self.pencil(&player, cells).await,
            Command::Cursor { player, row, col } => self.cursor(&player, row, col),
            Command::Hint { player, marks } => self.hint(&player, marks),
            Command::FillCandidates { player } => self.fill_candidates(&player).await,
            Command::HintAnswered {
                player,
                game,
                answer,
            } => self.hint_answered(&player, game, answer).await,
            Command::Rematch { player } => self.rematch(&player),
            Command::RematchGenerated { game, puzzle } => {
                self.rematch_generated(game, puzzle).await
            }
            Command::ReviewReady { game, id } => self.review_ready(game, id),
            Command::Pause { player } => self.pause(&player, true).await,
            Command::Resume { player } => self.pause(&player, false).await,
            Command::Analysable { player, reply } => {
                let _ = reply.send(self.analysable(&player));
            }
            Command::HandOver { url } => self.hand_over(url),
        }
    }

    /// The puzzle, if `player`'s game is over: the room's game has finished,
    /// or (in a race) their own board is done.
    fn analysable(&self, player: &str) -> Result<engine::Puzzle, Failure> {
        let over = self.play.phase == RoomState::Finished;
        let mine_done = match self.member(player) {
            None => return Err((ErrorCode::NoRoom, "you are not in this room".into())),
            Some(Member::Seat(i)) => self.play.players[i].finished_ms.is_some(),
            Some(Member::Watcher(_)) => false,
        };
        if over || (mine_done && self.settings.mode != Mode::Coop) {
            Ok(self.game.puzzle.clone())
        } else {
            Err((
                ErrorCode::WrongState,
                "the analysis opens once your game is over".into(),
            ))
        }
    }

    /// Sends every member to the node that owns the room now, and closes.
    fn hand_over(&mut self, url: String) {
        let frame = super::encode(&protocol::wire::ServerMessage::Redirect {
            code: self.code.clone(),
            url,
            ask: None,
        });
        self.broadcast(&frame);
        let links = self.seats.iter().map(|s| &s.link);
        for link in links.chain(self.watchers.iter().map(|w| &w.link)).flatten() {
            let _ = link.out.try_send(super::Outgoing::Moved);
        }
        self.abandoned = true;
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
            self.seats[i].address = Some(link.address);
            take_over(&mut self.seats[i].link, link);
            self.seats[i].left = false;
            self.seats[i].away_since = None;
            self.send_snapshot(Member::Seat(i));
            return Ok(());
        }
        self.play.check_join(self.settings.max_players)?;
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
            self.store_host(who.id.clone()).await;
        }
        self.watchers.retain(|w| w.who.id != who.id);
        self.had_players = true;
        let id = who.id.clone();
        self.add_seat(Seat::new(who, Some(link)));
        // A solo game waits for nobody: it starts as its player sits down; a
        // quick race starts when full, or is armed with its second player.
        let started = if self.starts_itself() {
            self.start(&id).await
        } else {
            self.arm_quick_start().await
        };
        if !started {
            self.send_snapshots();
        }
        Ok(())
    }

    /// A solo room in its waiting state: it starts without a Start (and without
    /// a countdown), on creation and on "New puzzle".
    fn starts_itself(&self) -> bool {
        self.settings.mode == Mode::Solo && self.play.phase == RoomState::Waiting
    }

    /// Records the host (a failed write is logged: the host is not a move).
    async fn store_host(&mut self, player: String) {
        let write = Write::Host {
            room: self.code.clone(),
            player,
        };
        if let Err(e) = self.persist(write).await {
            tracing::error!(room = %self.code, error = %e, "cannot save the host");
        }
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
        // Stale: another connection holds the member now. A member with no
        // connection (dropped as slow, or gone) still leaves when asked: the
        // leave may come from the very connection the room just let go.
        let elsewhere = |link: &Option<Link>| link.as_ref().is_some_and(|l| l.conn != conn);
        match self.member(player) {
            // A newer connection took this member over: the old one's leave is stale.
            Some(Member::Seat(i)) if elsewhere(&self.seats[i].link) => {}
            Some(Member::Watcher(i)) if elsewhere(&self.watchers[i].link) => {}
            Some(Member::Seat(_)) if for_good && self.settings.mode == Mode::Solo => {
                // Nobody else can finish a solo game: leaving it ends it.
                self.close_for_good(done).await;
            }
            Some(Member::Seat(i)) if self.play.phase == RoomState::Waiting => {
                let unseat = Write::Unseat {
                    room: self.code.clone(),
                    player: player.to_string(),
                };
                if let Err(e) = self.persist(unseat).await {
                    tracing::error!(room = %self.code, error = %e, "cannot save a departure");
                }
                let new_host = self.remove_seat(i);
                if self.seats.is_empty() && for_good {
                    // Nobody is left to start it: the room has no further use.
                    return self.close_for_good(done).await;
                }
                if let Some(host) = new_host {
                    self.store_host(host).await;
                }
                // A quick race down to one player waits for a second again.
                if !self.arm_quick_start().await {
                    self.send_snapshots();
                }
            }
            Some(Member::Seat(i)) => {
                self.seats[i].link = None;
                self.seats[i].left |= for_good;
                self.seats[i].away_since = Some(Instant::now());
                if for_good {
                    // Leaving a running race forfeits it (ignored where it does not apply).
                    self.forfeit(i).await;
                }
                if self.play.phase == RoomState::Finished && self.seats.iter().all(|s| s.left) {
                    // The results are in and everyone has gone: no rematch can follow.
                    return self.close_for_good(done).await;
                }
                // The one the others waited for went: their votes may now carry it.
                let voter = self
                    .seats
                    .iter()
                    .find(|s| s.rematch_vote && s.link.is_some());
                if let (false, Some(voter)) = (self.rematch_pending, voter) {
                    let voter = voter.who.id.clone();
                    self.rematch(&voter);
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
        let Some(i) = self.seat_or_refuse(player, "spectators do not play") else {
            return;
        };
        if let Err((code, why)) = self.play.check_ready() {
            return self.send_error(Member::Seat(i), code, &why);
        }
        if self.seats[i].ready == ready {
            // Nothing changed: the answer is the player's own snapshot.
            return self.send_snapshot(Member::Seat(i));
        }
        self.seats[i].ready = ready;
        self.send_snapshots();
    }

    /// The host starts the game (a countdown, except in solo); whether it
    /// started (everyone has a snapshot then).
    pub(super) async fn start(&mut self, player: &str) -> bool {
        let Some(member) = self.member(player) else {
            return false;
        };
        if let Err((code, why)) = self.play.check_start(player) {
            self.send_error(member, code, &why);
            return false;
        }
        let countdown = if self.settings.mode == Mode::Solo {
            Duration::ZERO
        } else {
            self.countdown
        };
        let wire = now_ms() + countdown.as_secs_f64() * 1e3;
        let write = Write::Start {
            room: self.code.clone(),
            start_ms: wire,
        };
        if let Err(e) = self.persist(write).await {
            self.send_error(
                member,
                ErrorCode::Unavailable,
                &format!("cannot save the start: {e}"),
            );
            return false;
        }
        self.play.start(wire);
        if countdown.is_zero() {
            self.begin_play();
        } else {
            self.send_snapshots();
        }
        true
    }

    pub(super) fn begin_play(&mut self) {
        if self.play.begin() {
            self.send_snapshots();
        }
    }

    /// A player's vote for a rematch, after a game. Once every player still
    /// here has voted: a new puzzle from the variant with the same settings,
    /// every board cleared, back to waiting for the start (solo: started).
    fn rematch(&mut self, player: &str) {
        let Some(member) = self.member(player) else {
            return;
        };
        if let Err((code, why)) = self.play.check_rematch(player) {
            return self.send_error(member, code, &why);
        }
        if self.settings.daily.is_some() {
            return self.send_error(
                member,
                ErrorCode::WrongState,
                "the puzzle of the day has no rematch: start a new game",
            );
        }
        if self.settings.quick {
            return self.send_error(
                member,
                ErrorCode::WrongState,
                "a quick race has no rematch: take the next quick race",
            );
        }
        if self.rematch_pending {
            return self.send_error(
                member,
                ErrorCode::WrongState,
                "a rematch is already being prepared",
            );
        }
        if let Member::Seat(i) = member {
            self.seats[i].rematch_vote = true;
        }
        // Everyone still here decides; who left or dropped does not hold it up.
        let waiting_for = self
            .seats
            .iter()
            .filter(|s| s.link.is_some() && !s.left && !s.rematch_vote)
            .count();
        if waiting_for > 0 {
            return self.send_snapshots();
        }
        let Some(kind) = self.games.kind(&self.settings) else {
            return self.send_error(member, ErrorCode::Plugin, "the variant is gone");
        };
        self.rematch_pending = true;
        // The puzzle comes off the room (pool or plugin); the room keeps serving.
        let (games, game) = (self.games.clone(), self.game_no);
        self.in_background(async move {
            let puzzle = games.puzzle(&kind).await.map(Box::new);
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
        if game != self.game_no || self.play.phase != RoomState::Finished {
            return;
        }
        let host = self.play.host.clone();
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
        self.play.restart(game.puzzle.givens(), &game.solution);
        self.log.clear();
        self.game = game;
        self.game_no += 1;
        // Who left, or dropped without voting, is not in the new game: a racer
        // who never moves would hold its end up for everyone.
        let mut host = host;
        while let Some(i) = self.seats.iter().position(|s| !s.rematch_vote) {
            let gone = self.seats[i].who.id.clone();
            let unseat = Write::Unseat {
                room: self.code.clone(),
                player: gone,
            };
            if let Err(e) = self.persist(unseat).await {
                tracing::error!(room = %self.code, error = %e, "cannot save a departure");
            }
            if let Some(new_host) = self.remove_seat(i) {
                self.store_host(new_host.clone()).await;
                host = new_host;
            }
        }
        for seat in &mut self.seats {
            seat.rematch_vote = false;
        }
        if !(self.starts_itself() && self.start(&host).await) {
            self.send_snapshots();
        }
    }

    /// When the countdown ends, on this process's clock (`None` when not counting).
    pub(super) fn countdown_ends(&self) -> Option<Instant> {
        if self.play.phase != RoomState::Countdown {
            return None;
        }
        let ahead = (self.play.start_ms? - now_ms()) / 1e3;
        // A start time from a hostile row must not panic here: at most an hour.
        let wait = Duration::try_from_secs_f64(ahead.clamp(0.0, 3600.0)).unwrap_or_default();
        Some(Instant::now() + wait)
    }

    /// When the next racer away past the grace window is due to forfeit.
    pub(super) fn next_forfeit(&self, grace: Duration) -> Option<Instant> {
        if self.settings.mode != Mode::Race
            || !matches!(self.play.phase, RoomState::Countdown | RoomState::Playing)
        {
            return None;
        }
        (0..self.seats.len())
            .filter(|&i| self.seats[i].link.is_none() && !self.play.players[i].done())
            .filter_map(|i| self.seats[i].away_since.map(|t| t + grace))
            .min()
    }

    /// Racers away for `grace` or longer forfeit.
    pub(super) async fn forfeit_the_absent(&mut self, grace: Duration) {
        let now = Instant::now();
        for i in 0..self.seats.len() {
            let gone = self.seats[i].link.is_none()
                && self.seats[i].away_since.is_some_and(|t| t + grace <= now);
            if gone {
                self.forfeit(i).await;
                if !self.play.players[i].done() {
                    // Not stored (the database refused): try again after another
                    // grace window rather than at once, over and over.
                    self.seats[i].away_since = Some(now);
                }
            }
        }
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

    /// Rebuilds a stored room: seats (all away), the start, then every event,
    /// applied by the same rules as live play.
    pub fn replay(&mut self, saved: &SavedRoom) {
        // Everyone is away until they come back; a room nobody returns to (or
        // that never had a seat) closes after the grace window.
        self.had_players = true;
        for who in &saved.seats {
            let mut seat = Seat::new(who.clone(), None);
            // Away since the restart: a racer who does not come back forfeits.
            seat.away_since = Some(Instant::now());
            self.add_seat(seat);
        }
        self.play.host = saved.host.clone();
        if let Some(start_ms) = saved.start_ms {
            // Still counting down if the start is ahead (the room loop's timer ends it).
            self.play.start(start_ms);
            if start_ms <= now_ms() {
                self.play.begin();
            }
        }
        for e in &saved.events {
            if let Some(i) = self.seats.iter().position(|s| s.who.id == e.player) {
                self.fold(i, e.event.clone(), e.at_ms);
            }
            self.play.seq = e.seq;
        }
        // A waiting quick race read back starts its wait again (a full one
        // had started before it was stored).
        self.arm_quick_timer();
    }

    /// Seats a player: their connection side (`seats`) and their game
    /// (`play.players`) together — the only place either grows, so seat `i` is
    /// the same player in both.
    fn add_seat(&mut self, seat: Seat) {
        self.play.seat(seat.who.id.clone());
        self.seats.push(seat);
    }

    /// Frees seat `i` in both `seats` and `play.players` (the only place
    /// either shrinks); returns the new host, if the host left.
    fn remove_seat(&mut self, i: usize) -> Option<String> {
        self.seats.remove(i);
        self.play.unseat(i)
    }

    /// Applies seat `i`'s stored event (wall clock `at_ms`) by the rules and
    /// keeps it in the room's log: the one fold, for live play (once the store
    /// has it) and for replay after a restart alike.
    pub(super) fn fold(&mut self, i: usize, event: RoomEvent, at_ms: f64) -> Applied {
        let applied = self.play.apply(self.game.puzzle.model(), i, &event, at_ms);
        self.log.push(Logged {
            seat: i,
            event,
            at_ms,
        });
        applied
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
