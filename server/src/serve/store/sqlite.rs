//! The embedded backend: one SQLite file (`DATA/arena.db`, WAL), the default.
//! With [`Synchronous::Full`] (the default) a commit is synced to the disk
//! before it is acknowledged, so an acknowledged change survives a power loss
//! too. A background thread folds the write-ahead log into the file.

use super::{
    past_round, saved_rated_races, saved_records, saved_review, saved_room, saved_rows, to_json,
    Backend, BatchResults, MemoryCodes, PastRound, Pending, Saved, StoreError, Write,
};
use crate::serve::event::RoomEvent;
use crate::serve::identity::Identity;
use crate::serve::records::GameRecord;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the write-ahead log is folded into the database file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Frames (pages) the write-ahead log may hold after a passive checkpoint before
/// the writer is asked to start it over (about 16 MiB of 4 KiB pages). Under
/// writes that never pause, a checkpoint beside the writer never sees the whole
/// log folded in, so SQLite never starts the log over: the file grew 30 MB a
/// second at 10,000 clients, and its index (mapped into memory) with it.
const WAL_RESTART_FRAMES: i64 = 4096;

/// The size, in bytes, the write-ahead log file is cut back to when it is
/// started over (`journal_size_limit`): room for [`WAL_RESTART_FRAMES`] and a
/// second of heavy writes, so it is seldom cut and regrown.
const WAL_SIZE_LIMIT: i64 = 64 << 20;

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
    host TEXT NOT NULL DEFAULT '', start_ms REAL, finished INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (room, player));
CREATE TABLE IF NOT EXISTS pool (
    seed TEXT PRIMARY KEY, key TEXT NOT NULL, puzzle TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL, round INTEGER NOT NULL DEFAULT 0, seq INTEGER NOT NULL,
    player TEXT NOT NULL, at_ms REAL NOT NULL, event TEXT NOT NULL,
    PRIMARY KEY (room, round, seq));
CREATE TABLE IF NOT EXISTS rounds (
    room TEXT NOT NULL, round INTEGER NOT NULL, puzzle TEXT NOT NULL, start_ms REAL,
    PRIMARY KEY (room, round));
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, player TEXT NOT NULL, daily_key TEXT,
    at_ms REAL NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_by_daily ON records (daily_key);
CREATE TABLE IF NOT EXISTS hidden_players (player TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS rated_races (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms REAL NOT NULL, race TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS race_reviews (
    id TEXT PRIMARY KEY, at_ms REAL NOT NULL, review TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournament_results (
    id INTEGER PRIMARY KEY AUTOINCREMENT, tournament TEXT NOT NULL, result TEXT NOT NULL);
";

/// The schema this build writes (`PRAGMA user_version`). 1 (or 0, before the
/// version was recorded): moves as untyped `kind`/`row`/`col`/`value` columns.
/// 2: each event a typed [`RoomEvent`] in JSON. 3: events may be `forfeit` (a
/// schema-2 file needs no change; an older server must not read the new kind).
/// 4: the `records` table of finished games and `hidden_players` (created where
/// missing; an older server would not keep them). 5: events may be `marks`
/// (pencil marks of several cells at once) and `candidates` (a race's filled-in
/// candidates, counted as a hint); no change to older rows. 6: rooms play
/// numbered rounds (`rooms.round`); a rematch keeps the round before — its
/// puzzle and start in `rounds`, its events under their round — as the room's
/// history, where it deleted them. 7: `rated_races`, the finished rated races
/// ratings are folded from (created where missing; an older server would not
/// keep them). 8: `race_reviews`, finished races' reviews, and
/// `tournaments` with their races' `tournament_results` (created where
/// missing).
pub const SCHEMA_VERSION: i64 = 8;

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
    migrate_to_rounds(&tx).map_err(|e| format!("migrating to schema 6: {e}"))?;
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};"))
        .and_then(|()| tx.commit())
        .map_err(|e| e.to_string())
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

/// Whether `table` has a column `column`.
fn has_column(tx: &rusqlite::Transaction, table: &str, column: &str) -> rusqlite::Result<bool> {
    tx.prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")
        .and_then(|mut st| st.exists(params![table, column]))
}

/// Schema 5 to 6: rooms get a round number and events the round they belong to
/// (every stored event is round 0's); SQLite cannot change a primary key, so
/// the events table is rebuilt.
fn migrate_to_rounds(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    if !has_column(tx, "rooms", "round")? {
        tx.execute_batch("ALTER TABLE rooms ADD COLUMN round INTEGER NOT NULL DEFAULT 0;")?;
    }
    if !has_column(tx, "events", "round")? {
        tx.execute_batch(
            "CREATE TABLE events_v6 (
                room TEXT NOT NULL, round INTEGER NOT NULL DEFAULT 0, seq INTEGER NOT NULL,
                player TEXT NOT NULL, at_ms REAL NOT NULL, event TEXT NOT NULL,
                PRIMARY KEY (room, round, seq));
             INSERT INTO events_v6 (room, round, seq, player, at_ms, event)
                SELECT room, 0, seq, player, at_ms, event FROM events;
             DROP TABLE events;
             ALTER TABLE events_v6 RENAME TO events;",
        )?;
    }
    Ok(())
}

fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(|e| StoreError::open(path.display(), e))?;
    conn.execute_batch(SCHEMA)
        .map_err(|e| StoreError::open(path.display(), format!("schema: {e}")))?;
    Ok(conn)
}

/// The `(id, json)` rows `sql` selects, in its order.
fn json_rows(conn: &Connection, sql: &str) -> Result<Vec<(i64, String)>, StoreError> {
    let mut st = conn.prepare(sql)?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Folds the write-ahead log into the database file without blocking the writer
/// (PASSIVE); returns the frames in the log.
fn passive_checkpoint(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1))
}

/// The checkpoint thread's pass: [`passive_checkpoint`], and when the log is
/// still longer than [`WAL_RESTART_FRAMES`], `catch_up` raised for the writer.
/// The writer then folds in the few frames committed since, before its next
/// transaction, which finds the log all folded in and so starts it over: a
/// millisecond or two in the writer, where a RESTART checkpoint from here held
/// commits back for up to 10 ms each time. The file keeps its size (overwriting
/// in place keeps commits' syncs cheap) up to [`WAL_SIZE_LIMIT`].
fn checkpoint(conn: &Connection, catch_up: &AtomicBool) -> rusqlite::Result<()> {
    if passive_checkpoint(conn)? > WAL_RESTART_FRAMES {
        catch_up.store(true, Ordering::Relaxed);
    }
    Ok(())
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

fn apply(conn: &Connection, write: &Write) -> Result<(), StoreError> {
    let done = match write {
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
                params![code, to_json(settings)?, to_json(puzzle.as_ref())?],
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
                "INSERT INTO events (room, round, seq, player, at_ms, event)
                 VALUES (?1, COALESCE((SELECT round FROM rooms WHERE code = ?1), 0), ?2, ?3, ?4, ?5)",
                params![room, *seq as i64, player, at_ms, to_json(event)?],
            )
            .map(drop),
        Write::Rematch { room, puzzle } => {
            conn.execute(
                "INSERT OR REPLACE INTO rounds (room, round, puzzle, start_ms)
                 SELECT code, round, puzzle, start_ms FROM rooms WHERE code = ?1",
                params![room],
            )?;
            conn.execute(
                "UPDATE rooms SET puzzle = ?2, start_ms = NULL, finished = 0, round = round + 1
                 WHERE code = ?1",
                params![room, to_json(puzzle.as_ref())?],
            )
            .map(drop)
        }
        Write::PoolAdd { seed, key, puzzle } => conn
            .execute(
                "INSERT OR REPLACE INTO pool (seed, key, puzzle) VALUES (?1, ?2, ?3)",
                params![seed, key, to_json(puzzle.as_ref())?],
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
        Write::RatedRace(race) => conn
            .execute(
                "INSERT INTO rated_races (at_ms, race) VALUES (?1, ?2)",
                params![race.at_ms, to_json(race.as_ref())?],
            )
            .map(drop),
        Write::RaceReview(stored) => conn
            .execute(
                "INSERT OR REPLACE INTO race_reviews (id, at_ms, review) VALUES (?1, ?2, ?3)",
                params![
                    stored.review.id,
                    stored.review.at_ms,
                    to_json(stored.as_ref())?
                ],
            )
            .map(drop),
        Write::Tournament(spec) => conn
            .execute(
                "INSERT OR IGNORE INTO tournaments (id, spec) VALUES (?1, ?2)",
                params![spec.id, to_json(spec.as_ref())?],
            )
            .map(drop),
        Write::TournamentResult(result) => conn
            .execute(
                "INSERT INTO tournament_results (tournament, result) VALUES (?1, ?2)",
                params![result.tournament, to_json(result.as_ref())?],
            )
            .map(drop),
        Write::Record(record) => conn
            .execute(
                "INSERT INTO records (player, daily_key, at_ms, record) VALUES (?1, ?2, ?3, ?4)",
                params![
                    record.player,
                    record.daily_key(),
                    record.at_ms,
                    to_json(record.as_ref())?
                ],
            )
            .map(drop),
    };
    Ok(done?)
}

/// The SQLite file and its connections; every method blocks.
#[derive(Debug)]
struct SqliteFile {
    path: PathBuf,
    /// The writer's connection (only the store's writer commits).
    writer: Mutex<Connection>,
    /// A connection for point reads (sessions, a day's records), beside the writer's.
    reader: Mutex<Connection>,
    /// Raised by the checkpoint thread when the log should start over: the
    /// writer folds in the rest of it before its next transaction ([`checkpoint`]).
    catch_up: Arc<AtomicBool>,
    /// Sync codes: one node, so in memory.
    codes: MemoryCodes,
}

/// The SQLite backend: the file's blocking calls run on tokio's blocking
/// threads.
#[derive(Debug, Clone)]
pub struct Sqlite {
    file: Arc<SqliteFile>,
}

impl Sqlite {
    /// Opens (or creates) `dir/arena.db`, checks it, brings its schema up to
    /// date and starts the checkpoint thread.
    pub fn open(dir: &Path, sync: Synchronous) -> Result<Sqlite, StoreError> {
        Ok(Sqlite {
            file: Arc::new(SqliteFile::open(dir, sync)?),
        })
    }

    /// Runs `work` on the file off the async workers.
    fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&SqliteFile) -> Result<T, StoreError> + Send + 'static,
    ) -> Pending<'static, T> {
        let file = Arc::clone(&self.file);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || work(&file))
                .await
                .map_err(|_| StoreError::Stopped)?
        })
    }
}

impl Backend for Sqlite {
    fn describe(&self) -> String {
        self.file.path.display().to_string()
    }

    fn commit(&self, batch: Vec<Write>) -> Pending<'_, BatchResults> {
        self.blocking(move |file| file.commit(&batch))
    }

    fn session(&self, token_hash: [u8; 32]) -> Pending<'_, Option<Identity>> {
        self.blocking(move |file| file.session(&token_hash))
    }

    fn daily_records<'a>(&'a self, daily_key: &'a str) -> Pending<'a, Vec<GameRecord>> {
        let key = daily_key.to_string();
        self.blocking(move |file| file.daily_records(&key))
    }

    fn load(&self) -> Pending<'_, Saved> {
        self.blocking(|file| file.load())
    }

    fn history<'a>(&'a self, code: &'a str) -> Pending<'a, Vec<PastRound>> {
        let code = code.to_string();
        self.blocking(move |file| file.history(&code))
    }

    fn put_sync_code<'a>(
        &'a self,
        code: &'a str,
        who: &'a Identity,
        life: Duration,
    ) -> Pending<'a, ()> {
        self.file.codes.put(code, who, life);
        Box::pin(async { Ok(()) })
    }

    fn race_review<'a>(
        &'a self,
        id: &'a str,
    ) -> Pending<'a, Option<crate::serve::review::StoredReview>> {
        let id = id.to_string();
        self.blocking(move |file| file.race_review(&id))
    }

    fn take_sync_code<'a>(&'a self, code: &'a str) -> Pending<'a, Option<(Identity, bool)>> {
        let taken = self.file.codes.take(code);
        Box::pin(async move { Ok(taken) })
    }

    fn release_memory(&self) -> Pending<'_, ()> {
        self.blocking(|file| {
            file.release_memory();
            Ok(())
        })
    }
}

impl SqliteFile {
    /// Opens (or creates) `dir/arena.db`, checks it, brings its schema up to
    /// date and starts the checkpoint thread.
    fn open(dir: &Path, sync: Synchronous) -> Result<SqliteFile, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::open(dir.display(), e))?;
        let path = dir.join("arena.db");
        let at = |e: String| StoreError::open(path.display(), e);
        let mut conn = open_connection(&path)?;
        check_integrity(&conn).map_err(at)?;
        migrate(&mut conn).map_err(at)?;
        conn.execute_batch(sync.pragma())
            .map_err(|e| at(e.to_string()))?;
        // Checkpoints run on their own connection and thread (PASSIVE: they never
        // block the writer), so a commit never waits behind one; the writer only
        // folds in the last few frames when the log is to start over.
        conn.execute_batch(&format!(
            "PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = {WAL_SIZE_LIMIT};"
        ))
        .map_err(|e| at(e.to_string()))?;
        let checkpointer = open_connection(&path)?;
        let catch_up = Arc::new(AtomicBool::new(false));
        let raised = Arc::clone(&catch_up);
        std::thread::Builder::new()
            .name("arena-db-checkpoint".into())
            .spawn(move || {
                crate::allocator::disable_on_this_thread();
                loop {
                    std::thread::sleep(CHECKPOINT_EVERY);
                    if let Err(e) = checkpoint(&checkpointer, &raised) {
                        tracing::warn!(error = %e, "database checkpoint failed");
                    }
                }
            })
            .map_err(|e| at(format!("cannot start the checkpoint thread: {e}")))?;
        let reader = Mutex::new(open_connection(&path)?);
        Ok(SqliteFile {
            path,
            writer: Mutex::new(conn),
            reader,
            catch_up,
            codes: MemoryCodes::default(),
        })
    }

    fn commit(&self, batch: &[Write]) -> Result<BatchResults, StoreError> {
        let mut conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        if self.catch_up.swap(false, Ordering::Relaxed) {
            if let Err(e) = passive_checkpoint(&conn) {
                tracing::warn!(error = %e, "database checkpoint failed");
            }
        }
        let tx = conn.transaction()?;
        let results = batch.iter().map(|w| apply(&tx, w)).collect();
        tx.commit()?;
        Ok(results)
    }

    fn daily_records(&self, daily_key: &str) -> Result<Vec<GameRecord>, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        let mut st =
            conn.prepare("SELECT id, record FROM records WHERE daily_key = ?1 ORDER BY id")?;
        let rows: Vec<(i64, String)> = st
            .query_map([daily_key], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(saved_records(rows))
    }

    fn race_review(
        &self,
        id: &str,
    ) -> Result<Option<crate::serve::review::StoredReview>, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        let json: Option<String> = conn
            .query_row("SELECT review FROM race_reviews WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        json.map(|j: String| saved_review(id, &j)).transpose()
    }

    fn session(&self, token_hash: &[u8; 32]) -> Result<Option<Identity>, StoreError> {
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
            Err(e) => Err(e.into()),
        }
    }

    fn history(&self, code: &str) -> Result<Vec<PastRound>, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        let mut rounds_st = conn
            .prepare("SELECT round, puzzle, start_ms FROM rounds WHERE room = ?1 ORDER BY round")?;
        let rounds: Vec<(i64, String, Option<f64>)> = rounds_st
            .query_map([code], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        let mut events_st = conn.prepare(
            "SELECT seq, player, at_ms, event FROM events WHERE room = ?1 AND round = ?2
             ORDER BY seq",
        )?;
        rounds
            .into_iter()
            .map(|(round, puzzle, start_ms)| {
                let events = events_st
                    .query_map(params![code, round], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                    })?
                    .collect::<Result<_, _>>()?;
                past_round(code, round, &puzzle, start_ms, events)
            })
            .collect()
    }

    /// Each connection's page cache, emptied (`PRAGMA shrink_memory`): it refills
    /// from the file as play resumes.
    fn release_memory(&self) {
        for conn in [&self.writer, &self.reader] {
            let conn = conn.lock().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = conn.execute_batch("PRAGMA shrink_memory;") {
                tracing::warn!(error = %e, "cannot shrink the database's caches");
            }
        }
    }

    fn load(&self) -> Result<Saved, StoreError> {
        let conn = open_connection(&self.path)?;
        let err = StoreError::from;
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
        let mut seats_st = conn
            .prepare("SELECT player, name FROM seats WHERE room = ?1 ORDER BY seat")
            .map_err(err)?;
        let mut events_st = conn
            .prepare(
                "SELECT seq, player, at_ms, event FROM events
                 WHERE room = ?1 AND round = (SELECT round FROM rooms WHERE code = ?1) ORDER BY seq",
            )
            .map_err(err)?;
        for (code, settings, puzzle, host, start_ms) in rooms {
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
            let events = events_st
                .query_map([&code], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .map_err(err)?
                .collect::<Result<_, _>>()
                .map_err(err)?;
            saved.rooms.extend(saved_room(
                code, &settings, &puzzle, host, start_ms, seats, events,
            ));
        }
        saved.records = saved_records(json_rows(
            &conn,
            "SELECT id, record FROM records ORDER BY id",
        )?);
        saved.rated_races = saved_rated_races(json_rows(
            &conn,
            "SELECT id, race FROM rated_races ORDER BY id",
        )?);
        let tournaments = json_rows(&conn, "SELECT n, spec FROM tournaments ORDER BY n")?;
        saved.tournaments = saved_rows(tournaments, "tournament");
        let results = json_rows(
            &conn,
            "SELECT id, result FROM tournament_results ORDER BY id",
        )?;
        saved.tournament_results = saved_rows(results, "tournament result");
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
        let store = SqliteFile::open(&dir, Synchronous::Full).expect("a schema-1 database opens");
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
    fn a_long_write_ahead_log_is_started_over_by_the_next_commit() {
        let dir = temp_dir("wal");
        let store = SqliteFile::open(&dir, Synchronous::Normal).expect("open");
        // Another writer, which leaves checkpoints to the store as its writer does.
        let other = open_connection(&store.path).expect("other writer");
        other
            .execute_batch("PRAGMA wal_autocheckpoint = 0;")
            .expect("no automatic checkpoints");
        // One page-sized row per frame, more frames than the log may keep.
        let page = "x".repeat(4000);
        other.execute_batch("BEGIN").expect("begin");
        for seed in 0..WAL_RESTART_FRAMES + 500 {
            other
                .execute(
                    "INSERT INTO pool (seed, key, puzzle) VALUES (?1, 'k', ?2)",
                    params![seed.to_string(), page],
                )
                .expect("insert");
        }
        other.execute_batch("COMMIT").expect("commit");
        // A reader's snapshot from before a later commit keeps that commit out of
        // the checkpoint's pass, as commits made during a pass are under load.
        let reader = open_connection(&store.path).expect("reader");
        reader.execute_batch("BEGIN").expect("begin read");
        let seen: i64 = reader
            .query_row("SELECT COUNT(*) FROM pool", [], |r| r.get(0))
            .expect("read");
        other
            .execute(
                "INSERT INTO pool (seed, key, puzzle) VALUES ('late', 'k', 'p')",
                [],
            )
            .expect("late insert");
        let checkpointer = open_connection(&store.path).expect("checkpointer");
        checkpoint(&checkpointer, &store.catch_up).expect("checkpoint");
        reader.execute_batch("COMMIT").expect("end read");
        assert_eq!(seen, WAL_RESTART_FRAMES + 500);
        assert!(store.catch_up.load(Ordering::Relaxed));
        let write = Write::Hidden {
            player: "p1".into(),
            hidden: true,
        };
        let results = store.commit(&[write]).expect("commit");
        assert!(results.iter().all(Result::is_ok));
        // The commit wrote from the log's start.
        let frames = passive_checkpoint(&checkpointer).expect("frames");
        assert!(frames < 10, "{frames} frames");
        let rows: i64 = other
            .query_row("SELECT COUNT(*) FROM pool", [], |r| r.get(0))
            .expect("count");
        assert_eq!(rows, WAL_RESTART_FRAMES + 501);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rooms_stored_at_impossible_times_are_skipped_not_a_panic() {
        let dir = temp_dir("times");
        {
            let store = SqliteFile::open(&dir, Synchronous::Full).expect("open");
            drop(store);
            let conn = Connection::open(dir.join("arena.db")).expect("open");
            let settings =
                r#"{"variant":"classic","difficulty":"easy","mode":"solo","max_players":1}"#;
            let puzzle = r#"{"format":"sudoku-arena/puzzle@1","size":1,"layout":{"rows":1,"cols":1},"grid":[[0]]}"#;
            for (code, start_ms) in [("far", 1e300), ("neg", -5.0), ("ok", 5.0)] {
                conn.execute(
                    "INSERT INTO rooms (code, settings, puzzle, host, start_ms) VALUES (?1, ?2, ?3, 'p1', ?4)",
                    params![code, settings, puzzle, start_ms],
                )
                .expect("insert");
            }
            conn.execute(
                "INSERT INTO rooms (code, settings, puzzle, host, start_ms) VALUES ('late', ?1, ?2, 'p1', 5.0)",
                params![settings, puzzle],
            )
            .expect("insert");
            conn.execute(
                "INSERT INTO events (room, seq, player, at_ms, event) VALUES ('late', 1, 'p1', 1e300, '{}')",
                [],
            )
            .expect("insert");
        }
        let store = SqliteFile::open(&dir, Synchronous::Full).expect("opens");
        let rooms: Vec<String> = store
            .load()
            .expect("loads")
            .rooms
            .into_iter()
            .map(|r| r.code)
            .collect();
        assert_eq!(
            rooms,
            ["ok"],
            "the hostile rows are skipped, the good one kept"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_database_from_a_newer_server_is_refused() {
        let dir = temp_dir("v99");
        Connection::open(dir.join("arena.db"))
            .and_then(|c| c.execute_batch("PRAGMA user_version = 99;"))
            .expect("newer");
        let e = SqliteFile::open(&dir, Synchronous::Full).expect_err("refused");
        assert!(
            matches!(&e, StoreError::Open { why, .. } if why.contains("schema version 99")),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
