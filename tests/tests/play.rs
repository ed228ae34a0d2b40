//! Playing a game over real sockets with real plugins: a race to the end, mistake
//! and hint policies, solo pauses, rematches, spectators, leaving. Nothing sleeps:
//! every step waits for the frame it expects (with a timeout that fails the test).

use arena_tests::serve::{start_server, start_server_with};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, started_room, Client};
use engine::v1::from_v1;
use engine::Solution;
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, ErrorCode, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomState,
    ServerMessage,
};
use protocol::PuzzleV1;
use server::serve::Config;
use std::time::Duration;

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
    b.send(&ClientMessage::ListRooms {
        offset: 0,
        variant: None,
        joinable: false,
    })
    .await;
    let listed = b
        .until(|m| match m {
            ServerMessage::Rooms { rooms, .. } => Some(rooms),
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
    b.solve(&puzzle).await;
    let ranks = b.ranks().await;
    assert_eq!(ranks.len(), 1);
    assert_eq!(ranks[0].player, b.id);

    // Penalty: one wrong digit adds its seconds to the final time.
    let mut c = Client::connect(addr, "Cy").await;
    let mut penalty = settings(1);
    penalty.mistakes = MistakePolicy::Penalty { seconds: 30 };
    let (_, puzzle) = started_room(&mut c, &mut [], penalty).await;
    c.send(&wrong_move(&puzzle)).await;
    c.solve(&puzzle).await;
    let ranks = c.ranks().await;
    assert!(
        ranks[0].time_ms >= 30_000,
        "penalty included: {} ms",
        ranks[0].time_ms
    );
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
        codes.push(a.room(RoomState::Playing).await.code);
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
    let hint = ask_hint(&mut a).await;
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
    // Asked again with nothing changed: the same hint, free.
    let again = ask_hint(&mut a).await;
    assert_eq!(
        again,
        (hint.0.clone(), 0),
        "the same hint, not charged again"
    );
    a.solve(&puzzle).await;
    let me = a
        .until(|m| match m {
            ServerMessage::Progress { player } if player.finished_ms.is_some() => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(me.hints, 1, "one hint charged");
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
    s.send(&ClientMessage::Hint { marks: None }).await;
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
    c.send(&ClientMessage::Hint { marks: None }).await;
    assert_eq!(
        c.error().await,
        ErrorCode::WrongState,
        "settings(..) has hints off"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_brings_a_new_puzzle_to_the_same_players() {
    let (addr, mut a, mut b, puzzle) = two_racers_for_rematches().await;
    a.send(&ClientMessage::Rematch).await;
    assert_eq!(
        a.error().await,
        ErrorCode::WrongState,
        "not before the game is over"
    );
    for p in [&mut a, &mut b] {
        p.solve(&puzzle).await;
    }
    b.finished().await;
    // Every player votes (not only the host); the rematch waits for all.
    b.send(&ClientMessage::Rematch).await;
    let voted = a
        .until(|m| match m {
            ServerMessage::Room { room } if room.players.iter().any(|p| p.rematch) => Some(*room),
            _ => None,
        })
        .await;
    assert_eq!(
        voted.state,
        RoomState::Finished,
        "one vote of two is not enough"
    );
    let votes: Vec<bool> = voted.players.iter().map(|p| p.rematch).collect();
    assert_eq!(votes, [false, true], "Bob's vote is shown");
    let mut watcher = Client::connect(addr, "Wat").await;
    watcher.watch(&voted.code).await;
    watcher.send(&ClientMessage::Rematch).await;
    assert_eq!(watcher.error().await, ErrorCode::Spectator);
    a.send(&ClientMessage::Rematch).await;
    let again = b.room(RoomState::Waiting).await;
    assert!(again.players.iter().all(|p| !p.rematch), "votes cleared");
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
    b.room(RoomState::Playing).await;
    let next = fresh.puzzle.expect("puzzle");
    for p in [&mut a, &mut b] {
        p.solve(&next).await;
    }
    a.finished().await;
    // Ada votes; Bob leaves without voting: Ada's vote carries the rematch.
    a.send(&ClientMessage::Rematch).await;
    a.until(|m| match m {
        ServerMessage::Room { room } if room.players.iter().any(|p| p.rematch) => Some(()),
        _ => None,
    })
    .await;
    b.send(&ClientMessage::LeaveRoom).await;
    let alone = a.room(RoomState::Waiting).await;
    assert_eq!(alone.code, fresh.code);
}

/// How long `test-misbehave` takes for a hint on its `slow-hints` puzzle.
const SLOW_HINT: Duration = Duration::from_secs(2);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_hint_never_holds_up_anyone_elses_moves() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let slow = RoomSettings {
        variant: "test-misbehave".into(),
        params: Params::new(),
        difficulty: "slow-hints".into(),
        hints: HintPolicy::Penalty { seconds: 10 },
        ..settings(2)
    };
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], slow).await;
    let moves = solving_moves(&puzzle);
    let asked = std::time::Instant::now();
    a.send(&ClientMessage::Hint { marks: None }).await;
    a.send(&ClientMessage::Hint { marks: None }).await;
    assert_eq!(
        a.error().await,
        ErrorCode::WrongState,
        "one hint at a time per player"
    );
    // While the plugin works on Ada's hint, Bob solves his board and Ada moves.
    for m in &moves {
        b.play(m).await;
    }
    a.play(&moves[1]).await;
    assert!(
        asked.elapsed() < SLOW_HINT,
        "moves waited {:?} behind a hint",
        asked.elapsed()
    );
    let (hint, penalty) = a
        .until(|m| match m {
            ServerMessage::Hint {
                hint, penalty_ms, ..
            } => Some((hint, penalty_ms)),
            _ => None,
        })
        .await;
    assert!(asked.elapsed() >= SLOW_HINT, "the hint took its time");
    assert_eq!(penalty, 10_000);
    assert_eq!(hint.cell, [0, 0], "the first empty cell when Ada asked");
    let ada = a.id.clone();
    let view = a
        .until(|m| match m {
            ServerMessage::Progress { player } if player.id == ada => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(view.hints, 1);
}

/// A server and Ada and Bob racing on it; the server's burst fits two whole
/// grids per connection (a rematch plays a second one).
async fn two_racers_for_rematches() -> (std::net::SocketAddr, Client, Client, PuzzleV1) {
    let addr = start_server_with(Config {
        burst: 200,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;
    (addr, a, b, puzzle)
}

/// Asks for a hint (no marks) and returns it with the penalty it cost.
async fn ask_hint(c: &mut Client) -> (protocol::plugin::Hint, u64) {
    c.send(&ClientMessage::Hint { marks: None }).await;
    c.until(|m| match m {
        ServerMessage::Hint {
            hint, penalty_ms, ..
        } => Some((hint, penalty_ms)),
        _ => None,
    })
    .await
}

/// Waits until `c` hears that `player` left the race.
async fn hears_left(c: &mut Client, player: &str) {
    c.until(|m| match m {
        ServerMessage::Progress { player: p } if p.id == player && p.left => Some(()),
        _ => None,
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_racer_who_leaves_forfeits_but_one_who_drops_keeps_the_seat() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut c = Client::connect(addr, "Cy").await;
    let (_, puzzle) = started_room(&mut a, &mut [&mut b, &mut c], settings(3)).await;
    let moves = solving_moves(&puzzle);
    b.play(&moves[0]).await;
    b.send(&ClientMessage::LeaveRoom).await;
    let bob = b.id.clone();
    hears_left(&mut a, &bob).await;
    // Cy's connection drops instead: the seat waits for Cy (the grace window).
    drop(c);
    for m in &moves {
        a.play(m).await;
    }
    a.send(&ClientMessage::Ping { client_time: 0.0 }).await;
    a.until(|m| matches!(m, ServerMessage::Pong { .. }).then_some(()))
        .await;
    assert!(
        !a.raw
            .iter()
            .filter_map(|raw| rmp_serde::from_slice::<ServerMessage>(raw).ok())
            .any(|m| matches!(m, ServerMessage::Finished { .. })),
        "Cy may still come back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_racer_who_forfeited_and_rejoins_watches_from_their_seat_and_finished_comes_before_the_room(
) {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let (code, puzzle) = started_room(&mut a, &mut [&mut b], settings(2)).await;
    let moves = solving_moves(&puzzle);
    b.play(&moves[0]).await;
    b.send(&ClientMessage::LeaveRoom).await;
    let bob = b.id.clone();
    hears_left(&mut a, &bob).await;

    // Bob comes back: his seat and board, still out of the race.
    b.send(&ClientMessage::JoinRoom {
        code,
        spectator: false,
    })
    .await;
    let view = b.room(RoomState::Playing).await;
    let me = view
        .players
        .iter()
        .find(|p| p.id == bob)
        .expect("Bob's seat");
    assert!(me.left, "still forfeited");
    assert_eq!(
        me.filled,
        first_filled(&puzzle) + 1,
        "his board as he left it"
    );
    b.send(&moves[1]).await;
    assert_eq!(b.error().await, ErrorCode::WrongState, "no more moves");

    // Ada finishes: `finished` (Bob unranked), then the finished room, to both.
    for m in &moves {
        a.play(m).await;
    }
    for c in [&mut a, &mut b] {
        let ranks = c.ranks().await;
        assert_eq!(ranks.len(), 1, "a forfeit is not ranked");
        match c.recv().await {
            ServerMessage::Room { room } => assert_eq!(room.state, RoomState::Finished),
            other => panic!("the finished room comes right after finished: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_leaves_out_who_left_so_the_new_race_has_an_end() {
    let (_, mut a, mut b, puzzle) = two_racers_for_rematches().await;
    b.send(&ClientMessage::LeaveRoom).await;
    let bob = b.id.clone();
    hears_left(&mut a, &bob).await;
    a.solve(&puzzle).await;
    a.finished().await;
    // Bob is in the lobby: Ada's vote is everyone's, and the new game is hers.
    a.send(&ClientMessage::Rematch).await;
    let again = a.room(RoomState::Waiting).await;
    let seated: Vec<&str> = again.players.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(seated, vec![a.id.as_str()], "Bob left: not seated again");
    assert_eq!(again.host, a.id);
    a.send(&ClientMessage::Start).await;
    let next = a.room(RoomState::Playing).await.puzzle.expect("puzzle");
    a.solve(&next).await;
    let ranks = a.ranks().await;
    assert_eq!(ranks.len(), 1, "the race ends: nobody else was racing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racers_away_past_the_grace_window_forfeit_and_the_race_ends() {
    let addr = start_server_with(Config {
        countdown: Duration::ZERO,
        reconnect_grace: Duration::from_millis(300),
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut c = Client::connect(addr, "Cy").await;
    let (_, puzzle) = started_room(&mut a, &mut [&mut b, &mut c], settings(3)).await;
    b.send(&ClientMessage::LeaveRoom).await;
    let (bob, cy) = (b.id.clone(), c.id.clone());
    hears_left(&mut a, &bob).await;
    drop(c);
    hears_left(&mut a, &cy).await;
    a.solve(&puzzle).await;
    let ranks = a.ranks().await;
    let ranked: Vec<&str> = ranks.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(ranked, vec![a.id.as_str()], "leavers are not ranked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_hints_reason_from_the_marks_the_player_sends() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut with_hints = settings(2);
    with_hints.hints = HintPolicy::Penalty { seconds: 10 };
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], with_hints).await;
    let loaded = from_v1(&puzzle).expect("valid");
    let Solution::Unique(solution) = loaded.puzzle.solve() else {
        panic!("unique")
    };
    let model = loaded.puzzle.model();

    // Marks of the wrong shape are refused, and the next hint still comes.
    a.send(&ClientMessage::Hint {
        marks: Some(vec![vec![1, 2, 3]]),
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Invalid);

    // Marks in an empty cell that leave out its value: the hint says so.
    let cell = (0..model.cell_count())
        .find(|&c| loaded.puzzle.givens()[c] == 0)
        .expect("an empty cell");
    let [row, col] = model.coord(cell);
    let mut marks = vec![vec![0u32; model.cols() as usize]; model.rows() as usize];
    marks[row as usize][col as usize] = !(1u32 << (solution[cell] - 1)) & ((1 << model.size()) - 1);
    a.send(&ClientMessage::Hint { marks: Some(marks) }).await;
    let hint = a
        .until(|m| match m {
            ServerMessage::Hint { hint, .. } => Some(hint),
            _ => None,
        })
        .await;
    assert_eq!(hint.kind, protocol::plugin::HintKind::WrongMarks);
    assert_eq!(hint.cell, [row, col]);
}

/// Filling in every candidate is a hint in a race: charged, counted, told to
/// the others through `progress`; refused where hints are off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filling_candidates_in_a_race_costs_a_hint() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut with_hints = settings(2);
    with_hints.hints = HintPolicy::Penalty { seconds: 10 };
    started_room(&mut a, &mut [&mut b], with_hints).await;
    a.send(&ClientMessage::FillCandidates).await;
    let penalty = a
        .until(|m| match m {
            ServerMessage::CandidatesFilled { penalty_ms } => Some(penalty_ms),
            _ => None,
        })
        .await;
    assert_eq!(penalty, 10_000);
    let seen = b
        .until(|m| match m {
            ServerMessage::Progress { player } if player.id == a.id => Some(player.hints),
            _ => None,
        })
        .await;
    assert_eq!(seen, 1, "the others see it counted");

    let mut c = Client::connect(addr, "Cy").await;
    started_room(&mut c, &mut [], settings(1)).await;
    c.send(&ClientMessage::FillCandidates).await;
    assert_eq!(c.error().await, ErrorCode::WrongState);
}

/// A pasted puzzle: checked (one solution), played under the variant it names
/// with its graded tier, never echoed, and kept off the leaderboards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_can_play_a_puzzle_they_paste() {
    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    // 51 moves in a row: more than the default burst.
    let addr = start_server_with(Config {
        burst: 100,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut pasted = RoomSettings {
        mode: Mode::Solo,
        public: false,
        variant: "windoku".into(),
        params: Params::new(),
        puzzle: Some(format!("{}{}", ".".repeat(9), &LINE[9..])),
        ..settings(1)
    };
    a.send(&ClientMessage::CreateRoom {
        settings: pasted.clone(),
    })
    .await;
    let why = a
        .until(|m| match m {
            ServerMessage::Error { code, message, .. } => Some((code, message)),
            _ => None,
        })
        .await;
    assert_eq!(why.0, ErrorCode::Invalid);
    assert!(why.1.contains("more than one solution"), "{}", why.1);

    // A puzzle of a variant this server does not have.
    let house =
        |kind: &str, cells: Vec<[u32; 2]>| serde_json::json!({"kind": kind, "cells": cells});
    let mut houses = Vec::new();
    for i in 0..4u32 {
        houses.push(house("row", (0..4).map(|j| [i, j]).collect()));
        houses.push(house("column", (0..4).map(|j| [j, i]).collect()));
        let (r, c) = (i / 2 * 2, i % 2 * 2);
        houses.push(house(
            "box",
            (0..4).map(|j| [r + j / 2, c + j % 2]).collect(),
        ));
    }
    let foreign = serde_json::json!({
        "format": "sudoku-arena/puzzle@1", "variant": "nonomino-x", "size": 4,
        "layout": {"rows": 4, "cols": 4}, "houses": houses,
        "grid": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 0]],
    });
    a.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            puzzle: Some(foreign.to_string()),
            ..pasted.clone()
        },
    })
    .await;
    let why = a
        .until(|m| match m {
            ServerMessage::Error { code, message, .. } => Some((code, message)),
            _ => None,
        })
        .await;
    assert_eq!(why.0, ErrorCode::Invalid);
    assert!(why.1.contains("no 'nonomino-x' variant"), "{}", why.1);

    pasted.puzzle = Some(LINE.into());
    a.send(&ClientMessage::CreateRoom { settings: pasted })
        .await;
    let view = a.room(RoomState::Playing).await;
    assert_eq!(view.settings.variant, "classic", "the puzzle's own variant");
    assert!(view.settings.puzzle.is_none(), "the text is not echoed");
    let puzzle = view.puzzle.expect("puzzle");
    assert_eq!(puzzle.grid[0][..2], [5, 3]);
    assert!(puzzle.solution.is_none(), "never the solution");
    assert_eq!(
        Some(view.settings.difficulty.as_str()),
        puzzle.grade.as_ref().map(|g| g.tier.as_str()),
        "the graded tier"
    );
    a.solve(&puzzle).await;
    a.finished().await;
    a.send(&ClientMessage::Leaderboard {
        board: protocol::wire::BoardKind::AllTime,
        variant: "classic".into(),
        params: Params::new(),
        difficulty: view.settings.difficulty.clone(),
        date: None,
    })
    .await;
    let rows = a
        .until(|m| match m {
            ServerMessage::Leaderboard { total, .. } => Some(total),
            _ => None,
        })
        .await;
    assert_eq!(rows, 0, "a pasted puzzle is not on the boards");
}

/// A pasted variant puzzle from the corpus (thermometers and German
/// whispers, in the corpus schema): checked, sent with its constraints and
/// the drawings the client draws them with (never the solution), and solved
/// to the end under its rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_variant_puzzle_travels_with_its_constraints_and_drawings() {
    let line = arena_tests::read_dataset("variants/puzzles.jsonl")
        .lines()
        .find(|l| l.contains("\"var-ebd2b72217\""))
        .expect("the thermometer and whispers puzzle")
        .to_string();
    let addr = start_server_with(Config {
        burst: 100,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(addr, "Ada").await;
    a.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            mode: Mode::Solo,
            public: false,
            puzzle: Some(line),
            ..settings(1)
        },
    })
    .await;
    let view = a.room(RoomState::Playing).await;
    let puzzle = view.puzzle.expect("puzzle");
    assert!(puzzle.solution.is_none(), "never the solution");
    assert_eq!(puzzle.format, protocol::PUZZLE_FORMAT_V2);
    let kinds: Vec<&str> = puzzle.constraints.iter().map(|c| c.kind()).collect();
    assert!(
        kinds.contains(&"thermometer") && kinds.contains(&"whispers"),
        "{kinds:?}"
    );
    let lines = puzzle
        .drawings
        .iter()
        .filter(|d| matches!(d, protocol::Drawing::Line { .. }))
        .count();
    assert!(lines >= kinds.len(), "{:?}", puzzle.drawings);
    a.solve(&puzzle).await;
    a.finished().await;
}
