//! What several nodes share, as PostgreSQL holds it: the nodes' leases and
//! loads, room ownership and takeovers, the public rooms, the rows other nodes
//! stored, and LISTEN/NOTIFY on a connection of its own.

use super::{connect_raw, newest, read_events, read_seats, record_rows, Postgres, OWNER_DEAD};
use crate::serve::records::GameRecord;
use crate::serve::store::coordination::{
    Coordination, Expired, Location, NodeIdentity, NodeLoad, Notice, TournamentMark,
    TournamentRows, HIDDEN_CHANNEL, LOBBY_CHANNEL, RATINGS_CHANNEL, RECORDS_CHANNEL,
    TOURNAMENTS_CHANNEL,
};
use crate::serve::store::{
    saved_rated_races, saved_records, saved_room, saved_rows, Pending, SavedRoom, StoreError,
};
use std::time::Duration;
use tokio_postgres::AsyncMessage;

/// One listening connection, until it drops or nobody takes notices any more.
async fn listen_once(
    url: &str,
    tell: &tokio::sync::mpsc::UnboundedSender<Notice>,
) -> Result<(), StoreError> {
    let (client, mut connection) = connect_raw(url).await?;
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
            self.execute(
                "INSERT INTO nodes (id, url, players, lease_until)
                 VALUES ($1, $2, $3, now() + make_interval(secs => $4))
                 ON CONFLICT (id) DO UPDATE SET url = $2, players = $3,
                     lease_until = now() + make_interval(secs => $4)",
                &[&self.node.id, &url, &players, &self.lease_secs()],
            )
            .await
        })
    }

    fn release(&self) -> Pending<'_, ()> {
        Box::pin(async move {
            self.execute(
                "UPDATE nodes SET lease_until = now() - interval '1 second', players = 0
                 WHERE id = $1",
                &[&self.node.id],
            )
            .await
        })
    }

    fn locate<'a>(&'a self, code: &'a str) -> Pending<'a, Option<Location>> {
        Box::pin(async move {
            let row = self
                .row(
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
            let rows = self
                .rows(
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
            let rows = self
                .rows(
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
            let rows = self
                .rows(
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
            let rows = self
                .rows(
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
            let rows = self
                .rows(
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
            let row = self
                .one(
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
            let specs = self
                .rows(
                    "SELECT n, spec FROM tournaments WHERE n > $1 ORDER BY n",
                    &[&after.tournament],
                )
                .await?;
            let results = self
                .rows(
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
            let row = self
                .one(
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
