//! Request semantics an outside client relies on, over real sockets with real
//! plugins: a newer connection takes a seat over and the older one is told why;
//! a refused request changes nothing; every request gets an answer; rooms nobody
//! can use again stop counting against their creator.

use arena_tests::serve::{start_server, start_server_with};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, seated_room, started_room, Client};
use protocol::wire::{ClientMessage, ErrorCode, Mode, RoomSettings, RoomState, ServerMessage};
use server::serve::Config;
use std::time::Duration;

/// The close code a superseded connection gets (application range).
const OPENED_ELSEWHERE: u16 = 4000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_connection_takes_the_seat_over_and_the_older_is_told_why() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let (code, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;
    let moves = solving_moves(&puzzle);
    a.play(&moves[0]).await;

    // A second tab (or a reconnect while the old socket still looks open).
    let mut tab = Client::resume(addr, a.token.clone()).await;
    assert_eq!(tab.id, a.id);
    tab.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    let view = tab.room(RoomState::Playing).await;
    let filled = view.players.iter().find(|p| p.id == a.id).map(|p| p.filled);
    assert!(filled.is_some(), "the seat came back with its board");

    let (close, reason) = a.closed().await.expect("a close frame");
    assert_eq!(close, OPENED_ELSEWHERE);
    assert!(reason.contains("opened elsewhere"), "{reason}");

    // The new connection keeps the seat: it plays on to the end.
    for m in &moves[1..] {
        tab.play(m).await;
    }
    let me = tab.id.clone();
    tab.until(|m| match m {
        ServerMessage::Progress { player } if player.id == me => player.finished_ms,
        _ => None,
    })
    .await;

    // And the older tab coming back takes it over again (newest wins), once.
    let mut again = Client::resume(addr, a.token.clone()).await;
    again
        .send(&ClientMessage::JoinRoom {
            code,
            spectator: false,
        })
        .await;
    again.room(RoomState::Playing).await;
    let (close, _) = tab.closed().await.expect("a close frame");
    assert_eq!(close, OPENED_ELSEWHERE);
    again.send(&ClientMessage::Ping { client_time: 1.0 }).await;
    again
        .until(|m| matches!(m, ServerMessage::Pong { .. }).then_some(()))
        .await;
}

/// Waits for a snapshot of the room with `players` seats.
async fn seats(c: &mut Client, players: usize) {
    c.until(|m| match m {
        ServerMessage::Room { room } if room.players.len() == players => Some(()),
        _ => None,
    })
    .await;
}

/// Checks that `a` is still seated beside `other`: `other` sees `a`'s ready flag
/// come and go, in a room of `players`.
async fn still_seated(a: &mut Client, other: &mut Client, players: usize) {
    a.send(&ClientMessage::Ready { ready: true }).await;
    let view = other
        .until(|m| match m {
            ServerMessage::Room { room } if room.players.iter().any(|p| p.ready) => Some(room),
            _ => None,
        })
        .await;
    assert_eq!(view.players.len(), players, "a refusal moved a player");
    a.send(&ClientMessage::Ready { ready: false }).await;
    for c in [a, other] {
        c.until(|m| match m {
            ServerMessage::Room { room } if room.players.iter().all(|p| !p.ready) => Some(()),
            _ => None,
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_create_room_leaves_the_player_where_they_were() {
    let addr = start_server_with(Config {
        countdown: Duration::ZERO,
        rooms_per_player: 2,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut c = Client::connect(addr, "Cy").await;
    seated_room(&mut a, &mut [&mut b], settings(2)).await;
    seats(&mut a, 2).await;

    let unknown_difficulty = RoomSettings {
        difficulty: "impossible".into(),
        ..settings(2)
    };
    // A tier this size does not offer (a 4x4 is only ever easy).
    let not_offered = RoomSettings {
        difficulty: "hard".into(),
        ..settings(2)
    };
    a.send(&ClientMessage::CreateRoom {
        settings: not_offered,
    })
    .await;
    let (code, message) = a.error_message().await;
    assert_eq!(code, ErrorCode::Invalid);
    assert!(
        message.contains("offers the difficulties easy here, not 'hard'"),
        "{message}"
    );
    still_seated(&mut a, &mut b, 2).await;
    // A plugin whose generation panics.
    let failing_plugin = RoomSettings {
        variant: "test-misbehave".into(),
        params: Default::default(),
        ..settings(2)
    };
    for (refused, expected) in [
        (unknown_difficulty, ErrorCode::Invalid),
        (failing_plugin, ErrorCode::Plugin),
    ] {
        a.send(&ClientMessage::CreateRoom { settings: refused })
            .await;
        assert_eq!(a.error().await, expected);
        still_seated(&mut a, &mut b, 2).await;
    }

    // Ada opens a second room (Bob keeps the first open) and Cy joins her there.
    let second = seated_room(&mut a, &mut [&mut c], settings(2)).await;
    seats(&mut b, 1).await;
    a.send(&ClientMessage::CreateRoom {
        settings: settings(2),
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::TooMany, "two open rooms here");
    still_seated(&mut a, &mut c, 2).await;
    a.send(&ClientMessage::Start).await;
    let view = c.room(RoomState::Playing).await;
    assert_eq!(view.code, second.code);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_join_room_leaves_the_player_where_they_were() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let room = seated_room(&mut a, &mut [&mut b], settings(2)).await;

    // Spectating her own room is refused, and so is a room that does not exist.
    a.watch(&room.code).await;
    assert_eq!(a.error().await, ErrorCode::Invalid);
    a.send(&ClientMessage::JoinRoom {
        code: "nosuchroom".into(),
        spectator: false,
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::NoRoom);
    // A full room, too.
    let mut c = Client::connect(addr, "Cy").await;
    c.send(&ClientMessage::CreateRoom {
        settings: settings(1),
    })
    .await;
    let full = c.room(RoomState::Waiting).await;
    a.send(&ClientMessage::JoinRoom {
        code: full.code,
        spectator: false,
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Closed);

    // Ada is still the host of her room and starts it.
    a.send(&ClientMessage::Start).await;
    a.room(RoomState::Playing).await;
    b.room(RoomState::Playing).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_gets_an_answer() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut s = Client::connect(addr, "Sam").await;
    let (code, _) = started_room(&mut a, &mut [&mut b], settings(2)).await;
    s.watch(&code).await;
    s.room(RoomState::Playing).await;

    for request in [ClientMessage::Pause, ClientMessage::Resume] {
        s.send(&request).await;
        assert_eq!(s.error().await, ErrorCode::Spectator, "{request:?}");
        a.send(&request).await;
        assert_eq!(a.error().await, ErrorCode::WrongState, "{request:?}");
    }
    s.send(&ClientMessage::Cursor { row: 0, col: 0 }).await;
    assert_eq!(s.error().await, ErrorCode::Spectator);
    a.send(&ClientMessage::Cursor { row: 0, col: 0 }).await;
    assert_eq!(
        a.error().await,
        ErrorCode::WrongState,
        "cursors are for co-op rooms"
    );

    // `ready` with the flag a player already has answers with their snapshot.
    let mut w = Client::connect(addr, "Wes").await;
    w.send(&ClientMessage::CreateRoom {
        settings: settings(2),
    })
    .await;
    w.room(RoomState::Waiting).await;
    w.send(&ClientMessage::Ready { ready: false }).await;
    w.room(RoomState::Waiting).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_rooms_everyone_left_stop_counting_against_the_host() {
    let addr = start_server_with(Config {
        countdown: Duration::ZERO,
        rooms_per_player: 4,
        // Six races in a second: more messages than a person sends.
        burst: 1000,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    // Six quick races, one after another, under a limit of four open rooms.
    for _ in 0..6 {
        let (_, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;
        for p in [&mut a, &mut b] {
            for m in &solving_moves(&puzzle) {
                p.play(m).await;
            }
        }
        for p in [&mut a, &mut b] {
            p.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
                .await;
        }
        for p in [&mut b, &mut a] {
            p.send(&ClientMessage::LeaveRoom).await;
            p.until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
                .await;
        }
    }
    // A waiting room its only player left is gone too, and so is its count.
    for _ in 0..6 {
        a.send(&ClientMessage::CreateRoom {
            settings: RoomSettings {
                mode: Mode::Race,
                ..settings(2)
            },
        })
        .await;
        a.room(RoomState::Waiting).await;
        a.send(&ClientMessage::LeaveRoom).await;
        let rooms = a
            .until(|m| match m {
                ServerMessage::Rooms { rooms, .. } => Some(rooms),
                _ => None,
            })
            .await;
        assert!(rooms.is_empty(), "no ghost rooms in the lobby: {rooms:?}");
    }
}

/// The public rooms `c` is told of now.
async fn public_rooms(c: &mut Client) -> Vec<protocol::wire::RoomSummary> {
    c.send(&ClientMessage::ListRooms {
        offset: 0,
        variant: None,
        joinable: false,
    })
    .await;
    c.until(|m| match m {
        ServerMessage::Rooms { rooms, .. } => Some(rooms),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_rooms_with_their_host_and_only_while_someone_is_in() {
    // Bob asks for the list until it changes: no message rate limit in the way.
    let addr = start_server_with(Config {
        countdown: Duration::ZERO,
        burst: 1_000_000,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    a.send(&ClientMessage::CreateRoom {
        settings: settings(4),
    })
    .await;
    let code = a.room(RoomState::Waiting).await.code;
    let listed = public_rooms(&mut b).await;
    let room = listed.iter().find(|r| r.code == code).expect("listed");
    assert_eq!(
        (room.host.as_str(), room.players, room.connected),
        ("Ada", 1, 1)
    );
    // Ada's connection drops: her seat waits, but the room is no longer offered.
    drop(a);
    let mut gone = false;
    for _ in 0..10_000 {
        if public_rooms(&mut b).await.iter().all(|r| r.code != code) {
            gone = true;
            break;
        }
    }
    assert!(gone, "a room nobody is in stays listed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solo_create_room_is_answered_by_one_room_frame_already_playing() {
    let addr = start_server().await;
    let mut ada = Client::connect(addr, "Ada").await;
    let solo = solo_settings();
    ada.send(&ClientMessage::CreateRoom { settings: solo })
        .await;
    let first = ada
        .until(|m| match m {
            ServerMessage::Room { room } => Some(room),
            _ => None,
        })
        .await;
    assert_eq!(first.state, RoomState::Playing, "no waiting frame first");
    assert!(first.puzzle.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_move_names_its_cell_as_sent_even_outside_the_layout() {
    let addr = start_server().await;
    let mut ada = Client::connect(addr, "Ada").await;
    let solo = solo_settings();
    started_room(&mut ada, &mut [], solo).await;
    // A 4x4 puzzle: row 9 is outside it.
    ada.send(&ClientMessage::Move {
        row: 9,
        col: 2,
        value: 1,
    })
    .await;
    let (code, cells) = ada
        .until(|m| match m {
            ServerMessage::Error { code, cells, .. } => Some((code, cells)),
            _ => None,
        })
        .await;
    assert_eq!(code, ErrorCode::Invalid);
    assert_eq!(cells, vec![[9, 2]], "the refused cell, as sent");
}

/// A private solo game (it starts as it is created).
fn solo_settings() -> RoomSettings {
    RoomSettings {
        mode: Mode::Solo,
        max_players: 1,
        public: false,
        ..settings(1)
    }
}
