//! The edge over real sockets: silent TCP connections and WebSockets that never
//! say hello are closed in time; a flood of silent sockets from one address
//! never locks that address (or anyone) out; past the connection ceiling
//! newcomers are told so while players already in play on; a client that never
//! reads is dropped and gives its address slot back; a lobby of 240 rooms shows
//! the most relevant 50 and counts them all.

use arena_tests::serve::{http_get, start_server_with, start_server_with_metrics};
use arena_tests::ws::{race_settings, Client, WAIT};
use futures_util::StreamExt;
use protocol::wire::{ClientMessage, RoomState, ServerMessage};
use server::serve::edge::Edge;
use server::serve::{limit, Config};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Reads `socket` until the server closes it; how long that took.
async fn closed_after(socket: &mut TcpStream) -> Duration {
    let started = Instant::now();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match tokio::time::timeout(WAIT, socket.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return started.elapsed(),
            Ok(Ok(_)) => continue,
            Err(_) => panic!("the server never closed it"),
        }
    }
}

fn quick_edge() -> Config {
    Config {
        countdown: Duration::ZERO,
        edge: Edge {
            handshake: Duration::from_millis(300),
            silent_per_ip: 8,
            ..Edge::default()
        },
        hello_timeout: Duration::from_millis(300),
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_and_trickled_requests_are_closed_in_time() {
    let addr = start_server_with(quick_edge()).await;
    let mut silent = TcpStream::connect(addr).await.expect("connect");
    let took = closed_after(&mut silent).await;
    assert!(took < Duration::from_secs(3), "closed after {took:?}");

    // Half a request, then nothing: the same deadline.
    let mut trickle = TcpStream::connect(addr).await.expect("connect");
    trickle
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let took = closed_after(&mut trickle).await;
    assert!(took < Duration::from_secs(3), "closed after {took:?}");

    // A kept-alive connection after its answer: the next request is due too.
    let mut kept = TcpStream::connect(addr).await.expect("connect");
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let took = closed_after(&mut kept).await;
    assert!(took < Duration::from_secs(3), "closed after {took:?}");

    // A WebSocket that never says hello.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("websocket");
    let started = Instant::now();
    let closed = loop {
        match tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("in time")
        {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    let frame = closed.expect("a close frame with a reason");
    assert_eq!(u16::from(frame.code), 1008);
    assert!(frame.reason.contains("say hello"), "{}", frame.reason);
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_from_one_address_never_lock_it_out() {
    let (addr, metrics) = start_server_with_metrics(Config {
        edge: Edge {
            handshake: Duration::from_secs(60),
            silent_per_ip: 8,
            ..Edge::default()
        },
        ..quick_edge()
    })
    .await;
    let mut silent = Vec::new();
    for _ in 0..200 {
        silent.push(TcpStream::connect(addr).await.expect("connect"));
    }
    // The same address still gets its health check and a player in.
    let (status, body) = http_get(addr, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    let mut player = Client::connect(addr, "Ada").await;
    player
        .send(&ClientMessage::ListRooms {
            offset: 0,
            variant: None,
            joinable: false,
        })
        .await;
    player
        .until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
        .await;
    // Opened within a moment, so none had its half second of grace: all but
    // the newest four times eight were closed to make room.
    let mut open = 0;
    for s in &mut silent[..] {
        let mut byte = [0u8; 1];
        let read = tokio::time::timeout(Duration::from_millis(50), s.read(&mut byte)).await;
        if read.is_err() {
            open += 1;
        }
    }
    assert!(open <= 32, "{open} silent sockets still open");
    let (_, text) = http_get(metrics, "/metrics").await;
    let evicted: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("arena_edge_evicted_total "))
        .and_then(|v| v.parse().ok())
        .expect("the metric");
    assert!(evicted >= 168, "{evicted} evicted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_ceiling_newcomers_are_told_and_players_already_in_play_on() {
    let addr = start_server_with(Config {
        edge: Edge {
            handshake: Duration::from_secs(2),
            silent_per_ip: 100,
            max_connections: 6,
        },
        ..quick_edge()
    })
    .await;
    let mut ada = Client::connect(addr, "Ada").await;
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(TcpStream::connect(addr).await.expect("connect"));
    }
    let mut late = TcpStream::connect(addr).await.expect("connect");
    let mut answer = String::new();
    tokio::time::timeout(WAIT, late.read_to_string(&mut answer))
        .await
        .expect("told in time")
        .expect("read");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.ends_with("the server is full; try again soon"),
        "{answer}"
    );
    // Ada was in before: she still plays.
    ada.send(&ClientMessage::CreateRoom {
        settings: race_settings(2),
    })
    .await;
    ada.room(RoomState::Waiting).await;
    // Room again once the silent ones are closed (the server counts a
    // connection out before its socket closes).
    for socket in &mut held {
        closed_after(socket).await;
    }
    let (status, _) = http_get(addr, "/healthz").await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_dropped_and_frees_its_address_slot() {
    let addr = start_server_with(Config {
        connections_per_ip: 1,
        write_timeout: Duration::from_millis(300),
        burst: 1_000_000,
        per_second: 1_000_000,
        ..quick_edge()
    })
    .await;
    let mut slow = Client::connect(addr, "Slow").await;
    // One connection per address: while Slow holds it, another is refused.
    let refused = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await;
    assert!(
        refused.is_err_and(|e| e.to_string().contains("429")),
        "the address's one slot is taken"
    );
    // Ask for the variant list (several KiB) again and again, reading nothing,
    // until the server gives up on Slow and the connection goes.
    let ask = rmp_serde::to_vec_named(&ClientMessage::ListVariants).expect("encode");
    let mut asked = 0;
    while asked < 200_000 && slow.try_send_raw(ask.clone()).await {
        asked += 1;
    }
    // Reading now finds the replies that fit, then the end.
    slow.closed().await;
    // Its slot is free: the address connects again.
    let mut again = Client::connect(addr, "Again").await;
    again
        .send(&ClientMessage::ListRooms {
            offset: 0,
            variant: None,
            joinable: false,
        })
        .await;
    again
        .until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_of_240_rooms_shows_the_50_most_relevant_counts_them_all_and_pages() {
    let addr = start_server_with(Config {
        address_hello_rate: limit::Rate {
            burst: 1000,
            per_second: 100.0,
        },
        connections_per_ip: 300,
        ..quick_edge()
    })
    .await;
    // A player is in one room at a time: 240 hosts, one waiting room each.
    let mut hosts = Vec::new();
    for i in 0..240 {
        let mut host = Client::connect(addr, &format!("Host {i}")).await;
        host.send(&ClientMessage::CreateRoom {
            settings: race_settings(2),
        })
        .await;
        host.room(RoomState::Waiting).await;
        hosts.push(host);
    }
    let mut visitor = Client::connect(addr, "Visitor").await;
    let (rooms, total, _) = list_rooms(&mut visitor, 0, None, false).await;
    assert_eq!(total, 240, "the lobby counts every room");
    assert_eq!(
        rooms.len(),
        server::serve::lobby::LOBBY_ROOMS,
        "and lists the most relevant"
    );
    // Every host is still connected to a room with a free seat: all joinable.
    assert!(rooms.iter().all(|r| r.state == RoomState::Waiting));

    // Rooms being played come after the joinable ones.
    let mut guest = Client::connect(addr, "Guest").await;
    let code = rooms[0].code.clone();
    guest
        .send(&ClientMessage::JoinRoom {
            code: code.clone(),
            spectator: false,
        })
        .await;
    guest.room(RoomState::Waiting).await;
    let (rooms, _, _) = list_rooms(&mut visitor, 0, None, false).await;
    assert!(
        rooms.iter().all(|r| r.code != code),
        "a full waiting room is not among the 50 most relevant of 240"
    );

    // Page by page, every room once, the full one last.
    let mut seen = Vec::new();
    for page in 0..5u32 {
        let (rooms, total, offset) = list_rooms(&mut visitor, page * 50, None, false).await;
        assert_eq!((total, offset), (240, page * 50));
        seen.extend(rooms.into_iter().map(|r| r.code));
    }
    assert_eq!(seen.len(), 240);
    assert_eq!(seen.last(), Some(&code), "the full room comes last");
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 240, "no room on two pages");
    let (rooms, total, offset) = list_rooms(&mut visitor, 1000, None, false).await;
    assert_eq!(
        (rooms.len(), total, offset),
        (0, 240, 240),
        "past the end: empty"
    );

    // Filters: only rooms with a free seat; only a variant's rooms.
    let (rooms, total, _) = list_rooms(&mut visitor, 200, None, true).await;
    assert_eq!((rooms.len(), total), (39, 239));
    assert!(rooms.iter().all(|r| r.code != code));
    let (_, total, _) = list_rooms(&mut visitor, 0, Some("classic"), false).await;
    assert_eq!(total, 240);
    let (rooms, total, _) = list_rooms(&mut visitor, 0, Some("killer"), false).await;
    assert_eq!((rooms.len(), total), (0, 0));
}

/// Sends one `list_rooms` and returns its page, total and offset.
async fn list_rooms(
    client: &mut Client,
    offset: u32,
    variant: Option<&str>,
    joinable: bool,
) -> (Vec<protocol::wire::RoomSummary>, u32, u32) {
    client
        .send(&ClientMessage::ListRooms {
            offset,
            variant: variant.map(String::from),
            joinable,
        })
        .await;
    client
        .until(|m| match m {
            ServerMessage::Rooms {
                rooms,
                total,
                offset,
            } => Some((rooms, total, offset)),
            _ => None,
        })
        .await
}
