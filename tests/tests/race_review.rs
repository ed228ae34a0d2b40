//! Race reviews over real sockets, on a real `arena serve` with its SQLite
//! file: a race that ends is reviewed (everyone in the room hears
//! `review_ready`), anyone with the id reads it — every racer's timeline with
//! mistakes, hints and the technique of each digit — and it survives kill -9;
//! an unknown id is refused; a daily race's review waits for its day to end
//! for anyone who did not race it.

use arena_tests::serve::start_server_with;
use arena_tests::ws::{race_settings, started_room, Client};
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, ErrorCode, HintPolicy, MistakePolicy, RaceReview, ReviewAct, RoomSettings,
    ServerMessage,
};
use protocol::ParamValue;
use server::serve::Config;

/// A 9x9 easy race of two, with hints and feedback on mistakes.
fn classic_race() -> RoomSettings {
    RoomSettings {
        params: Params::from([("box".to_string(), ParamValue::Text("3x3".into()))]),
        mistakes: MistakePolicy::Penalty { seconds: 10 },
        hints: HintPolicy::Penalty { seconds: 30 },
        public: false,
        ..race_settings(2)
    }
}

/// The id `review_ready` announces.
async fn review_ready(c: &mut Client) -> String {
    c.until(|m| match m {
        ServerMessage::ReviewReady { id } => Some(id),
        _ => None,
    })
    .await
}

/// Asks for review `id` and waits for it.
async fn ask_review(c: &mut Client, id: &str) -> RaceReview {
    c.send(&ClientMessage::RaceReview { id: id.into() }).await;
    c.until(|m| match m {
        ServerMessage::RaceReview { review } => Some(*review),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_race_is_reviewed_shared_by_id_and_kept_through_kill_9() {
    let data = arena_tests::temp_dir("race-review");
    let (mut server, addr) = arena_tests::process::spawn_arena_serve(&data, &[]).await;
    let mut ada = Client::connect(&addr, "Ada").await;
    let mut bob = Client::connect(&addr, "Bob").await;
    let (_, puzzle) = started_room(&mut ada, &mut [&mut bob], classic_race()).await;
    let moves = arena_tests::solving_moves(&puzzle);

    // Bob: a wrong digit, taken out, a hint, then the rest; Ada solves first.
    let ClientMessage::Move { row, col, value } = moves[0] else {
        panic!("a move");
    };
    let wrong = value % 9 + 1;
    bob.play(&ClientMessage::Move {
        row,
        col,
        value: wrong,
    })
    .await;
    bob.play(&ClientMessage::Move { row, col, value: 0 }).await;
    bob.send(&ClientMessage::Hint { marks: None }).await;
    bob.until(|m| matches!(m, ServerMessage::Hint { .. }).then_some(()))
        .await;
    ada.solve(&puzzle).await;
    bob.solve(&puzzle).await;
    bob.finished().await;
    let id = review_ready(&mut bob).await;
    assert_eq!(review_ready(&mut ada).await, id, "one review for the room");

    // Someone who did not race reads it by its id.
    let mut cy = Client::connect(&addr, "Cy").await;
    let review = ask_review(&mut cy, &id).await;
    assert_eq!(review.id, id);
    assert_eq!(
        (review.variant.as_str(), review.difficulty.as_str()),
        ("classic", "easy")
    );
    assert!(
        review.puzzle.solution.is_some(),
        "the race is over: its solution"
    );
    let names: Vec<_> = review.racers.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Bob"]);
    let (ada_r, bob_r) = (&review.racers[0], &review.racers[1]);
    assert_eq!((ada_r.place, bob_r.place), (Some(1), Some(2)));
    assert_eq!((bob_r.mistakes, bob_r.hints), (1, 1));
    assert_eq!(bob_r.penalty_ms, 40_000);
    let acts: Vec<_> = bob_r.steps.iter().take(3).map(|s| s.act).collect();
    assert_eq!(
        acts,
        [ReviewAct::Mistake, ReviewAct::Erased, ReviewAct::Hint]
    );
    assert_eq!(
        (bob_r.steps[0].row, bob_r.steps[0].col, bob_r.steps[0].value),
        (row, col, wrong)
    );
    for r in &review.racers {
        let placed: Vec<_> = r
            .steps
            .iter()
            .filter(|s| s.act == ReviewAct::Placed)
            .collect();
        assert_eq!(placed.len(), moves.len(), "{}: every digit", r.name);
        // An easy puzzle: every digit is reached with easy techniques.
        for s in &placed {
            assert_eq!(s.tier.as_deref(), Some("easy"), "{}: {s:?}", r.name);
            assert!(s.technique.as_ref().is_some_and(|t| !t.is_empty()));
        }
        let steps_ms: u64 = placed.iter().map(|s| s.took_ms).sum();
        let tiers_ms: u64 = r.by_tier.iter().map(|t| t.ms).sum();
        assert_eq!(steps_ms, tiers_ms, "{}: the tiers add up", r.name);
        assert!(r.steps.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    }

    // Unknown or malformed ids are refused, the connection goes on.
    for bad in ["AAAAAAAAAAAA", "short", "../../etc/passwd"] {
        cy.send(&ClientMessage::RaceReview { id: bad.into() }).await;
        let (code, why) = cy.error_message().await;
        assert_eq!(code, ErrorCode::Invalid);
        assert!(why.contains("no race review"), "{why}");
    }

    // Stored: after kill -9, the link still opens it.
    server.kill().await.expect("killed");
    let (mut again, addr) = arena_tests::process::spawn_arena_serve(&data, &[]).await;
    let mut dee = Client::connect(&addr, "Dee").await;
    assert_eq!(ask_review(&mut dee, &id).await, review);
    again.kill().await.expect("killed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_race_review_opens_to_others_only_once_the_day_is_over() {
    let addr = start_server_with(Config {
        countdown: std::time::Duration::ZERO,
        fastest_cell_ms: 0,
        ..Config::default()
    })
    .await;
    let mut ada = Client::connect(addr, "Ada").await;
    let mut bob = Client::connect(addr, "Bob").await;
    let settings = RoomSettings {
        daily: Some("today".into()),
        ..race_settings(2)
    };
    let (_, puzzle) = started_room(&mut ada, &mut [&mut bob], settings).await;
    ada.solve(&puzzle).await;
    bob.solve(&puzzle).await;
    let id = review_ready(&mut ada).await;
    assert_eq!(
        ask_review(&mut ada, &id).await.racers.len(),
        2,
        "a racer reads it"
    );
    let mut cy = Client::connect(addr, "Cy").await;
    cy.send(&ClientMessage::RaceReview { id }).await;
    let (code, why) = cy.error_message().await;
    assert_eq!(code, ErrorCode::WrongState);
    assert!(why.contains("tomorrow"), "{why}");
}
