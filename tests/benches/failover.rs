//! Failover time: a private PostgreSQL server and two real `arena serve` nodes;
//! each round a race room is created on one node, moves are acknowledged, the
//! node is killed (`kill -9`), and the players come back through the other node
//! (as the web client does: redirect, or start over at its entry). Reports how
//! long the room took to be back, over the rounds, and checks that every
//! acknowledged move survived each time. The killed node is started again
//! before the next round, which kills the other.
//!
//! Run: `cargo build --release --workspace && cargo bench -p arena-tests --bench
//! failover -- --rounds 20 --lease-ms 4000`

use arena_tests::cluster::{join_via, start_node, Node};
use arena_tests::postgres::PgServer;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, Client};
use protocol::wire::{ClientMessage, RoomSettings, RoomState};
use std::time::{Duration, Instant};

fn arg(name: &str, default: u64) -> u64 {
    let raw: Vec<String> = std::env::args().collect();
    raw.iter()
        .position(|a| a == name)
        .and_then(|i| raw.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One round: a room on `doomed`, killed; back through `survivor`. Returns the
/// time from the kill to the first snapshot of the room on the survivor.
async fn round(doomed: &mut Node, survivor: &Node) -> Duration {
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
    doomed.child.kill().await.expect("kill -9");
    let killed = Instant::now();
    let token = ada.token.clone();
    drop((ada, bob));
    let (_ada, view) = join_via(&survivor.addr, &token, &code, false).await;
    let back = killed.elapsed();
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
    back
}

fn main() {
    let rounds = arg("--rounds", 20) as usize;
    let lease_ms = arg("--lease-ms", 4000).to_string();
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
            let back = round(doomed_node, survivor_node).await;
            eprintln!("round {}: back in {:.2} s", r + 1, back.as_secs_f64());
            times.push(back.as_secs_f64());
            nodes[doomed] = start_node(&db, &format!("n{}", doomed + 1), &lease_ms).await;
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let worst = times.last().copied().unwrap_or(0.0);
        let best = times.first().copied().unwrap_or(0.0);
        println!("| lease | rounds | acknowledged moves lost | best s | median s | worst s |");
        println!("|---:|---:|---:|---:|---:|---:|");
        println!(
            "| {} ms | {} | 0 | {best:.2} | {median:.2} | {worst:.2} |",
            lease_ms, rounds
        );
    });
}
