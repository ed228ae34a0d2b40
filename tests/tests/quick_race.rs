//! Quick races over real sockets: one request joins the open public race of a
//! kind or opens one; it is armed to start with its second player (everyone
//! told when), starts by itself, and at once when full; late comers get the
//! next race; other kinds race apart; no rematch; `create_room` cannot open one.

use arena_tests::serve::start_server_with;
use arena_tests::ws::{race_settings, Client};
use protocol::plugin::Params;
use protocol::wire::{ClientMessage, ErrorCode, RoomSettings, RoomState, RoomView, ServerMessage};
use protocol::ParamValue;
use server::serve::Config;
use std::time::Duration;

fn quick(box_: &str, difficulty: &str) -> ClientMessage {
    ClientMessage::QuickRace {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text(box_.into()))]),
        difficulty: difficulty.into(),
        here: false,
    }
}

/// The next room view `c` is sent that satisfies `pick`.
async fn view_where(c: &mut Client, pick: impl Fn(&RoomView) -> bool) -> RoomView {
    c.until(|m| match m {
        ServerMessage::Room { room } if pick(&room) => Some(*room),
        _ => None,
    })
    .await
}

fn config(quick_wait: Duration) -> Config {
    Config {
        countdown: Duration::ZERO,
        quick_wait,
        fastest_cell_ms: 0,
        rate_shared_addresses: true,
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_races_fill_start_by_themselves_and_send_late_comers_to_the_next() {
    let addr = start_server_with(config(Duration::from_millis(400))).await;
    let mut ada = Client::connect(addr, "Ada").await;
    let mut bob = Client::connect(addr, "Bob").await;
    ada.send(&quick("2x2", "easy")).await;
    let first = view_where(&mut ada, |_| true).await;
    assert!(first.settings.quick && first.settings.public);
    assert_eq!((first.state, first.players.len()), (RoomState::Waiting, 1));
    assert_eq!(first.auto_start_at, None, "one player waits for a second");

    // Bob's one request finds Ada's race; both are told when it starts.
    let asked = std::time::Instant::now();
    bob.send(&quick("2x2", "easy")).await;
    let armed = view_where(&mut bob, |r| r.auto_start_at.is_some()).await;
    assert!(asked.elapsed() < Duration::from_secs(1), "armed at once");
    assert_eq!(armed.code, first.code);
    let at = armed.auto_start_at.unwrap_or_default();
    assert_eq!(
        view_where(&mut ada, |r| r.players.len() == 2)
            .await
            .auto_start_at,
        Some(at)
    );

    // It starts by itself (no Start from anyone).
    let racing = view_where(&mut ada, |r| r.state == RoomState::Playing).await;
    let puzzle = racing.puzzle.clone().expect("puzzle");
    view_where(&mut bob, |r| r.state == RoomState::Playing).await;

    // A late comer gets the next race of the kind; another kind races apart.
    let mut cy = Client::connect(addr, "Cy").await;
    cy.send(&quick("2x2", "easy")).await;
    let next = view_where(&mut cy, |_| true).await;
    assert_ne!(next.code, first.code);
    assert_eq!((next.state, next.players.len()), (RoomState::Waiting, 1));
    let mut dee = Client::connect(addr, "Dee").await;
    dee.send(&quick("2x3", "easy")).await;
    let other = view_where(&mut dee, |_| true).await;
    assert_ne!(other.code, next.code);
    assert_eq!(other.players.len(), 1);

    // Cy leaves her race before a second player came: the next asker opens
    // a new one, never a closed room.
    cy.send(&ClientMessage::LeaveRoom).await;
    let mut eve = Client::connect(addr, "Eve").await;
    eve.send(&quick("2x2", "easy")).await;
    let eves = view_where(&mut eve, |_| true).await;
    assert_eq!(eves.players.len(), 1);

    // The first race ends like any race, and has no rematch.
    ada.solve(&puzzle).await;
    bob.solve(&puzzle).await;
    ada.finished().await;
    ada.send(&ClientMessage::Rematch).await;
    let (code, why) = ada.error_message().await;
    assert_eq!(code, ErrorCode::WrongState);
    assert!(why.contains("quick race"), "{why}");

    // A quick race is never opened by create_room.
    let mut fay = Client::connect(addr, "Fay").await;
    fay.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            quick: true,
            ..race_settings(4)
        },
    })
    .await;
    assert_eq!(fay.error().await, ErrorCode::Invalid);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_quick_race_starts_at_once() {
    // A wait no test would sit out: only filling the race can start it.
    let addr = start_server_with(config(Duration::from_secs(600))).await;
    let mut racers = Vec::new();
    for i in 0..10 {
        let mut c = Client::connect(addr, &format!("Racer {i}")).await;
        c.send(&quick("2x2", "easy")).await;
        let first = view_where(&mut c, |_| true).await;
        assert_eq!(first.players.len(), i + 1, "all in one race");
        racers.push((c, first));
    }
    // The tenth's own first view is the race under way.
    for (c, first) in &mut racers {
        let view = if first.state == RoomState::Playing {
            first.clone()
        } else {
            view_where(c, |r| r.state == RoomState::Playing).await
        };
        assert_eq!(view.players.len(), 10);
        assert_eq!(view.auto_start_at, None);
    }
    // The eleventh opens the next race.
    let mut late = Client::connect(addr, "Late").await;
    late.send(&quick("2x2", "easy")).await;
    assert_eq!(view_where(&mut late, |_| true).await.players.len(), 1);
}

/// Classic 2x2 easy's ratings as `c` sees them: (my rating, games, provisional).
async fn my_rating(c: &mut Client) -> (Option<i32>, u32, bool) {
    c.send(&ClientMessage::Ratings {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
    })
    .await;
    c.until(|m| match m {
        ServerMessage::Ratings {
            rating,
            games,
            provisional,
            ..
        } => Some((rating, games, provisional)),
        _ => None,
    })
    .await
}

/// Ada and Bob race one quick race; Ada finishes first, Bob second.
async fn race_once(ada: &mut Client, bob: &mut Client) {
    ada.send(&quick("2x2", "easy")).await;
    view_where(ada, |_| true).await;
    bob.send(&quick("2x2", "easy")).await;
    let view = view_where(bob, |r| r.state == RoomState::Playing).await;
    let puzzle = view.puzzle.expect("puzzle");
    ada_then_bob(ada, bob, &puzzle).await;
}

/// Ada solves `puzzle`; once Bob has heard her finish, he solves it too.
async fn ada_then_bob(ada: &mut Client, bob: &mut Client, puzzle: &protocol::PuzzleV1) {
    ada.solve(puzzle).await;
    bob.until(|m| match m {
        ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(()),
        _ => None,
    })
    .await;
    bob.solve(puzzle).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_race_moves_ratings_which_survive_a_restart() {
    let data = arena_tests::temp_dir("quick-ratings");
    let args = ["--quick-race-wait-ms", "0"];
    let (mut server, addr) = arena_tests::process::spawn_arena_serve(&data, &args).await;
    let mut ada = Client::connect(&addr, "Ada").await;
    let mut bob = Client::connect(&addr, "Bob").await;
    assert_eq!(my_rating(&mut ada).await, (None, 0, true));
    race_once(&mut ada, &mut bob).await;
    let changes = bob
        .until(|m| match m {
            ServerMessage::Rated { changes } => Some(changes),
            _ => None,
        })
        .await;
    assert_eq!(changes.len(), 2);
    assert_eq!(
        (changes[0].name.as_str(), changes[1].name.as_str()),
        ("Ada", "Bob")
    );
    assert!(changes.iter().all(|c| c.before == 1500 && c.provisional));
    assert!(
        changes[0].after > 1500 && changes[1].after < 1500,
        "{changes:?}"
    );
    let ada_after = changes[0].after;

    // Kept: a restart folds the stored race back in.
    server.kill().await.expect("kill -9");
    let (mut server, addr) = arena_tests::process::spawn_arena_serve(&data, &args).await;
    let mut ada = Client::resume(&addr, ada.token.clone()).await;
    assert_eq!(my_rating(&mut ada).await, (Some(ada_after), 1, true));
    // Her next quick race shows the lobby its racers' mean rating (matching
    // reads it: see lobby::quick_race_order).
    ada.send(&quick("2x2", "easy")).await;
    let code = view_where(&mut ada, |_| true).await.code;
    let mut cy = Client::connect(&addr, "Cy").await;
    cy.send(&ClientMessage::ListRooms {
        offset: 0,
        variant: None,
        joinable: false,
    })
    .await;
    let listed = cy
        .until(|m| match m {
            ServerMessage::Rooms { rooms, .. } => Some(rooms),
            _ => None,
        })
        .await;
    let hers = listed.iter().find(|r| r.code == code).expect("listed");
    assert_eq!(hers.rating, Some(ada_after));
    server.kill().await.expect("stop");
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finishes_faster_than_plausible_are_never_rated() {
    // The server's own floor: this script's solves are far under it.
    let addr = start_server_with(Config {
        fastest_cell_ms: server::serve::DEFAULT_FASTEST_CELL_MS,
        ..config(Duration::ZERO)
    })
    .await
    .to_string();
    let mut ada = Client::connect(&addr, "Ada").await;
    let mut bob = Client::connect(&addr, "Bob").await;
    race_once(&mut ada, &mut bob).await;
    bob.finished().await;
    assert_eq!(my_rating(&mut ada).await, (None, 0, true));
    assert_eq!(my_rating(&mut bob).await, (None, 0, true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_identities_from_one_address_are_not_rated_against_each_other() {
    // The server's default: racers sharing an address are left out.
    let addr = start_server_with(Config {
        rate_shared_addresses: false,
        ..config(Duration::ZERO)
    })
    .await;
    let mut ada = Client::connect(addr, "Ada").await;
    let mut bob = Client::connect(addr, "Ada's other name").await;
    race_once(&mut ada, &mut bob).await;
    // The review comes after the rating would have been applied.
    ada.until(|m| matches!(m, ServerMessage::ReviewReady { .. }).then_some(()))
        .await;
    assert_eq!(my_rating(&mut ada).await, (None, 0, true));
    assert_eq!(my_rating(&mut bob).await, (None, 0, true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_race_its_host_marks_rated_moves_ratings_and_only_races_are_rated() {
    let addr = start_server_with(config(Duration::ZERO)).await;
    let mut ada = Client::connect(addr, "Ada").await;
    let mut bob = Client::connect(addr, "Bob").await;
    let rated = RoomSettings {
        public: false,
        rated: true,
        ..race_settings(2)
    };
    let (_, puzzle) = arena_tests::ws::started_room(&mut ada, &mut [&mut bob], rated).await;
    ada_then_bob(&mut ada, &mut bob, &puzzle).await;
    let changes = ada
        .until(|m| match m {
            ServerMessage::Rated { changes } => Some(changes),
            _ => None,
        })
        .await;
    let names: Vec<&str> = changes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Bob"]);
    assert!(changes[0].after > changes[0].before && changes[1].after < changes[1].before);

    // A solo game is never rated.
    let mut cy = Client::connect(addr, "Cy").await;
    cy.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            mode: protocol::wire::Mode::Solo,
            public: false,
            max_players: 1,
            rated: true,
            ..race_settings(1)
        },
    })
    .await;
    let (code, why) = cy.error_message().await;
    assert_eq!(code, ErrorCode::Invalid);
    assert!(why.contains("only races are rated"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_quick_race_and_ratings_requests_get_clear_errors_and_the_server_goes_on() {
    let addr = start_server_with(config(Duration::ZERO)).await;
    let mut ada = Client::connect(addr, "Ada").await;
    for (request, says) in [
        (
            ClientMessage::QuickRace {
                variant: "no-such".into(),
                params: Params::new(),
                difficulty: "easy".into(),
                here: false,
            },
            "unknown variant",
        ),
        (quick("2x2", "extreme"), "difficulties"),
        (quick("7x7", "easy"), "box"),
        (
            ClientMessage::Ratings {
                variant: "no-such".into(),
                params: Params::new(),
                difficulty: "easy".into(),
            },
            "unknown variant",
        ),
    ] {
        ada.send(&request).await;
        let (code, why) = ada.error_message().await;
        assert_eq!(code, ErrorCode::Invalid, "{why}");
        assert!(why.contains(says), "{why}");
    }
    // Nothing was opened, and the same connection still races.
    ada.send(&quick("2x2", "easy")).await;
    assert_eq!(view_where(&mut ada, |_| true).await.players.len(), 1);
}
