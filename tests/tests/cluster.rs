//! Several real `arena serve` nodes on one real PostgreSQL server (started by
//! the test on loopback), with real WebSocket clients: rooms spread over nodes
//! (a client that reaches the wrong node is redirected to the room's node),
//! `kill -9` of a room's node mid-race (another node takes the room over and
//! every acknowledged move is still there), and a node frozen past its lease
//! (`SIGSTOP`) whose writes are refused once it wakes, its players sent on.

use arena_tests::cluster::{join_via, start_node, RETRY};
use arena_tests::postgres::PgServer;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, Client};
use protocol::wire::{ClientMessage, Mode, RoomSettings, RoomState, ServerMessage};
use std::time::{Duration, Instant};

/// Rooms' leases in these tests: a dead node's rooms move after about a second.
const LEASE_MS: &str = "1000";

fn private(mode: Mode, players: u32) -> RoomSettings {
    RoomSettings {
        public: false,
        mode,
        ..race_settings(players)
    }
}

fn cell_of(m: &ClientMessage) -> (usize, usize, u32) {
    match m {
        ClientMessage::Move { row, col, value } => (*row as usize, *col as usize, *value),
        _ => unreachable!("solving moves are moves"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_race_spreads_over_nodes_and_survives_kill_9_of_its_node() {
    let pg = PgServer::start();
    let db = pg.database("race");
    let mut n1 = start_node(&db, "n1", LEASE_MS).await;
    let n2 = start_node(&db, "n2", LEASE_MS).await;
    let n3 = start_node(&db, "n3", LEASE_MS).await;

    let mut ada = Client::connect(&n1.addr, "Ada").await;
    let bob_token = Client::connect(&n2.addr, "Bob").await.token;
    let cy_token = Client::connect(&n3.addr, "Cy").await.token;
    ada.send(&ClientMessage::CreateRoom {
        settings: private(Mode::Race, 2),
    })
    .await;
    let code = ada.room(RoomState::Waiting).await.code;

    // Bob and Cy reach other nodes: each is sent to n1, where the room lives.
    let (mut bob, view) = join_via(&n2.addr, &bob_token, &code, false).await;
    assert_eq!(view.players.len(), 2, "Bob sits in Ada's room");
    let (mut cy, _) = join_via(&n3.addr, &cy_token, &code, true).await;
    ada.room(RoomState::Waiting).await;
    ada.send(&ClientMessage::Start).await;
    let puzzle = ada.room(RoomState::Playing).await.puzzle.expect("puzzle");
    bob.room(RoomState::Playing).await;
    cy.room(RoomState::Playing).await;
    let moves = solving_moves(&puzzle);
    let half = moves.len() / 2;
    for m in &moves[..half] {
        ada.play(m).await;
    }
    bob.play(&moves[0]).await;

    // n1 dies. Everyone comes back through n3, which takes the room over.
    let ada_token = ada.token.clone();
    n1.child.kill().await.expect("kill -9");
    let killed = Instant::now();
    drop((ada, bob, cy));
    let (mut ada, view) = join_via(&n3.addr, &ada_token, &code, false).await;
    let back = killed.elapsed();
    assert!(
        back < Duration::from_secs(10),
        "the room was back in {back:?}"
    );
    let board = view.board.expect("Ada's board");
    for m in &moves[..half] {
        let (row, col, value) = cell_of(m);
        assert_eq!(board[row][col], value, "an acknowledged move survived");
    }
    let (mut bob, _) = join_via(&n2.addr, &bob_token, &code, false).await;
    for m in &moves[half..] {
        ada.play(m).await;
    }
    for m in &moves[1..] {
        bob.play(m).await;
    }
    let ranks = bob.ranks().await;
    assert_eq!(ranks.len(), 2);
    assert_eq!(
        ranks[0].player, ada.id,
        "Ada finished first, across the failover"
    );
    drop((n2, n3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn co_op_over_nodes_and_a_frozen_owner_is_fenced() {
    let pg = PgServer::start();
    let db = pg.database("coop");
    let n1 = start_node(&db, "n1", LEASE_MS).await;
    let n2 = start_node(&db, "n2", LEASE_MS).await;

    let mut ada = Client::connect(&n1.addr, "Ada").await;
    let bob_token = Client::connect(&n2.addr, "Bob").await.token;
    ada.send(&ClientMessage::CreateRoom {
        settings: private(Mode::Coop, 2),
    })
    .await;
    let code = ada.room(RoomState::Waiting).await.code;
    let (mut bob, _) = join_via(&n2.addr, &bob_token, &code, false).await;
    ada.room(RoomState::Waiting).await;
    ada.send(&ClientMessage::Start).await;
    let puzzle = ada.room(RoomState::Playing).await.puzzle.expect("puzzle");
    bob.room(RoomState::Playing).await;
    let moves = solving_moves(&puzzle);
    ada.send(&moves[0]).await;
    ada.until(|m| matches!(m, ServerMessage::CoopEvent { .. }).then_some(()))
        .await;
    let seen_by_bob = bob
        .until(|m| match m {
            ServerMessage::CoopEvent { player, .. } => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(
        seen_by_bob, ada.id,
        "Bob sees Ada's move through the room's node"
    );

    // n1 freezes past its lease: n2 takes the room over (Bob asks there).
    let pid = n1.child.id().expect("pid").to_string();
    let signal = |sig: &str| {
        let ok = std::process::Command::new("kill")
            .args([sig, &pid])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill {sig}");
    };
    signal("-STOP");
    drop(bob);
    let (mut bob, view) = join_via(&n2.addr, &bob_token, &code, false).await;
    let (row, col, value) = cell_of(&moves[0]);
    assert_eq!(view.board.expect("board")[row][col], value);

    // n1 wakes up still thinking it owns the room: Ada's move there is not
    // acknowledged, and she is sent to n2.
    signal("-CONT");
    ada.send(&moves[1]).await;
    let url = ada
        .until(|m| match m {
            ServerMessage::MoveAccepted { .. } => panic!("a stale node acknowledged a move"),
            ServerMessage::CoopEvent { .. } => panic!("a stale node applied a move"),
            ServerMessage::Redirect { url, .. } => Some(url),
            _ => None,
        })
        .await;
    assert!(url.contains(&n2.addr), "{url} is n2");
    let (mut ada, view) = join_via(&n2.addr, &ada.token, &code, false).await;
    let (row1, col1, _) = cell_of(&moves[1]);
    assert_eq!(
        view.board.expect("board")[row1][col1],
        0,
        "the refused move is not there"
    );
    ada.send(&moves[1]).await;
    bob.until(|m| matches!(m, ServerMessage::CoopEvent { .. }).then_some(()))
        .await;
    drop((n1, n2));
}

/// Asks `client` with `ask` until `pick` accepts an answer: what another node
/// published reaches this one within a heartbeat and a notification, so the
/// client asks again (as the lobby page does) until it shows.
async fn ask_until<T>(
    client: &mut Client,
    ask: &ClientMessage,
    mut pick: impl FnMut(ServerMessage) -> Option<Option<T>>,
) -> T {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        client.send(ask).await;
        if let Some(found) = client.until(&mut pick).await {
            return found;
        }
        assert!(Instant::now() < deadline, "never seen: {ask:?}");
        tokio::time::sleep(RETRY).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_the_boards_and_new_rooms_span_the_nodes() {
    let pg = PgServer::start();
    let db = pg.database("lobby");
    let n1 = start_node(&db, "n1", LEASE_MS).await;
    let n2 = start_node(&db, "n2", LEASE_MS).await;

    // A public room on n1 is listed on n2.
    let mut ada = Client::connect(&n1.addr, "Ada").await;
    ada.send(&ClientMessage::CreateRoom {
        settings: race_settings(2),
    })
    .await;
    let code = ada.room(RoomState::Waiting).await.code;
    let mut bob = Client::connect(&n2.addr, "Bob").await;
    ask_until(
        &mut bob,
        &ClientMessage::ListRooms {
            offset: 0,
            variant: None,
            joinable: false,
        },
        |m| match m {
            ServerMessage::Rooms { rooms, .. } => {
                Some(rooms.iter().any(|r| r.code == code).then_some(()))
            }
            _ => None,
        },
    )
    .await;

    // A solo game finished on n1 is on Ada's profile on n2 (her token works there).
    ada.send(&ClientMessage::LeaveRoom).await;
    ada.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            max_players: 1,
            ..private(Mode::Solo, 1)
        },
    })
    .await;
    let puzzle = ada.room(RoomState::Playing).await.puzzle.expect("puzzle");
    for m in &solving_moves(&puzzle) {
        ada.play(m).await;
    }
    ada.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
        .await;
    let mut ada_on_n2 = Client::resume(&n2.addr, ada.token.clone()).await;
    assert_eq!(ada_on_n2.id, ada.id, "one identity on every node");
    let profile = ClientMessage::Profile { utc_offset_min: 0 };
    let solved = ask_until(&mut ada_on_n2, &profile, |m| match m {
        ServerMessage::Profile { stats, .. } => {
            let solved: u32 = stats.iter().map(|s| s.solved).sum();
            Some((solved > 0).then_some(solved))
        }
        _ => None,
    })
    .await;
    assert_eq!(solved, 1);

    // A sync code made on n1 moves Ada's identity to a device that reaches n2.
    ada.send(&ClientMessage::SyncCode).await;
    let sync = ada
        .until(|m| match m {
            ServerMessage::SyncCode { code, .. } => Some(code),
            _ => None,
        })
        .await;
    let mut device = Client::connect(&n2.addr, "Phone").await;
    device.send(&ClientMessage::RedeemSync { code: sync }).await;
    device.welcomed().await;
    assert_eq!(device.id, ada.id, "the code was spent on another node");

    // n1 carries many more players than n2: Cy's new room goes to n2, and Cy
    // follows it there as its host.
    let mut idle = Vec::new();
    for _ in 0..12 {
        idle.push(Client::open(&n1.addr).await);
    }
    let mut cy = Client::connect(&n1.addr, "Cy").await;
    cy.send(&ClientMessage::CreateRoom {
        settings: private(Mode::Race, 2),
    })
    .await;
    let (moved, url) = cy
        .until(|m| match m {
            ServerMessage::Redirect { code, url } => Some((code, url)),
            _ => None,
        })
        .await;
    assert!(url.contains(&n2.addr), "{url} is n2, the least loaded");
    let (cy_on_n2, view) = join_via(&n2.addr, &cy.token, &moved, false).await;
    assert_eq!(view.players.len(), 1);
    assert_eq!(view.players[0].id, cy.id);
    assert_eq!(view.host, cy.id, "the creator is still its host");

    // n2 stops cleanly: it gives its lease up, so n1 takes the room over at
    // once — Cy's first join there is answered with the room, not a redirect.
    let mut n2 = n2;
    drop(cy_on_n2);
    let pid = n2.child.id().expect("pid").to_string();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .is_ok_and(|s| s.success());
    assert!(sent, "kill -TERM");
    let stopped = n2.child.wait().await.expect("n2 exits");
    assert!(stopped.success(), "a clean stop: {stopped:?}");
    let mut cy = Client::resume(&n1.addr, cy.token.clone()).await;
    cy.send(&ClientMessage::JoinRoom {
        code: moved.clone(),
        spectator: false,
    })
    .await;
    let first = cy
        .until(|m| match m {
            ServerMessage::Room { room } => Some(Ok(room.code)),
            ServerMessage::Redirect { url, .. } => Some(Err(url)),
            _ => None,
        })
        .await;
    assert_eq!(first, Ok(moved), "taken over at once after a clean stop");
    drop((idle, n1));
}

#[test]
fn bad_cluster_settings_are_refused_at_start_with_a_clear_error() {
    use arena_tests::process::run_arena;
    let not_ws = run_arena(&[
        "serve",
        "--database",
        "postgres://x@127.0.0.1:1/x",
        "--public-url",
        "127.0.0.1:9",
    ]);
    assert!(
        !not_ws.ok && not_ws.stderr.contains("WebSocket URL"),
        "{}",
        not_ws.stderr
    );
    let no_database = run_arena(&["serve", "--public-url", "ws://a/ws"]);
    assert!(
        !no_database.ok && no_database.stderr.contains("needs --database"),
        "{}",
        no_database.stderr
    );
    // Nothing listens on port 1: the database cannot be reached, and says where.
    let unreachable = run_arena(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--database",
        "postgres://arena:secret@127.0.0.1:1/arena",
    ]);
    assert!(!unreachable.ok, "{}", unreachable.stderr);
    assert!(
        unreachable
            .stderr
            .contains("cannot open the database in postgres://arena:***@127.0.0.1:1/arena"),
        "{}",
        unreachable.stderr
    );
    assert!(
        !unreachable.stderr.contains("secret"),
        "the password never reaches a message"
    );
}
