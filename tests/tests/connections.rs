//! Connections over real sockets: hello and resumed identities, bad input, reconnecting
//! mid-game, oversized frames and floods, per-address and origin limits, shutdown.

use arena_tests::serve::{plugins, start_server, start_server_with};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, seated_room, Client, WAIT};
use futures_util::{SinkExt, StreamExt};
use protocol::wire::{ClientMessage, ErrorCode, RoomState, ServerMessage, PROTOCOL_VERSION};
use server::serve::{run, Config};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

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
    c.send(&ClientMessage::ListRooms {
        offset: 0,
        variant: None,
        joinable: false,
    })
    .await;
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
    c.say_hello("Ada", None).await;
    let (id, token) = (c.id.clone(), c.token.clone());
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
