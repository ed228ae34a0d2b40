//! Durable storage in an embedded SQLite file (`DATA/arena.db`, WAL). One writer
//! thread owns the connection: it takes every write queued so far — from every
//! room — commits them in one transaction, then acknowledges each. A room tells a
//! player a move is accepted only after its write is acknowledged, so an
//! acknowledged move survives `kill -9` and, with [`Synchronous::Full`] (the
//! default: the commit is synced to the disk first), a power loss. On start-up,
//! [`Store::load`] returns the unfinished rooms and the pool to restore; sessions
//! are read one at a time when their token comes back ([`Store::session`]).

use super::event::RoomEvent;
use super::records::GameRecord;
use super::session::Identity;
use protocol::wire::RoomSettings;
use protocol::PuzzleV1;
use rusqlite::{params, Connection};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::Arc;
use tokio::sync::oneshot;

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
    /// The room plays again: a new puzzle, no start, no moves; seats stay.
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
    /// A player hides from public leaderboards, or shows again.
    Hidden {
        /// Player id.
        player: String,
        /// Hidden or not.
        hidden: bool,
    },
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

/// What start-up restores.
#[derive(Debug, Default)]
pub struct Saved {
    /// Unfinished rooms.
    pub rooms: Vec<SavedRoom>,
    /// Pool puzzles: seed, key, puzzle.
    pub pool: Vec<(String, String, PuzzleV1)>,
    /// Every recorded game, oldest first.
    pub records: Vec<GameRecord>,
    /// Players hidden from public leaderboards.
    pub hidden: Vec<String>,
}

struct Job {
    write: Write,
    ack: oneshot::Sender<Result<(), String>>,
}

/// The handle rooms and connections write through.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    /// A connection for point reads (sessions), beside the writer's.
    reader: std::sync::Mutex<Connection>,
    jobs: std_mpsc::Sender<Job>,
    stats: Arc<CommitStats>,
}

/// Commit counters the writer keeps (for `/metrics`).
#[derive(Debug, Default)]
struct CommitStats {
    commits: AtomicU64,
    writes: AtomicU64,
    micros: AtomicU64,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").finish_non_exhaustive()
    }
}

/// How often the write-ahead log is folded into the database file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 1024;

/// How hard a commit waits for the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Synchronous {
    /// Every commit is synced to the disk before it is acknowledged: an
    /// acknowledged change survives a power loss (SQLite `synchronous = FULL`).
    #[default]
    Full,
    /// Commits reach the operating system but are synced only at checkpoints:
    /// an acknowledged change survives a crash of the process, not of the machine
    /// (SQLite `synchronous = NORMAL` in WAL mode).
    Normal,
}

impl Synchronous {
    fn pragma(self) -> &'static str {
        match self {
            Synchronous::Full => "PRAGMA synchronous = FULL;",
            Synchronous::Normal => "PRAGMA synchronous = NORMAL;",
        }
    }
}

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
CREATE TABLE IF NOT EXISTS sessions (
    token_hash BLOB PRIMARY KEY, player TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, settings TEXT NOT NULL, puzzle TEXT NOT NULL,
    host TEXT NOT NULL DEFAULT '', start_ms REAL, finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (room, player));
CREATE TABLE IF NOT EXISTS pool (
    seed TEXT PRIMARY KEY, key TEXT NOT NULL, puzzle TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL, seq INTEGER NOT NULL, player TEXT NOT NULL, at_ms REAL NOT NULL,
    event TEXT NOT NULL, PRIMARY KEY (room, seq));
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, player TEXT NOT NULL, daily_key TEXT,
    at_ms REAL NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_by_daily ON records (daily_key);
CREATE TABLE IF NOT EXISTS hidden_players (player TEXT PRIMARY KEY);
";

/// The schema this build writes (`PRAGMA user_version`). 1 (or 0, before the
/// version was recorded): moves as untyped `kind`/`row`/`col`/`value` columns.
/// 2: each event a typed [`RoomEvent`] in JSON. 3: events may be `forfeit` (a
/// schema-2 file needs no change; an older server must not read the new kind).
/// 4: the `records` table of finished games and `hidden_players` (created where
/// missing; an older server would not keep them). 5: events may be `marks`
/// (pencil marks of several cells at once) and `candidates` (a race's filled-in
/// candidates, counted as a hint); no change to older rows.
pub const SCHEMA_VERSION: i64 = 5;

/// Brings a database to [`SCHEMA_VERSION`] (in one transaction), or refuses one
/// written by a newer server.
fn migrate(conn: &mut Connection) -> Result<(), String> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "the database has schema version {version}, written by a newer server; this one reads up to {SCHEMA_VERSION}"
        ));
    }
    let tx = conn.transaction().map_err(|e| e.to_string())?;
    let legacy = tx
        .prepare("SELECT 1 FROM pragma_table_info('events') WHERE name = 'kind'")
        .and_then(|mut st| st.exists([]))
        .map_err(|e| e.to_string())?;
    if legacy {
        migrate_events_from_v1(&tx)
            .map_err(|e| format!("migrating the events to schema 2: {e}"))?;
    }
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};"))
        .map_err(|e| e.to_string())?;
    tx.commit().map_err(|e| e.to_string())
}

/// Schema 1 to 2: every `kind`/`row`/`col`/`value` row becomes a typed event. A
/// row of an unknown kind is an error: nothing is dropped silently.
fn migrate_events_from_v1(tx: &rusqlite::Transaction) -> Result<(), String> {
    let err = |e: rusqlite::Error| e.to_string();
    tx.execute_batch(
        "CREATE TABLE events_v2 (
            room TEXT NOT NULL, seq INTEGER NOT NULL, player TEXT NOT NULL, at_ms REAL NOT NULL,
            event TEXT NOT NULL, PRIMARY KEY (room, seq));",
    )
    .map_err(err)?;
    let mut read = tx
        .prepare("SELECT room, seq, player, kind, row, col, value, at_ms FROM events")
        .map_err(err)?;
    let mut write = tx
        .prepare(
            "INSERT INTO events_v2 (room, seq, player, at_ms, event) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(err)?;
    let mut rows = read.query([]).map_err(err)?;
    while let Some(r) = rows.next().map_err(err)? {
        let (room, seq): (String, i64) = (r.get(0).map_err(err)?, r.get(1).map_err(err)?);
        let kind: u8 = r.get(3).map_err(err)?;
        let event = RoomEvent::from_legacy(
            kind,
            r.get(4).map_err(err)?,
            r.get(5).map_err(err)?,
            r.get(6).map_err(err)?,
        )
        .ok_or_else(|| format!("room {room}, event {seq}: unknown kind {kind}"))?;
        let json = serde_json::to_string(&event).map_err(|e| e.to_string())?;
        let player: String = r.get(2).map_err(err)?;
        let at_ms: f64 = r.get(7).map_err(err)?;
        write
            .execute(params![room, seq, player, at_ms, json])
            .map_err(err)?;
    }
    drop(rows);
    drop(read);
    drop(write);
    tx.execute_batch("DROP TABLE events; ALTER TABLE events_v2 RENAME TO events;")
        .map_err(err)
}

fn open_connection(path: &Path) -> Result<Connection, String> {
    let conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    conn.execute_batch(SCHEMA)
        .map_err(|e| format!("{}: schema: {e}", path.display()))?;
    Ok(conn)
}

/// SQLite's quick check over the whole file: a damaged page is an error now,
/// not a surprise in the middle of a game.
fn check_integrity(conn: &Connection) -> Result<(), String> {
    let mut st = conn
        .prepare("PRAGMA quick_check")
        .map_err(|e| format!("the database cannot be checked: {e}"))?;
    let problems: Vec<String> = st
        .query_map([], |r| r.get::<_, String>(0))
        .and_then(|rows| rows.collect())
        .map_err(|e| format!("the database is damaged: {e}"))?;
    match problems.as_slice() {
        [ok] if ok == "ok" => Ok(()),
        _ => Err(format!(
            "the database is damaged: {}",
            problems.join("; ").chars().take(300).collect::<String>()
        )),
    }
}

fn apply(conn: &Connection, write: &Write) -> rusqlite::Result<()> {
    match write {
        Write::Session { token_hash, who } => conn
            .execute(
                "INSERT OR REPLACE INTO sessions (token_hash, player, name) VALUES (?1, ?2, ?3)",
                params![&token_hash[..], who.id, who.name],
            )
            .map(drop),
        Write::Room {
            code,
            settings,
            puzzle,
        } => conn
            .execute(
                "INSERT INTO rooms (code, settings, puzzle) VALUES (?1, ?2, ?3)",
                params![
                    code,
                    serde_json::to_string(settings).unwrap_or_default(),
                    serde_json::to_string(puzzle.as_ref()).unwrap_or_default()
                ],
            )
            .map(drop),
        Write::Seat { room, who, seat } => conn
            .execute(
                "INSERT OR REPLACE INTO seats (room, player, name, seat) VALUES (?1, ?2, ?3, ?4)",
                params![room, who.id, who.name, seat],
            )
            .map(drop),
        Write::Unseat { room, player } => conn
            .execute(
                "DELETE FROM seats WHERE room = ?1 AND player = ?2",
                params![room, player],
            )
            .map(drop),
        Write::Host { room, player } => conn
            .execute(
                "UPDATE rooms SET host = ?2 WHERE code = ?1",
                params![room, player],
            )
            .map(drop),
        Write::Start { room, start_ms } => conn
            .execute(
                "UPDATE rooms SET start_ms = ?2 WHERE code = ?1",
                params![room, start_ms],
            )
            .map(drop),
        Write::Event {
            room,
            seq,
            player,
            event,
            at_ms,
        } => conn
            .execute(
                "INSERT INTO events (room, seq, player, at_ms, event) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    room,
                    *seq as i64,
                    player,
                    at_ms,
                    serde_json::to_string(event).unwrap_or_default()
                ],
            )
            .map(drop),
        Write::Rematch { room, puzzle } => {
            conn.execute("DELETE FROM events WHERE room = ?1", params![room])?;
            conn.execute(
                "UPDATE rooms SET puzzle = ?2, start_ms = NULL, finished = 0 WHERE code = ?1",
                params![
                    room,
                    serde_json::to_string(puzzle.as_ref()).unwrap_or_default()
                ],
            )
            .map(drop)
        }
        Write::PoolAdd { seed, key, puzzle } => conn
            .execute(
                "INSERT OR REPLACE INTO pool (seed, key, puzzle) VALUES (?1, ?2, ?3)",
                params![
                    seed,
                    key,
                    serde_json::to_string(puzzle.as_ref()).unwrap_or_default()
                ],
            )
            .map(drop),
        Write::PoolTake { seed } => conn
            .execute("DELETE FROM pool WHERE seed = ?1", params![seed])
            .map(drop),
        Write::Finish { room } => conn
            .execute(
                "UPDATE rooms SET finished = 1 WHERE code = ?1",
                params![room],
            )
            .map(drop),
        Write::Hidden {
            player,
            hidden: true,
        } => conn
            .execute(
                "INSERT OR IGNORE INTO hidden_players (player) VALUES (?1)",
                params![player],
            )
            .map(drop),
        Write::Hidden {
            player,
            hidden: false,
        } => conn
            .execute(
                "DELETE FROM hidden_players WHERE player = ?1",
                params![player],
            )
            .map(drop),
        Write::Record(record) => conn
            .execute(
                "INSERT INTO records (player, daily_key, at_ms, record) VALUES (?1, ?2, ?3, ?4)",
                params![
                    record.player,
                    record.daily_key(),
                    record.at_ms,
                    serde_json::to_string(record.as_ref()).unwrap_or_default()
                ],
            )
            .map(drop),
    }
}

fn writer(mut conn: Connection, jobs: std_mpsc::Receiver<Job>, stats: Arc<CommitStats>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let started = std::time::Instant::now();
        let outcome: Result<Vec<Result<(), String>>, String> = (|| {
            let tx = conn.transaction().map_err(|e| e.to_string())?;
            let results = batch
                .iter()
                .map(|j| apply(&tx, &j.write).map_err(|e| e.to_string()))
                .collect();
            tx.commit().map_err(|e| e.to_string())?;
            Ok(results)
        })();
        stats.commits.fetch_add(1, Ordering::Relaxed);
        stats
            .writes
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        stats.micros.fetch_add(micros, Ordering::Relaxed);
        match outcome {
            Ok(results) => {
                for (job, result) in batch.into_iter().zip(results) {
                    let _ = job.ack.send(result);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "database commit failed");
                for job in batch {
                    let _ = job.ack.send(Err(e.clone()));
                }
            }
        }
    }
}

impl Store {
    /// Opens (or creates) `dir/arena.db` and starts the writer thread; every
    /// commit is synced to the disk before it is acknowledged.
    pub fn open(dir: &Path) -> Result<Store, String> {
        Store::open_with(dir, Synchronous::Full)
    }

    /// [`Store::open`] with the given durability.
    pub fn open_with(dir: &Path, sync: Synchronous) -> Result<Store, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join("arena.db");
        let mut conn = open_connection(&path)?;
        check_integrity(&conn).map_err(|e| format!("{}: {e}", path.display()))?;
        migrate(&mut conn).map_err(|e| format!("{}: {e}", path.display()))?;
        conn.execute_batch(sync.pragma())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // Checkpoints run on their own connection and thread (PASSIVE: they never
        // block the writer), so a commit never waits behind one.
        conn.execute_batch("PRAGMA wal_autocheckpoint = 0;")
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let checkpointer = open_connection(&path)?;
        std::thread::Builder::new()
            .name("arena-db-checkpoint".into())
            .spawn(move || loop {
                std::thread::sleep(CHECKPOINT_EVERY);
                if let Err(e) = checkpointer.execute_batch("PRAGMA wal_checkpoint(PASSIVE);") {
                    tracing::warn!(error = %e, "database checkpoint failed");
                }
            })
            .map_err(|e| format!("cannot start the checkpoint thread: {e}"))?;
        let (jobs, rx) = std_mpsc::channel();
        let stats = Arc::new(CommitStats::default());
        let writer_stats = Arc::clone(&stats);
        std::thread::Builder::new()
            .name("arena-db-writer".into())
            .spawn(move || writer(conn, rx, writer_stats))
            .map_err(|e| format!("cannot start the database writer: {e}"))?;
        let reader = std::sync::Mutex::new(open_connection(&path)?);
        Ok(Store {
            path,
            reader,
            jobs,
            stats,
        })
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
    pub async fn write(&self, write: Write) -> Result<(), String> {
        let (ack, done) = oneshot::channel();
        self.jobs
            .send(Job { write, ack })
            .map_err(|_| "the database writer has stopped".to_string())?;
        done.await
            .map_err(|_| "the database writer has stopped".to_string())?
    }

    /// Every recorded game of one daily board, oldest first (a blocking read:
    /// call it off the async workers).
    pub fn daily_records(&self, daily_key: &str) -> Result<Vec<GameRecord>, String> {
        let conn = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        let mut st = conn
            .prepare("SELECT record FROM records WHERE daily_key = ?1 ORDER BY id")
            .map_err(|e| e.to_string())?;
        let rows: Vec<String> = st
            .query_map([daily_key], |r| r.get(0))
            .map_err(|e| e.to_string())?
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        Ok(rows
            .iter()
            .filter_map(|r| serde_json::from_str(r).ok())
            .collect())
    }

    /// The identity whose token has this hash, if one was stored (a blocking
    /// point read: call it off the async workers).
    pub fn session(&self, token_hash: &[u8; 32]) -> Result<Option<Identity>, String> {
        let conn = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        let found = conn.query_row(
            "SELECT player, name FROM sessions WHERE token_hash = ?1",
            params![&token_hash[..]],
            |r| {
                Ok(Identity {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            },
        );
        match found {
            Ok(who) => Ok(Some(who)),
            Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Reads every unfinished room and the pool (call before serving). Sessions
    /// stay in the database: [`Store::session`] finds one when its token returns.
    pub fn load(&self) -> Result<Saved, String> {
        let conn = open_connection(&self.path)?;
        let err = |e: rusqlite::Error| e.to_string();
        let mut saved = Saved::default();
        let mut st = conn
            .prepare("SELECT seed, key, puzzle FROM pool")
            .map_err(err)?;
        let rows: Vec<(String, String, String)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        for (seed, key, puzzle) in rows {
            if let Ok(puzzle) = serde_json::from_str(&puzzle) {
                saved.pool.push((seed, key, puzzle));
            }
        }
        let mut st = conn
            .prepare("SELECT code, settings, puzzle, host, start_ms FROM rooms WHERE finished = 0")
            .map_err(err)?;
        let rooms: Vec<(String, String, String, String, Option<f64>)> = st
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        for (code, settings, puzzle, host, start_ms) in rooms {
            let (Ok(settings), Ok(puzzle)) = (
                serde_json::from_str(&settings),
                serde_json::from_str(&puzzle),
            ) else {
                tracing::warn!(room = %code, "unreadable stored room; skipped");
                continue;
            };
            let mut seats_st = conn
                .prepare("SELECT player, name FROM seats WHERE room = ?1 ORDER BY seat")
                .map_err(err)?;
            let seats = seats_st
                .query_map([&code], |r| {
                    Ok(Identity {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    })
                })
                .map_err(err)?
                .collect::<Result<_, _>>()
                .map_err(err)?;
            let mut events_st = conn
                .prepare(
                    "SELECT seq, player, at_ms, event FROM events WHERE room = ?1 ORDER BY seq",
                )
                .map_err(err)?;
            let rows: Vec<(i64, String, f64, String)> = events_st
                .query_map([&code], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .map_err(err)?
                .collect::<Result<_, _>>()
                .map_err(err)?;
            let events: Result<Vec<SavedEvent>, String> = rows
                .into_iter()
                .map(|(seq, player, at_ms, json)| {
                    let event =
                        serde_json::from_str(&json).map_err(|e| format!("event {seq}: {e}"))?;
                    Ok(SavedEvent {
                        seq: seq as u64,
                        player,
                        event,
                        at_ms,
                    })
                })
                .collect();
            let events = match events {
                Ok(events) => events,
                Err(e) => {
                    tracing::warn!(room = %code, error = %e, "unreadable stored event; room skipped");
                    continue;
                }
            };
            saved.rooms.push(SavedRoom {
                code,
                settings,
                puzzle,
                host,
                start_ms,
                seats,
                events,
            });
        }
        let mut st = conn
            .prepare("SELECT id, record FROM records ORDER BY id")
            .map_err(err)?;
        let rows: Vec<(i64, String)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        for (id, record) in rows {
            match serde_json::from_str(&record) {
                Ok(record) => saved.records.push(record),
                Err(e) => tracing::warn!(id, error = %e, "unreadable game record; skipped"),
            }
        }
        let mut st = conn
            .prepare("SELECT player FROM hidden_players")
            .map_err(err)?;
        saved.hidden = st
            .query_map([], |r| r.get(0))
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        Ok(saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::wire::{HintPolicy, MistakePolicy, Mode};

    #[tokio::test]
    async fn writes_survive_a_reopen() {
        let dir = std::env::temp_dir().join(format!("arena-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).expect("open");
        let who = Identity {
            id: "p1".into(),
            name: "Ada".into(),
        };
        store
            .write(Write::Session {
                token_hash: [7; 32],
                who: who.clone(),
            })
            .await
            .expect("session");
        let settings = RoomSettings {
            variant: "classic".into(),
            params: Default::default(),
            difficulty: "easy".into(),
            mode: Mode::Race,
            public: false,
            max_players: 2,
            mistakes: MistakePolicy::None,
            hints: HintPolicy::Off,
            daily: None,
            ghosts: false,
            own_best: false,
            puzzle: None,
        };
        let puzzle: PuzzleV1 = serde_json::from_str(
            r#"{"format":"sudoku-arena/puzzle@1","size":1,"layout":{"rows":1,"cols":1},"grid":[[0]]}"#,
        )
        .expect("puzzle");
        store
            .write(Write::Room {
                code: "abc".into(),
                settings,
                puzzle: Box::new(puzzle),
            })
            .await
            .expect("room");
        store
            .write(Write::Seat {
                room: "abc".into(),
                who: who.clone(),
                seat: 0,
            })
            .await
            .expect("seat");
        store
            .write(Write::Start {
                room: "abc".into(),
                start_ms: 5.0,
            })
            .await
            .expect("start");
        store
            .write(Write::Event {
                room: "abc".into(),
                seq: 1,
                player: "p1".into(),
                event: RoomEvent::Value {
                    row: 0,
                    col: 0,
                    value: 1,
                },
                at_ms: 9.0,
            })
            .await
            .expect("event");
        let reopened = Store::open(&dir).expect("reopen");
        assert_eq!(reopened.session(&[7; 32]), Ok(Some(who.clone())));
        assert_eq!(reopened.session(&[8; 32]), Ok(None));
        let saved = reopened.load().expect("load");
        let room = &saved.rooms[0];
        assert_eq!((room.code.as_str(), room.start_ms), ("abc", Some(5.0)));
        assert_eq!(room.seats, vec![who]);
        assert_eq!(
            room.events[0].event,
            RoomEvent::Value {
                row: 0,
                col: 0,
                value: 1
            }
        );
        store
            .write(Write::Finish { room: "abc".into() })
            .await
            .expect("finish");
        assert!(
            store.load().expect("load").rooms.is_empty(),
            "finished rooms are not restored"
        );
    }

    /// A fresh directory for one test.
    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn a_schema_1_database_is_migrated_not_refused() {
        let dir = temp_dir("v1");
        {
            // The schema-1 events table, as the previous release wrote it.
            let old = Connection::open(dir.join("arena.db")).expect("create");
            old.execute_batch(
                "PRAGMA journal_mode = WAL;
                 CREATE TABLE rooms (code TEXT PRIMARY KEY, settings TEXT NOT NULL, puzzle TEXT NOT NULL,
                     host TEXT NOT NULL DEFAULT '', start_ms REAL, finished INTEGER NOT NULL DEFAULT 0);
                 CREATE TABLE events (room TEXT NOT NULL, seq INTEGER NOT NULL, player TEXT NOT NULL,
                     kind INTEGER NOT NULL, row INTEGER NOT NULL, col INTEGER NOT NULL,
                     value INTEGER NOT NULL, at_ms REAL NOT NULL, PRIMARY KEY (room, seq));
                 INSERT INTO rooms VALUES ('abc',
                     '{\"variant\":\"classic\",\"difficulty\":\"easy\",\"mode\":\"solo\",\"max_players\":1}',
                     '{\"format\":\"sudoku-arena/puzzle@1\",\"size\":1,\"layout\":{\"rows\":1,\"cols\":1},\"grid\":[[0]]}',
                     'p1', 5.0, 0);
                 INSERT INTO events VALUES ('abc', 1, 'p1', 0, 0, 0, 1, 6.0);
                 INSERT INTO events VALUES ('abc', 2, 'p1', 2, 0, 0, 0, 7.0);
                 INSERT INTO events VALUES ('abc', 3, 'p1', 3, 0, 0, 0, 8.0);
                 INSERT INTO events VALUES ('abc', 4, 'p1', 4, 0, 0, 0, 9.0);
                 INSERT INTO events VALUES ('abc', 5, 'p1', 1, 0, 0, 5, 10.0);",
            )
            .expect("schema 1");
        }
        let store = Store::open(&dir).expect("a schema-1 database opens");
        let events: Vec<RoomEvent> = store.load().expect("load").rooms[0]
            .events
            .iter()
            .map(|e| e.event.clone())
            .collect();
        assert_eq!(
            events,
            vec![
                RoomEvent::Value {
                    row: 0,
                    col: 0,
                    value: 1
                },
                RoomEvent::Hint { row: 0, col: 0 },
                RoomEvent::Pause,
                RoomEvent::Resume,
                RoomEvent::Pencil {
                    row: 0,
                    col: 0,
                    marks: 5
                },
            ]
        );
        let conn = Connection::open(dir.join("arena.db")).expect("open");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, SCHEMA_VERSION);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_database_from_a_newer_server_is_refused() {
        let dir = temp_dir("v99");
        Connection::open(dir.join("arena.db"))
            .and_then(|c| c.execute_batch("PRAGMA user_version = 99;"))
            .expect("newer");
        let e = Store::open(&dir).expect_err("refused");
        assert!(e.contains("schema version 99"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
