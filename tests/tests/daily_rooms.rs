//! Puzzles of the day over real sockets with real plugins: two players who ask
//! for today's classic puzzle get the same one — the puzzle of the server's UTC
//! date, from the seed every server derives — the room says which day it is,
//! and a daily room has no rematch. Finished daily games go on the day's
//! leaderboard with the time the server measured, survive a kill -9, and a
//! client cannot put a time of its own there; a later player races them as
//! ghosts.

use arena_tests::process::spawn_arena_serve;
use arena_tests::serve::{plugins, start_server};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, seated_room, started_room, Client};
use protocol::plugin::{GenerateRequest, Params};
use protocol::wire::{
    BoardKind, ClientMessage, ErrorCode, FlaggedTime, Mode, RoomSettings, RoomState, ServerMessage,
};
use protocol::{Constraint, ParamValue};
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
    // A solo game starts itself: one request, and the board is there.
    let view = seated_room(&mut a, &mut [], daily("classic", Params::new(), "easy")).await;
    assert_eq!(view.state, RoomState::Playing);
    let mine = view.puzzle.clone().expect("puzzle");
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
        minimal: false,
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

/// Asks for a classic easy `board` (today's, for a daily one).
async fn ask_classic_easy(c: &mut Client, board: BoardKind) {
    c.send(&ClientMessage::Leaderboard {
        board,
        variant: "classic".into(),
        params: Params::new(),
        difficulty: "easy".into(),
        date: None,
    })
    .await;
}

/// Asks for today's classic easy board; the answer's (total, my rank, faster than %).
async fn my_place(c: &mut Client) -> (u32, Option<u32>, Option<u32>, Vec<String>) {
    ask_classic_easy(c, BoardKind::Daily).await;
    c.until(|m| match m {
        ServerMessage::Leaderboard {
            total,
            mine,
            faster_than_pct,
            top,
            ..
        } => Some((
            total,
            mine.map(|r| r.rank),
            faster_than_pct,
            top.into_iter().map(|r| r.name).collect(),
        )),
        _ => None,
    })
    .await
}

/// Plays today's classic easy puzzle to the end in a solo room, then comes
/// back on a fresh connection: typing a whole grid at test speed uses up the
/// connection's rate limit (how far depends on the day's puzzle).
async fn finish_daily(addr: impl std::fmt::Display, c: &mut Client) {
    let (_, puzzle) = started_room(c, &mut [], daily("classic", Params::new(), "easy")).await;
    for m in solving_moves(&puzzle) {
        c.play(&m).await;
    }
    c.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
        .await;
    *c = Client::resume(addr, c.token.clone()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_dailies_rank_on_the_days_board_and_survive_a_restart() {
    let data = std::env::temp_dir().join(format!("arena-daily-board-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut server, addr) = spawn_arena_serve(&data, &[]).await;
    let mut a = Client::connect(&addr, "Ada").await;
    let mut b = Client::connect(&addr, "Bob").await;
    let mut c = Client::connect(&addr, "Cy").await;
    assert_eq!(my_place(&mut a).await, (0, None, None, vec![]));
    finish_daily(&addr, &mut a).await;
    finish_daily(&addr, &mut b).await;
    // Cy claims a time in every way a client could: no such message exists,
    // and whatever is sent is ignored.
    c.send_raw(
        rmp_serde::to_vec_named(&serde_json::json!({
            "type": "finished", "time_ms": 1, "variant": "classic", "difficulty": "easy"
        }))
        .expect("encode"),
    )
    .await;
    c.send_raw(
        rmp_serde::to_vec_named(&serde_json::json!({"type": "record", "time_ms": 1}))
            .expect("encode"),
    )
    .await;
    // Each solo game's time runs from its own start: either may be faster.
    let (total, mine, faster, top) = my_place(&mut a).await;
    assert_eq!(total, 2, "{top:?}");
    assert!(matches!(mine, Some(1 | 2)), "{mine:?}");
    assert_eq!(faster, Some(if mine == Some(1) { 100 } else { 0 }));
    assert_eq!(top.len(), 2);
    assert!(top.contains(&"Ada".to_string()) && top.contains(&"Bob".to_string()));
    assert_eq!(
        my_place(&mut c).await.1,
        None,
        "Cy never finished: not on the board"
    );

    server.kill().await.expect("kill -9");
    drop((a, b, c));
    let (mut server, addr) = spawn_arena_serve(&data, &[]).await;
    let mut d = Client::connect(&addr, "Dee").await;
    let (total, mine, _, again) = my_place(&mut d).await;
    assert_eq!((total, mine), (2, None));
    assert_eq!(again, top, "the board is rebuilt from the stored records");

    // Dee races the day's ghosts: Ada's and Bob's recorded games, as progress
    // over time, never their digits.
    let ghosts = RoomSettings {
        ghosts: true,
        ..daily("classic", Params::new(), "easy")
    };
    let view = seated_room(&mut d, &mut [], ghosts.clone()).await;
    assert_eq!(view.state, RoomState::Playing);
    let puzzle = view.puzzle.expect("puzzle");
    let empty = puzzle.grid.iter().flatten().filter(|&&v| v == 0).count() as u32;
    assert_eq!(view.ghosts.len(), 2);
    let mut names: Vec<&str> = view.ghosts.iter().map(|g| g.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Ada", "Bob"]);
    assert!(
        view.ghosts.windows(2).all(|w| w[0].time_ms <= w[1].time_ms),
        "fastest first"
    );
    for g in &view.ghosts {
        assert_eq!(g.cells, empty);
        let last = g.points.last().expect("moves");
        assert_eq!(last[1], u64::from(empty), "{}: the run ends solved", g.name);
        assert!(last[0] <= g.time_ms);
        assert!(
            g.points.windows(2).all(|w| w[0][0] <= w[1][0]),
            "in time order"
        );
    }
    // Ghosts race the puzzle of the day alone.
    d.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            ghosts: true,
            daily: None,
            ..ghosts
        },
    })
    .await;
    assert_eq!(d.error().await, ErrorCode::Invalid);
    server.kill().await.expect("stop");
    let _ = std::fs::remove_dir_all(&data);
}

/// Today's classic easy `board` as `c` sees it: (players on it, my finish
/// flagged as faster than plausible, if any).
async fn flagged_on(c: &mut Client, board: BoardKind) -> (u32, Option<FlaggedTime>) {
    ask_classic_easy(c, board).await;
    c.until(|m| match m {
        ServerMessage::Leaderboard { total, flagged, .. } => Some((total, flagged)),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finish_faster_than_anyone_can_solve_is_kept_but_ranked_nowhere() {
    let data = std::env::temp_dir().join(format!("arena-daily-flag-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    // The server's own floor (300 ms per empty cell of an easy puzzle); this
    // script solves in milliseconds.
    let floor = server::serve::DEFAULT_FASTEST_CELL_MS.to_string();
    let args = ["--fastest-cell-ms", floor.as_str()];
    let (mut server, addr) = spawn_arena_serve(&data, &args).await;
    let mut a = Client::connect(&addr, "Ada").await;
    let (_, puzzle) = started_room(&mut a, &mut [], daily("classic", Params::new(), "easy")).await;
    let empty = puzzle.grid.iter().flatten().filter(|&&v| v == 0).count() as u64;
    for m in solving_moves(&puzzle) {
        a.play(&m).await;
    }
    a.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
        .await;
    let mut a = Client::resume(&addr, a.token.clone()).await;
    for board in [BoardKind::Daily, BoardKind::Weekly, BoardKind::AllTime] {
        let (total, flagged) = flagged_on(&mut a, board).await;
        assert_eq!(total, 0, "{board:?}: a scripted solve is on no board");
        let flagged = flagged.unwrap_or_else(|| panic!("{board:?}: Ada is told why"));
        assert_eq!(flagged.plausible_ms, empty * 300, "{board:?}");
        assert!(flagged.time_ms < flagged.plausible_ms, "{flagged:?}");
    }

    // Kept through a restart (read back from the stored record), still
    // unranked, and never anyone's ghost.
    server.kill().await.expect("kill -9");
    let (mut server, addr) = spawn_arena_serve(&data, &args).await;
    let mut a = Client::resume(&addr, a.token.clone()).await;
    let (total, flagged) = flagged_on(&mut a, BoardKind::Daily).await;
    assert_eq!((total, flagged.is_some()), (0, true));
    let mut b = Client::connect(&addr, "Bob").await;
    assert_eq!(flagged_on(&mut b, BoardKind::Daily).await, (0, None));
    let ghosts = RoomSettings {
        ghosts: true,
        ..daily("classic", Params::new(), "easy")
    };
    let view = seated_room(&mut b, &mut [], ghosts).await;
    assert!(view.ghosts.is_empty(), "{:?}", view.ghosts);
    server.kill().await.expect("stop");
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_backup_taken_while_serving_restores_every_finished_game() {
    let data = arena_tests::temp_dir("backup-live");
    let (mut server, addr) = spawn_arena_serve(&data, &[]).await;
    let mut a = Client::connect(&addr, "Ada").await;
    finish_daily(&addr, &mut a).await;
    // The server keeps running (and Bob keeps a room open) while the copy is made.
    let mut b = Client::connect(&addr, "Bob").await;
    started_room(&mut b, &mut [], daily("classic", Params::new(), "easy")).await;
    let copy = data.join("copy.db");
    let backup = || {
        std::process::Command::new(arena_tests::built_arena())
            .args(["backup", "--data"])
            .arg(&data)
            .arg(&copy)
            .output()
            .expect("run arena backup")
    };
    let out = backup();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("finished games: 1); checked"), "{said}");
    // A second backup to the same file is refused, the first kept.
    let again = backup();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));
    server.kill().await.expect("stop");

    // Restored: the copy alone, as arena.db of a new data directory.
    let restored = arena_tests::temp_dir("backup-restored");
    std::fs::copy(&copy, restored.join("arena.db")).expect("restore");
    let (mut server, addr) = spawn_arena_serve(&restored, &[]).await;
    let mut c = Client::connect(&addr, "Cy").await;
    let (total, _, _, top) = my_place(&mut c).await;
    assert_eq!((total, top), (1, vec!["Ada".to_string()]));
    server.kill().await.expect("stop");
    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&restored);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_code_moves_the_identity_and_a_player_can_hide_from_the_boards() {
    let addr = start_server().await;
    let mut played = Client::connect(addr, "Ada").await;
    finish_daily(addr, &mut played).await;
    played.send(&ClientMessage::LeaveRoom).await;
    // A fresh connection: the one that typed the whole grid spent its message allowance.
    let mut a = Client::resume(addr, played.token.clone()).await;
    a.send(&ClientMessage::SyncCode).await;
    let code = a
        .until(|m| match m {
            ServerMessage::SyncCode {
                code,
                expires_in_ms,
            } => {
                assert!(expires_in_ms >= 60_000);
                Some(code)
            }
            _ => None,
        })
        .await;
    // Ada's phone says hello as a new player, then takes the identity over.
    let mut phone = Client::connect(addr, "Phone").await;
    assert_ne!(phone.id, a.id);
    phone
        .send(&ClientMessage::RedeemSync {
            code: code.to_lowercase(),
        })
        .await;
    phone.welcomed().await;
    assert_eq!(phone.id, a.id);
    let token = phone.token.clone();
    assert_eq!(
        my_place(&mut phone).await.1,
        Some(1),
        "the phone is Ada on the board"
    );
    let mut again = Client::resume(addr, token).await;
    assert_eq!(again.id, a.id, "the phone's own token resumes Ada");

    // A code works once.
    let mut other = Client::connect(addr, "Eve").await;
    other.send(&ClientMessage::RedeemSync { code }).await;
    assert_eq!(other.error().await, ErrorCode::Invalid);

    // Ada hides: others see the row unnamed, Ada still sees her name.
    a.send(&ClientMessage::HideFromBoards { hidden: true })
        .await;
    a.until(|m| match m {
        ServerMessage::Profile { hidden, .. } => hidden.then_some(()),
        _ => None,
    })
    .await;
    assert_eq!(my_place(&mut other).await.3, ["(a hidden player)"]);
    assert_eq!(my_place(&mut again).await.3, ["Ada"]);
}

/// A rematch against yourself: after a daily, the same puzzle again with your
/// own best game as a ghost ("Your best"), your own games never among the
/// others' ghosts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_races_their_own_best_of_the_day() {
    // Ghosts come from the stored records: a real database file.
    let data = std::env::temp_dir().join(format!("arena-own-best-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut server, addr) = spawn_arena_serve(&data, &[]).await;
    let mut a = Client::connect(&addr, "Ada").await;
    let mut b = Client::connect(&addr, "Bob").await;
    finish_daily(&addr, &mut a).await;
    finish_daily(&addr, &mut b).await;
    let own = RoomSettings {
        own_best: true,
        ..daily("classic", Params::new(), "easy")
    };
    let view = seated_room(&mut a, &mut [], own.clone()).await;
    let names: Vec<&str> = view.ghosts.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["Your best"], "only my best, without `ghosts`");
    a.send(&ClientMessage::LeaveRoom).await;
    let both = RoomSettings {
        ghosts: true,
        ..own
    };
    let view = seated_room(&mut a, &mut [], both).await;
    let names: Vec<&str> = view.ghosts.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["Your best", "Bob"], "mine first, then the others'");
    // Someone who never played it has no best to race.
    let mut c = Client::connect(&addr, "Cy").await;
    let view = seated_room(
        &mut c,
        &mut [],
        RoomSettings {
            own_best: true,
            ..daily("classic", Params::new(), "easy")
        },
    )
    .await;
    assert!(view.ghosts.is_empty());
    // Your own best races a puzzle of the day alone.
    c.send(&ClientMessage::LeaveRoom).await;
    c.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            own_best: true,
            daily: None,
            ..daily("classic", Params::new(), "easy")
        },
    })
    .await;
    assert_eq!(c.error().await, ErrorCode::Invalid);
    server.kill().await.expect("stop");
    let _ = std::fs::remove_dir_all(&data);
}

/// Generated constraint variants have puzzles of the day too: two players get
/// the same Thermo and the same Kropki puzzle, made from the day's seed, with
/// the constraints as its clues.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_variants_have_puzzles_of_the_day() {
    let addr = start_server().await;
    let thermo = |c: &Constraint| matches!(c, Constraint::Thermometer { .. });
    let kropki =
        |c: &Constraint| matches!(c, Constraint::Difference { .. } | Constraint::Ratio { .. });
    for (variant, kind) in [
        ("thermo", &thermo as &dyn Fn(&Constraint) -> bool),
        ("kropki", &kropki),
    ] {
        let mut a = Client::connect(addr, "Ada").await;
        let mut b = Client::connect(addr, "Bob").await;
        let view = seated_room(&mut a, &mut [], daily(variant, Params::new(), "easy")).await;
        let mine = view.puzzle.clone().expect("puzzle");
        let (_, theirs) =
            started_room(&mut b, &mut [], daily(variant, Params::new(), "easy")).await;
        assert_eq!(mine.grid, theirs.grid, "{variant}: one puzzle of the day");
        assert_eq!(mine.constraints, theirs.constraints, "{variant}");
        assert!(
            !mine.constraints.is_empty(),
            "{variant}: its clues are constraints"
        );
        assert!(
            mine.constraints.iter().all(kind),
            "{variant}: {:?}",
            mine.constraints
        );
        assert!(!mine.drawings.is_empty(), "{variant}: drawn for the board");
        let day: Date = view
            .settings
            .daily
            .expect("a date")
            .parse()
            .expect("a date");
        let params = Params::from([("size".to_string(), ParamValue::Text("9x9".into()))]);
        let req = GenerateRequest {
            minimal: false,
            seed: daily_seed(day, variant, &params, "easy"),
            params,
            difficulty: "easy".into(),
        };
        let direct = plugins()
            .generate(variant, &req, Duration::from_secs(60))
            .expect("generate");
        assert_eq!(
            direct.constraints, mine.constraints,
            "{variant}: the day's seed"
        );
    }
}
