//! What an attacker tried from outside, over real sockets with real plugins:
//! watching a race through a second identity, guessing room codes across
//! reconnects and identities, hidden characters in names and chat, and
//! per-address limits behind a reverse proxy.

use arena_tests::serve::{start_server, start_server_with};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, started_room, Client};
use protocol::wire::{ClientMessage, ErrorCode, Mode, RoomSettings, RoomState, ServerMessage};
use server::serve::limit::Rate;
use server::serve::Config;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Every board a spectator has been shown, by player id, from its raw frames.
fn boards_seen(spectator: &Client) -> Vec<String> {
    spectator
        .raw
        .iter()
        .filter_map(|raw| rmp_serde::from_slice::<ServerMessage>(raw).ok())
        .flat_map(|m| match m {
            ServerMessage::Room { room } => room.boards.into_iter().map(|b| b.player).collect(),
            ServerMessage::CellChanged { player, .. } => vec![player],
            _ => Vec::new(),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_spectators_see_a_racers_digits_only_once_that_racer_is_done() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    // Bob's second identity: no token, another name.
    let mut spy = Client::connect(addr, "Not Bob").await;
    let (code, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;
    spy.watch(&code).await;
    let view = spy.room(RoomState::Playing).await;
    assert!(view.boards.is_empty());

    let moves = solving_moves(&puzzle);
    for m in &moves[..moves.len() - 1] {
        a.play(m).await;
    }
    // The spy follows Ada's progress, never her digits.
    let ada = a.id.clone();
    let filled_before_last = view.players[0].filled + moves.len() as u32 - 1;
    spy.until(|m| match m {
        ServerMessage::Progress { player } if player.id == ada => {
            (player.filled == filled_before_last).then_some(())
        }
        _ => None,
    })
    .await;
    assert!(boards_seen(&spy).is_empty(), "a running race leaked digits");

    // Ada finishes: her board is shown; Bob's still is not.
    a.play(&moves[moves.len() - 1]).await;
    let shown = spy
        .until(|m| match m {
            ServerMessage::Room { room } if !room.boards.is_empty() => Some(room.boards),
            _ => None,
        })
        .await;
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].player, a.id);
    assert!(shown[0].board.iter().flatten().all(|&v| v != 0));
    b.play(&moves[0]).await;
    let bob = b.id.clone();
    spy.until(|m| match m {
        ServerMessage::Progress { player } if player.id == bob => Some(()),
        _ => None,
    })
    .await;
    assert!(
        boards_seen(&spy).iter().all(|p| *p == a.id),
        "Bob's digits leaked while he races"
    );

    // Once the game is over, every board may be seen.
    for m in &moves[1..] {
        b.play(m).await;
    }
    let all = spy
        .until(|m| match m {
            ServerMessage::Room { room } if room.state == RoomState::Finished => Some(room.boards),
            _ => None,
        })
        .await;
    assert_eq!(all.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coop_spectators_still_watch_the_shared_board_live() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut s = Client::connect(addr, "Sam").await;
    let coop = RoomSettings {
        mode: Mode::Coop,
        ..settings(2)
    };
    let (code, puzzle) = started_room(&mut a, &mut [], coop).await;
    s.watch(&code).await;
    assert!(s.room(RoomState::Playing).await.board.is_some());
    a.send(&solving_moves(&puzzle)[0]).await;
    s.until(|m| matches!(m, ServerMessage::CoopEvent { .. }).then_some(()))
        .await;
}

/// Sends a join to a room that does not exist; the error code.
async fn guess(c: &mut Client) -> ErrorCode {
    c.send(&ClientMessage::JoinRoom {
        code: "nosuchroom".into(),
        spectator: false,
    })
    .await;
    c.error().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_attempts_are_limited_per_identity_and_per_address_across_reconnects() {
    let slow = |burst| Rate {
        burst,
        per_second: 0.001,
    };
    let addr = start_server_with(Config {
        join_rate: slow(3),
        address_join_rate: slow(6),
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    for _ in 0..3 {
        assert_eq!(guess(&mut a).await, ErrorCode::NoRoom);
    }
    assert_eq!(guess(&mut a).await, ErrorCode::RateLimited);
    // A new connection with the same identity gets no fresh burst.
    let mut again = Client::resume(addr, a.token.clone()).await;
    assert_eq!(guess(&mut again).await, ErrorCode::RateLimited);
    // Nor does a new identity from the same address, past the address's share
    // (every attempt counts against both: 5 of 6 are spent).
    let mut other = Client::connect(addr, "Eve").await;
    assert_eq!(guess(&mut other).await, ErrorCode::NoRoom);
    assert_eq!(guess(&mut other).await, ErrorCode::RateLimited);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_chat_refuse_hidden_and_direction_changing_characters() {
    let addr = start_server().await;
    for name in [
        "Ada\u{202E}",
        "\u{200B}",
        "A\u{2066}da",
        "Ad\u{FEFF}a",
        "\u{3164}",
    ] {
        let mut c = Client::open(addr).await;
        c.send(&ClientMessage::Hello {
            version: protocol::wire::PROTOCOL_VERSION,
            name: name.into(),
            token: None,
        })
        .await;
        assert_eq!(c.error().await, ErrorCode::Invalid, "{name:?}");
    }
    let mut a = Client::open(addr).await;
    a.send(&ClientMessage::Hello {
        version: protocol::wire::PROTOCOL_VERSION,
        name: "  Rene\u{301}   Ada ".into(),
        token: None,
    })
    .await;
    let name = a
        .until(|m| match m {
            ServerMessage::Welcome { name, .. } => Some(name),
            _ => None,
        })
        .await;
    assert_eq!(name, "Ren\u{e9} Ada", "normalised: NFC, spaces collapsed");

    a.send(&ClientMessage::CreateRoom {
        settings: settings(1),
    })
    .await;
    a.room(RoomState::Waiting).await;
    a.send(&ClientMessage::Chat {
        text: "I won \u{202E}!ti dah".into(),
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Invalid);
    let family = "gg \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    a.send(&ClientMessage::Chat {
        text: family.into(),
    })
    .await;
    let said = a
        .until(|m| match m {
            ServerMessage::Chat { text, .. } => Some(text),
            _ => None,
        })
        .await;
    assert_eq!(said, family, "emoji joined by zero-width joiners stay");
}

/// Opens a WebSocket claiming (through `X-Forwarded-For`) to be `client`;
/// `Err` carries the refusal.
async fn connect_as(
    addr: std::net::SocketAddr,
    client: &str,
) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("request");
    request
        .headers_mut()
        .insert("x-forwarded-for", client.parse().expect("header"));
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| Client::adopt(ws))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_address_limits_see_through_trusted_proxies_only() {
    let limits = |trusted: Vec<std::net::IpAddr>| Config {
        countdown: Duration::ZERO,
        connections_per_ip: 1,
        trusted_proxies: trusted,
        ..Config::default()
    };
    // Behind a trusted proxy (this test, on loopback), each player has their own
    // address: two players, one connection each.
    let proxied = start_server_with(limits(vec!["127.0.0.1".parse().expect("ip")])).await;
    let _one = connect_as(proxied, "203.0.113.1")
        .await
        .expect("first player");
    let _two = connect_as(proxied, "198.51.100.2, 203.0.113.2")
        .await
        .expect("second player");
    let third = connect_as(proxied, "203.0.113.1").await;
    assert!(
        third.is_err_and(|e| e.to_string().contains("429")),
        "the first player's second connection is over the limit"
    );
    // Without the option the header proves nothing: one address, one connection.
    let direct = start_server_with(limits(Vec::new())).await;
    let _one = connect_as(direct, "203.0.113.1").await.expect("first");
    let spoofed = connect_as(direct, "203.0.113.9").await;
    assert!(spoofed.is_err_and(|e| e.to_string().contains("429")));
}
