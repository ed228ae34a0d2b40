//! Several real `arena serve` nodes on one real PostgreSQL server (started by
//! the test on loopback), with real WebSocket clients: rooms spread over nodes
//! (a client that reaches the wrong node is redirected to the room's node),
//! `kill -9` of a room's node mid-race (another node takes the room over and
//! every acknowledged move is still there), and a node frozen past its lease
//! (`SIGSTOP`) whose writes are refused once it wakes, its players sent on;
//! an arena tournament whose race's node is killed loses no result, and a
//! rated race moves the ratings every node shows.

use arena_tests::cluster::{join_via, resume_at, start_node, start_node_with, Node, RETRY};
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

/// Sends `sig` (e.g. "-TERM") to a node's process.
fn signal(node: &Node, sig: &str) {
    let pid = node.child.id().expect("pid").to_string();
    let ok = std::process::Command::new("kill")
        .args([sig, &pid])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill {sig}");
}

/// Waits until `check` holds for the nodes' open rooms (read from their
/// metrics), and returns them.
async fn rooms_until(nodes: &[&Node], check: impl Fn(&[u64]) -> bool) -> Vec<u64> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut rooms = Vec::new();
        for n in nodes {
            rooms.push(n.rooms().await);
        }
        if check(&rooms) {
            return rooms;
        }
        assert!(Instant::now() < deadline, "rooms per node stayed {rooms:?}");
        tokio::time::sleep(RETRY).await;
    }
}

/// A waiting room for two created on `node` by a new player, who stays.
async fn waiting_room(node: &Node, name: &str) -> (Client, String) {
    let mut host = Client::connect(&node.addr, name).await;
    host.send(&ClientMessage::CreateRoom {
        settings: private(Mode::Race, 2),
    })
    .await;
    let code = host.room(RoomState::Waiting).await.code;
    (host, code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_joins_gets_new_rooms_and_a_dead_nodes_rooms_spread_over_the_survivors() {
    let pg = PgServer::start();
    let db = pg.database("spread");
    // The product's default lease is 4 s; this test's 1 s one let a survivor
    // whose heartbeat came a second late under the full suite's load drop out
    // of the live nodes, and the other took every room. 3 s rides that out.
    const SPREAD_LEASE_MS: &str = "3000";
    let mut n1 = start_node(&db, "n1", SPREAD_LEASE_MS).await;
    let mut hosts = Vec::new();
    for i in 0..4 {
        hosts.push(waiting_room(&n1, &format!("Host {i}")).await);
    }
    let n2 = start_node(&db, "n2", SPREAD_LEASE_MS).await;
    let n3 = start_node(&db, "n3", SPREAD_LEASE_MS).await;

    // n1 holds four rooms, n2 and n3 none: Dee's new room goes to one of them
    // (once n1's heartbeat has seen them), and she follows it there.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut dee = Client::connect(&n1.addr, "Dee").await;
    let (code, url) = loop {
        assert!(Instant::now() < deadline, "new rooms never left n1");
        dee.send(&ClientMessage::CreateRoom {
            settings: private(Mode::Race, 2),
        })
        .await;
        let moved = dee
            .until(|m| match m {
                ServerMessage::Redirect { code, url, .. } => Some(Some((code, url))),
                ServerMessage::Room { room } if room.state == RoomState::Waiting => Some(None),
                _ => None,
            })
            .await;
        if let Some(moved) = moved {
            break moved;
        }
        dee.send(&ClientMessage::LeaveRoom).await;
        tokio::time::sleep(RETRY).await;
    };
    assert!(
        url.contains(&n2.addr) || url.contains(&n3.addr),
        "{url}: a node that joined"
    );
    let (_dee, _) = join_via(&n2.addr, &dee.token, &code, false).await;

    // n1 dies with its four rooms: n2 (one room) and n3 (none) share them so
    // that neither holds more than one room more than the other.
    n1.child.kill().await.expect("kill -9");
    drop(hosts);
    // Five rooms at least: a room Dee left on n1 before her move may not have
    // been closed in the database when n1 died, and comes back too.
    let rooms = rooms_until(&[&n2, &n3], |r| r.iter().sum::<u64>() >= 5).await;
    assert!(
        rooms[0].abs_diff(rooms[1]) <= 1,
        "rooms spread within one: {rooms:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_with_sigterm_hands_its_rooms_over_and_its_players_follow() {
    let pg = PgServer::start();
    let db = pg.database("drain");
    let n1 = start_node(&db, "n1", LEASE_MS).await;
    // A race under way on n1, and two rooms waiting for players.
    let mut ada = Client::connect(&n1.addr, "Ada").await;
    let mut bob = Client::connect(&n1.addr, "Bob").await;
    ada.send(&ClientMessage::CreateRoom {
        settings: private(Mode::Race, 2),
    })
    .await;
    let code = ada.room(RoomState::Waiting).await.code;
    bob.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    bob.room(RoomState::Waiting).await;
    ada.send(&ClientMessage::Start).await;
    let puzzle = ada.room(RoomState::Playing).await.puzzle.expect("puzzle");
    bob.room(RoomState::Playing).await;
    let moves = solving_moves(&puzzle);
    for m in &moves[..5] {
        ada.play(m).await;
    }
    let (eve, _) = waiting_room(&n1, "Eve").await;
    let (fay, _) = waiting_room(&n1, "Fay").await;
    let n2 = start_node(&db, "n2", LEASE_MS).await;
    let n3 = start_node(&db, "n3", LEASE_MS).await;

    // SIGTERM: every player is told where their room went, before n1 closes.
    let mut n1 = n1;
    signal(&n1, "-TERM");
    let mut players = vec![ada, bob, eve, fay];
    let mut urls = Vec::new();
    for p in &mut players {
        let url = p
            .until(|m| match m {
                ServerMessage::Redirect { url, .. } => Some(url),
                _ => None,
            })
            .await;
        assert!(
            url.contains(&n2.addr) || url.contains(&n3.addr),
            "{url} is a live node"
        );
        urls.push(url);
    }
    let stopped = n1.child.wait().await.expect("n1 exits");
    assert!(stopped.success(), "a clean stop: {stopped:?}");
    assert!(
        urls.iter().any(|u| u.contains(&n2.addr)) && urls.iter().any(|u| u.contains(&n3.addr)),
        "the rooms spread over both nodes: {urls:?}"
    );

    // They follow: the race goes on where it was, every acknowledged move there.
    let ada_url = urls[0].clone();
    let ada = resume_at(&ada_url, &players[0].token)
        .await
        .expect("Ada reaches the new node");
    let mut ada = ada;
    ada.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    let view = ada.room(RoomState::Playing).await;
    let board = view.board.expect("Ada's board");
    for m in &moves[..5] {
        let (row, col, value) = cell_of(m);
        assert_eq!(
            board[row][col], value,
            "an acknowledged move moved with the room"
        );
    }
    for m in &moves[5..] {
        ada.play(m).await;
    }
    drop((n2, n3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_spare_the_join_budget_and_never_point_at_a_node_whose_lease_runs_out() {
    let pg = PgServer::start();
    let db = pg.database("redirects");
    // Longer leases than the other tests': a busy machine must not make n1
    // miss a renewal before the test freezes it.
    let lease = "2000";
    let n1 = start_node(&db, "n1", lease).await;
    // n2 allows two joins per address, refilled in minutes.
    let tight = [
        "--address-join-burst",
        "2",
        "--address-joins-per-second",
        "0.01",
    ];
    let n2 = start_node_with(&db, "n2", lease, &tight).await;
    let (ada, code) = waiting_room(&n1, "Ada").await;

    // Being sent to the room's node is not a guess at a code: four redirects,
    // none refused.
    let mut bob = Client::connect(&n2.addr, "Bob").await;
    for _ in 0..4 {
        bob.send(&ClientMessage::JoinRoom {
            code: code.clone(),
            spectator: false,
        })
        .await;
        let url = bob
            .until(|m| match m {
                ServerMessage::Redirect { url, .. } => Some(url),
                _ => None,
            })
            .await;
        assert!(url.contains(&n1.addr));
    }

    // n1 freezes. Once it has missed a renewal (two thirds of a lease: its
    // lease has under half left, if any), a join on n2 is not sent to n1: n2
    // waits for the lease to end and takes the room over.
    signal(&n1, "-STOP");
    tokio::time::sleep(Duration::from_millis(1400)).await;
    bob.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    let view = bob
        .until(|m| match m {
            ServerMessage::Redirect { url, .. } => panic!("sent to {url}, whose lease runs out"),
            ServerMessage::Room { room } => Some(room),
            _ => None,
        })
        .await;
    assert_eq!(view.code, code);
    assert_eq!(view.players.len(), 2, "Bob sits beside Ada, taken over");
    signal(&n1, "-CONT");
    drop((ada, n1, n2));
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
            ServerMessage::Redirect { code, url, .. } => Some((code, url)),
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

/// The next tournament view `c` is sent that satisfies `pick`.
async fn standings_where(
    c: &mut Client,
    pick: impl Fn(&protocol::wire::TournamentView) -> bool,
) -> protocol::wire::TournamentView {
    c.until(|m| match m {
        ServerMessage::Tournament { tournament } if pick(&tournament) => Some(*tournament),
        _ => None,
    })
    .await
}

/// `c` asks for tournament `id`'s next race and waits until it plays.
async fn tournament_race(c: &mut Client, id: &str, state: RoomState) -> protocol::wire::RoomView {
    c.send(&ClientMessage::TournamentRace { id: id.into() })
        .await;
    c.until(|m| match m {
        ServerMessage::Room { room } if room.state == state => Some(*room),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_loses_no_result_when_the_node_of_its_race_is_killed() {
    let pg = PgServer::start();
    let db = pg.database("tournament");
    let quick = ["--quick-race-wait-ms", "0"];
    let mut n1 = start_node_with(&db, "n1", LEASE_MS, &quick).await;
    let n2 = start_node_with(&db, "n2", LEASE_MS, &quick).await;
    let mut ada = Client::connect(&n1.addr, "Ada").await;
    let mut bob = Client::connect(&n1.addr, "Bob").await;
    let mut cy = Client::connect(&n2.addr, "Cy").await;
    ada.send(&ClientMessage::CreateTournament {
        name: "Cluster cup".into(),
        variant: "classic".into(),
        params: race_settings(2).params,
        difficulty: "easy".into(),
        minutes: 10,
        starts_in_minutes: 0,
    })
    .await;
    let id = standings_where(&mut ada, |_| true).await.id;
    // Cy, on the other node, watches it once n2 has heard of it.
    let watch = ClientMessage::WatchTournament { id: id.clone() };
    ask_until(&mut cy, &watch, |m| match m {
        ServerMessage::Tournament { .. } => Some(Some(())),
        ServerMessage::Error { .. } => Some(None),
        _ => None,
    })
    .await;

    // Race 1 on n1: Ada wins. Cy, on n2, sees it.
    let first = tournament_race(&mut ada, &id, RoomState::Waiting).await;
    let racing = tournament_race(&mut bob, &id, RoomState::Playing).await;
    assert_eq!(racing.code, first.code, "paired on n1");
    let puzzle = racing.puzzle.expect("puzzle");
    ada.solve(&puzzle).await;
    bob.solve(&puzzle).await;
    let one = standings_where(&mut cy, |v| v.races == 1).await;
    let points = |v: &protocol::wire::TournamentView| -> Vec<(String, u32)> {
        (v.standings.iter())
            .map(|r| (r.name.clone(), r.points))
            .collect()
    };
    assert_eq!(
        points(&one),
        [("Ada".to_string(), 4), ("Bob".to_string(), 2)]
    );
    // The race was rated on n1: Bob's rating moved on n2 too, live.
    let n2_url = format!("ws://{}/ws", n2.addr);
    let mut bob_on_n2 = resume_at(&n2_url, &bob.token).await.expect("resumed on n2");
    assert_eq!(rated_races(&mut bob_on_n2, 1).await, 1);

    // Race 2 on n1, half played; n1 dies; both come back through n2, which
    // takes the race over; Ada wins it there.
    let second = tournament_race(&mut ada, &id, RoomState::Waiting).await;
    let puzzle = (tournament_race(&mut bob, &id, RoomState::Playing).await)
        .puzzle
        .expect("puzzle");
    let moves = solving_moves(&puzzle);
    let half = moves.len() / 2;
    for m in &moves[..half] {
        ada.play(m).await;
    }
    let (ada_token, bob_token) = (ada.token.clone(), bob.token.clone());
    n1.child.kill().await.expect("kill -9");
    drop((ada, bob));
    let (mut ada, _) = join_via(&n2.addr, &ada_token, &second.code, false).await;
    let (mut bob, _) = join_via(&n2.addr, &bob_token, &second.code, false).await;
    for m in &moves[half..] {
        ada.play(m).await;
    }
    for m in &moves {
        bob.play(m).await;
    }
    let two = standings_where(&mut cy, |v| v.races == 2).await;
    assert_eq!(
        points(&two),
        [("Ada".to_string(), 8), ("Bob".to_string(), 4)]
    );
    assert!(two.standings[0].on_fire, "two wins, across the failover");
    // Ada's rating on n2: the race n1 rated, and the one n2 finished.
    assert_eq!(rated_races(&mut ada, 2).await, 2);
    drop(n2);
}

/// `c`'s rated races of classic 4x4 easy, asked until there are `at_least`
/// (another node's rated race arrives by notification).
async fn rated_races(c: &mut Client, at_least: u32) -> u32 {
    let ask = ClientMessage::Ratings {
        variant: "classic".into(),
        params: race_settings(2).params,
        difficulty: "easy".into(),
    };
    ask_until(c, &ask, |m| match m {
        ServerMessage::Ratings { games, .. } => Some((games >= at_least).then_some(games)),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_race_finds_the_open_race_of_its_kind_on_another_node() {
    let pg = PgServer::start();
    let db = pg.database("quick");
    let quick_wait = ["--quick-race-wait-ms", "0"];
    let n1 = start_node_with(&db, "n1", LEASE_MS, &quick_wait).await;
    let n2 = start_node_with(&db, "n2", LEASE_MS, &quick_wait).await;
    let quick = ClientMessage::QuickRace {
        variant: "classic".into(),
        params: race_settings(2).params,
        difficulty: "easy".into(),
        here: false,
    };
    let mut ada = Client::connect(&n1.addr, "Ada").await;
    ada.send(&quick).await;
    let open = ada.room(RoomState::Waiting).await.code;
    // Once n2 has heard of Ada's race, Bob's quick race there is sent to it.
    let mut bob = Client::connect(&n2.addr, "Bob").await;
    let list = ClientMessage::ListRooms {
        offset: 0,
        variant: None,
        joinable: false,
    };
    ask_until(&mut bob, &list, |m| match m {
        ServerMessage::Rooms { rooms, .. } => {
            Some(rooms.iter().any(|r| r.code == open).then_some(()))
        }
        _ => None,
    })
    .await;
    bob.send(&quick).await;
    let (url, ask) = bob
        .until(|m| match m {
            ServerMessage::Redirect { code, url, ask } if code == open => Some((url, ask)),
            _ => None,
        })
        .await;
    let ask = *ask.expect("what to ask there");
    assert!(
        matches!(ask, ClientMessage::QuickRace { here: true, .. }),
        "{ask:?}"
    );
    let mut bob = resume_at(&url, &bob.token).await.expect("on n1");
    bob.send(&ask).await;
    let racing = bob.room(RoomState::Playing).await;
    assert_eq!(racing.code, open, "one race, across the nodes");
    assert_eq!(racing.players.len(), 2);
    drop((n1, n2));
}
