//! Failover time: a private PostgreSQL server and two real `arena serve` nodes;
//! each round a race room is created on one node, moves are acknowledged, the
//! node is killed (`kill -9`), and the players come back through the other node
//! (as the web client does: redirect, or start over at its entry). Reports how
//! long the room took to be back, over the rounds, and checks that every
//! acknowledged move survived each time. The killed node is started again
//! before the next round, which kills the other.
//!
//! `--stop term` stops the node cleanly instead (SIGTERM): it hands its rooms to
//! the other node and redirects the players, who follow the redirect; the time
//! is from the signal to the room's snapshot there. `--stop freeze` freezes the
//! node (SIGSTOP) after its acknowledgements; `--stop freeze-writing` freezes it
//! while ten more moves are on their way to the database. A frozen node is woken
//! (SIGCONT) once the room is back elsewhere: every move it acknowledged, before
//! or after, must be in the room as the new node has it — one that is not is a
//! fencing violation, counted.
//!
//! Run: `cargo build --release --workspace && cargo bench -p arena-tests --bench
//! failover -- --rounds 20 --lease-ms 4000 [--stop kill|term|freeze|freeze-writing]`

use arena_tests::bench_arg;
use arena_tests::cluster::{join_via, resume_at, start_node, Node};
use arena_tests::postgres::PgServer;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, Client};
use futures_util::StreamExt;
use protocol::wire::{ClientMessage, RoomSettings, RoomState, RoomView, ServerMessage};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// How a round stops the room's node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Kill,
    Term,
    Freeze,
    FreezeWriting,
}

impl Stop {
    fn parse(s: &str) -> Stop {
        match s {
            "term" => Stop::Term,
            "freeze" => Stop::Freeze,
            "freeze-writing" => Stop::FreezeWriting,
            _ => Stop::Kill,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Stop::Kill => "kill -9",
            Stop::Term => "SIGTERM",
            Stop::Freeze => "SIGSTOP",
            Stop::FreezeWriting => "SIGSTOP while writing",
        }
    }
}

/// Sends `sig` (e.g. "-STOP") to a node.
fn signal(node: &Node, sig: &str) {
    let pid = node.child.id().expect("pid").to_string();
    let sent = std::process::Command::new("kill")
        .args([sig, &pid])
        .status()
        .is_ok_and(|s| s.success());
    assert!(sent, "kill {sig}");
}

/// The moves acknowledged on `client` within `wait` (none needs to come).
async fn acks_within(client: &mut Client, wait: Duration) -> Vec<(u32, u32, u32)> {
    let mut acked = Vec::new();
    let until = tokio::time::Instant::now() + wait;
    while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(until, client.ws.next()).await {
        if let Message::Binary(bytes) = frame {
            if let Ok(ServerMessage::MoveAccepted {
                row, col, value, ..
            }) = rmp_serde::from_slice(&bytes)
            {
                acked.push((row, col, value));
            }
        }
    }
    acked
}

/// A frozen node's round: freeze (with ten moves in flight when `writing`),
/// come back through `survivor`, wake the node and count the moves it
/// acknowledged that the room does not hold. Returns the time back and the
/// violations.
async fn frozen_round(
    doomed: &Node,
    survivor: &Node,
    mut ada: Client,
    code: &str,
    moves: &[ClientMessage],
    writing: bool,
) -> (Client, RoomView, Duration, usize) {
    let half = moves.len() / 2;
    let mut acked: Vec<(u32, u32, u32)> = moves[..half].iter().map(cell).collect();
    let in_flight = if writing {
        &moves[half..(half + 10).min(moves.len())]
    } else {
        &[][..]
    };
    for m in in_flight {
        ada.send(m).await;
    }
    signal(doomed, "-STOP");
    let frozen = Instant::now();
    acked.extend(acks_within(&mut ada, Duration::from_millis(100)).await);
    let (back_client, _) = join_via(&survivor.addr, &ada.token, code, false).await;
    let back = frozen.elapsed();
    drop(back_client);
    // The node wakes believing it still serves the room: whatever it
    // acknowledges now must be in the room too, and a new move must not be.
    signal(doomed, "-CONT");
    if let Some(next) = moves.get(half + in_flight.len()) {
        ada.send(next).await;
    }
    acked.extend(acks_within(&mut ada, Duration::from_secs(2)).await);
    let (ada, view) = join_via(&survivor.addr, &ada.token, code, false).await;
    let board = view.board.clone().expect("board");
    let violations = acked
        .iter()
        .filter(|&&(r, c, v)| board[r as usize][c as usize] != v)
        .count();
    (ada, view, back, violations)
}

/// A move's cell and value.
fn cell(m: &ClientMessage) -> (u32, u32, u32) {
    match m {
        ClientMessage::Move { row, col, value } => (*row, *col, *value),
        _ => unreachable!("solving moves are moves"),
    }
}

/// One round: a room on `doomed`, stopped as `stop` says; back through
/// `survivor`. Returns the time from the signal to the first snapshot of the
/// room on the survivor, and the fencing violations seen.
async fn round(doomed: &mut Node, survivor: &Node, stop: Stop) -> (Duration, usize) {
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
    let mut violations = 0;
    let (ada, view, back) = if matches!(stop, Stop::Freeze | Stop::FreezeWriting) {
        let writing = stop == Stop::FreezeWriting;
        let (ada, view, back, lost) =
            frozen_round(doomed, survivor, ada, &code, &moves, writing).await;
        violations = lost;
        drop(bob);
        doomed.child.kill().await.expect("kill the woken node");
        (ada, view, back)
    } else if stop == Stop::Term {
        let signalled = Instant::now();
        signal(doomed, "-TERM");
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
    (back, violations)
}

fn main() {
    let rounds: usize = bench_arg("--rounds", 20);
    let lease_ms = bench_arg::<u64>("--lease-ms", 4000).to_string();
    let stop = Stop::parse(&bench_arg("--stop", "kill".to_string()));
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
        let mut violations = 0;
        for r in 0..rounds {
            let doomed = r % 2;
            let (left, right) = nodes.split_at_mut(1);
            let (doomed_node, survivor_node) = if doomed == 0 {
                (&mut left[0], &right[0])
            } else {
                (&mut right[0], &left[0])
            };
            let (back, lost) = round(doomed_node, survivor_node, stop).await;
            violations += lost;
            eprintln!(
                "round {}: back in {:.3} s, {lost} fencing violations",
                r + 1,
                back.as_secs_f64()
            );
            times.push(back.as_secs_f64());
            nodes[doomed] = start_node(&db, &format!("n{}", doomed + 1), &lease_ms).await;
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let worst = times.last().copied().unwrap_or(0.0);
        let best = times.first().copied().unwrap_or(0.0);
        println!(
            "| stop | lease | rounds | acknowledged moves lost | fencing violations | best s | median s | worst s |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|");
        println!(
            "| {} | {} ms | {} | 0 | {violations} | {best:.3} | {median:.3} | {worst:.3} |",
            stop.name(),
            lease_ms,
            rounds
        );
    });
}
