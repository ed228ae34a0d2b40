//! The multiplayer server end to end: a real server on an ephemeral port, real
//! WebSocket clients speaking MessagePack, real plugins (dlopen). Nothing sleeps:
//! every step waits for the frame it expects (with a timeout that fails the test).

use arena_tests::serve::{
    http_get, plugins, start_server, start_server_with, start_server_with_metrics,
};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, seated_room, started_room, Client, WAIT};
use engine::v1::from_v1;
use engine::Solution;
use futures_util::{SinkExt, StreamExt};
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, CoopChange, ErrorCode, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomState,
    RoomView, ServerMessage, PROTOCOL_VERSION,
};
use protocol::{ParamValue, PuzzleV1};
use server::serve::{run, Config};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_players_race_to_the_end() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut c = Client::connect(addr, "Cy").await;

    a.send(&ClientMessage::ListVariants).await;
    let variants = a
        .until(|m| match m {
            ServerMessage::Variants { variants } => Some(variants),
            _ => None,
        })
        .await;
    let classic = variants.iter().find(|v| v.id == "classic");
    let classic = classic.expect("the lobby offers the classic plugin");
    assert!(!classic.rules.is_empty() && !classic.difficulties.is_empty());
    assert!(
        variants.windows(2).all(|w| w[0].id < w[1].id),
        "in id order"
    );

    a.send(&ClientMessage::CreateRoom {
        settings: settings(3),
    })
    .await;
    let room = a.room(RoomState::Waiting).await;
    assert!(
        room.puzzle.is_none(),
        "no puzzle before the start: no head start"
    );
    b.send(&ClientMessage::ListRooms).await;
    let listed = b
        .until(|m| match m {
            ServerMessage::Rooms { rooms } => Some(rooms),
            _ => None,
        })
        .await;
    assert!(listed.iter().any(|r| r.code == room.code));
    // Dee looks in and leaves before the start: the seat is freed.
    let mut d = Client::connect(addr, "Dee").await;
    d.send(&ClientMessage::JoinRoom {
        code: room.code.clone(),
        spectator: false,
    })
    .await;
    d.room(RoomState::Waiting).await;
    d.send(&ClientMessage::LeaveRoom).await;
    d.until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
        .await;
    let seated = a
        .until(|m| match m {
            ServerMessage::Room { room } if room.players.len() == 1 => Some(room),
            _ => None,
        })
        .await;
    assert!(seated.players.iter().all(|p| p.name != "Dee"));
    for p in [&mut b, &mut c] {
        p.send(&ClientMessage::JoinRoom {
            code: room.code.clone(),
            spectator: false,
        })
        .await;
        p.room(RoomState::Waiting).await;
    }
    b.send(&ClientMessage::Ready { ready: true }).await;
    let view = a
        .until(|m| match m {
            ServerMessage::Room { room } if room.players.iter().any(|p| p.ready) => Some(room),
            _ => None,
        })
        .await;
    let ready: Vec<_> = view.players.iter().filter(|p| p.ready).collect();
    assert_eq!(ready.len(), 1);
    assert_eq!(ready[0].name, "Bob");
    b.send(&ClientMessage::Start).await;
    assert_eq!(b.error().await, ErrorCode::NotHost);

    a.send(&ClientMessage::Start).await;
    let mut views = Vec::new();
    for p in [&mut a, &mut b, &mut c] {
        views.push(p.room(RoomState::Playing).await);
    }
    let puzzle = views[0].puzzle.clone().expect("the puzzle once playing");
    assert!(puzzle.solution.is_none());
    assert!(
        views.iter().all(|v| v.puzzle.as_ref() == Some(&puzzle)),
        "everyone races the same puzzle"
    );
    let moves = solving_moves(&puzzle);

    // Ada finishes first, then Bob, then Cy.
    for p in [&mut a, &mut b, &mut c] {
        for m in &moves {
            p.play(m).await;
        }
    }
    let mut results = Vec::new();
    for p in [&mut a, &mut b, &mut c] {
        results.push(
            p.until(|m| match m {
                ServerMessage::Finished { ranks, .. } => Some(ranks),
                _ => None,
            })
            .await,
        );
    }
    let ranks = &results[0];
    assert!(
        results.iter().all(|r| r == ranks),
        "everyone sees the same results"
    );
    let order: Vec<&str> = ranks.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(order, [a.id.as_str(), b.id.as_str(), c.id.as_str()]);
    assert_eq!(ranks.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(ranks.windows(2).all(|w| w[0].time_ms <= w[1].time_ms));

    // No frame to any player ever carried a solution or another player's board.
    for p in [&a, &b, &c] {
        for raw in &p.raw {
            let text = String::from_utf8_lossy(raw);
            assert!(!text.contains("solution"), "a frame carried a solution");
            if let Ok(ServerMessage::Room { room }) = rmp_serde::from_slice::<ServerMessage>(raw) {
                assert!(room.puzzle.as_ref().is_none_or(|q| q.solution.is_none()));
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_the_right_error_and_others_play_on() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    seated_room(&mut a, &mut [&mut b], settings(2)).await;

    a.send(&ClientMessage::Move {
        row: 0,
        col: 0,
        value: 1,
    })
    .await;
    assert_eq!(
        a.error().await,
        ErrorCode::WrongState,
        "no moves before the start"
    );
    a.send(&ClientMessage::Start).await;
    let view = a.room(RoomState::Playing).await;
    b.room(RoomState::Playing).await;
    let puzzle = view.puzzle.expect("puzzle");

    a.send_raw(vec![0xc1, 0x00]).await;
    assert_eq!(a.error().await, ErrorCode::Malformed);
    a.send_raw(rmp_serde::to_vec_named(&serde_json::json!({"type": "dance"})).expect("encode"))
        .await;
    assert_eq!(a.error().await, ErrorCode::Unsupported);
    a.send(&ClientMessage::Move {
        row: 9,
        col: 0,
        value: 1,
    })
    .await;
    assert_eq!(
        a.error().await,
        ErrorCode::Invalid,
        "a cell outside the layout"
    );
    let empty = puzzle
        .grid
        .iter()
        .flatten()
        .position(|&v| v == 0)
        .expect("an empty cell") as u32;
    a.send(&ClientMessage::Move {
        row: empty / 4,
        col: empty % 4,
        value: 5,
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Invalid, "a value above N");
    let given = puzzle
        .grid
        .iter()
        .flatten()
        .position(|&v| v != 0)
        .expect("a given") as u32;
    a.send(&ClientMessage::Move {
        row: given / 4,
        col: given % 4,
        value: 1,
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Given);
    a.send(&ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "Eve".into(),
        token: None,
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::NotIntroduced);
    a.send(&ClientMessage::Ping { client_time: 1.5 }).await;
    let echoed = a
        .until(|m| match m {
            ServerMessage::Pong { client_time, .. } => Some(client_time),
            _ => None,
        })
        .await;
    assert_eq!(echoed, 1.5, "the connection survived every bad frame");

    // Bob was never disturbed and can finish.
    for m in solving_moves(&puzzle) {
        b.play(&m).await;
    }
    let me = b
        .until(|m| match m {
            ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(me.id, b.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_is_checked_and_tokens_resume_identities() {
    let addr = start_server().await;
    let mut c = Client::open(addr).await;
    c.send(&ClientMessage::ListRooms).await;
    assert_eq!(c.error().await, ErrorCode::NotIntroduced);
    c.send(&ClientMessage::Hello {
        version: 99,
        name: "Ada".into(),
        token: None,
    })
    .await;
    assert_eq!(c.error().await, ErrorCode::Version);
    c.send(&ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: String::new(),
        token: None,
    })
    .await;
    assert_eq!(c.error().await, ErrorCode::Invalid);
    c.send(&ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "Ada".into(),
        token: None,
    })
    .await;
    let (id, token) = c
        .until(|m| match m {
            ServerMessage::Welcome {
                player_id, token, ..
            } => Some((player_id, token)),
            _ => None,
        })
        .await;
    assert!(token.len() >= 32, "at least 128 bits");

    let mut again = Client::open(addr).await;
    again
        .send(&ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: "ignored".into(),
            token: Some(token),
        })
        .await;
    let (id2, name) = again
        .until(|m| match m {
            ServerMessage::Welcome {
                player_id, name, ..
            } => Some((player_id, name)),
            _ => None,
        })
        .await;
    assert_eq!(
        (id2, name.as_str()),
        (id, "Ada"),
        "the token resumes the identity"
    );
}

/// The close code the server sent, if any.
async fn close_code(c: &mut Client) -> Option<u16> {
    c.closed().await.map(|(code, _)| code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_reconnects_mid_game_and_resumes_their_board() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let room = seated_room(&mut a, &mut [&mut b], settings(2)).await;
    a.send(&ClientMessage::Start).await;
    let puzzle = a.room(RoomState::Playing).await.puzzle.expect("puzzle");
    let moves = solving_moves(&puzzle);
    let (first, rest) = moves.split_at(moves.len() / 2);
    for m in first {
        a.play(m).await;
    }
    // Ada's connection drops; her token brings her back to the same seat and board.
    let token = {
        let raw = a.raw.first().expect("the welcome frame").clone();
        match rmp_serde::from_slice::<ServerMessage>(&raw).expect("welcome") {
            ServerMessage::Welcome { token, .. } => token,
            other => panic!("{other:?}"),
        }
    };
    drop(a);
    let mut back = Client::open(addr).await;
    back.send(&ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "x".into(),
        token: Some(token),
    })
    .await;
    back.until(|m| matches!(m, ServerMessage::Welcome { .. }).then_some(()))
        .await;
    back.send(&ClientMessage::JoinRoom {
        code: room.code.clone(),
        spectator: false,
    })
    .await;
    let view = back.room(RoomState::Playing).await;
    let board = view.board.expect("her board");
    for m in first {
        let ClientMessage::Move { row, col, value } = m else {
            unreachable!()
        };
        assert_eq!(
            board[*row as usize][*col as usize], *value,
            "a move made before the drop is kept"
        );
    }
    for m in rest {
        back.play(m).await;
    }
    let done = back
        .until(|m| match m {
            ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(player.id),
            _ => None,
        })
        .await;
    assert_eq!(
        done,
        b.until(|m| match m {
            ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(player.id),
            _ => None,
        })
        .await,
        "Bob sees Ada finish"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frames_and_floods_close_only_the_offender() {
    let addr = start_server().await;
    let mut big = Client::connect(addr, "Big").await;
    let mut flood = Client::connect(addr, "Flood").await;
    let mut calm = Client::connect(addr, "Calm").await;

    big.send_raw(vec![0x90; 64 << 10]).await;
    assert_eq!(
        close_code(&mut big).await,
        Some(1009),
        "an oversized frame closes with 1009"
    );

    let ping = rmp_serde::to_vec_named(&ClientMessage::Ping { client_time: 0.0 }).expect("encode");
    for _ in 0..400 {
        if flood
            .ws
            .send(Message::Binary(ping.clone().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut limited = 0;
    let code = loop {
        match tokio::time::timeout(WAIT, flood.ws.next())
            .await
            .expect("frames in time")
        {
            Some(Ok(Message::Binary(bytes))) => {
                if let Ok(ServerMessage::Error {
                    code: ErrorCode::RateLimited,
                    ..
                }) = rmp_serde::from_slice(&bytes)
                {
                    limited += 1;
                }
            }
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => break None,
        }
    };
    assert!(limited > 0, "the flood got rate_limited errors first");
    assert_eq!(code, Some(1008), "then a policy-violation close");

    calm.send(&ClientMessage::Ping { client_time: 7.0 }).await;
    let t = calm
        .until(|m| match m {
            ServerMessage::Pong { client_time, .. } => Some(client_time),
            _ => None,
        })
        .await;
    assert_eq!(t, 7.0, "everyone else is served as before");
}

/// A wrong move for `puzzle`: an empty cell and a value that is not its solution.
fn wrong_move(puzzle: &PuzzleV1) -> ClientMessage {
    let moves = solving_moves(puzzle);
    let ClientMessage::Move { row, col, value } = moves[0] else {
        unreachable!()
    };
    ClientMessage::Move {
        row,
        col,
        value: value % 4 + 1,
    }
}

/// Cells filled on a fresh board: the givens.
fn first_filled(puzzle: &PuzzleV1) -> u32 {
    puzzle.grid.iter().flatten().filter(|&&v| v != 0).count() as u32
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_watch_every_board_chat_and_cannot_move() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut s = Client::connect(addr, "Sam").await;
    let (code, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;

    s.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    assert_eq!(
        s.error().await,
        ErrorCode::Closed,
        "no new players once started"
    );
    s.watch(&code).await;
    let view = s.room(RoomState::Playing).await;
    assert!(view.spectator && view.board.is_none());
    assert!(
        view.boards.is_empty(),
        "a running race's digits are hidden from spectators (see race_spectators_see_digits_only_of_finished_players)"
    );

    let first = solving_moves(&puzzle)[0].clone();
    s.send(&first).await;
    assert_eq!(s.error().await, ErrorCode::Spectator);
    s.send(&ClientMessage::Ready { ready: true }).await;
    assert_eq!(
        s.error().await,
        ErrorCode::Spectator,
        "spectators are never ready"
    );
    b.send(&ClientMessage::Ready { ready: true }).await;
    assert_eq!(
        b.error().await,
        ErrorCode::WrongState,
        "ready is for waiting rooms"
    );
    a.send(&first).await;
    a.until(|m| matches!(m, ServerMessage::MoveAccepted { .. }).then_some(()))
        .await;
    let seen = s
        .until(|m| match m {
            ServerMessage::Progress { player } => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(
        (seen.id.as_str(), seen.filled),
        (a.id.as_str(), first_filled(&puzzle) + 1)
    );

    b.send(&ClientMessage::Chat {
        text: "good luck!".into(),
    })
    .await;
    let bob = b.id.clone();
    for c in [&mut a, &mut b, &mut s] {
        let (from, text) = c
            .until(|m| match m {
                ServerMessage::Chat { from, text, .. } => Some((from, text)),
                _ => None,
            })
            .await;
        assert_eq!((from.as_str(), text.as_str()), (bob.as_str(), "good luck!"));
    }
    s.send(&ClientMessage::Chat {
        text: "x".repeat(301),
    })
    .await;
    assert_eq!(s.error().await, ErrorCode::Invalid);
    for _ in 0..6 {
        s.send(&ClientMessage::Chat {
            text: "spam".into(),
        })
        .await;
    }
    assert_eq!(
        s.error().await,
        ErrorCode::RateLimited,
        "chat is rate-limited"
    );
    // Bob never saw Ada's digit: players only get counts.
    for raw in &b.raw {
        if let Ok(ServerMessage::CellChanged { .. }) = rmp_serde::from_slice::<ServerMessage>(raw) {
            panic!("a player received another player's cell");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mistake_policies_count_penalise_and_eliminate() {
    let addr = start_server().await;
    // Lives: one wrong digit and Ada is out; Bob finishes and alone is ranked.
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut lives = settings(2);
    lives.mistakes = MistakePolicy::Lives { lives: 1 };
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], lives).await;
    a.send(&wrong_move(&puzzle)).await;
    let correct = a
        .until(|m| match m {
            ServerMessage::MoveAccepted { correct, .. } => Some(correct),
            _ => None,
        })
        .await;
    assert_eq!(correct, Some(false));
    let out = b
        .until(|m| match m {
            ServerMessage::Progress { player } if player.id == a.id => Some(player),
            _ => None,
        })
        .await;
    assert!(out.out && out.mistakes == 1);
    a.send(&solving_moves(&puzzle)[0]).await;
    assert_eq!(
        a.error().await,
        ErrorCode::WrongState,
        "out of lives: no more moves"
    );
    for m in solving_moves(&puzzle) {
        b.play(&m).await;
    }
    let ranks = b
        .until(|m| match m {
            ServerMessage::Finished { ranks, .. } => Some(ranks),
            _ => None,
        })
        .await;
    assert_eq!(ranks.len(), 1);
    assert_eq!(ranks[0].player, b.id);

    // Penalty: one wrong digit adds its seconds to the final time.
    let mut c = Client::connect(addr, "Cy").await;
    let mut penalty = settings(1);
    penalty.mistakes = MistakePolicy::Penalty { seconds: 30 };
    let (_, puzzle) = started_room(&mut c, &mut [], penalty).await;
    c.send(&wrong_move(&puzzle)).await;
    for m in solving_moves(&puzzle) {
        c.play(&m).await;
    }
    let ranks = c
        .until(|m| match m {
            ServerMessage::Finished { ranks, .. } => Some(ranks),
            _ => None,
        })
        .await;
    assert!(
        ranks[0].time_ms >= 30_000,
        "penalty included: {} ms",
        ranks[0].time_ms
    );
}

/// A GET that must answer 200; returns the body.
async fn http_ok(addr: SocketAddr, path: &str) -> String {
    let (status, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_metrics_over_http() {
    let (addr, metrics_addr) = start_server_with_metrics(Config {
        countdown: Duration::ZERO,
        ..Config::default()
    })
    .await;
    assert_eq!(http_ok(addr, "/healthz").await, "ok");
    let (status, _) = http_get(addr, "/metrics").await;
    assert_eq!(status, 404, "metrics are not public on the game port");
    let mut a = Client::connect(addr, "Ada").await;
    a.send(&ClientMessage::CreateRoom {
        settings: settings(1),
    })
    .await;
    a.room(RoomState::Waiting).await;
    let metrics = http_ok(metrics_addr, "/metrics").await;
    for line in [
        "arena_connections 1",
        "arena_rooms 1",
        "arena_rooms_total 1",
        "arena_plugin_generate_total 1",
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "missing {line:?} in\n{metrics}"
        );
    }
    assert!(metrics.contains("# TYPE arena_messages_total counter"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_tells_clients_and_returns() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(run(listener, plugins(), Config::default(), async {
        let _ = stopped.await;
    }));
    let mut a = Client::connect(addr, "Ada").await;
    stop.send(()).expect("server still running");
    assert_eq!(
        close_code(&mut a).await,
        Some(1001),
        "clients are told the server is going away"
    );
    drop(a);
    tokio::time::timeout(WAIT, server)
        .await
        .expect("the server stops in time")
        .expect("task")
        .expect("clean exit");
}

/// A client's copy of a co-op board, kept by applying events in `seq` order.
struct CoopCopy {
    board: Vec<Vec<u32>>,
    pencil: Vec<Vec<u32>>,
    seq: u64,
}

impl CoopCopy {
    fn from_view(view: &RoomView) -> CoopCopy {
        CoopCopy {
            board: view.board.clone().expect("shared board"),
            pencil: view.pencil.clone().expect("shared pencil marks"),
            seq: view.seq,
        }
    }

    /// Receives events until `seq` reaches `until`.
    async fn follow(&mut self, c: &mut Client, until: u64) {
        while self.seq < until {
            if let ServerMessage::CoopEvent {
                seq,
                row,
                col,
                change,
                ..
            } = c.recv().await
            {
                assert_eq!(seq, self.seq + 1, "events arrive in order, none missing");
                self.seq = seq;
                let (r, k) = (row as usize, col as usize);
                match change {
                    CoopChange::Value { value } => self.board[r][k] = value,
                    CoopChange::Pencil { marks } => self.pencil[r][k] = marks,
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coop_players_converge_under_concurrent_edits_and_finish_together() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut coop = settings(2);
    coop.mode = Mode::Coop;
    a.send(&ClientMessage::CreateRoom { settings: coop }).await;
    let room = a.room(RoomState::Waiting).await;
    b.send(&ClientMessage::JoinRoom {
        code: room.code.clone(),
        spectator: false,
    })
    .await;
    b.room(RoomState::Waiting).await;
    a.send(&ClientMessage::Start).await;
    let view_a = a.room(RoomState::Playing).await;
    let view_b = b.room(RoomState::Playing).await;
    let puzzle = view_a.puzzle.clone().expect("puzzle");
    let (mut copy_a, mut copy_b) = (CoopCopy::from_view(&view_a), CoopCopy::from_view(&view_b));

    // Both write the same three cells at once, with different values.
    let moves = solving_moves(&puzzle);
    let cells: Vec<(u32, u32)> = moves
        .iter()
        .take(3)
        .map(|m| match m {
            ClientMessage::Move { row, col, .. } => (*row, *col),
            _ => unreachable!(),
        })
        .collect();
    for (n, &(row, col)) in cells.iter().enumerate() {
        a.send(&ClientMessage::Move {
            row,
            col,
            value: (n as u32) % 4 + 1,
        })
        .await;
        b.send(&ClientMessage::Move {
            row,
            col,
            value: (n as u32 + 2) % 4 + 1,
        })
        .await;
    }
    b.send(&ClientMessage::Pencil {
        row: cells[0].0,
        col: cells[0].1,
        marks: 0b1010,
    })
    .await;
    copy_a.follow(&mut a, 7).await;
    copy_b.follow(&mut b, 7).await;
    assert_eq!(copy_a.board, copy_b.board, "both clients converge");
    assert_eq!(copy_a.pencil, copy_b.pencil);
    // The server's own board agrees: a returning player gets it in a snapshot.
    b.send(&ClientMessage::JoinRoom {
        code: room.code.clone(),
        spectator: false,
    })
    .await;
    let fresh = b.room(RoomState::Playing).await;
    assert_eq!(fresh.seq, 7);
    assert_eq!(fresh.board.as_ref(), Some(&copy_b.board));

    a.send(&ClientMessage::Cursor { row: 0, col: 1 }).await;
    let who = b
        .until(|m| match m {
            ServerMessage::Cursor {
                player,
                row: 0,
                col: 1,
            } => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(who, a.id);

    // Solve together, alternating; the room finishes with everyone's share.
    for (n, m) in moves.iter().enumerate() {
        if n % 2 == 0 {
            a.send(m).await
        } else {
            b.send(m).await
        }
    }
    let mut results = Vec::new();
    for c in [&mut a, &mut b] {
        results.push(
            c.until(|m| match m {
                ServerMessage::Finished {
                    team_ms,
                    contributions,
                    ..
                } => Some((team_ms, contributions)),
                _ => None,
            })
            .await,
        );
    }
    assert_eq!(results[0], results[1]);
    let (team_ms, contributions) = &results[0];
    assert!(team_ms.is_some());
    let total: u32 = contributions.iter().map(|c| c.cells).sum();
    assert_eq!(
        total as usize,
        moves.len(),
        "every filled cell is credited to its author"
    );
    assert!(
        contributions.iter().all(|c| c.cells > 0),
        "both contributed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_address_per_player_and_origin_limits() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let addr = start_server_with(Config {
        countdown: Duration::ZERO,
        connections_per_ip: 2,
        rooms_per_player: 1,
        allowed_origins: vec!["http://arena.example".into()],
        ..Config::default()
    })
    .await;
    let with_origin = |origin: &str| {
        let mut request = format!("ws://{addr}/ws")
            .into_client_request()
            .expect("request");
        request
            .headers_mut()
            .insert("origin", origin.parse().expect("header"));
        request
    };
    let refused = tokio_tungstenite::connect_async(with_origin("http://evil.example")).await;
    assert!(
        refused.is_err_and(|e| e.to_string().contains("403")),
        "a foreign origin is refused"
    );

    let (ws, _) = tokio_tungstenite::connect_async(with_origin("http://arena.example"))
        .await
        .expect("allowed");
    let mut a = Client::adopt(ws);
    a.say_hello("Ada", None).await;
    let (second, _) = tokio_tungstenite::connect_async(with_origin("http://arena.example"))
        .await
        .expect("second");
    let third = tokio_tungstenite::connect_async(with_origin("http://arena.example")).await;
    assert!(
        third.is_err_and(|e| e.to_string().contains("429")),
        "a third connection from one address is refused"
    );
    drop(second);

    a.send(&ClientMessage::CreateRoom {
        settings: settings(2),
    })
    .await;
    let room = a.room(RoomState::Waiting).await;
    // Bob keeps the room open after Ada would leave it, so it still counts.
    let reconnect = async {
        loop {
            match tokio_tungstenite::connect_async(with_origin("http://arena.example")).await {
                Ok((ws, _)) => break Client::adopt(ws),
                // The dropped second connection may not be counted out yet.
                Err(_) => tokio::task::yield_now().await,
            }
        }
    };
    let mut b = tokio::time::timeout(WAIT, reconnect)
        .await
        .expect("the dropped connection's slot is freed");
    b.say_hello("Bob", None).await;
    b.send(&ClientMessage::JoinRoom {
        code: room.code,
        spectator: false,
    })
    .await;
    b.room(RoomState::Waiting).await;
    a.until(|m| match m {
        ServerMessage::Room { room } if room.players.len() == 2 => Some(()),
        _ => None,
    })
    .await;
    a.send(&ClientMessage::CreateRoom {
        settings: settings(2),
    })
    .await;
    assert_eq!(
        a.error().await,
        ErrorCode::TooMany,
        "one open room per player here"
    );

    for _ in 0..12 {
        a.send(&ClientMessage::JoinRoom {
            code: "nope".into(),
            spectator: false,
        })
        .await;
    }
    let limited = a
        .until(|m| match m {
            ServerMessage::Error {
                code: ErrorCode::RateLimited,
                ..
            } => Some(()),
            _ => None,
        })
        .await;
    assert_eq!(limited, (), "join attempts are rate-limited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_solo_game_ends_it_but_a_race_room_waits() {
    let addr = start_server_with(Config {
        countdown: Duration::ZERO,
        rooms_per_player: 1,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let solo = RoomSettings {
        mode: Mode::Solo,
        public: false,
        ..settings(1)
    };
    // Each new solo game abandons the last one, so the cap of one open room holds.
    let mut codes = Vec::new();
    for _ in 0..3 {
        a.send(&ClientMessage::CreateRoom {
            settings: solo.clone(),
        })
        .await;
        codes.push(a.room(RoomState::Waiting).await.code);
    }
    a.send(&ClientMessage::LeaveRoom).await;
    a.until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
        .await;
    a.send(&ClientMessage::JoinRoom {
        code: codes[0].clone(),
        spectator: false,
    })
    .await;
    assert_eq!(
        a.error().await,
        ErrorCode::NoRoom,
        "an abandoned solo game is gone"
    );

    // A race room stays open for the others when its creator leaves.
    a.send(&ClientMessage::CreateRoom {
        settings: settings(2),
    })
    .await;
    let race = a.room(RoomState::Waiting).await;
    let mut b = Client::connect(addr, "Bob").await;
    b.send(&ClientMessage::JoinRoom {
        code: race.code.clone(),
        spectator: false,
    })
    .await;
    b.room(RoomState::Waiting).await;
    a.send(&ClientMessage::LeaveRoom).await;
    let view = b
        .until(|m| match m {
            ServerMessage::Room { room } if room.players.len() == 1 => Some(room),
            _ => None,
        })
        .await;
    assert_eq!(view.host, b.id, "the host's seat passes on");
    a.send(&ClientMessage::CreateRoom { settings: solo }).await;
    assert_eq!(a.error().await, ErrorCode::TooMany);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_cost_their_penalty_and_solo_games_pause() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut with_hints = settings(2);
    with_hints.hints = HintPolicy::Penalty { seconds: 10 };
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], with_hints).await;
    let values = {
        let loaded = from_v1(&puzzle).expect("valid");
        let Solution::Unique(v) = loaded.puzzle.solve() else {
            panic!("unique")
        };
        (loaded, v)
    };
    a.send(&ClientMessage::Hint).await;
    let hint = a
        .until(|m| match m {
            ServerMessage::Hint {
                hint, penalty_ms, ..
            } => Some((hint, penalty_ms)),
            _ => None,
        })
        .await;
    assert_eq!(hint.1, 10_000);
    let cell = values
        .0
        .puzzle
        .model()
        .cell_at(hint.0.cell[0], hint.0.cell[1])
        .expect("a cell");
    assert_eq!(
        hint.0.value,
        Some(u32::from(values.1[cell])),
        "the hint agrees with the solution"
    );
    for m in solving_moves(&puzzle) {
        a.play(&m).await;
    }
    let me = a
        .until(|m| match m {
            ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(me.hints, 1);
    assert!(
        me.finished_ms.is_some_and(|t| t >= 10_000),
        "the hint's penalty is in the time"
    );
    assert!(
        !b.raw.iter().any(|raw| matches!(
            rmp_serde::from_slice::<ServerMessage>(raw),
            Ok(ServerMessage::Hint { .. })
        )),
        "a race hint is private"
    );

    // Solo: pausing hides the board and refuses moves; resuming brings it back.
    let mut s = Client::connect(addr, "Sol").await;
    let mut solo = settings(1);
    solo.mode = Mode::Solo;
    solo.public = false;
    let (_, puzzle) = started_room(&mut s, &mut [], solo).await;
    s.send(&ClientMessage::Pause).await;
    let paused = s
        .until(|m| match m {
            ServerMessage::Room { room } if room.paused => Some(*room),
            _ => None,
        })
        .await;
    assert!(
        paused.puzzle.is_none() && paused.board.is_none(),
        "a paused board is hidden"
    );
    let first = solving_moves(&puzzle)[0].clone();
    s.send(&first).await;
    assert_eq!(s.error().await, ErrorCode::WrongState);
    s.send(&ClientMessage::Hint).await;
    assert_eq!(
        s.error().await,
        ErrorCode::WrongState,
        "no hints while paused"
    );
    s.send(&ClientMessage::Resume).await;
    let resumed = s
        .until(|m| match m {
            ServerMessage::Room { room } if !room.paused => Some(*room),
            _ => None,
        })
        .await;
    assert!(resumed.board.is_some());
    s.play(&first).await;

    // Pausing is for solo games only; a room without hints refuses them.
    let mut c = Client::connect(addr, "Cy").await;
    let (_, _) = started_room(&mut c, &mut [], settings(1)).await;
    c.send(&ClientMessage::Pause).await;
    assert_eq!(c.error().await, ErrorCode::WrongState);
    c.send(&ClientMessage::Hint).await;
    assert_eq!(
        c.error().await,
        ErrorCode::WrongState,
        "settings(..) has hints off"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_brings_a_new_puzzle_to_the_same_players() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;
    a.send(&ClientMessage::Rematch).await;
    assert_eq!(
        a.error().await,
        ErrorCode::WrongState,
        "not before the game is over"
    );
    for p in [&mut a, &mut b] {
        for m in solving_moves(&puzzle) {
            p.play(&m).await;
        }
    }
    b.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
        .await;
    b.send(&ClientMessage::Rematch).await;
    assert_eq!(b.error().await, ErrorCode::NotHost);
    a.send(&ClientMessage::Rematch).await;
    let again = b.room(RoomState::Waiting).await;
    assert_eq!(again.players.len(), 2, "the same players");
    assert!(
        again
            .players
            .iter()
            .all(|p| p.finished_ms.is_none() && p.hints == 0),
        "results cleared"
    );
    a.room(RoomState::Waiting).await;
    a.send(&ClientMessage::Start).await;
    let fresh = a.room(RoomState::Playing).await;
    assert_ne!(
        fresh.puzzle.as_ref().map(|p| &p.grid),
        Some(&puzzle.grid),
        "a new puzzle"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_puzzle_pool_serves_stores_and_refills() {
    use server::serve::generator::Generator;
    use server::serve::metrics::Metrics;
    use server::serve::pool::{Kind, Pool};
    use server::serve::store::Store;
    let dir = std::env::temp_dir().join(format!("arena-pool-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(Store::open(&dir).expect("store"));
    let metrics = Arc::new(Metrics::default());
    let generator = Generator::new(plugins(), Arc::clone(&metrics));
    let pool = Pool::new(generator, Some(Arc::clone(&store)), Arc::clone(&metrics), 1);
    let kind = Kind {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
    };
    assert!(
        pool.all_kinds().contains(&kind),
        "every offered kind is pooled"
    );
    assert_eq!(pool.fill_once(std::slice::from_ref(&kind)).await, 1);
    assert_eq!(
        pool.fill_once(std::slice::from_ref(&kind)).await,
        0,
        "already full"
    );
    assert_eq!(
        store.load().expect("load").pool.len(),
        1,
        "the pool is stored"
    );
    let puzzle = pool.take(&kind).await.expect("a pooled puzzle");
    assert_eq!(puzzle.variant.as_deref(), Some("classic"));
    assert!(puzzle.solution.is_some());
    assert!(pool.take(&kind).await.is_none(), "used up");
    assert!(
        store.load().expect("load").pool.is_empty(),
        "a used puzzle leaves the store"
    );
    let text = metrics.render(0);
    assert!(text.contains("arena_pool_hits_total 1") && text.contains("arena_pool_misses_total 1"));
    assert!(
        text.contains("arena_plugin_generate_total 1\n"),
        "pool fills are generations too:\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_files_are_served_on_the_same_port() {
    let dir = std::env::temp_dir().join(format!("arena-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>Sudoku Arena</title>",
    )
    .expect("write");
    let addr = start_server_with(Config {
        client_dir: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    assert!(http_ok(addr, "/")
        .await
        .contains("<title>Sudoku Arena</title>"));
    assert_eq!(
        http_ok(addr, "/healthz").await,
        "ok",
        "the API routes still win"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
