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
//! **Async, pipelined.** The client is `tokio-postgres`: nothing blocks a
//! worker, and a commit sends its statements without waiting for each answer
//! (PostgreSQL answers them in order on one connection) — a batch of moves is
//! one round trip, any other batch two ([`Postgres::commit_once`]).

use super::coordination::{
    Coordination, Expired, Location, NodeIdentity, NodeLoad, Notice, TournamentMark,
    TournamentRows, HIDDEN_CHANNEL, LOBBY_CHANNEL, RATINGS_CHANNEL, RECORDS_CHANNEL,
    TOURNAMENTS_CHANNEL,
};
use super::{
    past_round, saved_rated_races, saved_records, saved_review, saved_room, saved_rows, to_json,
    Backend, BatchResults, PastRound, Pending, Saved, SavedRoom, StoreError, Write,
};
use crate::serve::identity::Identity;
use crate::serve::records::GameRecord;
use dashmap::DashMap;
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, RwLock};
use std::task::Poll;
use std::time::Duration;
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, Client, NoTls, Row, Statement, Transaction};

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

/// The PostgreSQL backend.
pub struct Postgres {
    url: String,
    node: NodeIdentity,
    /// Where clients reach this node, as announced.
    public_url: RwLock<String>,
    /// The writer's connection (only the store's writer commits).
    writer: tokio::sync::Mutex<Option<WriterConn>>,
    /// Reader connections not lent out.
    idle: Mutex<Vec<Client>>,
    /// One permit per reader connection that may be open: the database's
    /// connection limit is shared by every node.
    readers: tokio::sync::Semaphore,
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

/// A connection to `url` (keepalives on, a connect timeout), its I/O driven by
/// a task of its own on the current runtime.
async fn connect(url: &str) -> Result<Client, StoreError> {
    let fail = |e: tokio_postgres::Error| StoreError::open(redact(url), StoreError::from(e));
    let mut config: tokio_postgres::Config = url.parse().map_err(fail)?;
    // A half-dead link is noticed in seconds, not after the system's two hours.
    config
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(5))
        .keepalives_interval(Duration::from_secs(2))
        .keepalives_retries(3);
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    let (client, connection) = config.connect(NoTls).await.map_err(fail)?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "a database connection ended");
        }
    });
    Ok(client)
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
    pub async fn apply(&self, client: &Client) -> Result<(), StoreError> {
        client
            .batch_execute(&format!(
                "SET lock_timeout = {}; SET idle_in_transaction_session_timeout = {}; \
                 SET statement_timeout = {};",
                self.lock.as_millis(),
                self.idle_in_transaction.as_millis(),
                self.statement.as_millis()
            ))
            .await
            .map_err(StoreError::from)
    }
}

/// A connection to `url` with `limits` applied.
pub async fn connect_limited(url: &str, limits: SessionLimits) -> Result<Client, StoreError> {
    let client = connect(url).await?;
    limits.apply(&client).await?;
    Ok(client)
}

/// Brings the database to [`SCHEMA_VERSION`], or refuses one written by a newer
/// server.
async fn migrate(client: &mut Client) -> Result<(), String> {
    let db = |e: tokio_postgres::Error| StoreError::from(e).to_string();
    let tx = client.transaction().await.map_err(db)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(db)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS arena_schema (version BIGINT NOT NULL)")
        .await
        .map_err(db)?;
    let version: i64 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM arena_schema", &[])
        .await
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
            .await
            .map_err(|e| format!("migration to schema {to}: {}", db(e)))?;
        tx.execute("INSERT INTO arena_schema (version) VALUES ($1)", &[&to])
            .await
            .map_err(db)?;
    }
    tx.commit().await.map_err(db)
}

/// The condition (on a `rooms` row) that its owner's lease has run out.
const OWNER_DEAD: &str = "NOT EXISTS (SELECT 1 FROM nodes n
    WHERE n.id = rooms.owner AND n.lease_until > now())";

/// Locks (`FOR SHARE`, until the transaction ends) the rows of the rooms
/// `$1` that node `$2` owns and reads their epochs: a takeover waits for the
/// commit, and a write after a takeover sees the new epoch.
const LOCK_EPOCHS: &str = "SELECT code, epoch FROM rooms
    WHERE code = ANY($1) AND owner = $2 AND NOT finished ORDER BY code FOR SHARE";

/// Inserts events column by column (`$1`…`$5`) into their rooms' current rounds.
const INSERT_EVENTS: &str = "INSERT INTO events (room, round, seq, player, at_ms, event)
    SELECT e.room, r.round, e.seq, e.player, e.at_ms, e.event
    FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::text[])
        AS e(room, seq, player, at_ms, event)
    JOIN rooms r ON r.code = e.room";

/// Inserts events (`$1`…`$5`) only for the rooms `$6` node `$8` holds at the
/// epochs `$7`, locking those rows (`FOR SHARE`) as [`LOCK_EPOCHS`] does, in one
/// statement; returns what it inserted.
const INSERT_HELD_EVENTS: &str = "WITH held AS (
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

/// A future of one statement's answer, boxed so that a commit can hold many.
type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, tokio_postgres::Error>> + Send + 'a>>;

/// Polls each future once, in order — a statement's first poll sends it, so
/// they all go to the server in this order before the first answer is awaited
/// — then awaits each answer in turn: one round trip for the lot.
async fn pipelined<T>(mut answers: Vec<Answer<'_, T>>) -> Vec<Result<T, tokio_postgres::Error>> {
    let mut early: Vec<Option<Result<T, tokio_postgres::Error>>> =
        answers.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        for (answer, done) in answers.iter_mut().zip(early.iter_mut()) {
            if let Poll::Ready(result) = answer.as_mut().poll(cx) {
                *done = Some(result);
            }
        }
        Poll::Ready(())
    })
    .await;
    let mut results = Vec::with_capacity(answers.len());
    for (answer, done) in answers.into_iter().zip(early) {
        results.push(match done {
            Some(result) => result,
            None => answer.await,
        });
    }
    results
}

/// A parameter a statement owns (so that a batch's statements can all be sent
/// before the first is answered).
type Param = Box<dyn ToSql + Send + Sync>;

/// One statement of a commit, with its parameters.
struct Call {
    sql: &'static str,
    params: Vec<Param>,
}

/// A [`Call`] of `sql` with the parameters given (each owned).
macro_rules! call {
    ($sql:expr $(, $param:expr)* $(,)?) => {
        Call { sql: $sql, params: vec![$(Box::new($param) as Param),*] }
    };
}

/// What a write of a commit does.
enum Plan {
    /// Decided without a statement: refused (stale, unencodable) or an event
    /// sent with its neighbours.
    Decided(Result<(), StoreError>),
    /// Its statements start at this index of the commit's calls; `pool_take`
    /// when it takes a pool puzzle (refused alone if another node took it).
    Calls {
        first: usize,
        pool_take: Option<String>,
    },
}

/// The statements of one write (none for an event: those go together, by
/// [`EventRows`]), or this write alone refused (it cannot be encoded).
fn calls(write: &Write, node: &str) -> Result<Vec<Call>, StoreError> {
    let node = node.to_string();
    Ok(match write {
        Write::Session { token_hash, who } => vec![call!(
            "INSERT INTO sessions (token_hash, player, name) VALUES ($1, $2, $3)
             ON CONFLICT (token_hash) DO UPDATE SET player = $2, name = $3",
            token_hash.to_vec(),
            who.id.clone(),
            who.name.clone()
        )],
        Write::Room {
            code,
            settings,
            puzzle,
        } => vec![call!(
            "INSERT INTO rooms (code, settings, puzzle, owner, epoch) VALUES ($1, $2, $3, $4, 1)",
            code.clone(),
            to_json(settings)?,
            to_json(puzzle.as_ref())?,
            node
        )],
        Write::Seat { room, who, seat } => vec![call!(
            "INSERT INTO seats (room, player, name, seat) VALUES ($1, $2, $3, $4)
             ON CONFLICT (room, player) DO UPDATE SET name = $3, seat = $4",
            room.clone(),
            who.id.clone(),
            who.name.clone(),
            i32::try_from(*seat).unwrap_or(i32::MAX)
        )],
        Write::Unseat { room, player } => vec![call!(
            "DELETE FROM seats WHERE room = $1 AND player = $2",
            room.clone(),
            player.clone()
        )],
        Write::Host { room, player } => vec![call!(
            "UPDATE rooms SET host = $2 WHERE code = $1",
            room.clone(),
            player.clone()
        )],
        Write::Start { room, start_ms } => vec![call!(
            "UPDATE rooms SET start_ms = $2 WHERE code = $1",
            room.clone(),
            *start_ms
        )],
        Write::Event { .. } => Vec::new(),
        Write::Rematch { room, puzzle } => {
            let puzzle = to_json(puzzle.as_ref())?;
            vec![
                call!(
                    "INSERT INTO rounds (room, round, puzzle, start_ms)
                     SELECT code, round, puzzle, start_ms FROM rooms WHERE code = $1
                     ON CONFLICT (room, round) DO UPDATE SET puzzle = EXCLUDED.puzzle,
                         start_ms = EXCLUDED.start_ms",
                    room.clone()
                ),
                call!(
                    "UPDATE rooms SET puzzle = $2, start_ms = NULL, finished = FALSE,
                         round = round + 1
                     WHERE code = $1",
                    room.clone(),
                    puzzle
                ),
            ]
        }
        Write::PoolAdd { seed, key, puzzle } => vec![call!(
            "INSERT INTO pool (seed, key, puzzle) VALUES ($1, $2, $3)
             ON CONFLICT (seed) DO UPDATE SET key = $2, puzzle = $3",
            seed.clone(),
            key.clone(),
            to_json(puzzle.as_ref())?
        )],
        Write::PoolTake { seed } => {
            vec![call!("DELETE FROM pool WHERE seed = $1", seed.clone())]
        }
        Write::Finish { room } => vec![call!(
            "UPDATE rooms SET finished = TRUE WHERE code = $1",
            room.clone()
        )],
        Write::Hidden { player, hidden } => vec![
            if *hidden {
                call!(
                    "INSERT INTO hidden_players (player) VALUES ($1) ON CONFLICT DO NOTHING",
                    player.clone()
                )
            } else {
                call!(
                    "DELETE FROM hidden_players WHERE player = $1",
                    player.clone()
                )
            },
            call!("SELECT pg_notify($1, $2)", HIDDEN_CHANNEL, player.clone()),
        ],
        Write::RatedRace(race) => vec![
            call!(
                "INSERT INTO rated_races (at_ms, race, node) VALUES ($1, $2, $3)",
                race.at_ms,
                to_json(race.as_ref())?,
                node.clone()
            ),
            call!("SELECT pg_notify($1, $2)", RATINGS_CHANNEL, node),
        ],
        Write::RaceReview(stored) => vec![call!(
            "INSERT INTO race_reviews (id, at_ms, review) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET review = EXCLUDED.review",
            stored.review.id.clone(),
            stored.review.at_ms,
            to_json(stored.as_ref())?
        )],
        Write::Tournament(spec) => vec![
            call!(
                "INSERT INTO tournaments (id, spec, node) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO NOTHING",
                spec.id.clone(),
                to_json(spec.as_ref())?,
                node.clone()
            ),
            call!("SELECT pg_notify($1, $2)", TOURNAMENTS_CHANNEL, node),
        ],
        Write::TournamentResult(result) => vec![
            call!(
                "INSERT INTO tournament_results (tournament, result, node) VALUES ($1, $2, $3)",
                result.tournament.clone(),
                to_json(result.as_ref())?,
                node.clone()
            ),
            call!("SELECT pg_notify($1, $2)", TOURNAMENTS_CHANNEL, node),
        ],
        Write::Record(record) => vec![
            call!(
                "INSERT INTO records (player, daily_key, at_ms, record, node)
                 VALUES ($1, $2, $3, $4, $5)",
                record.player.clone(),
                record.daily_key(),
                record.at_ms,
                to_json(record.as_ref())?,
                node.clone()
            ),
            call!("SELECT pg_notify($1, $2)", RECORDS_CHANNEL, node),
        ],
    })
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

    /// The waiting events as one [`INSERT_EVENTS`] call, if there are any.
    fn take(&mut self) -> Option<Call> {
        if self.rooms.is_empty() {
            return None;
        }
        let rows = std::mem::take(self);
        Some(call!(
            INSERT_EVENTS,
            rows.rooms,
            rows.seqs,
            rows.players,
            rows.at_ms,
            rows.events
        ))
    }
}

/// The writer's connection and the statements prepared on it (a write is then
/// one message, not a prepare first).
struct WriterConn {
    client: Client,
    prepared: HashMap<&'static str, Statement>,
}

impl WriterConn {
    /// `sql`, prepared once per connection.
    async fn statement(&mut self, sql: &'static str) -> Result<Statement, tokio_postgres::Error> {
        if let Some(st) = self.prepared.get(sql) {
            return Ok(st.clone());
        }
        let st = self.client.prepare(sql).await?;
        self.prepared.insert(sql, st.clone());
        Ok(st)
    }

    /// Runs `calls` in order, pipelined (see [`pipelined`]), between `before`
    /// and `after` (simple statements such as `BEGIN` and `COMMIT`): the row
    /// counts of the calls, or the first error.
    async fn run(
        &mut self,
        before: Option<&'static str>,
        calls: &[Call],
        after: Option<&'static str>,
    ) -> Result<Vec<u64>, tokio_postgres::Error> {
        let mut statements = Vec::with_capacity(calls.len());
        for call in calls {
            statements.push(self.statement(call.sql).await?);
        }
        let client = &self.client;
        let simple = |sql: &'static str| -> Answer<'_, u64> {
            Box::pin(async move { client.batch_execute(sql).await.map(|()| 0) })
        };
        let mut answers: Vec<Answer<'_, u64>> = Vec::with_capacity(calls.len() + 2);
        answers.extend(before.map(simple));
        for (call, statement) in calls.iter().zip(&statements) {
            answers.push(Box::pin(async move {
                let params: Vec<&(dyn ToSql + Sync)> = call
                    .params
                    .iter()
                    .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                    .collect();
                client.execute(statement, &params).await
            }));
        }
        answers.extend(after.map(simple));
        let mut counts = Vec::with_capacity(calls.len());
        let skip = usize::from(before.is_some());
        for (i, answer) in pipelined(answers).await.into_iter().enumerate() {
            let count = answer?;
            if i >= skip && counts.len() < calls.len() {
                counts.push(count);
            }
        }
        Ok(counts)
    }
}

/// A reader connection lent out; back among the idle ones when dropped
/// (unless it closed).
struct Reader<'a> {
    client: Option<Client>,
    idle: &'a Mutex<Vec<Client>>,
    _permit: tokio::sync::SemaphorePermit<'a>,
}

impl std::ops::Deref for Reader<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        self.client
            .as_ref()
            .expect("a reader holds its client until it is dropped")
    }
}

impl std::ops::DerefMut for Reader<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        self.client
            .as_mut()
            .expect("a reader holds its client until it is dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client.take().filter(|c| !c.is_closed()) {
            self.idle
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(client);
        }
    }
}

impl Postgres {
    /// Connects to `url`, applies the migrations and announces this node.
    pub async fn open(url: &str, node: NodeIdentity) -> Result<Postgres, StoreError> {
        let mut writer = connect(url).await?;
        // Migrations may wait for another node's (an advisory lock): limits after.
        migrate(&mut writer)
            .await
            .map_err(|e| StoreError::open(redact(url), e))?;
        SessionLimits::for_lease(node.lease).apply(&writer).await?;
        let pg = Postgres {
            url: url.to_string(),
            public_url: RwLock::new(node.url.clone()),
            node,
            writer: tokio::sync::Mutex::new(Some(WriterConn {
                client: writer,
                prepared: HashMap::new(),
            })),
            idle: Mutex::new(Vec::new()),
            readers: tokio::sync::Semaphore::new(READERS),
            epochs: DashMap::new(),
        };
        pg.renew(0).await?;
        Ok(pg)
    }

    /// A new connection with this node's [`SessionLimits`].
    async fn session(&self) -> Result<Client, StoreError> {
        connect_limited(&self.url, SessionLimits::for_lease(self.node.lease)).await
    }

    /// A reader connection: an idle one, or a new one while fewer than
    /// [`READERS`] are open; otherwise it waits for one to be free.
    async fn reader(&self) -> Result<Reader<'_>, StoreError> {
        let permit = self
            .readers
            .acquire()
            .await
            .map_err(|_| StoreError::Stopped)?;
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let client = match idle {
            Some(client) if !client.is_closed() => client,
            _ => self.session().await?,
        };
        Ok(Reader {
            client: Some(client),
            idle: &self.idle,
            _permit: permit,
        })
    }

    fn lease_secs(&self) -> f64 {
        self.node.lease.as_secs_f64()
    }

    /// The highest `id` of `table` (one of ours, never input), 0 when empty.
    async fn newest_id(&self, table: &str) -> Result<i64, StoreError> {
        let c = self.reader().await?;
        let row = c
            .query_one(&format!("SELECT COALESCE(MAX(id), 0) FROM {table}"), &[])
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Other nodes' `(id, column)` rows of `table` (ours, never input) after
    /// `after`, oldest first, and the newest id among them (else `after`).
    async fn other_nodes_after(
        &self,
        table: &str,
        column: &str,
        after: i64,
    ) -> Result<(Vec<(i64, String)>, i64), StoreError> {
        let c = self.reader().await?;
        let rows = c
            .query(
                &format!(
                    "SELECT id, {column} FROM {table} WHERE id > $1 AND node <> $2 ORDER BY id"
                ),
                &[&after, &self.node.id],
            )
            .await?;
        let rows = record_rows(&rows)?;
        let newest = newest(&rows, after);
        Ok((rows, newest))
    }

    /// Commits a batch of events alone (the usual batch: moves) in one
    /// statement, one round trip, no explicit transaction
    /// ([`INSERT_HELD_EVENTS`]): an event not inserted is refused as stale.
    async fn commit_events(
        &self,
        writer: &mut WriterConn,
        batch: &[Write],
    ) -> Result<BatchResults, tokio_postgres::Error> {
        let mut events = EventRows::default();
        let mut results: BatchResults = batch.iter().map(|w| events.push(w)).collect();
        let mut rooms: Vec<String> = events.rooms.clone();
        rooms.sort();
        rooms.dedup();
        let (held, epochs): (Vec<String>, Vec<i64>) = rooms
            .into_iter()
            .filter_map(|room| self.epochs.get(&room).map(|e| (room, *e)))
            .unzip();
        let inserted = if events.rooms.is_empty() {
            Vec::new()
        } else {
            let statement = writer.statement(INSERT_HELD_EVENTS).await?;
            writer
                .client
                .query(
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
                )
                .await?
        };
        let stored: HashSet<(String, i64)> = inserted
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, tokio_postgres::Error>>()?;
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

    /// Commits `batch` in one transaction, room writes only for rooms whose
    /// epoch this node still holds, in two round trips: `BEGIN` with the
    /// rooms' rows locked and their epochs read ([`LOCK_EPOCHS`]); then every
    /// allowed statement and `COMMIT`, pipelined. (A batch that writes for no
    /// room this node took before is one round trip.)
    async fn commit_once(
        &self,
        writer: &mut WriterConn,
        batch: &[Write],
    ) -> Result<BatchResults, tokio_postgres::Error> {
        let mut rooms: Vec<String> = batch
            .iter()
            .filter(|w| !matches!(w, Write::Room { .. }))
            .filter_map(|w| w.room().map(str::to_string))
            .collect();
        rooms.sort();
        rooms.dedup();
        let per_write: Vec<Result<Vec<Call>, StoreError>> =
            batch.iter().map(|w| calls(w, &self.node.id)).collect();
        // Everything prepared first: nothing waits between BEGIN and COMMIT.
        for sql in [LOCK_EPOCHS, INSERT_EVENTS]
            .into_iter()
            .chain(per_write.iter().flatten().flatten().map(|c| c.sql))
        {
            writer.statement(sql).await?;
        }
        let mut current: HashMap<String, i64> = HashMap::new();
        let begun = !rooms.is_empty();
        if begun {
            let lock = writer.statement(LOCK_EPOCHS).await?;
            let client = &writer.client;
            let answers: Vec<Answer<'_, Vec<Row>>> = vec![
                Box::pin(async move { client.batch_execute("BEGIN").await.map(|()| Vec::new()) }),
                Box::pin(async move { client.query(&lock, &[&rooms, &self.node.id]).await }),
            ];
            for answer in pipelined(answers).await {
                for row in answer? {
                    current.insert(row.try_get(0)?, row.try_get(1)?);
                }
            }
        }
        let mut plans = Vec::with_capacity(batch.len());
        let mut all_calls: Vec<Call> = Vec::new();
        // Consecutive events go to the database in one statement; any other
        // write sends them first, so the order of the batch is kept.
        let mut events = EventRows::default();
        let mut new_rooms: HashSet<&str> = HashSet::new();
        for (write, own_calls) in batch.iter().zip(per_write) {
            let allowed = match write {
                Write::Room { .. } => true,
                _ => write.room().is_none_or(|room| {
                    let held = self.epochs.get(room).map(|e| *e);
                    new_rooms.contains(room)
                        || (held.is_some() && current.get(room).copied() == held)
                }),
            };
            if !allowed {
                plans.push(Plan::Decided(Err(StoreError::Stale {
                    room: write.room().unwrap_or_default().to_string(),
                })));
                continue;
            }
            if let Write::Event { .. } = write {
                plans.push(Plan::Decided(events.push(write)));
                continue;
            }
            all_calls.extend(events.take());
            match own_calls {
                Ok(own_calls) => {
                    if let Write::Room { code, .. } = write {
                        // Its later writes in this batch are this node's too.
                        new_rooms.insert(code);
                    }
                    let pool_take = match write {
                        Write::PoolTake { seed } => Some(seed.clone()),
                        _ => None,
                    };
                    plans.push(Plan::Calls {
                        first: all_calls.len(),
                        pool_take,
                    });
                    all_calls.extend(own_calls);
                }
                Err(refused) => plans.push(Plan::Decided(Err(refused))),
            }
        }
        all_calls.extend(events.take());
        let begin = (!begun).then_some("BEGIN");
        let counts = writer.run(begin, &all_calls, Some("COMMIT")).await?;
        for code in new_rooms {
            self.epochs.insert(code.to_string(), 1);
        }
        Ok(plans
            .into_iter()
            .map(|plan| match plan {
                Plan::Decided(result) => result,
                Plan::Calls {
                    first,
                    pool_take: Some(seed),
                } if counts.get(first) == Some(&0) => Err(StoreError::PoolTaken { seed }),
                Plan::Calls { .. } => Ok(()),
            })
            .collect())
    }

    /// Commits `batch` on the writer's connection (a new one if it closed).
    async fn commit_on(
        &self,
        writer: &mut WriterConn,
        batch: &[Write],
    ) -> Result<BatchResults, tokio_postgres::Error> {
        let committed = if batch.iter().all(|w| matches!(w, Write::Event { .. })) {
            self.commit_events(writer, batch).await
        } else {
            self.commit_once(writer, batch).await
        };
        if committed.is_err() && !writer.client.is_closed() {
            // A transaction left open by a failed round trip ends here (outside
            // one, PostgreSQL only warns).
            let _ = writer.client.batch_execute("ROLLBACK").await;
        }
        committed
    }
}

/// The highest id of `(id, _)` rows, else `was`.
fn newest(rows: &[(i64, String)], was: i64) -> i64 {
    rows.iter().map(|(id, _)| *id).max().unwrap_or(was)
}

/// `(id, json)` rows, as the tables of records, races and tournaments hold them.
fn record_rows(rows: &[Row]) -> Result<Vec<(i64, String)>, StoreError> {
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}

async fn read_seats(tx: &Transaction<'_>, room: &str) -> Result<Vec<Identity>, StoreError> {
    tx.query(
        "SELECT player, name FROM seats WHERE room = $1 ORDER BY seat",
        &[&room],
    )
    .await?
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

fn event_row(r: &Row) -> Result<EventRow, tokio_postgres::Error> {
    Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?))
}

async fn read_events(tx: &Transaction<'_>, room: &str) -> Result<Vec<EventRow>, StoreError> {
    let rows = tx
        .query(
            "SELECT seq, player, at_ms, event FROM events
             WHERE room = $1 AND round = (SELECT round FROM rooms WHERE code = $1) ORDER BY seq",
            &[&room],
        )
        .await?;
    Ok(rows.iter().map(event_row).collect::<Result<_, _>>()?)
}

/// One listening connection, until it drops or nobody takes notices any more.
async fn listen_once(
    url: &str,
    tell: &tokio::sync::mpsc::UnboundedSender<Notice>,
) -> Result<(), StoreError> {
    let fail = |e: tokio_postgres::Error| StoreError::open(redact(url), StoreError::from(e));
    let config: tokio_postgres::Config = url.parse().map_err(fail)?;
    let (client, mut connection) = config.connect(NoTls).await.map_err(fail)?;
    // This connection's messages are read here (not by a task of its own), so
    // that its notifications come to us.
    let forward = tell.clone();
    let mut messages = Box::pin(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    let notice = Notice {
                        channel: n.channel().to_string(),
                        payload: n.payload().to_string(),
                    };
                    if forward.send(notice).is_err() {
                        return Ok(());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(StoreError::from(e)),
                None => return Err(StoreError::Database("the connection closed".into())),
            }
        }
    });
    let sql = format!(
        "LISTEN {LOBBY_CHANNEL}; LISTEN {RECORDS_CHANNEL}; LISTEN {HIDDEN_CHANNEL}; LISTEN {TOURNAMENTS_CHANNEL}; LISTEN {RATINGS_CHANNEL};"
    );
    let listen = client.batch_execute(&sql);
    tokio::select! {
        listened = listen => listened?,
        ended = &mut messages => return ended,
    }
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
    tokio::select! {
        ended = &mut messages => ended,
        () = tell.closed() => Ok(()),
    }
}

impl Coordination for Postgres {
    fn node(&self) -> &NodeIdentity {
        &self.node
    }

    fn announce(&self, url: &str) {
        *self.public_url.write().unwrap_or_else(|p| p.into_inner()) = url.to_string();
    }

    fn renew(&self, players: usize) -> Pending<'_, ()> {
        Box::pin(async move {
            let players = i32::try_from(players).unwrap_or(i32::MAX);
            let url = self
                .public_url
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .clone();
            let c = self.reader().await?;
            c.execute(
                "INSERT INTO nodes (id, url, players, lease_until)
                 VALUES ($1, $2, $3, now() + make_interval(secs => $4))
                 ON CONFLICT (id) DO UPDATE SET url = $2, players = $3,
                     lease_until = now() + make_interval(secs => $4)",
                &[&self.node.id, &url, &players, &self.lease_secs()],
            )
            .await?;
            Ok(())
        })
    }

    fn release(&self) -> Pending<'_, ()> {
        Box::pin(async move {
            let c = self.reader().await?;
            c.execute(
                "UPDATE nodes SET lease_until = now() - interval '1 second', players = 0
                 WHERE id = $1",
                &[&self.node.id],
            )
            .await?;
            Ok(())
        })
    }

    fn locate<'a>(&'a self, code: &'a str) -> Pending<'a, Option<Location>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let row = c
                .query_opt(
                    "SELECT r.owner, COALESCE(n.url, ''), COALESCE(n.lease_until > now(), FALSE),
                        GREATEST(COALESCE(EXTRACT(EPOCH FROM n.lease_until - now()), 0), 0)::float8
                     FROM rooms r LEFT JOIN nodes n ON n.id = r.owner
                     WHERE r.code = $1 AND NOT r.finished",
                    &[&code],
                )
                .await?;
            let Some(r) = row else {
                return Ok(None);
            };
            let left: f64 = r.try_get(3)?;
            Ok(Some(Location {
                owner: r.try_get(0)?,
                url: r.try_get(1)?,
                live: r.try_get(2)?,
                lease_left: Duration::try_from_secs_f64(left).unwrap_or_default(),
            }))
        })
    }

    fn live_nodes(&self) -> Pending<'_, Vec<NodeLoad>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let rows = c
                .query(
                    "SELECT n.id, n.url, n.players::bigint,
                        (SELECT count(*) FROM rooms r WHERE r.owner = n.id AND NOT r.finished)
                     FROM nodes n WHERE n.lease_until > now() AND n.url <> '' ORDER BY n.id",
                    &[],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(NodeLoad {
                        id: r.try_get(0)?,
                        url: r.try_get(1)?,
                        players: r.try_get(2)?,
                        rooms: r.try_get(3)?,
                    })
                })
                .collect()
        })
    }

    fn claim<'a>(&'a self, code: &'a str) -> Pending<'a, Option<SavedRoom>> {
        Box::pin(async move {
            let mut c = self.reader().await?;
            let tx = c.transaction().await?;
            let row = tx
                .query_opt(
                    &format!(
                        "UPDATE rooms SET owner = $2, epoch = epoch + 1
                         WHERE code = $1 AND NOT finished AND (owner = $2 OR {OWNER_DEAD})
                         RETURNING epoch, settings, puzzle, host, start_ms"
                    ),
                    &[&code, &self.node.id],
                )
                .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let seats = read_seats(&tx, code).await?;
            let events = read_events(&tx, code).await?;
            tx.commit().await?;
            let epoch: i64 = row.try_get(0)?;
            let settings: String = row.try_get(1)?;
            let puzzle: String = row.try_get(2)?;
            self.epochs.insert(code.to_string(), epoch);
            tracing::info!(room = %code, epoch, "took the room over");
            Ok(saved_room(
                code.to_string(),
                &settings,
                &puzzle,
                row.try_get(3)?,
                row.try_get(4)?,
                seats,
                events,
            ))
        })
    }

    fn give<'a>(&'a self, code: &'a str, to: &'a str) -> Pending<'a, bool> {
        Box::pin(async move { Ok(self.give_all(&[code.to_string()], to).await?.len() == 1) })
    }

    fn give_all<'a>(&'a self, codes: &'a [String], to: &'a str) -> Pending<'a, Vec<String>> {
        Box::pin(async move {
            let (held, epochs): (Vec<String>, Vec<i64>) = codes
                .iter()
                .filter_map(|c| self.epochs.get(c).map(|e| (c.clone(), *e)))
                .unzip();
            if held.is_empty() {
                return Ok(Vec::new());
            }
            let c = self.reader().await?;
            let rows = c
                .query(
                    "UPDATE rooms SET owner = $3, epoch = epoch + 1
                     WHERE owner = $2 AND NOT finished
                       AND (code, epoch) IN (SELECT * FROM unnest($1::text[], $4::bigint[]))
                     RETURNING code",
                    &[&held, &self.node.id, &to, &epochs],
                )
                .await?;
            for code in &held {
                self.epochs.remove(code);
            }
            Ok(rows
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?)
        })
    }

    fn expired(&self, limit: i64) -> Pending<'_, Vec<Expired>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let rows = c
                .query(
                    &format!(
                        "SELECT code, NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = rooms.owner
                            AND n.lease_until > now() - make_interval(secs => $2))
                         FROM rooms WHERE NOT finished AND {OWNER_DEAD}
                         ORDER BY code LIMIT $1"
                    ),
                    &[&limit, &self.lease_secs()],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(Expired {
                        code: r.try_get(0)?,
                        overdue: r.try_get(1)?,
                    })
                })
                .collect()
        })
    }

    fn lost(&self) -> Pending<'_, Vec<String>> {
        Box::pin(async move {
            let held: Vec<String> = self.epochs.iter().map(|e| e.key().clone()).collect();
            if held.is_empty() {
                return Ok(Vec::new());
            }
            let c = self.reader().await?;
            let rows = c
                .query(
                    "SELECT code, owner, epoch, finished FROM rooms WHERE code = ANY($1)",
                    &[&held],
                )
                .await?;
            let mut lost = Vec::new();
            for r in rows {
                let code: String = r.try_get(0)?;
                let owner: String = r.try_get(1)?;
                let epoch: i64 = r.try_get(2)?;
                let finished: bool = r.try_get(3)?;
                let ours = self.epochs.get(&code).map(|e| *e);
                if finished {
                    self.epochs.remove(&code);
                } else if owner != self.node.id || ours != Some(epoch) {
                    self.epochs.remove(&code);
                    lost.push(code);
                }
            }
            Ok(lost)
        })
    }

    fn publish_rooms<'a>(&'a self, rooms_json: &'a str) -> Pending<'a, ()> {
        Box::pin(async move {
            let mut c = self.reader().await?;
            let tx = c.transaction().await?;
            tx.execute(
                "UPDATE nodes SET rooms = $2 WHERE id = $1",
                &[&self.node.id, &rooms_json],
            )
            .await?;
            tx.execute("SELECT pg_notify($1, $2)", &[&LOBBY_CHANNEL, &self.node.id])
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn remote_rooms(&self) -> Pending<'_, Vec<String>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let rows = c
                .query(
                    "SELECT rooms FROM nodes WHERE id <> $1 AND lease_until > now() ORDER BY id",
                    &[&self.node.id],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?)
        })
    }

    fn last_record(&self) -> Pending<'_, i64> {
        Box::pin(self.newest_id("records"))
    }

    fn records_after(&self, after: i64) -> Pending<'_, (Vec<GameRecord>, i64)> {
        Box::pin(async move {
            let (rows, newest) = self.other_nodes_after("records", "record", after).await?;
            Ok((saved_records(rows), newest))
        })
    }

    fn last_rated_race(&self) -> Pending<'_, i64> {
        Box::pin(self.newest_id("rated_races"))
    }

    fn rated_races_after(
        &self,
        after: i64,
    ) -> Pending<'_, (Vec<crate::serve::ratings::RatedRace>, i64)> {
        Box::pin(async move {
            let (rows, newest) = self.other_nodes_after("rated_races", "race", after).await?;
            Ok((saved_rated_races(rows), newest))
        })
    }

    fn tournament_mark(&self) -> Pending<'_, TournamentMark> {
        Box::pin(async move {
            let c = self.reader().await?;
            let row = c
                .query_one(
                    "SELECT (SELECT COALESCE(MAX(n), 0) FROM tournaments),
                        (SELECT COALESCE(MAX(id), 0) FROM tournament_results)",
                    &[],
                )
                .await?;
            Ok(TournamentMark {
                tournament: row.try_get(0)?,
                result: row.try_get(1)?,
            })
        })
    }

    fn tournaments_after(&self, after: TournamentMark) -> Pending<'_, TournamentRows> {
        Box::pin(async move {
            let c = self.reader().await?;
            let specs = c
                .query(
                    "SELECT n, spec FROM tournaments WHERE n > $1 ORDER BY n",
                    &[&after.tournament],
                )
                .await?;
            let results = c
                .query(
                    "SELECT id, result FROM tournament_results WHERE id > $1 ORDER BY id",
                    &[&after.result],
                )
                .await?;
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
        })
    }

    fn is_hidden<'a>(&'a self, player: &'a str) -> Pending<'a, bool> {
        Box::pin(async move {
            let c = self.reader().await?;
            let row = c
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM hidden_players WHERE player = $1)",
                    &[&player],
                )
                .await?;
            Ok(row.try_get(0)?)
        })
    }

    fn listen(&self, tell: tokio::sync::mpsc::UnboundedSender<Notice>) -> Result<(), StoreError> {
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|e| StoreError::Database(format!("cannot listen for notifications: {e}")))?;
        let url = self.url.clone();
        runtime.spawn(async move {
            while !tell.is_closed() {
                if let Err(e) = listen_once(&url, &tell).await {
                    tracing::warn!(error = %e, "database notifications stopped; reconnecting");
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        Ok(())
    }
}

impl Backend for Postgres {
    fn describe(&self) -> String {
        redact(&self.url)
    }

    fn commit(&self, batch: Vec<Write>) -> Pending<'_, BatchResults> {
        Box::pin(async move {
            let mut slot = self.writer.lock().await;
            if slot.as_ref().is_none_or(|w| w.client.is_closed()) {
                *slot = Some(WriterConn {
                    client: self.session().await?,
                    prepared: HashMap::new(),
                });
            }
            let Some(writer) = slot.as_mut() else {
                return Err(StoreError::Database("no database connection".into()));
            };
            match self.commit_on(writer, &batch).await {
                Ok(results) => Ok(results),
                // One statement failed and took the transaction with it: commit
                // each write alone, so only the bad one fails.
                Err(e) if e.as_db_error().is_some() && batch.len() > 1 => {
                    tracing::warn!(error = %StoreError::from(e), "a batched write failed; committing one by one");
                    let mut results = Vec::with_capacity(batch.len());
                    for write in batch.chunks(1) {
                        results.push(match self.commit_on(writer, write).await {
                            Ok(mut r) => r.pop().unwrap_or(Ok(())),
                            Err(e) => Err(StoreError::from(e)),
                        });
                    }
                    Ok(results)
                }
                Err(e) => Err(StoreError::from(e)),
            }
        })
    }

    fn session(&self, token_hash: [u8; 32]) -> Pending<'_, Option<Identity>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let row = c
                .query_opt(
                    "SELECT player, name FROM sessions WHERE token_hash = $1",
                    &[&&token_hash[..]],
                )
                .await?;
            let Some(r) = row else {
                return Ok(None);
            };
            Ok(Some(Identity {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
            }))
        })
    }

    fn race_review<'a>(
        &'a self,
        id: &'a str,
    ) -> Pending<'a, Option<crate::serve::review::StoredReview>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let row = c
                .query_opt("SELECT review FROM race_reviews WHERE id = $1", &[&id])
                .await?;
            let Some(r) = row else {
                return Ok(None);
            };
            let json: String = r.try_get(0)?;
            saved_review(id, &json).map(Some)
        })
    }

    fn daily_records<'a>(&'a self, daily_key: &'a str) -> Pending<'a, Vec<GameRecord>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let rows = c
                .query(
                    "SELECT id, record FROM records WHERE daily_key = $1 ORDER BY id",
                    &[&daily_key],
                )
                .await?;
            Ok(saved_records(record_rows(&rows)?))
        })
    }

    /// Expired codes are dropped on the way.
    fn put_sync_code<'a>(
        &'a self,
        code: &'a str,
        who: &'a Identity,
        life: Duration,
    ) -> Pending<'a, ()> {
        Box::pin(async move {
            let life = life.as_secs_f64();
            let mut c = self.reader().await?;
            let tx = c.transaction().await?;
            tx.execute(
                "DELETE FROM sync_codes WHERE player = $1 OR expires_at < now()",
                &[&who.id],
            )
            .await?;
            tx.execute(
                "INSERT INTO sync_codes (code, player, name, expires_at)
                 VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
                &[&code, &who.id, &who.name, &life],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn take_sync_code<'a>(&'a self, code: &'a str) -> Pending<'a, Option<(Identity, bool)>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let row = c
                .query_opt(
                    "DELETE FROM sync_codes WHERE code = $1
                     RETURNING player, name, expires_at > now()",
                    &[&code],
                )
                .await?;
            let Some(r) = row else {
                return Ok(None);
            };
            let who = Identity {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
            };
            Ok(Some((who, r.try_get(2)?)))
        })
    }

    fn history<'a>(&'a self, code: &'a str) -> Pending<'a, Vec<PastRound>> {
        Box::pin(async move {
            let c = self.reader().await?;
            let rounds = c
                .query(
                    "SELECT round, puzzle, start_ms FROM rounds WHERE room = $1 ORDER BY round",
                    &[&code],
                )
                .await?;
            let mut past = Vec::with_capacity(rounds.len());
            for r in &rounds {
                let round: i64 = r.try_get(0)?;
                let puzzle: String = r.try_get(1)?;
                let events = c
                    .query(
                        "SELECT seq, player, at_ms, event FROM events
                         WHERE room = $1 AND round = $2 ORDER BY seq",
                        &[&code, &round],
                    )
                    .await?
                    .iter()
                    .map(event_row)
                    .collect::<Result<Vec<_>, _>>()?;
                past.push(past_round(code, round, &puzzle, r.try_get(2)?, events)?);
            }
            Ok(past)
        })
    }

    /// This node's own unfinished rooms (taken again at a new epoch: a restarted
    /// node fences off its previous run), the pool, the records, the hidden
    /// players. Other nodes' rooms are taken over when their leases run out.
    fn load(&self) -> Pending<'_, Saved> {
        Box::pin(async move {
            let mut saved = Saved::default();
            let mut c = self.reader().await?;
            // Reading everything at start-up may take longer than a statement
            // may in play: no statement limit for this one transaction.
            let tx = c.transaction().await?;
            tx.batch_execute("SET LOCAL statement_timeout = 0").await?;
            let pool = tx.query("SELECT seed, key, puzzle FROM pool", &[]).await?;
            let own = tx
                .query(
                    "SELECT code FROM rooms WHERE owner = $1 AND NOT finished",
                    &[&self.node.id],
                )
                .await?;
            let records = tx
                .query("SELECT id, record FROM records ORDER BY id", &[])
                .await?;
            let rated = tx
                .query("SELECT id, race FROM rated_races ORDER BY id", &[])
                .await?;
            let hidden = tx.query("SELECT player FROM hidden_players", &[]).await?;
            let specs = tx
                .query("SELECT n, spec FROM tournaments ORDER BY n", &[])
                .await?;
            let results = tx
                .query("SELECT id, result FROM tournament_results ORDER BY id", &[])
                .await?;
            tx.commit().await?;
            drop(c);
            for r in &pool {
                let (seed, key, puzzle): (String, String, String) =
                    (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
                if let Ok(puzzle) = serde_json::from_str(&puzzle) {
                    saved.pool.push((seed, key, puzzle));
                }
            }
            for r in &own {
                let code: String = r.try_get(0)?;
                saved.rooms.extend(self.claim(&code).await?);
            }
            saved.records = saved_records(record_rows(&records)?);
            saved.rated_races = saved_rated_races(record_rows(&rated)?);
            saved.tournaments = saved_rows(record_rows(&specs)?, "tournament");
            saved.tournament_results = saved_rows(record_rows(&results)?, "tournament result");
            saved.hidden = hidden
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?;
            Ok(saved)
        })
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
