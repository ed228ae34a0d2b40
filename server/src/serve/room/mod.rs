//! One room = one task (an actor) that owns its state: seats, boards, the clock.
//! Connections talk to it over a bounded channel; it answers through each
//! player's bounded outbox. No lock is held across an `.await`; broadcast frames
//! are encoded once and shared. With a store, every change a player is told about
//! was committed first, and a restarted server restores the room from its events.
//!
//! - this file: the messages ([`Command`], [`Frame`]), the [`RoomHandle`],
//!   [`spawn`], [`restore`] and the task loop;
//! - `core`: the rules of play, pure (decide and apply, no tokio, no store);
//! - `state`: the room's data, membership, the start and rematches;
//! - `play`: moves (race and co-op), pencil marks, cursors, chat, results;
//! - `view`: what each member sees, and sending it.

mod core;
pub mod models;
mod play;
mod quick;
mod rating;
mod review;
mod state;
mod tournament;
mod view;

use state::Room;

use super::session::Identity;
use super::store::{SavedRoom, Store};
use super::Config;
use engine::Puzzle;
use protocol::wire::{ErrorCode, Mode, RoomSettings, RoomState, RoomSummary};
use protocol::PuzzleV1;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

pub use super::frame::{encode, Frame};

/// What a room hands a connection to send.
#[derive(Debug)]
pub enum Outgoing {
    /// A frame for the client.
    Frame(Frame),
    /// Close the connection with this WebSocket code and reason (e.g. the seat
    /// was taken over by a newer connection of the same player).
    Close {
        /// WebSocket close code.
        code: u16,
        /// For people.
        reason: &'static str,
    },
    /// The room moved to another node (a `redirect` went just before): the
    /// connection stays open, out of the room, while the client follows.
    Moved,
}

/// A player's queue of frames to send.
pub type Outbox = mpsc::Sender<Outgoing>;

/// Identifies one WebSocket connection (unique for the process's life).
pub type ConnectionId = u64;

/// A member's live connection: which one, and its outbox.
#[derive(Clone, Debug)]
pub struct Link {
    /// The connection.
    pub conn: ConnectionId,
    /// The client's address.
    pub address: std::net::IpAddr,
    /// Its outbox.
    pub out: Outbox,
}

/// Close code (application range) for a connection whose seat a newer
/// connection of the same player took over.
pub const CLOSE_OPENED_ELSEWHERE: u16 = 4000;

/// A request failure: code and message.
pub type Failure = (ErrorCode, String);

/// The puzzle a room plays.
#[derive(Debug)]
pub struct Game {
    /// The puzzle as the engine sees it.
    pub puzzle: Puzzle,
    /// Its solution, one value per active cell (never sent while it could help).
    pub solution: Vec<u8>,
    /// What players get: geometry and givens, no solution.
    pub public: PuzzleV1,
    /// The puzzle with its solution, for the plugin's hints (never sent).
    pub full: PuzzleV1,
    /// A ghost race: the recorded games it replays (not kept across a restart).
    pub ghosts: Vec<protocol::wire::GhostRun>,
    /// The puzzle as f-puzzles and SudokuPad links, to share.
    pub links: Vec<protocol::wire::ShareLink>,
}

impl Game {
    /// The game for a puzzle with its solution: the engine's view, and the
    /// public view without the solution.
    pub fn from_puzzle(puzzle: PuzzleV1) -> Result<Game, Failure> {
        let loaded = models::load(&puzzle).map_err(|e| (ErrorCode::Plugin, e.to_string()))?;
        let solution = loaded.solution.ok_or_else(|| {
            (
                ErrorCode::Plugin,
                "the plugin shipped no solution".to_string(),
            )
        })?;
        let mut public = puzzle.clone();
        public.solution = None;
        // The client draws the constraints from primitives, knowing no rule,
        // and reads what each kind means beside the setter's words.
        engine::drawing::fill_in(&mut public);
        let links = crate::fpuzzles::share_links(&loaded.puzzle, &public);
        Ok(Game {
            puzzle: loaded.puzzle,
            solution,
            public,
            full: puzzle,
            ghosts: Vec::new(),
            links,
        })
    }
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
        /// Their connection and where to send their frames.
        link: Link,
        /// Whether the seat was granted.
        reply: oneshot::Sender<Result<(), Failure>>,
    },
    /// The player went away: their connection dropped (`for_good` false: the seat
    /// waits for them), or they left the room (`for_good` true: a solo game ends).
    /// Ignored when `conn` is no longer the member's connection (a newer one took
    /// the seat over).
    Leave {
        /// Player id.
        player: String,
        /// The connection that went away.
        conn: ConnectionId,
        /// Left on purpose rather than disconnected.
        for_good: bool,
        /// Answered once the room has let go (and closed, if the leave ends it).
        done: Option<oneshot::Sender<()>>,
    },
    /// A seated player says they are ready (or not) before the start.
    Ready {
        /// Player id.
        player: String,
        /// Ready or not.
        ready: bool,
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
        /// The cells and their new marks.
        cells: Vec<protocol::wire::CellMarks>,
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
    /// The host asks for a rematch.
    Rematch {
        /// Player id.
        player: String,
    },
    /// Race: fill in every candidate, charged as a hint.
    FillCandidates {
        /// Player id.
        player: String,
    },
    /// A hint request.
    Hint {
        /// Player id.
        player: String,
        /// The player's own candidate marks (race and solo), rows x cols.
        marks: Option<Vec<Vec<u32>>>,
    },
    /// The plugin's answer to a hint request (from the room's own task).
    HintAnswered {
        /// Who asked.
        player: String,
        /// The game it was asked in.
        game: u64,
        /// The step, or why there is none.
        answer: Result<protocol::plugin::HintResponse, String>,
    },
    /// The rematch's puzzle (from the room's own task).
    RematchGenerated {
        /// The game it follows.
        game: u64,
        /// The puzzle, or why there is none.
        puzzle: Result<Box<PuzzleV1>, String>,
    },
    /// A finished race's review is stored (from the room's own task).
    ReviewReady {
        /// The game it reviews.
        game: u64,
        /// The review's id, or why it was not stored.
        id: Result<String, String>,
    },
    /// Solo: stop the clock.
    Pause {
        /// Player id.
        player: String,
    },
    /// Solo: restart the clock.
    Resume {
        /// Player id.
        player: String,
    },
    /// The step-through solver asks for the room's puzzle: given once the
    /// player's own game is over (or the whole game, for a spectator), never
    /// while they are still solving it.
    Analysable {
        /// Player id.
        player: String,
        /// The puzzle as the engine reads it, or why not.
        reply: oneshot::Sender<Result<Puzzle, Failure>>,
    },
    /// Another node took the room over: every member is sent there and the room
    /// closes here (nothing is written: the room lives on, on that node).
    HandOver {
        /// Where the new owner takes connections.
        url: String,
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
    pub async fn join(&self, who: Identity, spectator: bool, link: Link) -> Result<(), Failure> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Join {
                who,
                spectator,
                link,
                reply,
            })
            .await
            .map_err(|_| (ErrorCode::NoRoom, "the room has closed".to_string()))?;
        answer
            .await
            .map_err(|_| (ErrorCode::NoRoom, "the room has closed".to_string()))?
    }

    /// The room's puzzle for the step-through solver, if `player` may see its
    /// solution now ([`Command::Analysable`]).
    pub async fn analysable(&self, player: String) -> Result<Puzzle, Failure> {
        let closed = || (ErrorCode::NoRoom, "the room has closed".to_string());
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Command::Analysable { player, reply })
            .await
            .map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
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

    /// Whether its only player leaving would close it (a solo game, or a waiting
    /// room with one seat), as the latest summary says.
    pub fn closes_when_left(&self) -> bool {
        let s = self.summary();
        s.settings.mode == Mode::Solo || (s.state == RoomState::Waiting && s.players <= 1)
    }

    /// Whether the room task has ended.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Completes once the room task has ended.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }
}

/// What a room uses besides its own state.
#[derive(Clone, Debug)]
pub struct Services {
    /// Durable storage, if configured.
    pub store: Option<Arc<Store>>,
    /// Puzzles (rematches) and the variant plugins (hints).
    pub games: super::games::Games,
    /// The leaderboards finished games go on.
    pub boards: Arc<super::records::Boards>,
    /// The race ratings rated races move.
    pub ratings: Arc<super::ratings::Ratings>,
    /// The recent race reviews finished races add to.
    pub reviews: Arc<super::review::Reviews>,
    /// The arena tournaments whose races end here.
    pub tournaments: Arc<super::tournaments::Tournaments>,
}

/// A room's clocks from the server's configuration.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Between the start and the first move (not in solo games).
    pub countdown: Duration,
    /// A quick race's wait for more players once it has two.
    pub quick_wait: Duration,
}

impl Timing {
    /// The clocks `config` sets.
    pub fn of(config: &Config) -> Timing {
        Timing {
            countdown: config.countdown,
            quick_wait: config.quick_wait,
        }
    }
}

/// Commands a room queues before senders wait.
const ROOM_QUEUE: usize = 1024;

/// Starts a room task for a new room and returns its handle.
pub fn spawn(
    code: String,
    settings: RoomSettings,
    game: Game,
    config: &Config,
    services: Services,
) -> RoomHandle {
    let room = Room::new(code, settings, game, Timing::of(config), services);
    launch(room, config.reconnect_grace)
}

/// Starts a room task for a stored room, its moves replayed, and returns its
/// handle. Its players are all away until they reconnect.
pub fn restore(saved: SavedRoom, game: Game, config: &Config, services: Services) -> RoomHandle {
    let mut room = Room::new(
        saved.code.clone(),
        saved.settings.clone(),
        game,
        Timing::of(config),
        services,
    );
    room.replay(&saved);
    launch(room, config.reconnect_grace)
}

fn launch(mut room: Room, grace: Duration) -> RoomHandle {
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    room.inbox = Some(tx.downgrade());
    let summary = Arc::new(Mutex::new(room.summary()));
    let code = room.code.clone();
    tokio::spawn(run(room, rx, grace, Arc::clone(&summary)));
    RoomHandle { code, tx, summary }
}

async fn run(
    mut room: Room,
    mut rx: mpsc::Receiver<Command>,
    grace: Duration,
    summary: Arc<Mutex<RoomSummary>>,
) {
    // When everyone who sat here is gone, the room waits `grace` for a return.
    let mut empty_since: Option<Instant> = None;
    loop {
        let begin = room.countdown_ends();
        let expire = empty_since.map(|t| t + grace);
        let forfeit = room.next_forfeit(grace);
        let quick = room.quick_start_due();
        tokio::select! {
            command = rx.recv() => match command {
                Some(c) => room.handle(c).await,
                None => break,
            },
            _ = tokio::time::sleep_until(begin.unwrap_or_else(Instant::now)), if begin.is_some() => {
                room.begin_play();
            }
            _ = tokio::time::sleep_until(expire.unwrap_or_else(Instant::now)), if expire.is_some() => {
                break;
            }
            _ = tokio::time::sleep_until(forfeit.unwrap_or_else(Instant::now)), if forfeit.is_some() => {
                room.forfeit_the_absent(grace).await;
            }
            _ = tokio::time::sleep_until(quick.unwrap_or_else(Instant::now)), if quick.is_some() => {
                if !room.start_quick().await {
                    room.send_snapshots();
                }
            }
        }
        *summary.lock().unwrap_or_else(|p| p.into_inner()) = room.summary();
        if room.abandoned {
            // Close before answering, so the lobby already counts the room as gone.
            rx.close();
            if let Some(done) = room.closing_ack.take() {
                let _ = done.send(());
            }
            break;
        }
        let empty = room.had_players && room.seats.iter().all(|s| s.link.is_none());
        empty_since = match (empty, empty_since) {
            (false, _) => None,
            (true, Some(t)) => Some(t),
            (true, None) => Some(Instant::now()),
        };
    }
    tracing::debug!(room = %room.code, "room closed");
}
