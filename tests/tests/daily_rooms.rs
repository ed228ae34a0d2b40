//! Puzzles of the day over real sockets with real plugins: two players who ask
//! for today's classic puzzle get the same one — the puzzle of the server's UTC
//! date, from the seed every server derives — the room says which day it is,
//! and a daily room has no rematch.

use arena_tests::serve::{plugins, start_server};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, seated_room, started_room, Client};
use protocol::plugin::{GenerateRequest, Params};
use protocol::wire::{ClientMessage, ErrorCode, Mode, RoomSettings, RoomState, ServerMessage};
use protocol::ParamValue;
use server::daily::{daily_seed, Date};
use std::time::Duration;

fn daily(variant: &str, params: Params, difficulty: &str) -> RoomSettings {
    RoomSettings {
        variant: variant.into(),
        params,
        difficulty: difficulty.into(),
        mode: Mode::Solo,
        public: false,
        daily: Some("today".into()),
        ..race_settings(1)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everyone_gets_the_same_puzzle_of_the_day_and_no_rematch() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let before = Date::today_utc();
    let view = seated_room(&mut a, &mut [], daily("classic", Params::new(), "easy")).await;
    a.send(&ClientMessage::Start).await;
    let mine = a.room(RoomState::Playing).await.puzzle.expect("puzzle");
    let (_, theirs) = started_room(&mut b, &mut [], daily("classic", Params::new(), "easy")).await;
    assert_eq!(mine.grid, theirs.grid, "one puzzle of the day for everyone");
    let after = Date::today_utc();

    // The server's date is in the room, and the puzzle is that date's seed's.
    let date = view
        .settings
        .daily
        .clone()
        .expect("a daily room says its date");
    assert!(
        date == before.to_string() || date == after.to_string(),
        "{date}"
    );
    let day: Date = date.parse().expect("a date");
    let params = Params::from([("box".to_string(), ParamValue::Text("3x3".into()))]);
    let seed = daily_seed(day, "classic", &params, "easy");
    let req = GenerateRequest {
        params,
        difficulty: "easy".into(),
        seed,
    };
    let direct = plugins()
        .generate("classic", &req, Duration::from_secs(30))
        .expect("generate");
    assert_eq!(direct.grid, mine.grid);

    // Another difficulty or variant is another puzzle.
    let mut c = Client::connect(addr, "Cy").await;
    let (_, other) = started_room(&mut c, &mut [], daily("classic", Params::new(), "medium")).await;
    assert_ne!(other.grid, mine.grid);

    for m in solving_moves(&mine) {
        a.play(&m).await;
    }
    a.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
        .await;
    a.send(&ClientMessage::Rematch).await;
    assert_eq!(a.error().await, ErrorCode::WrongState);
}
