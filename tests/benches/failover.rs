//! Failover time: a private PostgreSQL server and two real `arena serve` nodes;
//! each round a race room is created on one node, moves are acknowledged, the
//! node is killed (`kill -9`), and the players come back through the other node
//! (as the web client does: redirect, or start over at its entry). Reports how
//! long the room took to be back, over the rounds, and checks that every
//! acknowledged move survived each time. The killed node is started again
//! before the next round, which kills the other.
//!
//! With `--term`, each round stops the node cleanly instead (SIGTERM): it hands
//! its rooms to the other node and redirects the players, who follow the
//! redirect; the time is from the signal to the room's snapshot there.
//!
//! Run: `cargo build --release --workspace && cargo bench -p arena-tests --bench
//! failover -- --rounds 20 --lease-ms 4000 [--term]`

use arena_tests::cluster::{join_via, resume_at, start_node, Node};
use arena_tests::postgres::PgServer;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, Client};
use protocol::wire::{ClientMessage, RoomSettings, RoomState, ServerMessage};
use std::time::{Duration, Instant};

fn arg(name: &str, default: u64) -> u64 {
    let raw: Vec<String> = std::env::args().collect();
    raw.iter()
        .position(|a| a == name)
        .and_then(|i| raw.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One round: a room on `doomed`, killed (or, with `term`, stopped cleanly);
/// back through `survivor`. Returns the time from the signal to the first
/// snapshot of the room on the survivor.
async fn round(doomed: &mut Node, survivor: &Node, term: bool) -> Duration {
    let mut ada = Client::connect(&doomed.addr, "Ada").await;
    ada.send(&ClientMessage::CreateRoom {
        settings: RoomSettings {
            public: false,
            ..race_settings(2)
        },
    })
    .await;
    let code = ada.room(RoomState::Waiting).await.code;
    let bob_token = Client::connect(&survivor.addr, "Bob").await.token;
    let (mut bob, _) = join_via(&survivor.addr, &bob_token, &code, false).await;
    ada.room(RoomState::Waiting).await;
    ada.send(&ClientMessage::Start).await;
    let puzzle = ada.room(RoomState::Playing).await.puzzle.expect("puzzle");
    bob.room(RoomState::Playing).await;
    let moves = solving_moves(&puzzle);
    let half = moves.len() / 2;
    for m in &moves[..half] {
        ada.play(m).await;
    }
    let token = ada.token.clone();
    let (ada, view, back) = if term {
        let pid = doomed.child.id().expect("pid").to_string();
        let signalled = Instant::now();
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .is_ok_and(|s| s.success());
        assert!(sent, "kill -TERM");
        let url = ada
            .until(|m| match m {
                ServerMessage::Redirect { url, .. } => Some(url),
                _ => None,
            })
            .await;
        let mut moved = resume_at(&url, &token).await.expect("the new node answers");
        moved
            .send(&ClientMessage::JoinRoom {
                code: code.clone(),
                spectator: false,
            })
            .await;
        let view = moved.room(RoomState::Playing).await;
        let back = signalled.elapsed();
        drop((ada, bob));
        let stopped = doomed.child.wait().await.expect("the node exits");
        assert!(stopped.success(), "a clean stop: {stopped:?}");
        (moved, view, back)
    } else {
        doomed.child.kill().await.expect("kill -9");
        let killed = Instant::now();
        drop((ada, bob));
        let (ada, view) = join_via(&survivor.addr, &token, &code, false).await;
        (ada, view, killed.elapsed())
    };
    let board = view.board.expect("board");
    for m in &moves[..half] {
        let ClientMessage::Move { row, col, value } = m else {
            unreachable!("solving moves are moves")
        };
        assert_eq!(
            board[*row as usize][*col as usize], *value,
            "an acknowledged move was lost"
        );
    }
    // Both leave for good, so the room is over and the next round starts with
    // no room anywhere (new rooms would otherwise go to the emptier node).
    let (bob, _) = join_via(&survivor.addr, &bob_token, &code, false).await;
    for mut player in [ada, bob] {
        player.send(&ClientMessage::LeaveRoom).await;
        player
            .until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
            .await;
    }
    back
}

fn main() {
    let rounds = arg("--rounds", 20) as usize;
    let lease_ms = arg("--lease-ms", 4000).to_string();
    let term = std::env::args().any(|a| a == "--term");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let pg = PgServer::start();
        let db = pg.database("failover");
        let mut nodes = [
            start_node(&db, "n1", &lease_ms).await,
            start_node(&db, "n2", &lease_ms).await,
        ];
        let mut times = Vec::new();
        for r in 0..rounds {
            let doomed = r % 2;
            let (left, right) = nodes.split_at_mut(1);
            let (doomed_node, survivor_node) = if doomed == 0 {
                (&mut left[0], &right[0])
            } else {
                (&mut right[0], &left[0])
            };
            let back = round(doomed_node, survivor_node, term).await;
            eprintln!("round {}: back in {:.3} s", r + 1, back.as_secs_f64());
            times.push(back.as_secs_f64());
            nodes[doomed] = start_node(&db, &format!("n{}", doomed + 1), &lease_ms).await;
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let worst = times.last().copied().unwrap_or(0.0);
        let best = times.first().copied().unwrap_or(0.0);
        println!(
            "| stop | lease | rounds | acknowledged moves lost | best s | median s | worst s |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
        println!(
            "| {} | {} ms | {} | 0 | {best:.3} | {median:.3} | {worst:.3} |",
            if term { "SIGTERM" } else { "kill -9" },
            lease_ms,
            rounds
        );
    });
}
