//! `kill -9` the real `arena serve` process mid-race, start it again on the same
//! data — the SQLite directory, or the same PostgreSQL database as the same node —
//! and every acknowledged move is still there; players resume with their tokens
//! and finish the game.

use arena_tests::postgres::PgServer;
use arena_tests::process::spawn_arena_serve;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, Client};
use protocol::wire::{ClientMessage, RoomSettings, RoomState};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_kill_9() {
    let data = std::env::temp_dir().join(format!("arena-durability-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    the_race_survives_kill_9(&data, &[]).await;
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_kill_9_on_postgres() {
    let pg = PgServer::start();
    let url = pg.database("durability");
    let data = std::env::temp_dir().join(format!("arena-durability-pg-{}", std::process::id()));
    the_race_survives_kill_9(&data, &["--database", &url, "--node-id", "n1"]).await;
    let _ = std::fs::remove_dir_all(&data);
}

/// Kills `arena serve … extra` mid-race and starts it again the same way.
async fn the_race_survives_kill_9(data: &std::path::Path, extra: &[&str]) {
    let (mut server, addr) = spawn_arena_serve(data, extra).await;

    let mut a = Client::connect(&addr, "Ada").await;
    let mut b = Client::connect(&addr, "Bob").await;
    let (a_id, a_token, b_token) = (a.id.clone(), a.token.clone(), b.token.clone());
    let settings = RoomSettings {
        public: false,
        ..race_settings(2)
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
    let (mut server, addr) = spawn_arena_serve(data, extra).await;

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
    let ranks = b.ranks().await;
    assert_eq!(ranks.len(), 2);
    assert_eq!(
        ranks[0].player, a_id,
        "Ada finished first, across the restart"
    );
    server.kill().await.expect("stop");
}
