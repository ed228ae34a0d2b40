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
//! one round trip, any other batch two (`commit`).
//!
//! Here: the connections, migrations and reads; `commit` the writer's
//! commits; `coordination` the nodes' shared state and notifications.

mod commit;
mod coordination;

use super::coordination::{Coordination, NodeIdentity};
use super::{
    past_round, saved_rated_races, saved_records, saved_review, saved_rows, Backend, BatchResults,
    PastRound, Pending, Saved, StoreError, Write,
};
use crate::serve::identity::Identity;
use crate::serve::records::GameRecord;
use commit::WriterConn;
use dashmap::DashMap;
use std::sync::{Mutex, RwLock};
use std::time::Duration;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls, Row, Transaction};

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

/// A connection to `url` ([`connect_raw`]), its I/O driven by a task of its
/// own on the current runtime.
async fn connect(url: &str) -> Result<Client, StoreError> {
    let (client, connection) = connect_raw(url).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "a database connection ended");
        }
    });
    Ok(client)
}

/// A connection's I/O, to be driven until it ends.
type Connection =
    tokio_postgres::Connection<tokio_postgres::Socket, tokio_postgres::tls::NoTlsStream>;

/// A connection to `url` with keepalives on and a connect timeout, and its
/// I/O, which the caller must drive (the listener reads its notifications).
async fn connect_raw(url: &str) -> Result<(Client, Connection), StoreError> {
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
    config.connect(NoTls).await.map_err(fail)
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
            writer: tokio::sync::Mutex::new(Some(WriterConn::new(writer))),
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

    /// The rows `sql` returns, on a reader connection.
    async fn rows(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        Ok(self.reader().await?.query(sql, params).await?)
    }

    /// The row `sql` returns, if any, on a reader connection.
    async fn row(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, StoreError> {
        Ok(self.reader().await?.query_opt(sql, params).await?)
    }

    /// The one row `sql` returns (an aggregate), on a reader connection.
    async fn one(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Row, StoreError> {
        Ok(self.reader().await?.query_one(sql, params).await?)
    }

    /// Runs `sql` on a reader connection.
    async fn execute(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<(), StoreError> {
        self.reader().await?.execute(sql, params).await?;
        Ok(())
    }

    fn lease_secs(&self) -> f64 {
        self.node.lease.as_secs_f64()
    }

    /// The highest `id` of `table` (one of ours, never input), 0 when empty.
    async fn newest_id(&self, table: &str) -> Result<i64, StoreError> {
        let row = self
            .one(&format!("SELECT COALESCE(MAX(id), 0) FROM {table}"), &[])
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
        let rows = self
            .rows(
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
impl Backend for Postgres {
    fn describe(&self) -> String {
        redact(&self.url)
    }
    fn commit(&self, batch: Vec<Write>) -> Pending<'_, BatchResults> {
        Box::pin(self.commit_batch(batch))
    }

    fn session(&self, token_hash: [u8; 32]) -> Pending<'_, Option<Identity>> {
        Box::pin(async move {
            let row = self
                .row(
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
            let row = self
                .row("SELECT review FROM race_reviews WHERE id = $1", &[&id])
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
            let rows = self
                .rows(
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
            let row = self
                .row(
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
            let rounds = self
                .rows(
                    "SELECT round, puzzle, start_ms FROM rounds WHERE room = $1 ORDER BY round",
                    &[&code],
                )
                .await?;
            let mut past = Vec::with_capacity(rounds.len());
            for r in &rounds {
                let round: i64 = r.try_get(0)?;
                let puzzle: String = r.try_get(1)?;
                let events = self
                    .rows(
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
