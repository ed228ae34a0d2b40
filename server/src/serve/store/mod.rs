//! Durable storage behind one trait, [`Backend`], with two real backends: an
//! embedded SQLite file ([`sqlite`], the default) and a PostgreSQL server
//! ([`postgres`], for several nodes), both async. The [`Store`] in front of
//! either runs one writer task: it takes every write queued so far — from every room —
//! commits them in one transaction, then acknowledges each. A room tells a
//! player a move is accepted only after its write is acknowledged, so an
//! acknowledged move survives `kill -9` of the server. On start-up,
//! [`Store::load`] returns the unfinished rooms and the pool to restore;
//! sessions are read one at a time when their token comes back
//! ([`Store::session`]).

pub mod backup;
pub mod coordination;
pub mod error;
pub mod postgres;
pub mod sqlite;

use super::event::RoomEvent;
use super::identity::Identity;
use super::records::GameRecord;
use protocol::wire::RoomSettings;
use protocol::PuzzleV1;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

pub use error::StoreError;
pub use sqlite::Synchronous;

/// One change to persist.
#[derive(Clone, Debug)]
pub enum Write {
    /// A new identity (the token only as its hash).
    Session {
        /// SHA-256 of the token.
        token_hash: [u8; 32],
        /// The identity.
        who: Identity,
    },
    /// A new room with its puzzle (solution included: it never leaves the server).
    Room {
        /// Code.
        code: String,
        /// Settings.
        settings: RoomSettings,
        /// The puzzle.
        puzzle: Box<PuzzleV1>,
    },
    /// A player took seat number `seat`.
    Seat {
        /// Room code.
        room: String,
        /// Who.
        who: Identity,
        /// Seat order.
        seat: u32,
    },
    /// A player left before the start.
    Unseat {
        /// Room code.
        room: String,
        /// Player id.
        player: String,
    },
    /// The host changed.
    Host {
        /// Room code.
        room: String,
        /// Player id.
        player: String,
    },
    /// The game starts at this wall-clock instant (ms since the Unix epoch).
    Start {
        /// Room code.
        room: String,
        /// Start instant.
        start_ms: f64,
    },
    /// A change to the game: a value, pencil marks, a hint, a pause.
    Event {
        /// Room code.
        room: String,
        /// The room's event number.
        seq: u64,
        /// Player id.
        player: String,
        /// What happened.
        event: RoomEvent,
        /// Wall clock, ms since the Unix epoch.
        at_ms: f64,
    },
    /// The room plays again: a new round with a new puzzle, no start, no moves;
    /// seats stay, and the round before — its puzzle, start and events — stays
    /// stored as the room's history ([`Backend::history`]).
    Rematch {
        /// Room code.
        room: String,
        /// The new puzzle (solution included).
        puzzle: Box<PuzzleV1>,
    },
    /// A pre-generated puzzle joins the pool.
    PoolAdd {
        /// Its seed (unique).
        seed: String,
        /// The pool key.
        key: String,
        /// The puzzle.
        puzzle: Box<PuzzleV1>,
    },
    /// A pool puzzle was used.
    PoolTake {
        /// Its seed.
        seed: String,
    },
    /// The room is over; it is not restored.
    Finish {
        /// Room code.
        room: String,
    },
    /// A player's finished game, verified by replay (see `records`).
    Record(Box<GameRecord>),
    /// A finished rated race: who raced and their places (see `ratings`).
    RatedRace(Box<crate::serve::ratings::RatedRace>),
    /// A finished race's review (see `review`).
    RaceReview(Box<crate::serve::review::StoredReview>),
    /// A new arena tournament (see `tournament`).
    Tournament(Box<crate::serve::tournament::TournamentSpec>),
    /// A finished race of a tournament: who raced and their places.
    TournamentResult(Box<crate::serve::tournament::RaceResult>),
    /// A player hides from public leaderboards, or shows again.
    Hidden {
        /// Player id.
        player: String,
        /// Hidden or not.
        hidden: bool,
    },
}

impl Write {
    /// The room this write belongs to, if it belongs to one (only the room's
    /// owner may make it).
    pub fn room(&self) -> Option<&str> {
        match self {
            Write::Room { code: room, .. }
            | Write::Seat { room, .. }
            | Write::Unseat { room, .. }
            | Write::Host { room, .. }
            | Write::Start { room, .. }
            | Write::Event { room, .. }
            | Write::Rematch { room, .. }
            | Write::Finish { room } => Some(room),
            Write::Session { .. }
            | Write::PoolAdd { .. }
            | Write::PoolTake { .. }
            | Write::Record(_)
            | Write::RatedRace(_)
            | Write::RaceReview(_)
            | Write::Tournament(_)
            | Write::TournamentResult(_)
            | Write::Hidden { .. } => None,
        }
    }
}

/// A stored event of a room.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedEvent {
    /// Event number.
    pub seq: u64,
    /// Player id.
    pub player: String,
    /// What happened.
    pub event: RoomEvent,
    /// Wall clock, ms since the Unix epoch.
    pub at_ms: f64,
}

/// An unfinished room as stored.
#[derive(Clone, Debug)]
pub struct SavedRoom {
    /// Code.
    pub code: String,
    /// Settings.
    pub settings: RoomSettings,
    /// Puzzle with solution.
    pub puzzle: PuzzleV1,
    /// Host's player id.
    pub host: String,
    /// Start instant, if started.
    pub start_ms: Option<f64>,
    /// Seated players in seat order.
    pub seats: Vec<Identity>,
    /// Every move, in order.
    pub events: Vec<SavedEvent>,
}

/// A round a room played before its current one (see [`Write::Rematch`]).
#[derive(Clone, Debug)]
pub struct PastRound {
    /// Its number: 0 for the room's first puzzle.
    pub round: u64,
    /// Its puzzle, solution included.
    pub puzzle: PuzzleV1,
    /// When it started, if it did.
    pub start_ms: Option<f64>,
    /// Its events, in order.
    pub events: Vec<SavedEvent>,
}

/// A stored review read back: a row that does not read is corrupt.
fn saved_review(id: &str, json: &str) -> Result<crate::serve::review::StoredReview, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::corrupt(format!("race review {id}"), e))
}

/// A stored past round read back: its puzzle and every event must read.
fn past_round(
    room: &str,
    round: i64,
    puzzle: &str,
    start_ms: Option<f64>,
    events: Vec<(i64, String, f64, String)>,
) -> Result<PastRound, StoreError> {
    let what = || format!("round {round} of room {room}");
    let puzzle = serde_json::from_str(puzzle).map_err(|e| StoreError::corrupt(what(), e))?;
    let events = events
        .into_iter()
        .map(|(seq, player, at_ms, json)| saved_event(seq, player, at_ms, &json))
        .collect::<Result<_, _>>()?;
    Ok(PastRound {
        round: u64::try_from(round).map_err(|_| StoreError::corrupt(what(), "a negative round"))?,
        puzzle,
        start_ms,
        events,
    })
}

/// What start-up restores.
#[derive(Debug, Default)]
pub struct Saved {
    /// Unfinished rooms.
    pub rooms: Vec<SavedRoom>,
    /// Pool puzzles: seed, key, puzzle.
    pub pool: Vec<(String, String, PuzzleV1)>,
    /// Every recorded game, oldest first.
    pub records: Vec<GameRecord>,
    /// Every rated race, oldest first.
    pub rated_races: Vec<crate::serve::ratings::RatedRace>,
    /// Every arena tournament, oldest first.
    pub tournaments: Vec<crate::serve::tournament::TournamentSpec>,
    /// Every tournament race's result, oldest first.
    pub tournament_results: Vec<crate::serve::tournament::RaceResult>,
    /// Players hidden from public leaderboards.
    pub hidden: Vec<String>,
}

/// A store operation under way: a boxed future, so that [`Backend`] and
/// [`coordination::Coordination`] can be used as trait objects.
pub type Pending<'a, T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// One result per write of a committed batch (see [`Backend::commit`]).
pub type BatchResults = Vec<Result<(), StoreError>>;

/// What a storage backend does. Every method is async: PostgreSQL's speaks to
/// the server without blocking a worker; SQLite's runs its blocking calls on
/// tokio's blocking threads. Only the [`Store`]'s writer calls `commit`.
pub trait Backend: Send + Sync + 'static {
    /// Where the data lives, for messages and logs.
    fn describe(&self) -> String;
    /// Applies `batch` in one transaction and commits it. One result per write:
    /// a write the backend refuses (a room this node no longer owns) fails
    /// alone; an error of the whole commit fails every write.
    fn commit(&self, batch: Vec<Write>) -> Pending<'_, BatchResults>;
    /// The identity whose token has this hash, if one was stored.
    fn session(&self, token_hash: [u8; 32]) -> Pending<'_, Option<Identity>>;
    /// Every recorded game of one daily board, oldest first.
    fn daily_records<'a>(&'a self, daily_key: &'a str) -> Pending<'a, Vec<GameRecord>>;
    /// The unfinished rooms this node serves, the pool, the records and the
    /// hidden players.
    fn load(&self) -> Pending<'_, Saved>;
    /// The rounds room `code` played before its current one, oldest first.
    fn history<'a>(&'a self, code: &'a str) -> Pending<'a, Vec<PastRound>>;
    /// Keeps a sync code for `who`, valid for `life`; any code `who` had is
    /// replaced.
    fn put_sync_code<'a>(
        &'a self,
        code: &'a str,
        who: &'a Identity,
        life: Duration,
    ) -> Pending<'a, ()>;
    /// A stored race review by id (`None`: no such review).
    fn race_review<'a>(
        &'a self,
        id: &'a str,
    ) -> Pending<'a, Option<crate::serve::review::StoredReview>>;
    /// Spends sync code `code`: the identity it was made for and whether it was
    /// still valid; `None` if there is no such code (a code works once).
    fn take_sync_code<'a>(&'a self, code: &'a str) -> Pending<'a, Option<(Identity, bool)>>;
    /// Gives back the memory the backend's caches hold (the server is idle);
    /// nothing by default.
    fn release_memory(&self) -> Pending<'_, ()> {
        Box::pin(async { Ok(()) })
    }
}

/// Sync codes in memory, for one node: a restart voids them (they live ten
/// minutes). Several nodes keep theirs in the shared database instead.
#[derive(Debug, Default)]
pub struct MemoryCodes {
    codes: dashmap::DashMap<String, (Identity, Instant)>,
}

impl MemoryCodes {
    /// Keeps `code` for `who` until `life` from now, replacing `who`'s older
    /// code; expired codes are dropped on the way.
    pub fn put(&self, code: &str, who: &Identity, life: Duration) {
        let now = Instant::now();
        self.codes
            .retain(|_, (owner, expires)| *expires > now && owner.id != who.id);
        self.codes
            .insert(code.to_string(), (who.clone(), now + life));
    }

    /// Spends `code`: its identity and whether it was still valid.
    pub fn take(&self, code: &str) -> Option<(Identity, bool)> {
        self.codes
            .remove(code)
            .map(|(_, (who, expires))| (who, expires > Instant::now()))
    }
}

/// The JSON form a value is stored in (settings, puzzles, events, records).
fn to_json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Encode(e.to_string()))
}

/// A stored event row read back; an unreadable one is an error naming it.
fn saved_event(seq: i64, player: String, at_ms: f64, json: &str) -> Result<SavedEvent, StoreError> {
    let event =
        serde_json::from_str(json).map_err(|e| StoreError::corrupt(format!("event {seq}"), e))?;
    Ok(SavedEvent {
        seq: u64::try_from(seq)
            .map_err(|_| StoreError::corrupt(format!("event {seq}"), "a negative number"))?,
        player,
        event,
        at_ms,
    })
}

/// A stored room row with its seats and events, read back. `None` (with a
/// warning) when its settings, puzzle or an event no longer read: that room
/// is skipped, the others are restored.
fn saved_room(
    code: String,
    settings: &str,
    puzzle: &str,
    host: String,
    start_ms: Option<f64>,
    seats: Vec<Identity>,
    events: Vec<(i64, String, f64, String)>,
) -> Option<SavedRoom> {
    let (Ok(settings), Ok(puzzle)) = (serde_json::from_str(settings), serde_json::from_str(puzzle))
    else {
        tracing::warn!(room = %code, "unreadable stored room; skipped");
        return None;
    };
    if let Some(bad) = start_ms.filter(|&ms| !plausible_ms(ms)) {
        tracing::warn!(room = %code, start_ms = bad, "stored room starts at an impossible time; skipped");
        return None;
    }
    if let Some((seq, _, at_ms, _)) = events.iter().find(|(_, _, at, _)| !plausible_ms(*at)) {
        tracing::warn!(room = %code, seq, at_ms, "stored event at an impossible time; room skipped");
        return None;
    }
    let events: Result<Vec<SavedEvent>, StoreError> = events
        .into_iter()
        .map(|(seq, player, at_ms, json)| saved_event(seq, player, at_ms, &json))
        .collect();
    match events {
        Ok(events) => Some(SavedRoom {
            code,
            settings,
            puzzle,
            host,
            start_ms,
            seats,
            events,
        }),
        Err(e) => {
            tracing::warn!(room = %code, error = %e, "unreadable stored event; room skipped");
            None
        }
    }
}

/// Whether a stored time (ms since the Unix epoch) could be real: finite, after
/// 1970 and before the year 5000. A row outside it is hostile or corrupt.
pub fn plausible_ms(ms: f64) -> bool {
    ms.is_finite() && (0.0..=95_617_584_000_000.0).contains(&ms)
}

/// Stored game records read back, oldest first; unreadable ones are skipped
/// with a warning.
fn saved_records(rows: Vec<(i64, String)>) -> Vec<GameRecord> {
    saved_rows(rows, "game record")
}

/// Stored rows of JSON read back in order; an unreadable one is skipped with a
/// log line naming its table's kind and id.
fn saved_rows<T: serde::de::DeserializeOwned>(rows: Vec<(i64, String)>, what: &str) -> Vec<T> {
    rows.into_iter()
        .filter_map(|(id, json)| match serde_json::from_str(&json) {
            Ok(value) => Some(value),
            Err(e) => {
                tracing::warn!(id, error = %e, "unreadable {what}; skipped");
                None
            }
        })
        .collect()
}

/// Stored rated races read back, oldest first; unreadable ones are skipped.
fn saved_rated_races(rows: Vec<(i64, String)>) -> Vec<crate::serve::ratings::RatedRace> {
    saved_rows(rows, "rated race")
}

struct Job {
    write: Write,
    ack: oneshot::Sender<Result<(), StoreError>>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").finish_non_exhaustive()
    }
}

/// Commit counters the writer keeps (for `/metrics`).
#[derive(Debug, Default)]
struct CommitStats {
    commits: AtomicU64,
    writes: AtomicU64,
    micros: AtomicU64,
}

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 1024;

/// The handle rooms and connections write through.
pub struct Store {
    backend: Arc<dyn Backend>,
    jobs: mpsc::UnboundedSender<Job>,
    stats: Arc<CommitStats>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend.describe())
            .finish_non_exhaustive()
    }
}

/// The writer task: takes every write queued so far (up to [`MAX_BATCH`]),
/// commits them together, acknowledges each; until every [`Store`] is gone.
async fn writer(
    backend: Arc<dyn Backend>,
    mut jobs: mpsc::UnboundedReceiver<Job>,
    stats: Arc<CommitStats>,
) {
    while let Some(first) = jobs.recv().await {
        let mut writes = vec![first.write];
        let mut acks = vec![first.ack];
        while writes.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => {
                    writes.push(job.write);
                    acks.push(job.ack);
                }
                Err(_) => break,
            }
        }
        let started = std::time::Instant::now();
        let count = writes.len() as u64;
        let outcome = backend.commit(writes).await;
        stats.commits.fetch_add(1, Ordering::Relaxed);
        stats.writes.fetch_add(count, Ordering::Relaxed);
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        stats.micros.fetch_add(micros, Ordering::Relaxed);
        match outcome {
            Ok(results) => {
                let mut results = results.into_iter();
                for ack in acks {
                    // A backend that answered fewer writes than it was given
                    // failed the rest.
                    let result = results.next().unwrap_or(Err(StoreError::Stopped));
                    let _ = ack.send(result);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "database commit failed");
                for ack in acks {
                    let _ = ack.send(Err(e.clone()));
                }
            }
        }
    }
}

impl Store {
    /// Opens (or creates) the SQLite file `dir/arena.db` with the given
    /// durability (inside a tokio runtime: see [`Store::new`]).
    pub fn open_with(dir: &std::path::Path, sync: Synchronous) -> Result<Store, StoreError> {
        Ok(Store::new(Arc::new(sqlite::Sqlite::open(dir, sync)?)))
    }

    /// [`Store::open_with`], every commit synced to the disk.
    pub fn open(dir: &std::path::Path) -> Result<Store, StoreError> {
        Store::open_with(dir, Synchronous::Full)
    }

    /// A store in front of `backend`, with its writer task started on the
    /// current tokio runtime. Outside a runtime there is no writer: every
    /// write fails with [`StoreError::Stopped`] (and the reason is logged).
    pub fn new(backend: Arc<dyn Backend>) -> Store {
        let (jobs, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(CommitStats::default());
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(writer(Arc::clone(&backend), rx, Arc::clone(&stats)));
            }
            Err(e) => tracing::error!(error = %e, "cannot start the database writer"),
        }
        Store {
            backend,
            jobs,
            stats,
        }
    }

    /// Where the data lives.
    pub fn describe(&self) -> String {
        self.backend.describe()
    }

    /// Commit counters in the Prometheus text format.
    pub fn render_metrics(&self) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        format!(
            "# HELP arena_db_commits_total Database transactions committed.\n# TYPE arena_db_commits_total counter\narena_db_commits_total {}\n\
             # HELP arena_db_writes_total Writes committed (several per transaction under load).\n# TYPE arena_db_writes_total counter\narena_db_writes_total {}\n\
             # HELP arena_db_commit_seconds_total Time spent committing.\n# TYPE arena_db_commit_seconds_total counter\narena_db_commit_seconds_total {:.6}\n",
            get(&self.stats.commits),
            get(&self.stats.writes),
            get(&self.stats.micros) as f64 / 1e6
        )
    }

    /// Persists `write`; returns once it is committed.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (ack, done) = oneshot::channel();
        self.jobs
            .send(Job { write, ack })
            .map_err(|_| StoreError::Stopped)?;
        done.await.map_err(|_| StoreError::Stopped)?
    }

    /// Every recorded game of one daily board, oldest first.
    pub async fn daily_records(&self, daily_key: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.backend.daily_records(daily_key).await
    }

    /// The identity whose token has this hash, if one was stored.
    pub async fn session(&self, token_hash: &[u8; 32]) -> Result<Option<Identity>, StoreError> {
        self.backend.session(*token_hash).await
    }

    /// A stored race review by id.
    pub async fn race_review(
        &self,
        id: &str,
    ) -> Result<Option<crate::serve::review::StoredReview>, StoreError> {
        self.backend.race_review(id).await
    }

    /// The rounds room `code` played before its current one, oldest first.
    pub async fn history(&self, code: &str) -> Result<Vec<PastRound>, StoreError> {
        self.backend.history(code).await
    }

    /// Keeps a sync code for `who`, valid for `life`.
    pub async fn put_sync_code(
        &self,
        code: &str,
        who: &Identity,
        life: Duration,
    ) -> Result<(), StoreError> {
        self.backend.put_sync_code(code, who, life).await
    }

    /// Gives back the memory the backend's caches hold (the server is idle).
    pub async fn release_memory(&self) -> Result<(), StoreError> {
        self.backend.release_memory().await
    }

    /// Spends a sync code.
    pub async fn take_sync_code(&self, code: &str) -> Result<Option<(Identity, bool)>, StoreError> {
        self.backend.take_sync_code(code).await
    }

    /// Reads every unfinished room and the pool (before serving). Sessions
    /// stay in the database: [`Store::session`] finds one when its token
    /// returns.
    pub async fn load(&self) -> Result<Saved, StoreError> {
        self.backend.load().await
    }
}
