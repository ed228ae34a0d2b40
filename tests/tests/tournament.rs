//! Arena tournaments over real sockets: a host creates one, players race
//! back-to-back in it (paired as quick races, among its own races only),
//! points by place with a streak bonus, the standings pushed live to players
//! and spectators; bad requests refused; a scheduled one not raced early;
//! the standings kept through kill -9.

use arena_tests::serve::start_server_with;
use arena_tests::ws::Client;
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, ErrorCode, RoomState, RoomView, ServerMessage, TournamentState, TournamentView,
};
use protocol::ParamValue;
use server::serve::Config;
use std::time::Duration;

fn config() -> Config {
    Config {
        countdown: Duration::ZERO,
        quick_wait: Duration::ZERO,
        fastest_cell_ms: 0,
        rate_shared_addresses: true,
        ..Config::default()
    }
}

fn create(name: &str, minutes: u32, starts_in_minutes: u32) -> ClientMessage {
    ClientMessage::CreateTournament {
        name: name.into(),
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
        minutes,
        starts_in_minutes,
    }
}

/// The next tournament view `c` is sent that satisfies `pick`.
async fn view_where(c: &mut Client, pick: impl Fn(&TournamentView) -> bool) -> TournamentView {
    c.until(|m| match m {
        ServerMessage::Tournament { tournament } if pick(&tournament) => Some(*tournament),
        _ => None,
    })
    .await
}

/// The next room view `c` is sent that satisfies `pick`.
async fn room_where(c: &mut Client, pick: impl Fn(&RoomView) -> bool) -> RoomView {
    c.until(|m| match m {
        ServerMessage::Room { room } if pick(&room) => Some(*room),
        _ => None,
    })
    .await
}

/// `first` and `second` race once in tournament `id`; `first` wins.
async fn race(first: &mut Client, second: &mut Client, id: &str) {
    let ask = ClientMessage::TournamentRace { id: id.into() };
    first.send(&ask).await;
    let waiting = room_where(first, |r| r.state == RoomState::Waiting).await;
    assert_eq!(waiting.settings.tournament.as_deref(), Some(id));
    assert!(
        !waiting.settings.public,
        "tournament races are not in the lobby"
    );
    second.send(&ask).await;
    let racing = room_where(second, |r| r.state == RoomState::Playing).await;
    assert_eq!(racing.code, waiting.code, "paired in one race");
    let puzzle = racing.puzzle.expect("puzzle");
    room_where(first, |r| r.state == RoomState::Playing).await;
    first.solve(&puzzle).await;
    second
        .until(|m| match m {
            ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(()),
            _ => None,
        })
        .await;
    second.solve(&puzzle).await;
    second.finished().await;
}

fn points(v: &TournamentView) -> Vec<(String, u32, bool)> {
    (v.standings.iter())
        .map(|r| (r.name.clone(), r.points, r.on_fire))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_race_back_to_back_and_spectators_see_the_standings_move() {
    let addr = start_server_with(config()).await;
    let mut ada = Client::connect(addr, "Ada").await;
    let mut bob = Client::connect(addr, "Bob").await;
    let mut cy = Client::connect(addr, "Cy").await;
    ada.send(&create("Friday arena", 10, 0)).await;
    let made = view_where(&mut ada, |_| true).await;
    assert_eq!(
        (made.name.as_str(), made.host.as_str()),
        ("Friday arena", "Ada")
    );
    assert_eq!(made.state, TournamentState::Running);
    assert_eq!(made.ends_at_ms - made.starts_at_ms, 600_000.0);
    let id = made.id.clone();
    cy.send(&ClientMessage::WatchTournament { id: id.clone() })
        .await;
    assert_eq!(view_where(&mut cy, |_| true).await.players, 0);

    // Three races, Ada winning each: 4, 4, then 8 on fire; Bob 2 each.
    race(&mut ada, &mut bob, &id).await;
    let after_one = view_where(&mut cy, |v| v.races == 1).await;
    assert_eq!(
        points(&after_one),
        [("Ada".to_string(), 4, false), ("Bob".to_string(), 2, false)]
    );
    race(&mut ada, &mut bob, &id).await;
    let after_two = view_where(&mut cy, |v| v.races == 2).await;
    assert!(after_two.standings[0].on_fire, "two wins: on fire");
    race(&mut ada, &mut bob, &id).await;
    let after_three = view_where(&mut cy, |v| v.races == 3).await;
    assert_eq!(
        points(&after_three),
        [("Ada".to_string(), 16, true), ("Bob".to_string(), 6, false)]
    );
    assert_eq!(after_three.standings[0].recent, [1, 1, 1]);
    assert!(
        after_three.standings.iter().all(|r| !r.me),
        "Cy only watches"
    );

    // The list shows it with its leader; quick races never meet its races.
    cy.send(&ClientMessage::ListTournaments).await;
    let list = cy
        .until(|m| match m {
            ServerMessage::Tournaments { tournaments } => Some(tournaments),
            _ => None,
        })
        .await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].leader.as_deref(), Some("Ada"));
    assert_eq!(list[0].players, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tournaments_are_refused_and_a_scheduled_one_is_not_raced_early() {
    let addr = start_server_with(config()).await;
    let mut ada = Client::connect(addr, "Ada").await;
    for (bad, says) in [
        (create("Too short", 5, 0), "10 to 60 minutes"),
        (create("Too long", 61, 0), "10 to 60 minutes"),
        (create("", 10, 0), "1-40 characters"),
        (create("Far away", 10, 2000), "within a day"),
        (
            ClientMessage::CreateTournament {
                name: "Unknown".into(),
                variant: "nope".into(),
                params: Params::new(),
                difficulty: "easy".into(),
                minutes: 10,
                starts_in_minutes: 0,
            },
            "unknown variant",
        ),
    ] {
        ada.send(&bad).await;
        let (code, why) = ada.error_message().await;
        assert_eq!(code, ErrorCode::Invalid);
        assert!(why.contains(says), "{why}");
    }
    for id in ["AAAAAAAAAAAA", "../x"] {
        ada.send(&ClientMessage::TournamentRace { id: id.into() })
            .await;
        let (code, why) = ada.error_message().await;
        assert_eq!(code, ErrorCode::Invalid);
        assert!(why.contains("no tournament"), "{why}");
        ada.send(&ClientMessage::WatchTournament { id: id.into() })
            .await;
        let (code, why) = ada.error_message().await;
        assert_eq!(code, ErrorCode::Invalid);
        assert!(why.contains("no tournament"), "{why}");
    }
    ada.send(&create("Later", 10, 30)).await;
    let later = view_where(&mut ada, |_| true).await;
    assert_eq!(later.state, TournamentState::Scheduled);
    ada.send(&ClientMessage::TournamentRace { id: later.id })
        .await;
    let (code, why) = ada.error_message().await;
    assert_eq!(code, ErrorCode::WrongState);
    assert!(why.contains("starts in 30 min"), "{why}");
    // A client never opens a tournament's race itself.
    ada.send(&ClientMessage::CreateRoom {
        settings: protocol::wire::RoomSettings {
            tournament: Some("x".into()),
            ..arena_tests::ws::race_settings(2)
        },
    })
    .await;
    assert_eq!(ada.error().await, ErrorCode::Invalid);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standings_survive_kill_9() {
    let data = arena_tests::temp_dir("tournament-kill");
    let args = ["--quick-race-wait-ms", "0"];
    let (mut server, addr) = arena_tests::process::spawn_arena_serve(&data, &args).await;
    let mut ada = Client::connect(&addr, "Ada").await;
    let mut bob = Client::connect(&addr, "Bob").await;
    ada.send(&create("Durable", 10, 0)).await;
    let id = view_where(&mut ada, |_| true).await.id;
    race(&mut ada, &mut bob, &id).await;
    view_where(&mut ada, |v| v.races == 1).await;
    server.kill().await.expect("killed");

    let (mut again, addr) = arena_tests::process::spawn_arena_serve(&data, &args).await;
    let mut cy = Client::connect(&addr, "Cy").await;
    cy.send(&ClientMessage::WatchTournament { id: id.clone() })
        .await;
    let view = view_where(&mut cy, |_| true).await;
    assert_eq!(view.races, 1);
    assert_eq!(
        points(&view),
        [("Ada".to_string(), 4, false), ("Bob".to_string(), 2, false)]
    );
    again.kill().await.expect("killed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_holds_an_arena_every_hour_of_the_kinds_it_is_told() {
    let hourly = Config {
        hourly_tournaments: vec!["classic:easy".parse().expect("a kind")],
        ..config()
    };
    let addr = start_server_with(hourly.clone()).await;
    let mut ada = Client::connect(addr, "Ada").await;
    // Scheduled before the server serves (this hour's while it runs, and the next).
    ada.send(&ClientMessage::ListTournaments).await;
    let list = ada
        .until(|m| match m {
            ServerMessage::Tournaments { tournaments } => Some(tournaments),
            _ => None,
        })
        .await;
    let hour = 3_600_000.0;
    let now = server::serve::clock::now_ms();
    let next = (now / hour).floor() * hour + hour;
    let scheduled: Vec<_> = list
        .iter()
        .filter(|t| t.state == TournamentState::Scheduled)
        .collect();
    assert_eq!(scheduled.len(), 1);
    assert_eq!(scheduled[0].name, "Hourly arena: classic, easy");
    assert_eq!(scheduled[0].starts_at_ms, next);
    assert_eq!(
        scheduled[0].ends_at_ms - scheduled[0].starts_at_ms,
        1_800_000.0
    );
    let running = list
        .iter()
        .filter(|t| t.state == TournamentState::Running)
        .count();
    let within_half = now - (next - hour) < 1_800_000.0;
    assert_eq!(
        running,
        usize::from(within_half),
        "this hour's, while it runs"
    );

    // A kind the server does not offer stops it at start, with the reason.
    let bad = Config {
        hourly_tournaments: vec!["classic:impossible".parse().expect("a kind")],
        ..config()
    };
    let refused = server::serve::Server::open(arena_tests::serve::plugins(), bad)
        .await
        .err();
    let why = refused.map(|e| e.to_string()).unwrap_or_default();
    assert!(
        why.contains("--hourly-tournament classic:impossible"),
        "{why}"
    );
}
