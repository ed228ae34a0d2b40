//! `kill -9` the real `arena serve` process mid-race, start it again on the same
//! data directory, and every acknowledged move is still there; players resume with
//! their tokens and finish the game.

use arena_tests::ws::{Client, WAIT};
use arena_tests::{built_arena, built_plugin_dir, solving_moves};
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomState, ServerMessage,
};
use protocol::ParamValue;
use std::path::Path;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Starts `arena serve` on an ephemeral port; returns the child and its address.
async fn serve(data: &Path) -> (Child, String) {
    let arena = built_arena();
    assert!(
        arena.exists(),
        "{} missing: run `cargo build --workspace` first",
        arena.display()
    );
    let mut child = Command::new(arena)
        .arg("--plugins")
        .arg(built_plugin_dir())
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--countdown-ms",
            "0",
            "--pool-size",
            "0",
            "--data",
        ])
        .arg(data)
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start arena serve");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let addr = tokio::time::timeout(WAIT, async {
        while let Some(line) = lines.next_line().await.expect("read stderr") {
            if let Some(rest) = line.split("serving on http://").nth(1) {
                return rest.trim().to_string();
            }
        }
        panic!("arena serve exited before listening");
    })
    .await
    .expect("the server starts in time");
    // Keep draining stderr so the child never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_kill_9() {
    let data = std::env::temp_dir().join(format!("arena-durability-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut server, addr) = serve(&data).await;

    let mut a = Client::connect(&addr, "Ada").await;
    let mut b = Client::connect(&addr, "Bob").await;
    let (a_id, a_token, b_token) = (a.id.clone(), a.token.clone(), b.token.clone());
    let settings = RoomSettings {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
        mode: Mode::Race,
        public: false,
        max_players: 2,
        mistakes: MistakePolicy::None,
        hints: HintPolicy::Off,
    };
    a.send(&ClientMessage::CreateRoom { settings }).await;
    let code = a.room(RoomState::Waiting).await.code;
    b.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    b.room(RoomState::Waiting).await;
    a.send(&ClientMessage::Start).await;
    let puzzle = a.room(RoomState::Playing).await.puzzle.expect("puzzle");
    let moves = solving_moves(&puzzle);
    let half = moves.len() / 2;
    for m in &moves[..half] {
        a.play(m).await;
    }
    b.play(&moves[0]).await;

    server.kill().await.expect("kill -9");
    drop((a, b));
    let (mut server, addr) = serve(&data).await;

    let mut a = Client::resume(&addr, a_token).await;
    let id_again = a.id.clone();
    assert_eq!(id_again, a_id, "the session survived");
    a.send(&ClientMessage::JoinRoom {
        code: code.clone(),
        spectator: false,
    })
    .await;
    let view = a.room(RoomState::Playing).await;
    let board = view.board.expect("Ada's board");
    for m in &moves[..half] {
        let ClientMessage::Move { row, col, value } = m else {
            unreachable!()
        };
        assert_eq!(
            board[*row as usize][*col as usize], *value,
            "an acknowledged move survived"
        );
    }
    assert_eq!(
        view.players.iter().find(|p| p.id == a_id).map(|p| p.filled),
        Some(board.iter().flatten().filter(|&&v| v != 0).count() as u32)
    );

    let mut b = Client::resume(&addr, b_token).await;
    b.send(&ClientMessage::JoinRoom {
        code,
        spectator: false,
    })
    .await;
    b.room(RoomState::Playing).await;
    for m in &moves[half..] {
        a.play(m).await;
    }
    for m in &moves[1..] {
        b.play(m).await;
    }
    let ranks = b
        .until(|m| match m {
            ServerMessage::Finished { ranks, .. } => Some(ranks),
            _ => None,
        })
        .await;
    assert_eq!(ranks.len(), 2);
    assert_eq!(
        ranks[0].player, a_id,
        "Ada finished first, across the restart"
    );
    server.kill().await.expect("stop");
    let _ = std::fs::remove_dir_all(&data);
}
