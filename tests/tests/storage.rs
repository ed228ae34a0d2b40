//! The storage suite, run against both backends: the SQLite file and a real
//! PostgreSQL server started for the test. Whatever a room, the pool or the
//! leaderboards write comes back after a reopen; then the PostgreSQL-only
//! guarantees of several nodes: a room's owner holds a fencing epoch, a node
//! takes over a room whose lease ran out, and the stale owner's writes are
//! refused by the database.

use arena_tests::postgres::PgServer;
use arena_tests::ws::race_settings;
use protocol::wire::{Mode, RoomSettings};
use protocol::PuzzleV1;
use server::serve::event::RoomEvent;
use server::serve::records::GameRecord;
use server::serve::session::Identity;
use server::serve::store::coordination::{Coordination, NodeIdentity};
use server::serve::store::postgres::Postgres;
use server::serve::store::{Backend, Store, StoreError, Write};
use std::sync::Arc;
use std::time::Duration;

fn settings() -> RoomSettings {
    RoomSettings {
        public: false,
        ..race_settings(2)
    }
}

fn puzzle() -> PuzzleV1 {
    serde_json::from_str(
        r#"{"format":"sudoku-arena/puzzle@1","size":1,"layout":{"rows":1,"cols":1},"grid":[[0]]}"#,
    )
    .expect("puzzle")
}

fn ada() -> Identity {
    Identity {
        id: "p1".into(),
        name: "Ada".into(),
    }
}

/// A rated race of two.
fn rated_race() -> server::serve::ratings::RatedRace {
    use server::serve::ratings::{RacePlace, RatedRace};
    let place = |player: &str, place| RacePlace {
        player: player.into(),
        name: player.to_uppercase(),
        place,
    };
    RatedRace {
        variant: "classic".into(),
        params: protocol::plugin::Params::new(),
        difficulty: "easy".into(),
        room: "r1".into(),
        at_ms: 1.0,
        places: vec![place("p1", 1), place("p2", 2)],
    }
}

fn record(player: &str, daily: Option<&str>) -> GameRecord {
    GameRecord {
        plausible_ms: 0,
        player: player.into(),
        name: "Ada".into(),
        variant: "classic".into(),
        params: Default::default(),
        difficulty: "easy".into(),
        daily: daily.map(str::to_string),
        mode: Mode::Solo,
        time_ms: 61_000,
        penalty_ms: 0,
        mistakes: 0,
        hints: 0,
        at_ms: 1.0,
        room: "abc".into(),
        moves: Vec::new(),
    }
}

/// Event `seq` of `room`: p1 puts a 1 in the corner.
fn value_event(room: &str, seq: u64) -> Write {
    Write::Event {
        room: room.into(),
        seq,
        player: "p1".into(),
        event: RoomEvent::Value {
            row: 0,
            col: 0,
            value: 1,
        },
        at_ms: seq as f64,
    }
}

/// Every write kind, read back after `reopen`.
async fn the_suite<F: std::future::Future<Output = Store>>(open: impl Fn() -> F) {
    let store = open().await;
    let who = ada();
    store
        .write(Write::Session {
            token_hash: [7; 32],
            who: who.clone(),
        })
        .await
        .expect("session");
    store
        .write(Write::Room {
            code: "abc".into(),
            settings: settings(),
            puzzle: Box::new(puzzle()),
        })
        .await
        .expect("room");
    let room_writes = [
        Write::Seat {
            room: "abc".into(),
            who: who.clone(),
            seat: 0,
        },
        Write::Host {
            room: "abc".into(),
            player: "p1".into(),
        },
        Write::Start {
            room: "abc".into(),
            start_ms: 5.0,
        },
        Write::Event {
            room: "abc".into(),
            seq: 1,
            player: "p1".into(),
            event: RoomEvent::Value {
                row: 0,
                col: 0,
                value: 1,
            },
            at_ms: 9.0,
        },
        Write::PoolAdd {
            seed: "s1".into(),
            key: "classic/easy".into(),
            puzzle: Box::new(puzzle()),
        },
        Write::PoolAdd {
            seed: "s2".into(),
            key: "classic/easy".into(),
            puzzle: Box::new(puzzle()),
        },
        Write::PoolTake { seed: "s1".into() },
        Write::Record(Box::new(record("p1", Some("2026-11-25")))),
        Write::Record(Box::new(record("p2", None))),
        Write::RatedRace(Box::new(rated_race())),
        Write::Hidden {
            player: "p2".into(),
            hidden: true,
        },
    ];
    for w in room_writes {
        store.write(w).await.expect("write");
    }
    drop(store);

    let reopened = open().await;
    assert_eq!(reopened.session(&[7; 32]).await, Ok(Some(who.clone())));
    assert_eq!(reopened.session(&[8; 32]).await, Ok(None));
    let saved = reopened.load().await.expect("load");
    assert_eq!(saved.rooms.len(), 1);
    let room = &saved.rooms[0];
    assert_eq!((room.code.as_str(), room.start_ms), ("abc", Some(5.0)));
    assert_eq!(
        (room.host.as_str(), &room.seats),
        ("p1", &vec![who.clone()])
    );
    assert_eq!(room.settings, settings());
    assert_eq!(
        room.events.iter().map(|e| &e.event).collect::<Vec<_>>(),
        vec![&RoomEvent::Value {
            row: 0,
            col: 0,
            value: 1
        }]
    );
    let pool: Vec<&str> = saved.pool.iter().map(|(seed, ..)| seed.as_str()).collect();
    assert_eq!(pool, vec!["s2"], "a taken pool puzzle is gone");
    assert_eq!(saved.records.len(), 2);
    assert_eq!(saved.rated_races, vec![rated_race()]);
    assert_eq!(saved.hidden, vec!["p2".to_string()]);
    let key = record("p1", Some("2026-11-25"))
        .daily_key()
        .expect("a daily key");
    let daily = reopened.daily_records(&key).await.expect("daily records");
    assert_eq!(
        daily.iter().map(|r| r.player.as_str()).collect::<Vec<_>>(),
        vec!["p1"]
    );

    reopened
        .write(Write::Rematch {
            room: "abc".into(),
            puzzle: Box::new(puzzle()),
        })
        .await
        .expect("rematch");
    let room = &reopened.load().await.expect("load").rooms[0];
    assert!(room.events.is_empty() && room.start_ms.is_none());
    // The round before stays as the room's history; the new round numbers its
    // events from 1 again.
    let again = Write::Event {
        room: "abc".into(),
        seq: 1,
        player: "p1".into(),
        event: RoomEvent::Value {
            row: 0,
            col: 1,
            value: 2,
        },
        at_ms: 20.0,
    };
    reopened
        .write(again)
        .await
        .expect("the new round's first event");
    let history = reopened.history("abc").await.expect("history");
    assert_eq!(history.len(), 1, "one round before this one");
    assert_eq!((history[0].round, history[0].start_ms), (0, Some(5.0)));
    assert_eq!(history[0].puzzle, puzzle());
    assert_eq!(
        history[0]
            .events
            .iter()
            .map(|e| &e.event)
            .collect::<Vec<_>>(),
        vec![&RoomEvent::Value {
            row: 0,
            col: 0,
            value: 1
        }]
    );
    let room = &reopened.load().await.expect("load").rooms[0];
    assert_eq!(
        room.events
            .iter()
            .map(|e| (e.seq, &e.event))
            .collect::<Vec<_>>(),
        vec![(
            1,
            &RoomEvent::Value {
                row: 0,
                col: 1,
                value: 2
            }
        )],
        "only the current round is replayed"
    );
    reopened
        .write(Write::Finish { room: "abc".into() })
        .await
        .expect("finish");
    assert!(
        reopened.load().await.expect("load").rooms.is_empty(),
        "finished rooms are not restored"
    );
}

#[tokio::test]
async fn sqlite_keeps_every_write() {
    let dir = std::env::temp_dir().join(format!("arena-storage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    the_suite(|| async { Store::open(&dir).expect("open") }).await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn node(id: &str, lease: Duration) -> NodeIdentity {
    NodeIdentity {
        id: id.into(),
        url: format!("ws://node-{id}/ws"),
        lease,
    }
}

#[tokio::test]
async fn postgres_keeps_every_write() {
    let pg = PgServer::start();
    let url = pg.database("suite");
    the_suite(|| async {
        let backend = Postgres::open(&url, node("a", Duration::from_secs(30)))
            .await
            .expect("open");
        Store::new(Arc::new(backend))
    })
    .await;
}

/// Waits (without sleeping) until `node` can take room `code` over.
async fn claim_when_expired(node: &Postgres, code: &str) -> server::serve::store::SavedRoom {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(room) = node.claim(code).await.expect("claim") {
            return room;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the lease never ran out"
        );
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn a_stale_owner_cannot_write_after_a_takeover() {
    let pg = PgServer::start();
    let url = pg.database("fencing");
    // Node a's leases last 1 ms: as good as dead once it stops renewing.
    let a = Arc::new(
        Postgres::open(&url, node("a", Duration::from_millis(1)))
            .await
            .expect("a"),
    );
    let b = Arc::new(
        Postgres::open(&url, node("b", Duration::from_secs(30)))
            .await
            .expect("b"),
    );
    let store_a = Store::new(a.clone());
    store_a
        .write(Write::Room {
            code: "r1".into(),
            settings: settings(),
            puzzle: Box::new(puzzle()),
        })
        .await
        .expect("a creates the room");
    let event = |seq: u64| value_event("r1", seq);
    store_a.write(event(1)).await.expect("the owner writes");
    let location = b
        .locate("r1")
        .await
        .expect("locate")
        .expect("the room exists");
    assert_eq!(location.owner, "a");

    let taken = claim_when_expired(&b, "r1").await;
    assert_eq!(
        taken.events.len(),
        1,
        "the new owner replays every acknowledged event"
    );
    let location = b
        .locate("r1")
        .await
        .expect("locate")
        .expect("the room exists");
    assert_eq!((location.owner.as_str(), location.live), ("b", true));
    assert_eq!(location.url, "ws://node-b/ws");

    let refused = store_a
        .write(event(2))
        .await
        .expect_err("the stale owner is refused");
    assert_eq!(
        refused,
        StoreError::Stale { room: "r1".into() },
        "refused as stale, by kind"
    );
    assert_eq!(a.lost().await.expect("lost"), vec!["r1".to_string()]);
    assert!(
        a.claim("r1").await.expect("claim").is_none(),
        "a live owner's room cannot be taken"
    );
    let store_b = Store::new(b.clone());
    store_b.write(event(2)).await.expect("the new owner writes");
    let reread = b.claim("r1").await.expect("claim").expect("b's own room");
    assert_eq!(reread.events.len(), 2);
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let pg = PgServer::start();
    let url = pg.database("newer");
    let lease = Duration::from_secs(30);
    drop(
        Postgres::open(&url, node("a", lease))
            .await
            .expect("first open migrates"),
    );
    let backend = Postgres::open(&url, node("a", lease))
        .await
        .expect("reopen");
    assert!(backend.describe().starts_with("postgres://"));
    drop(backend);
    let psql = std::process::Command::new("psql")
        .args([&url, "-c", "INSERT INTO arena_schema (version) VALUES (99)"])
        .output()
        .expect("psql");
    assert!(psql.status.success(), "{psql:?}");
    let e = Postgres::open(&url, node("a", lease))
        .await
        .expect_err("refused");
    assert!(
        matches!(&e, StoreError::Open { why, .. } if why.contains("schema version 99")),
        "{e}"
    );
}

#[tokio::test]
async fn an_owner_frozen_inside_a_transaction_never_blocks_a_takeover() {
    use server::serve::store::postgres::{connect_limited, SessionLimits};
    let pg = PgServer::start();
    let url = pg.database("frozen");
    let lease = Duration::from_millis(1000);
    // Node a's lease lasts 1 ms: as good as dead once it stops renewing.
    let a = Arc::new(
        Postgres::open(&url, node("a", Duration::from_millis(1)))
            .await
            .expect("a"),
    );
    let b = Postgres::open(&url, node("b", lease)).await.expect("b");
    Store::new(a)
        .write(Write::Room {
            code: "r1".into(),
            settings: settings(),
            puzzle: Box::new(puzzle()),
        })
        .await
        .expect("a creates the room");
    // Node a froze in the middle of a write: its session holds the room's row
    // and says nothing more (a SIGSTOP, a half-dead link).
    let limits = SessionLimits::for_lease(Duration::from_millis(1));
    let mut frozen = connect_limited(&url, limits).await.expect("a's session");
    let tx = frozen.transaction().await.expect("begin");
    tx.execute("SELECT 1 FROM rooms WHERE code = 'r1' FOR UPDATE", &[])
        .await
        .expect("the row is held");
    // b takes the room over all the same, within the lease and a half.
    let started = std::time::Instant::now();
    let taken = loop {
        // Waiting on the frozen lock ends at b's lock timeout: then try again.
        if let Ok(Some(room)) = b.claim("r1").await {
            break room;
        }
        assert!(
            started.elapsed() < lease + Duration::from_millis(1500),
            "the frozen owner blocked the takeover for {:?}",
            started.elapsed()
        );
        tokio::task::yield_now().await;
    };
    assert_eq!(taken.code, "r1");
    assert!(
        tx.execute("SELECT 1", &[]).await.is_err(),
        "the server ended the frozen session"
    );
}

/// One batch as the writer hands it over under load: every kind of write at
/// once, sent pipelined in one transaction. Each write gets its own answer in
/// order: a taken pool puzzle and a room this node never held are refused
/// alone; a write the database rejects (a second room with the same code)
/// fails alone, the others are committed.
#[tokio::test]
async fn postgres_answers_each_write_of_a_mixed_batch() {
    let pg = PgServer::start();
    let url = pg.database("batch");
    let backend = Postgres::open(&url, node("a", Duration::from_secs(30)))
        .await
        .expect("open");
    let room = |code: &str| Write::Room {
        code: code.into(),
        settings: settings(),
        puzzle: Box::new(puzzle()),
    };
    let batch = vec![
        room("r1"),
        Write::Seat {
            room: "r1".into(),
            who: ada(),
            seat: 0,
        },
        value_event("r1", 1),
        value_event("r1", 2),
        Write::PoolTake {
            seed: "never-pooled".into(),
        },
        Write::Start {
            room: "r1".into(),
            start_ms: 5.0,
        },
        value_event("r1", 3),
        value_event("elsewhere", 1),
        Write::Record(Box::new(record("p1", None))),
    ];
    let results = backend.commit(batch).await.expect("committed");
    assert_eq!(
        results,
        vec![
            Ok(()),
            Ok(()),
            Ok(()),
            Ok(()),
            Err(StoreError::PoolTaken {
                seed: "never-pooled".into()
            }),
            Ok(()),
            Ok(()),
            Err(StoreError::Stale {
                room: "elsewhere".into()
            }),
            Ok(()),
        ]
    );
    let saved = backend.load().await.expect("load");
    let r1 = &saved.rooms[0];
    assert_eq!((r1.code.as_str(), r1.start_ms), ("r1", Some(5.0)));
    assert_eq!(r1.seats, vec![ada()]);
    assert_eq!(
        r1.events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(saved.records.len(), 1);

    // The database refuses one write (r1 exists): that one fails, the rest of
    // the batch is committed one by one.
    let results = backend
        .commit(vec![
            value_event("r1", 4),
            room("r1"),
            room("r2"),
            value_event("r2", 1),
        ])
        .await
        .expect("committed");
    assert!(results[0].is_ok() && results[2].is_ok() && results[3].is_ok());
    assert!(
        matches!(&results[1], Err(StoreError::Database(why)) if why.starts_with("23505")),
        "{results:?}"
    );
    let saved = backend.load().await.expect("load");
    let events = |code: &str| {
        saved
            .rooms
            .iter()
            .find(|r| r.code == code)
            .map(|r| r.events.len())
    };
    assert_eq!((events("r1"), events("r2")), (Some(4), Some(1)));
}
