//! The writer's commits: a batch of events alone in one statement; any other
//! batch in one transaction whose statements are sent pipelined, each write
//! answered on its own (refused alone when its room is no longer this node's,
//! its pool puzzle was taken, or it cannot be encoded).

use super::Postgres;
use crate::serve::store::coordination::{
    HIDDEN_CHANNEL, RATINGS_CHANNEL, RECORDS_CHANNEL, TOURNAMENTS_CHANNEL,
};
use crate::serve::store::{to_json, BatchResults, StoreError, Write};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Row, Statement};

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

/// Tells the other nodes on `channel` (see `coordination`).
fn notify(channel: &'static str, payload: String) -> Call {
    call!("SELECT pg_notify($1, $2)", channel, payload)
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
            notify(HIDDEN_CHANNEL, player.clone()),
        ],
        Write::RatedRace(race) => vec![
            call!(
                "INSERT INTO rated_races (at_ms, race, node) VALUES ($1, $2, $3)",
                race.at_ms,
                to_json(race.as_ref())?,
                node.clone()
            ),
            notify(RATINGS_CHANNEL, node),
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
            notify(TOURNAMENTS_CHANNEL, node),
        ],
        Write::TournamentResult(result) => vec![
            call!(
                "INSERT INTO tournament_results (tournament, result, node) VALUES ($1, $2, $3)",
                result.tournament.clone(),
                to_json(result.as_ref())?,
                node.clone()
            ),
            notify(TOURNAMENTS_CHANNEL, node),
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
            notify(RECORDS_CHANNEL, node),
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
pub(super) struct WriterConn {
    client: Client,
    prepared: HashMap<&'static str, Statement>,
}

impl WriterConn {
    /// The writer's connection `client`, nothing prepared yet.
    pub(super) fn new(client: Client) -> WriterConn {
        WriterConn {
            client,
            prepared: HashMap::new(),
        }
    }

    /// `sql`, prepared once per connection.
    async fn statement(&mut self, sql: &'static str) -> Result<Statement, tokio_postgres::Error> {
        if let Some(st) = self.prepared.get(sql) {
            return Ok(st.clone());
        }
        let st = self.client.prepare(sql).await?;
        self.prepared.insert(sql, st.clone());
        Ok(st)
    }

    /// Runs `calls` in order, pipelined (see [`pipelined`]), then `COMMIT`;
    /// `begin`: `BEGIN` first. The row counts of the calls, or the first
    /// error (the transaction is then rolled back by its `COMMIT`).
    async fn run_and_commit(
        &mut self,
        begin: bool,
        calls: &[Call],
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
        answers.extend(begin.then(|| simple("BEGIN")));
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
        answers.push(simple("COMMIT"));
        let answers = pipelined(answers)
            .await
            .into_iter()
            .collect::<Result<Vec<u64>, _>>()?;
        let first = usize::from(begin);
        Ok(answers[first..first + calls.len()].to_vec())
    }
}

impl Postgres {
    /// Commits `batch` on the writer's connection (a new one if it closed).
    /// When one statement fails and takes the transaction with it, each write
    /// is committed alone, so only the bad one fails.
    pub(super) async fn commit_batch(&self, batch: Vec<Write>) -> Result<BatchResults, StoreError> {
        let mut slot = self.writer.lock().await;
        if slot.as_ref().is_none_or(|w| w.client.is_closed()) {
            *slot = Some(WriterConn::new(self.session().await?));
        }
        let Some(writer) = slot.as_mut() else {
            return Err(StoreError::Database("no database connection".into()));
        };
        match self.commit_on(writer, &batch).await {
            Ok(results) => Ok(results),
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
        let counts = writer.run_and_commit(!begun, &all_calls).await?;
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

    /// Commits `batch` on `writer`: moves alone in one statement, anything
    /// else in a transaction; a transaction a failure left open is ended.
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
