//! The PostgreSQL backend, for several `arena serve` nodes sharing one database
//! (`arena serve --database postgres://…`). The same tables as the SQLite file,
//! versioned migrations applied at start (under an advisory lock, so nodes that
//! start together migrate once), and every room row carries its owner — the node
//! that serves it — and a fencing epoch. The owner's lease is its node's: a node
//! renews one row (`nodes.lease_until`) for all its rooms, so renewing never
//! contends with the rooms' writes; when it lapses, every room of that node may
//! be taken over.
//!
//! **Fencing.** A node writes for a room only with the epoch it took the room
//! at. Every commit locks the rows of the rooms it writes for (`FOR SHARE`) and
//! compares their owner and epoch with the node's: a write from a node that lost
//! the room (the other node's takeover raised the epoch) is refused inside the
//! database transaction, so two nodes can never both accept moves for one room.
//! A takeover's `UPDATE` waits for a commit holding that lock, so every write
//! acknowledged before the takeover is in the log the new owner replays.
//!
//! Every method blocks (the `postgres` crate drives its own small runtime):
//! call them on the store's writer thread or through `spawn_blocking`.

use super::coordination::{
    Coordination, Expired, Location, NodeIdentity, NodeLoad, Notice, TournamentMark,
    TournamentRows, HIDDEN_CHANNEL, LOBBY_CHANNEL, RATINGS_CHANNEL, RECORDS_CHANNEL,
    TOURNAMENTS_CHANNEL,
};
use super::{
    past_round, saved_rated_races, saved_records, saved_review, saved_room, saved_rows, to_json,
    Backend, PastRound, Saved, SavedRoom, StoreError, Write,
};
use crate::serve::identity::Identity;
use crate::serve::records::GameRecord;
use dashmap::DashMap;
use postgres::types::ToSql;
use postgres::{Client, GenericClient, NoTls, Statement};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// The schema, one migration per version (index + 1); applied in order, each
/// in the transaction that records it.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE sessions (
    token_hash BYTEA PRIMARY KEY, player TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE rooms (
    code TEXT PRIMARY KEY, settings TEXT NOT NULL, puzzle TEXT NOT NULL,
    host TEXT NOT NULL DEFAULT '', start_ms DOUBLE PRECISION,
    finished BOOLEAN NOT NULL DEFAULT FALSE,
    owner TEXT NOT NULL, epoch BIGINT NOT NULL);
CREATE INDEX rooms_by_owner ON rooms (owner) WHERE NOT finished;
CREATE TABLE seats (
    room TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (room, player));
CREATE TABLE pool (seed TEXT PRIMARY KEY, key TEXT NOT NULL, puzzle TEXT NOT NULL);
CREATE TABLE events (
    room TEXT NOT NULL, seq BIGINT NOT NULL, player TEXT NOT NULL,
    at_ms DOUBLE PRECISION NOT NULL, event TEXT NOT NULL, PRIMARY KEY (room, seq));
CREATE TABLE records (
    id BIGSERIAL PRIMARY KEY, player TEXT NOT NULL, daily_key TEXT,
    at_ms DOUBLE PRECISION NOT NULL, record TEXT NOT NULL, node TEXT NOT NULL);
CREATE INDEX records_by_daily ON records (daily_key);
CREATE TABLE hidden_players (player TEXT PRIMARY KEY);
CREATE TABLE sync_codes (
    code TEXT PRIMARY KEY, player TEXT NOT NULL, name TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL);
CREATE TABLE nodes (
    id TEXT PRIMARY KEY, url TEXT NOT NULL, players INTEGER NOT NULL DEFAULT 0,
    lease_until TIMESTAMPTZ NOT NULL, rooms TEXT NOT NULL DEFAULT '[]');
",
    "
ALTER TABLE rooms ADD COLUMN round BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN round BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events DROP CONSTRAINT events_pkey;
ALTER TABLE events ADD PRIMARY KEY (room, round, seq);
CREATE TABLE rounds (
    room TEXT NOT NULL, round BIGINT NOT NULL, puzzle TEXT NOT NULL,
    start_ms DOUBLE PRECISION, PRIMARY KEY (room, round));
",
    // 3: the finished rated races ratings are folded from.
    "
CREATE TABLE rated_races (
    id BIGSERIAL PRIMARY KEY, at_ms DOUBLE PRECISION NOT NULL, race TEXT NOT NULL,
    node TEXT NOT NULL);
",
    // 4: finished races' reviews; arena tournaments and their races' results.
    "
CREATE TABLE race_reviews (
    id TEXT PRIMARY KEY, at_ms DOUBLE PRECISION NOT NULL, review TEXT NOT NULL);
CREATE TABLE tournaments (
    n BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, spec TEXT NOT NULL, node TEXT NOT NULL);
CREATE TABLE tournament_results (
    id BIGSERIAL PRIMARY KEY, tournament TEXT NOT NULL, result TEXT NOT NULL,
    node TEXT NOT NULL);
",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The advisory lock nodes take while migrating (any constant of our own).
const MIGRATION_LOCK: i64 = 0x4152_454e_4121;

/// Reader connections open at most (point reads, the heartbeat, takeovers).
const READERS: usize = 4;

/// The reader connections of a node: the idle ones, and how many are open.
#[derive(Default)]
struct Readers {
    idle: Vec<Client>,
    open: usize,
}

/// The PostgreSQL backend.
pub struct Postgres {
    url: String,
    node: NodeIdentity,
    /// Where clients reach this node, as announced.
    public_url: std::sync::RwLock<String>,
    /// The writer's connection (only the store's writer thread commits).
    writer: Mutex<Option<WriterConn>>,
    /// The reader connections.
    readers: Mutex<Readers>,
    /// Signalled when a reader connection is put back.
    reader_freed: std::sync::Condvar,
    /// The rooms this node owns, with the epoch it took each at.
    epochs: DashMap<String, i64>,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres")
            .field("url", &self.describe())
            .field("node", &self.node.id)
            .finish_non_exhaustive()
    }
}

/// A database URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

fn connect(url: &str) -> Result<Client, StoreError> {
    let fail = |e: postgres::Error| StoreError::open(redact(url), StoreError::from(e));
    let mut config: postgres::Config = url.parse().map_err(fail)?;
    // A half-dead link is noticed in seconds, not after the system's two hours.
    config
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(5))
        .keepalives_interval(Duration::from_secs(2))
        .keepalives_retries(3);
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    config.connect(NoTls).map_err(fail)
}

/// Session limits derived from a node's lease, so that no session — this
/// node's, frozen or cut off inside a transaction, or another's — holds a lock
/// for longer than a lease: a frozen owner never blocks a takeover or another
/// node's renewals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionLimits {
    /// How long a statement waits for a lock (`lock_timeout`).
    pub lock: Duration,
    /// How long a session may sit inside a transaction doing nothing before the
    /// server ends it and frees its locks (`idle_in_transaction_session_timeout`).
    pub idle_in_transaction: Duration,
    /// How long one statement may run (`statement_timeout`).
    pub statement: Duration,
}

impl SessionLimits {
    /// A quarter, a half and three quarters of `lease` (at least 250 ms,
    /// 500 ms and 1 s).
    pub fn for_lease(lease: Duration) -> SessionLimits {
        SessionLimits {
            lock: (lease / 4).max(Duration::from_millis(250)),
            idle_in_transaction: (lease / 2).max(Duration::from_millis(500)),
            statement: (lease * 3 / 4).max(Duration::from_secs(1)),
        }
    }

    /// Applies the limits to `client`'s session.
    pub fn apply(&self, client: &mut Client) -> Result<(), StoreError> {
        client
            .batch_execute(&format!(
                "SET lock_timeout = {}; SET idle_in_transaction_session_timeout = {}; \
                 SET statement_timeout = {};",
                self.lock.as_millis(),
                self.idle_in_transaction.as_millis(),
                self.statement.as_millis()
            ))
            .map_err(StoreError::from)
    }
}

/// A connection to `url` with `limits` applied.
pub fn connect_limited(url: &str, limits: SessionLimits) -> Result<Client, StoreError> {
    let mut client = connect(url)?;
    limits.apply(&mut client)?;
    Ok(client)
}

/// Brings the database to [`SCHEMA_VERSION`], or refuses one written by a newer
/// server.
fn migrate(client: &mut Client) -> Result<(), String> {
    let db = |e: postgres::Error| StoreError::from(e).to_string();
    let mut tx = client.transaction().map_err(db)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(db)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS arena_schema (version BIGINT NOT NULL)")
        .map_err(db)?;
    let version: i64 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM arena_schema", &[])
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "the database has schema version {version}, written by a newer server; this one reads up to {SCHEMA_VERSION}"
        ));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let to = i as i64 + 1;
        tx.batch_execute(sql)
            .map_err(|e| format!("migration to schema {to}: {}", db(e)))?;
        tx.execute("INSERT INTO arena_schema (version) VALUES ($1)", &[&to])
            .map_err(db)?;
    }
    tx.commit().map_err(db)
}

/// The condition (on a `rooms` row) that its owner's lease has run out.
const OWNER_DEAD: &str = "NOT EXISTS (SELECT 1 FROM nodes n
    WHERE n.id = rooms.owner AND n.lease_until > now())";

impl Postgres {
    /// Connects to `url`, applies the migrations and announces this node.
    pub fn open(url: &str, node: NodeIdentity) -> Result<Postgres, StoreError> {
        let mut writer = connect(url)?;
        // Migrations may wait for another node's (an advisory lock): limits after.
        migrate(&mut writer).map_err(|e| StoreError::open(redact(url), e))?;
        SessionLimits::for_lease(node.lease).apply(&mut writer)?;
        let pg = Postgres {
            url: url.to_string(),
            public_url: std::sync::RwLock::new(node.url.clone()),
            node,
            writer: Mutex::new(Some(WriterConn {
                client: writer,
                prepared: HashMap::new(),
            })),
            readers: Mutex::new(Readers::default()),
            reader_freed: std::sync::Condvar::new(),
            epochs: DashMap::new(),
        };
        pg.renew(0)?;
        Ok(pg)
    }

    /// A new connection with this node's [`SessionLimits`].
    fn session(&self) -> Result<Client, StoreError> {
        connect_limited(&self.url, SessionLimits::for_lease(self.node.lease))
    }

    /// Runs `f` on a reader connection: an idle one, or a new one while fewer
    /// than [`READERS`] are open; otherwise it waits for one to be free (the
    /// database's connection limit is shared by every node).
    fn read<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let idle = {
            let mut readers = self.readers.lock().unwrap_or_else(|p| p.into_inner());
            loop {
                if let Some(client) = readers.idle.pop() {
                    break Some(client);
                }
                if readers.open < READERS {
                    readers.open += 1;
                    break None;
                }
                readers = self
                    .reader_freed
                    .wait(readers)
                    .unwrap_or_else(|p| p.into_inner());
            }
        };
        let client = match idle {
            Some(c) if !c.is_closed() => Ok(c),
            _ => self.session(),
        };
        let (result, back) = match client {
            Ok(mut client) => (f(&mut client).map_err(StoreError::from), Some(client)),
            Err(e) => (Err(e), None),
        };
        let mut readers = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        match back {
            Some(client) if !client.is_closed() => readers.idle.push(client),
            _ => readers.open -= 1,
        }
        self.reader_freed.notify_one();
        result
    }

    fn lease_secs(&self) -> f64 {
        self.node.lease.as_secs_f64()
    }

    /// The highest `id` of `table` (one of ours, never input), 0 when empty.
    fn newest_id(&self, table: &str) -> Result<i64, StoreError> {
        self.read(|c| {
            c.query_one(&format!("SELECT COALESCE(MAX(id), 0) FROM {table}"), &[])
                .and_then(|r| r.try_get(0))
        })
    }

    /// Other nodes' `(id, column)` rows of `table` (ours, never input) after
    /// `after`, oldest first, and the newest id among them (else `after`).
    fn other_nodes_after(
        &self,
        table: &str,
        column: &str,
        after: i64,
    ) -> Result<(Vec<(i64, String)>, i64), StoreError> {
        let rows = self.read(|c| {
            c.query(
                &format!(
                    "SELECT id, {column} FROM {table} WHERE id > $1 AND node <> $2 ORDER BY id"
                ),
                &[&after, &self.node.id],
            )
        })?;
        let rows = record_rows(&rows)?;
        let newest = newest(&rows, after);
        Ok((rows, newest))
    }

    /// Applies one write inside the commit's transaction. An error fails the
    /// transaction; [`Applied::Refused`] refuses this write alone (it cannot be
    /// encoded, or it takes a pool puzzle another node took).
    fn apply(&self, tx: &mut Prepared, write: &Write) -> Result<Applied, postgres::Error> {
        // A value's JSON, or this write alone refused (it cannot be encoded).
        macro_rules! json_or_refuse {
            ($value:expr) => {
                match to_json($value) {
                    Ok(json) => json,
                    Err(e) => return Ok(Applied::Refused(e)),
                }
            };
        }
        let node = &self.node.id;
        match write {
            Write::Session { token_hash, who } => tx.execute(
                "INSERT INTO sessions (token_hash, player, name) VALUES ($1, $2, $3)
                 ON CONFLICT (token_hash) DO UPDATE SET player = $2, name = $3",
                &[&&token_hash[..], &who.id, &who.name],
            )?,
            Write::Room {
                code,
                settings,
                puzzle,
            } => {
                let (settings, puzzle) =
                    (json_or_refuse!(settings), json_or_refuse!(puzzle.as_ref()));
                tx.execute(
                    "INSERT INTO rooms (code, settings, puzzle, owner, epoch)
                     VALUES ($1, $2, $3, $4, 1)",
                    &[code, &settings, &puzzle, node],
                )?
            }
            Write::Seat { room, who, seat } => {
                let seat = i32::try_from(*seat).unwrap_or(i32::MAX);
                tx.execute(
                    "INSERT INTO seats (room, player, name, seat) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (room, player) DO UPDATE SET name = $3, seat = $4",
                    &[room, &who.id, &who.name, &seat],
                )?
            }
            Write::Unseat { room, player } => tx.execute(
                "DELETE FROM seats WHERE room = $1 AND player = $2",
                &[room, player],
            )?,
            Write::Host { room, player } => tx.execute(
                "UPDATE rooms SET host = $2 WHERE code = $1",
                &[room, player],
            )?,
            Write::Start { room, start_ms } => tx.execute(
                "UPDATE rooms SET start_ms = $2 WHERE code = $1",
                &[room, start_ms],
            )?,
            // Events are inserted together, by `EventRows`.
            Write::Event { .. } => 0,
            Write::Rematch { room, puzzle } => {
                let puzzle = json_or_refuse!(puzzle.as_ref());
                tx.execute(
                    "INSERT INTO rounds (room, round, puzzle, start_ms)
                     SELECT code, round, puzzle, start_ms FROM rooms WHERE code = $1
                     ON CONFLICT (room, round) DO UPDATE SET puzzle = EXCLUDED.puzzle,
                         start_ms = EXCLUDED.start_ms",
                    &[room],
                )?;
                tx.execute(
                    "UPDATE rooms SET puzzle = $2, start_ms = NULL, finished = FALSE,
                         round = round + 1
                     WHERE code = $1",
                    &[room, &puzzle],
                )?
            }
            Write::PoolAdd { seed, key, puzzle } => {
                let puzzle = json_or_refuse!(puzzle.as_ref());
                tx.execute(
                    "INSERT INTO pool (seed, key, puzzle) VALUES ($1, $2, $3)
                     ON CONFLICT (seed) DO UPDATE SET key = $2, puzzle = $3",
                    &[seed, key, &puzzle],
                )?
            }
            Write::PoolTake { seed } => {
                let taken = tx.execute("DELETE FROM pool WHERE seed = $1", &[seed])?;
                if taken == 0 {
                    return Ok(Applied::Refused(StoreError::PoolTaken {
                        seed: seed.clone(),
                    }));
                }
                taken
            }
            Write::Finish { room } => {
                tx.execute("UPDATE rooms SET finished = TRUE WHERE code = $1", &[room])?
            }
            Write::Hidden {
                player,
                hidden: true,
            } => {
                tx.execute(
                    "INSERT INTO hidden_players (player) VALUES ($1) ON CONFLICT DO NOTHING",
                    &[player],
                )?;
                tx.execute("SELECT pg_notify($1, $2)", &[&HIDDEN_CHANNEL, player])?
            }
            Write::Hidden {
                player,
                hidden: false,
            } => {
                tx.execute("DELETE FROM hidden_players WHERE player = $1", &[player])?;
                tx.execute("SELECT pg_notify($1, $2)", &[&HIDDEN_CHANNEL, player])?
            }
            Write::RatedRace(race) => {
                let json = json_or_refuse!(race.as_ref());
                tx.execute(
                    "INSERT INTO rated_races (at_ms, race, node) VALUES ($1, $2, $3)",
                    &[&race.at_ms, &json, node],
                )?;
                tx.execute("SELECT pg_notify($1, $2)", &[&RATINGS_CHANNEL, node])?
            }
            Write::RaceReview(stored) => {
                let json = json_or_refuse!(stored.as_ref());
                tx.execute(
                    "INSERT INTO race_reviews (id, at_ms, review) VALUES ($1, $2, $3)
                     ON CONFLICT (id) DO UPDATE SET review = EXCLUDED.review",
                    &[&stored.review.id, &stored.review.at_ms, &json],
                )?
            }
            Write::Tournament(spec) => {
                let json = json_or_refuse!(spec.as_ref());
                tx.execute(
                    "INSERT INTO tournaments (id, spec, node) VALUES ($1, $2, $3)
                     ON CONFLICT (id) DO NOTHING",
                    &[&spec.id, &json, node],
                )?;
                tx.execute("SELECT pg_notify($1, $2)", &[&TOURNAMENTS_CHANNEL, node])?
            }
            Write::TournamentResult(result) => {
                let json = json_or_refuse!(result.as_ref());
                tx.execute(
                    "INSERT INTO tournament_results (tournament, result, node) VALUES ($1, $2, $3)",
                    &[&result.tournament, &json, node],
                )?;
                tx.execute("SELECT pg_notify($1, $2)", &[&TOURNAMENTS_CHANNEL, node])?
            }
            Write::Record(record) => {
                let json = json_or_refuse!(record.as_ref());
                tx.execute(
                    "INSERT INTO records (player, daily_key, at_ms, record, node)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[
                        &record.player,
                        &record.daily_key(),
                        &record.at_ms,
                        &json,
                        node,
                    ],
                )?;
                tx.execute("SELECT pg_notify($1, $2)", &[&RECORDS_CHANNEL, node])?
            }
        };
        Ok(Applied::Done)
    }

    /// The epochs the database holds for `rooms` owned by this node, each row
    /// locked (`FOR SHARE`) until the transaction ends: a takeover waits for
    /// the commit, and a write after a takeover sees the new epoch.
    fn locked_epochs(
        &self,
        tx: &mut Prepared,
        rooms: &[String],
    ) -> Result<std::collections::HashMap<String, i64>, postgres::Error> {
        if rooms.is_empty() {
            return Ok(Default::default());
        }
        let rows = tx.query(
            "SELECT code, epoch FROM rooms WHERE code = ANY($1) AND owner = $2 AND NOT finished
             ORDER BY code FOR SHARE",
            &[&rooms, &self.node.id],
        )?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Commits a batch of events alone (the usual batch: moves) in one
    /// statement, one round trip, no explicit transaction: the rooms this node
    /// holds at the epochs it took them are read and locked (`FOR SHARE`, as
    /// [`Postgres::locked_epochs`] does) by the statement that inserts their
    /// events, so a takeover waits for it and a write after a takeover finds the
    /// new epoch and inserts nothing. An event not inserted is refused as stale.
    fn commit_events(
        &self,
        writer: &mut WriterConn,
        batch: &[&Write],
    ) -> Result<Vec<Result<(), StoreError>>, postgres::Error> {
        let mut events = EventRows::default();
        let mut results: Vec<Result<(), StoreError>> =
            batch.iter().map(|w| events.push(w)).collect();
        let mut rooms: Vec<String> = events.rooms.clone();
        rooms.sort();
        rooms.dedup();
        let (held, epochs): (Vec<String>, Vec<i64>) = rooms
            .into_iter()
            .filter_map(|room| self.epochs.get(&room).map(|e| (room, *e)))
            .unzip();
        let sql = "WITH held AS (
                SELECT r.code, r.round FROM rooms r
                JOIN UNNEST($6::text[], $7::bigint[]) AS h(code, epoch)
                  ON h.code = r.code AND h.epoch = r.epoch
                WHERE r.owner = $8 AND NOT r.finished
                FOR SHARE OF r)
            INSERT INTO events (room, round, seq, player, at_ms, event)
            SELECT e.room, held.round, e.seq, e.player, e.at_ms, e.event
            FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::text[])
                AS e(room, seq, player, at_ms, event)
            JOIN held ON held.code = e.room
            RETURNING room, seq";
        let statement = match writer.prepared.get(sql) {
            Some(st) => st.clone(),
            None => {
                let st = writer.client.prepare(sql)?;
                writer.prepared.insert(sql, st.clone());
                st
            }
        };
        let inserted = if events.rooms.is_empty() {
            Vec::new()
        } else {
            writer.client.query(
                &statement,
                &[
                    &events.rooms,
                    &events.seqs,
                    &events.players,
                    &events.at_ms,
                    &events.events,
                    &held,
                    &epochs,
                    &self.node.id,
                ],
            )?
        };
        let stored: std::collections::HashSet<(String, i64)> = inserted
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, postgres::Error>>()?;
        for (write, result) in batch.iter().zip(results.iter_mut()) {
            if let (Write::Event { room, seq, .. }, Ok(())) = (write, &result) {
                let seq = i64::try_from(*seq).unwrap_or(i64::MAX);
                if !stored.contains(&(room.clone(), seq)) {
                    *result = Err(StoreError::Stale { room: room.clone() });
                }
            }
        }
        Ok(results)
    }

    /// Commits `batch` in one transaction: room writes only for rooms whose
    /// epoch this node still holds.
    fn commit_once(
        &self,
        writer: &mut WriterConn,
        batch: &[&Write],
    ) -> Result<Vec<Result<(), StoreError>>, postgres::Error> {
        let WriterConn { client, prepared } = writer;
        let mut tx = Prepared {
            tx: client.transaction()?,
            prepared,
        };
        let mut rooms: Vec<String> = batch
            .iter()
            .filter(|w| !matches!(w, Write::Room { .. }))
            .filter_map(|w| w.room().map(str::to_string))
            .collect();
        rooms.sort();
        rooms.dedup();
        let mut current = self.locked_epochs(&mut tx, &rooms)?;
        let mut results = Vec::with_capacity(batch.len());
        // Consecutive events go to the database in one statement; any other
        // write sends them first, so the order of the batch is kept.
        let mut events = EventRows::default();
        for write in batch {
            let allowed = match write {
                Write::Room { .. } => true,
                _ => write.room().is_none_or(|room| {
                    let held = self.epochs.get(room).map(|e| *e);
                    held.is_some() && current.get(room).copied() == held
                }),
            };
            if let (true, Write::Event { .. }) = (allowed, write) {
                results.push(events.push(write));
                continue;
            }
            events.flush(&mut tx)?;
            if allowed {
                match self.apply(&mut tx, write)? {
                    Applied::Done => {
                        if let Write::Room { code, .. } = write {
                            // Its later writes in this batch are this node's too.
                            current.insert(code.clone(), 1);
                            self.epochs.insert(code.clone(), 1);
                        }
                        results.push(Ok(()));
                    }
                    Applied::Refused(e) => results.push(Err(e)),
                }
            } else {
                results.push(Err(StoreError::Stale {
                    room: write.room().unwrap_or_default().to_string(),
                }));
            }
        }
        events.flush(&mut tx)?;
        tx.tx.commit()?;
        Ok(results)
    }
}

/// What one write did inside a commit's transaction.
enum Applied {
    /// Written.
    Done,
    /// Refused alone; the transaction goes on.
    Refused(StoreError),
}

/// Events waiting to be inserted together, column by column.
#[derive(Default)]
struct EventRows {
    rooms: Vec<String>,
    seqs: Vec<i64>,
    players: Vec<String>,
    at_ms: Vec<f64>,
    events: Vec<String>,
}

impl EventRows {
    /// Adds a `Write::Event` (anything else is ignored); its result, unless
    /// the insert fails (which fails the transaction).
    fn push(&mut self, write: &Write) -> Result<(), StoreError> {
        let Write::Event {
            room,
            seq,
            player,
            event,
            at_ms,
        } = write
        else {
            return Ok(());
        };
        let event = to_json(event)?;
        self.rooms.push(room.clone());
        self.seqs.push(i64::try_from(*seq).unwrap_or(i64::MAX));
        self.players.push(player.clone());
        self.at_ms.push(*at_ms);
        self.events.push(event);
        Ok(())
    }

    /// Inserts the waiting events in one statement.
    fn flush(&mut self, tx: &mut Prepared) -> Result<(), postgres::Error> {
        if self.rooms.is_empty() {
            return Ok(());
        }
        tx.execute(
            "INSERT INTO events (room, round, seq, player, at_ms, event)
             SELECT e.room, r.round, e.seq, e.player, e.at_ms, e.event
             FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::text[])
                 AS e(room, seq, player, at_ms, event)
             JOIN rooms r ON r.code = e.room",
            &[
                &self.rooms,
                &self.seqs,
                &self.players,
                &self.at_ms,
                &self.events,
            ],
        )?;
        *self = EventRows::default();
        Ok(())
    }
}

/// The writer's connection and the statements prepared on it (a write is then
/// one round trip, not two).
struct WriterConn {
    client: Client,
    prepared: HashMap<&'static str, Statement>,
}

/// The writer's transaction, preparing each statement once per connection.
struct Prepared<'a, 'c> {
    tx: postgres::Transaction<'c>,
    prepared: &'a mut HashMap<&'static str, Statement>,
}

impl Prepared<'_, '_> {
    fn statement(&mut self, sql: &'static str) -> Result<Statement, postgres::Error> {
        if let Some(st) = self.prepared.get(sql) {
            return Ok(st.clone());
        }
        let st = self.tx.prepare(sql)?;
        self.prepared.insert(sql, st.clone());
        Ok(st)
    }

    fn execute(
        &mut self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, postgres::Error> {
        let st = self.statement(sql)?;
        self.tx.execute(&st, params)
    }

    fn query(
        &mut self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<postgres::Row>, postgres::Error> {
        let st = self.statement(sql)?;
        self.tx.query(&st, params)
    }
}

/// One listening connection, until it drops or nobody takes notices any more.
fn listen_once(
    url: &str,
    tell: &tokio::sync::mpsc::UnboundedSender<Notice>,
) -> Result<(), StoreError> {
    use postgres::fallible_iterator::FallibleIterator;
    let mut client = connect(url)?;
    client
        .batch_execute(&format!(
            "LISTEN {LOBBY_CHANNEL}; LISTEN {RECORDS_CHANNEL}; LISTEN {HIDDEN_CHANNEL}; LISTEN {TOURNAMENTS_CHANNEL}; LISTEN {RATINGS_CHANNEL};"
        ))
        .map_err(StoreError::from)?;
    // Whatever was notified while no one listened: read the room lists and the
    // records again.
    for channel in [
        LOBBY_CHANNEL,
        RECORDS_CHANNEL,
        TOURNAMENTS_CHANNEL,
        RATINGS_CHANNEL,
    ] {
        let missed = Notice {
            channel: channel.into(),
            payload: String::new(),
        };
        if tell.send(missed).is_err() {
            return Ok(());
        }
    }
    loop {
        let next = client
            .notifications()
            .timeout_iter(Duration::from_secs(5))
            .next();
        match next {
            Ok(Some(n)) => {
                let notice = Notice {
                    channel: n.channel().to_string(),
                    payload: n.payload().to_string(),
                };
                if tell.send(notice).is_err() {
                    return Ok(());
                }
            }
            Ok(None) if client.is_closed() => {
                return Err(StoreError::Database("the connection closed".into()))
            }
            // Quiet for a while: see whether anyone still listens.
            Ok(None) if tell.is_closed() => return Ok(()),
            Ok(None) => continue,
            Err(e) => return Err(StoreError::from(e)),
        }
    }
}

/// The highest id of `(id, _)` rows, else `was`.
fn newest(rows: &[(i64, String)], was: i64) -> i64 {
    rows.iter().map(|(id, _)| *id).max().unwrap_or(was)
}

/// `(id, record)` rows of the `records` table.
fn record_rows(rows: &[postgres::Row]) -> Result<Vec<(i64, String)>, StoreError> {
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<_, postgres::Error>>()
        .map_err(StoreError::from)
}

fn read_seats(c: &mut impl GenericClient, room: &str) -> Result<Vec<Identity>, postgres::Error> {
    c.query(
        "SELECT player, name FROM seats WHERE room = $1 ORDER BY seat",
        &[&room],
    )?
    .iter()
    .map(|r| {
        Ok(Identity {
            id: r.try_get(0)?,
            name: r.try_get(1)?,
        })
    })
    .collect()
}

type EventRow = (i64, String, f64, String);

fn read_events(c: &mut impl GenericClient, room: &str) -> Result<Vec<EventRow>, postgres::Error> {
    c.query(
        "SELECT seq, player, at_ms, event FROM events
         WHERE room = $1 AND round = (SELECT round FROM rooms WHERE code = $1) ORDER BY seq",
        &[&room],
    )?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
    .collect()
}

impl Drop for Postgres {
    /// A client closes its connection by blocking on a runtime of its own,
    /// which must not happen on an async worker (the server's shared state can
    /// be dropped on one): the clients are closed on a thread of their own.
    fn drop(&mut self) {
        let writer = self
            .writer
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let readers = std::mem::take(
            &mut self
                .readers
                .get_mut()
                .unwrap_or_else(|p| p.into_inner())
                .idle,
        );
        std::thread::scope(|s| {
            s.spawn(move || drop((writer, readers)));
        });
    }
}

impl Coordination for Postgres {
    fn node(&self) -> &NodeIdentity {
        &self.node
    }

    fn announce(&self, url: &str) {
        *self.public_url.write().unwrap_or_else(|p| p.into_inner()) = url.to_string();
    }

    fn renew(&self, players: usize) -> Result<(), StoreError> {
        let players = i32::try_from(players).unwrap_or(i32::MAX);
        let url = self
            .public_url
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let (id, url, lease) = (&self.node.id, &url, self.lease_secs());
        self.read(|c| {
            c.execute(
                "INSERT INTO nodes (id, url, players, lease_until)
                 VALUES ($1, $2, $3, now() + make_interval(secs => $4))
                 ON CONFLICT (id) DO UPDATE SET url = $2, players = $3,
                     lease_until = now() + make_interval(secs => $4)",
                &[id, url, &players, &lease],
            )
            .map(drop)
        })
    }

    fn release(&self) -> Result<(), StoreError> {
        self.read(|c| {
            c.execute(
                "UPDATE nodes SET lease_until = now() - interval '1 second', players = 0
                 WHERE id = $1",
                &[&self.node.id],
            )
            .map(drop)
        })
    }

    fn locate(&self, code: &str) -> Result<Option<Location>, StoreError> {
        let row = self.read(|c| {
            c.query_opt(
                "SELECT r.owner, COALESCE(n.url, ''), COALESCE(n.lease_until > now(), FALSE),
                        GREATEST(COALESCE(EXTRACT(EPOCH FROM n.lease_until - now()), 0), 0)::float8
                 FROM rooms r LEFT JOIN nodes n ON n.id = r.owner
                 WHERE r.code = $1 AND NOT r.finished",
                &[&code],
            )
        })?;
        row.map(|r| {
            let left: f64 = r.try_get(3).map_err(StoreError::from)?;
            Ok(Location {
                owner: r.try_get(0).map_err(StoreError::from)?,
                url: r.try_get(1).map_err(StoreError::from)?,
                live: r.try_get(2).map_err(StoreError::from)?,
                lease_left: Duration::try_from_secs_f64(left).unwrap_or_default(),
            })
        })
        .transpose()
    }

    fn live_nodes(&self) -> Result<Vec<NodeLoad>, StoreError> {
        let rows = self.read(|c| {
            c.query(
                "SELECT n.id, n.url, n.players::bigint,
                        (SELECT count(*) FROM rooms r WHERE r.owner = n.id AND NOT r.finished)
                 FROM nodes n WHERE n.lease_until > now() AND n.url <> '' ORDER BY n.id",
                &[],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(NodeLoad {
                    id: r.try_get(0).map_err(StoreError::from)?,
                    url: r.try_get(1).map_err(StoreError::from)?,
                    players: r.try_get(2).map_err(StoreError::from)?,
                    rooms: r.try_get(3).map_err(StoreError::from)?,
                })
            })
            .collect()
    }

    fn claim(&self, code: &str) -> Result<Option<SavedRoom>, StoreError> {
        let id = &self.node.id;
        let claimed = self.read(|c| {
            let mut tx = c.transaction()?;
            let row = tx.query_opt(
                &format!(
                    "UPDATE rooms SET owner = $2, epoch = epoch + 1
                     WHERE code = $1 AND NOT finished AND (owner = $2 OR {OWNER_DEAD})
                     RETURNING epoch, settings, puzzle, host, start_ms"
                ),
                &[&code, id],
            )?;
            let Some(row) = row else {
                return Ok(None);
            };
            let seats = read_seats(&mut tx, code)?;
            let events = read_events(&mut tx, code)?;
            tx.commit()?;
            let epoch: i64 = row.try_get(0)?;
            let settings: String = row.try_get(1)?;
            let puzzle: String = row.try_get(2)?;
            let host: String = row.try_get(3)?;
            let start_ms: Option<f64> = row.try_get(4)?;
            Ok(Some((
                epoch, settings, puzzle, host, start_ms, seats, events,
            )))
        })?;
        let Some((epoch, settings, puzzle, host, start_ms, seats, events)) = claimed else {
            return Ok(None);
        };
        self.epochs.insert(code.to_string(), epoch);
        tracing::info!(room = %code, epoch, "took the room over");
        Ok(saved_room(
            code.to_string(),
            &settings,
            &puzzle,
            host,
            start_ms,
            seats,
            events,
        ))
    }

    fn give(&self, code: &str, to: &str) -> Result<bool, StoreError> {
        Ok(self.give_all(&[code.to_string()], to)?.len() == 1)
    }

    fn give_all(&self, codes: &[String], to: &str) -> Result<Vec<String>, StoreError> {
        let (held, epochs): (Vec<String>, Vec<i64>) = codes
            .iter()
            .filter_map(|c| self.epochs.get(c).map(|e| (c.clone(), *e)))
            .unzip();
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.read(|c| {
            c.query(
                "UPDATE rooms SET owner = $3, epoch = epoch + 1
                 WHERE owner = $2 AND NOT finished
                   AND (code, epoch) IN (SELECT * FROM unnest($1::text[], $4::bigint[]))
                 RETURNING code",
                &[&held, &self.node.id, &to, &epochs],
            )
        })?;
        for code in &held {
            self.epochs.remove(code);
        }
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }

    fn expired(&self, limit: i64) -> Result<Vec<Expired>, StoreError> {
        let rows = self.read(|c| {
            c.query(
                &format!(
                    "SELECT code, NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = rooms.owner
                        AND n.lease_until > now() - make_interval(secs => $2))
                     FROM rooms WHERE NOT finished AND {OWNER_DEAD}
                     ORDER BY code LIMIT $1"
                ),
                &[&limit, &self.lease_secs()],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(Expired {
                    code: r.try_get(0).map_err(StoreError::from)?,
                    overdue: r.try_get(1).map_err(StoreError::from)?,
                })
            })
            .collect()
    }

    fn lost(&self) -> Result<Vec<String>, StoreError> {
        let held: Vec<String> = self.epochs.iter().map(|e| e.key().clone()).collect();
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.read(|c| {
            c.query(
                "SELECT code, owner, epoch, finished FROM rooms WHERE code = ANY($1)",
                &[&held],
            )
        })?;
        let mut lost = Vec::new();
        for r in rows {
            let code: String = r.try_get(0).map_err(StoreError::from)?;
            let owner: String = r.try_get(1).map_err(StoreError::from)?;
            let epoch: i64 = r.try_get(2).map_err(StoreError::from)?;
            let finished: bool = r.try_get(3).map_err(StoreError::from)?;
            let ours = self.epochs.get(&code).map(|e| *e);
            if finished {
                self.epochs.remove(&code);
            } else if owner != self.node.id || ours != Some(epoch) {
                self.epochs.remove(&code);
                lost.push(code);
            }
        }
        Ok(lost)
    }

    fn publish_rooms(&self, rooms_json: &str) -> Result<(), StoreError> {
        self.read(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "UPDATE nodes SET rooms = $2 WHERE id = $1",
                &[&self.node.id, &rooms_json],
            )?;
            tx.execute("SELECT pg_notify($1, $2)", &[&LOBBY_CHANNEL, &self.node.id])?;
            tx.commit()
        })
    }

    fn remote_rooms(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.read(|c| {
            c.query(
                "SELECT rooms FROM nodes WHERE id <> $1 AND lease_until > now() ORDER BY id",
                &[&self.node.id],
            )
        })?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }

    fn last_record(&self) -> Result<i64, StoreError> {
        self.newest_id("records")
    }

    fn records_after(&self, after: i64) -> Result<(Vec<GameRecord>, i64), StoreError> {
        let (rows, newest) = self.other_nodes_after("records", "record", after)?;
        Ok((saved_records(rows), newest))
    }

    fn last_rated_race(&self) -> Result<i64, StoreError> {
        self.newest_id("rated_races")
    }

    fn rated_races_after(
        &self,
        after: i64,
    ) -> Result<(Vec<crate::serve::ratings::RatedRace>, i64), StoreError> {
        let (rows, newest) = self.other_nodes_after("rated_races", "race", after)?;
        Ok((saved_rated_races(rows), newest))
    }

    fn tournament_mark(&self) -> Result<TournamentMark, StoreError> {
        self.read(|c| {
            let row = c.query_one(
                "SELECT (SELECT COALESCE(MAX(n), 0) FROM tournaments),
                        (SELECT COALESCE(MAX(id), 0) FROM tournament_results)",
                &[],
            )?;
            Ok(TournamentMark {
                tournament: row.try_get(0)?,
                result: row.try_get(1)?,
            })
        })
    }

    fn tournaments_after(&self, after: TournamentMark) -> Result<TournamentRows, StoreError> {
        let (specs, results) = self.read(|c| {
            let specs = c.query(
                "SELECT n, spec FROM tournaments WHERE n > $1 ORDER BY n",
                &[&after.tournament],
            )?;
            let results = c.query(
                "SELECT id, result FROM tournament_results WHERE id > $1 ORDER BY id",
                &[&after.result],
            )?;
            Ok((specs, results))
        })?;
        let (specs, results) = (record_rows(&specs)?, record_rows(&results)?);
        let newest = TournamentMark {
            tournament: newest(&specs, after.tournament),
            result: newest(&results, after.result),
        };
        Ok(TournamentRows {
            specs: saved_rows(specs, "tournament"),
            results: saved_rows(results, "tournament result"),
            newest,
        })
    }

    fn is_hidden(&self, player: &str) -> Result<bool, StoreError> {
        self.read(|c| {
            c.query_one(
                "SELECT EXISTS (SELECT 1 FROM hidden_players WHERE player = $1)",
                &[&player],
            )
            .and_then(|r| r.try_get(0))
        })
    }

    fn listen(&self, tell: tokio::sync::mpsc::UnboundedSender<Notice>) -> Result<(), StoreError> {
        let url = self.url.clone();
        std::thread::Builder::new()
            .name("arena-db-listen".into())
            .spawn(move || {
                while !tell.is_closed() {
                    if let Err(e) = listen_once(&url, &tell) {
                        tracing::warn!(error = %e, "database notifications stopped; reconnecting");
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
            })
            .map(drop)
            .map_err(|e| StoreError::Database(format!("cannot start the notification thread: {e}")))
    }
}

impl Backend for Postgres {
    fn describe(&self) -> String {
        redact(&self.url)
    }

    fn commit(&self, batch: &[&Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let mut slot = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|w| w.client.is_closed()) {
            *slot = Some(WriterConn {
                client: self.session()?,
                prepared: HashMap::new(),
            });
        }
        let Some(writer) = slot.as_mut() else {
            return Err(StoreError::Database("no database connection".into()));
        };
        let only_events = batch.iter().all(|w| matches!(w, Write::Event { .. }));
        let committed = if only_events {
            self.commit_events(writer, batch)
        } else {
            self.commit_once(writer, batch)
        };
        match committed {
            Ok(results) => Ok(results),
            // One statement failed and took the transaction with it: commit each
            // write alone, so only the bad one fails.
            Err(e) if e.as_db_error().is_some() && batch.len() > 1 => {
                tracing::warn!(error = %StoreError::from(e), "a batched write failed; committing one by one");
                Ok(batch
                    .iter()
                    .map(|w| match self.commit_once(writer, &[*w]) {
                        Ok(mut r) => r.pop().unwrap_or(Ok(())),
                        Err(e) => Err(StoreError::from(e)),
                    })
                    .collect())
            }
            Err(e) => Err(StoreError::from(e)),
        }
    }

    fn session(&self, token_hash: &[u8; 32]) -> Result<Option<Identity>, StoreError> {
        let row = self.read(|c| {
            c.query_opt(
                "SELECT player, name FROM sessions WHERE token_hash = $1",
                &[&&token_hash[..]],
            )
        })?;
        row.map(|r| {
            Ok(Identity {
                id: r.try_get(0).map_err(StoreError::from)?,
                name: r.try_get(1).map_err(StoreError::from)?,
            })
        })
        .transpose()
    }

    fn race_review(
        &self,
        id: &str,
    ) -> Result<Option<crate::serve::review::StoredReview>, StoreError> {
        let row =
            self.read(|c| c.query_opt("SELECT review FROM race_reviews WHERE id = $1", &[&id]))?;
        row.map(|r| {
            let json: String = r.try_get(0).map_err(StoreError::from)?;
            saved_review(id, &json)
        })
        .transpose()
    }

    fn daily_records(&self, daily_key: &str) -> Result<Vec<GameRecord>, StoreError> {
        let rows = self.read(|c| {
            c.query(
                "SELECT id, record FROM records WHERE daily_key = $1 ORDER BY id",
                &[&daily_key],
            )
        })?;
        Ok(saved_records(record_rows(&rows)?))
    }

    /// This node's own unfinished rooms (taken again at a new epoch: a restarted
    /// node fences off its previous run), the pool, the records, the hidden
    /// players. Other nodes' rooms are taken over when their leases run out.
    // Expired codes are dropped on the way.
    fn put_sync_code(&self, code: &str, who: &Identity, life: Duration) -> Result<(), StoreError> {
        let life = life.as_secs_f64();
        self.read(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "DELETE FROM sync_codes WHERE player = $1 OR expires_at < now()",
                &[&who.id],
            )?;
            tx.execute(
                "INSERT INTO sync_codes (code, player, name, expires_at)
                 VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
                &[&code, &who.id, &who.name, &life],
            )?;
            tx.commit()
        })
    }

    fn take_sync_code(&self, code: &str) -> Result<Option<(Identity, bool)>, StoreError> {
        let row = self.read(|c| {
            c.query_opt(
                "DELETE FROM sync_codes WHERE code = $1
                 RETURNING player, name, expires_at > now()",
                &[&code],
            )
        })?;
        row.map(|r| {
            Ok((
                Identity {
                    id: r.try_get(0).map_err(StoreError::from)?,
                    name: r.try_get(1).map_err(StoreError::from)?,
                },
                r.try_get(2).map_err(StoreError::from)?,
            ))
        })
        .transpose()
    }

    fn history(&self, code: &str) -> Result<Vec<PastRound>, StoreError> {
        let rounds = self.read(|c| {
            let rounds = c.query(
                "SELECT round, puzzle, start_ms FROM rounds WHERE room = $1 ORDER BY round",
                &[&code],
            )?;
            rounds
                .iter()
                .map(|r| {
                    let round: i64 = r.try_get(0)?;
                    let events = c
                        .query(
                            "SELECT seq, player, at_ms, event FROM events
                             WHERE room = $1 AND round = $2 ORDER BY seq",
                            &[&code, &round],
                        )?
                        .iter()
                        .map(|e| Ok((e.try_get(0)?, e.try_get(1)?, e.try_get(2)?, e.try_get(3)?)))
                        .collect::<Result<Vec<_>, postgres::Error>>()?;
                    Ok((round, r.try_get::<_, String>(1)?, r.try_get(2)?, events))
                })
                .collect::<Result<Vec<_>, postgres::Error>>()
        })?;
        rounds
            .into_iter()
            .map(|(round, puzzle, start_ms, events)| {
                past_round(code, round, &puzzle, start_ms, events)
            })
            .collect()
    }

    fn load(&self) -> Result<Saved, StoreError> {
        let mut saved = Saved::default();
        let (pool, own, records, rated, hidden, tournaments) = self.read(|c| {
            // Reading everything at start-up may take longer than a statement
            // may in play: no statement limit for this one transaction.
            let mut tx = c.transaction()?;
            tx.batch_execute("SET LOCAL statement_timeout = 0")?;
            let pool = tx.query("SELECT seed, key, puzzle FROM pool", &[])?;
            let own = tx.query(
                "SELECT code FROM rooms WHERE owner = $1 AND NOT finished",
                &[&self.node.id],
            )?;
            let records = tx.query("SELECT id, record FROM records ORDER BY id", &[])?;
            let rated = tx.query("SELECT id, race FROM rated_races ORDER BY id", &[])?;
            let hidden = tx.query("SELECT player FROM hidden_players", &[])?;
            let specs = tx.query("SELECT n, spec FROM tournaments ORDER BY n", &[])?;
            let results = tx.query("SELECT id, result FROM tournament_results ORDER BY id", &[])?;
            tx.commit()?;
            Ok((pool, own, records, rated, hidden, (specs, results)))
        })?;
        for r in &pool {
            let (seed, key, puzzle): (String, String, String) = (
                r.try_get(0).map_err(StoreError::from)?,
                r.try_get(1).map_err(StoreError::from)?,
                r.try_get(2).map_err(StoreError::from)?,
            );
            if let Ok(puzzle) = serde_json::from_str(&puzzle) {
                saved.pool.push((seed, key, puzzle));
            }
        }
        for r in &own {
            let code: String = r.try_get(0).map_err(StoreError::from)?;
            saved.rooms.extend(self.claim(&code)?);
        }
        saved.records = saved_records(record_rows(&records)?);
        saved.rated_races = saved_rated_races(record_rows(&rated)?);
        saved.tournaments = saved_rows(record_rows(&tournaments.0)?, "tournament");
        saved.tournament_results = saved_rows(record_rows(&tournaments.1)?, "tournament result");
        saved.hidden = hidden
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(StoreError::from)?;
        Ok(saved)
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn a_password_never_reaches_a_message() {
        assert_eq!(
            redact("postgres://arena:secret@db:5432/arena"),
            "postgres://arena:***@db:5432/arena"
        );
        assert_eq!(
            redact("postgres://arena@127.0.0.1:5433/arena"),
            "postgres://arena@127.0.0.1:5433/arena"
        );
    }
}
