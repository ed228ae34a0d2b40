//! What isolating plugins in host processes costs, and what a misbehaving
//! plugin costs everyone else.
//!
//! 1. **Isolation's cost**: the same plugins loaded in process and in host
//!    processes (as `arena serve` runs them), the same requests on both in
//!    alternating order — classic 9x9 generation (`medium`, seeds `iso-<i>`) and
//!    hints on positions of those puzzles — median per mode, the ratio and the
//!    difference. Target: within 5% or 1 ms, whichever is larger.
//! 2. **Faults beside play**: a server (plugins in host processes) where a player
//!    plays classic 9x9 solo games (no database: the latencies are the server's
//!    and the plugins' own) — creating each (a real generation: no pool), every
//!    move, a hint every eighth move — in rounds that alternate quiet
//!    with rounds where another player keeps making the misbehaving plugin
//!    segfault, abort, overflow its stack, allocate without end, hang and
//!    answer garbage, in generate and in hint. p50 / p99 of each latency per
//!    kind of round, and their ratio. Target: p99 within 20% of the quiet run.
//!
//! Run: `cargo build --release -p server -p test-misbehave && cargo bench -p
//! arena-tests --bench isolation` (`make bench` does both). `--seeds N` (default
//! 40) for part 1; `--rounds N` (default 6, half of them with faults) and
//! `--round-seconds S` (default 8: games are played until it is over) for part 2.

use arena_tests::serve::{
    isolated_plugins, misbehave_faults, plugins as in_process_plugins, start_server_on,
};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, Client};
use plugin_abi::op;
use protocol::plugin::{GenerateRequest, GridRequest, HintResponse, Params};
use protocol::wire::{ClientMessage, HintPolicy, Mode, RoomSettings, ServerMessage};
use protocol::PuzzleV1;
use server::plugins::PluginHost;
use server::serve::Config;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn value_of(flag: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2)
        .find(|w| w[0] == flag)
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(default)
}

/// The `q` quantile of `times` (sorted here), in ms.
fn quantile(times: &mut [f64], q: f64) -> f64 {
    times.sort_by(f64::total_cmp);
    let i = ((times.len() as f64 - 1.0) * q).round() as usize;
    times.get(i).copied().unwrap_or(f64::NAN)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let seeds = value_of("--seeds", 40);
    let rounds = value_of("--rounds", 6).max(2);
    let round_length = Duration::from_secs(value_of("--round-seconds", 8) as u64);
    isolation_cost(seeds);
    faults_beside_play(rounds, round_length);
}

/// One request run on both hosts in turn; returns (in process, isolated) ms.
fn both(
    first_isolated: bool,
    in_process: &PluginHost,
    isolated: &PluginHost,
    op_code: u32,
    body: &[u8],
) -> (f64, f64) {
    let timed = |host: &PluginHost| {
        let started = Instant::now();
        let answer = host
            .call_raw("classic", op_code, body.to_vec(), Duration::from_secs(60))
            .expect("an answer");
        assert_eq!(answer.status, plugin_abi::status::OK);
        ms(started.elapsed())
    };
    if first_isolated {
        let b = timed(isolated);
        (timed(in_process), b)
    } else {
        let a = timed(in_process);
        (a, timed(isolated))
    }
}

fn isolation_cost(seeds: usize) {
    let in_process = in_process_plugins();
    let isolated = isolated_plugins(2);
    println!("## Isolation's cost: classic 9x9, {seeds} requests each, alternating order\n");
    println!("| call | in process median ms | host process median ms | ratio | difference ms |");
    println!("|---|---:|---:|---:|---:|");
    let (mut gen_a, mut gen_b, mut hint_a, mut hint_b) = (vec![], vec![], vec![], vec![]);
    let mut puzzles: Vec<PuzzleV1> = Vec::new();
    for i in 0..seeds {
        let request = GenerateRequest {
            minimal: false,
            params: Params::new(),
            difficulty: "medium".into(),
            seed: format!("iso-{i}"),
        };
        let body = rmp_serde::to_vec_named(&request).expect("encode");
        let (a, b) = both(i % 2 == 1, &in_process, &isolated, op::GENERATE, &body);
        gen_a.push(a);
        gen_b.push(b);
        let generated = in_process
            .generate("classic", &request, Duration::from_secs(60))
            .expect("a puzzle");
        puzzles.push(generated);
    }
    for (i, puzzle) in puzzles.iter().enumerate() {
        // A position partway through: the givens and the first third of the
        // solution's missing digits.
        let mut grid = puzzle.grid.clone();
        let solution = puzzle.solution.clone().expect("a solution");
        let mut to_fill = grid.iter().flatten().filter(|&&v| v == 0).count() / 3;
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                if *v == 0 && to_fill > 0 {
                    *v = solution[r][c];
                    to_fill -= 1;
                }
            }
        }
        let request = GridRequest {
            puzzle: puzzle.clone(),
            grid,
            marks: None,
        };
        let body = rmp_serde::to_vec_named(&request).expect("encode");
        let answer: HintResponse = in_process
            .call("classic", op::HINT, &request, Duration::from_secs(60))
            .expect("a hint");
        assert!(answer.hint.is_some(), "a hint to give");
        let (a, b) = both(i % 2 == 0, &in_process, &isolated, op::HINT, &body);
        hint_a.push(a);
        hint_b.push(b);
    }
    for (name, a, b) in [
        ("generate (medium)", &mut gen_a, &mut gen_b),
        ("hint", &mut hint_a, &mut hint_b),
    ] {
        let (a, b) = (quantile(a, 0.5), quantile(b, 0.5));
        println!(
            "| {name} | {a:.3} | {b:.3} | {:.3} | {:+.3} |",
            b / a,
            b - a
        );
    }
    println!();
}

/// Latencies of one kind of round, in ms.
#[derive(Default)]
struct Latencies {
    create: Vec<f64>,
    moves: Vec<f64>,
    hints: Vec<f64>,
}

fn classic_solo() -> RoomSettings {
    RoomSettings {
        params: Params::new(),
        difficulty: "medium".into(),
        mode: Mode::Solo,
        max_players: 1,
        public: false,
        hints: HintPolicy::Penalty { seconds: 1 },
        ..race_settings(1)
    }
}

fn faults_beside_play(rounds: usize, round_length: Duration) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let plugins = isolated_plugins(2);
        let config = Config {
            countdown: Duration::ZERO,
            generate_deadline: Duration::from_secs(3),
            burst: 10_000,
            per_second: 10_000,
            ..Config::default()
        };
        let addr = start_server_on(Arc::clone(&plugins), config).await;
        let mut ada = Client::connect(addr, "Ada").await;
        let mut last = None;
        let mut quiet = Latencies::default();
        let mut faulty = Latencies::default();
        let faults_made = Arc::new(AtomicU64::new(0));
        let faults = Arc::new(misbehave_faults(&plugins));
        for round in 0..rounds {
            let with_faults = round % 2 == 1;
            let stop = Arc::new(AtomicBool::new(false));
            let injector = with_faults.then(|| {
                let (stop, made) = (Arc::clone(&stop), Arc::clone(&faults_made));
                let faults = Arc::clone(&faults);
                tokio::spawn(async move { inject_faults(addr, &faults, &stop, &made).await })
            });
            let into = if with_faults { &mut faulty } else { &mut quiet };
            let began = Instant::now();
            let mut games = 0;
            while games < 3 || began.elapsed() < round_length {
                last = Some(play_one_game(&mut ada, into, last).await);
                games += 1;
            }
            stop.store(true, Ordering::Relaxed);
            if let Some(task) = injector {
                let _ = task.await;
            }
        }
        let stats = plugins.host_stats("test-misbehave").unwrap_or_default();
        println!(
            "## Faults beside play: {rounds} rounds of {} s (at least 3 classic 9x9 games each), \
             alternating quiet and with faults ({} faults; test-misbehave hosts crashed {}, \
             killed {}, started {})\n",
            round_length.as_secs(),
            faults_made.load(Ordering::Relaxed),
            stats.crashed,
            stats.killed,
            stats.started
        );
        println!("| latency | quiet p50 ms | quiet p99 ms | with faults p50 ms | with faults p99 ms | p99 ratio |");
        println!("|---|---:|---:|---:|---:|---:|");
        for (name, q, f) in [
            ("create room (generate)", &mut quiet.create, &mut faulty.create),
            ("move acknowledged", &mut quiet.moves, &mut faulty.moves),
            ("hint", &mut quiet.hints, &mut faulty.hints),
        ] {
            let (q50, q99, f50, f99) = (
                quantile(q, 0.5),
                quantile(q, 0.99),
                quantile(f, 0.5),
                quantile(f, 0.99),
            );
            println!(
                "| {name} | {q50:.2} | {q99:.2} | {f50:.2} | {f99:.2} | {:.3} |",
                f99 / q99
            );
        }
        let classic = plugins.host_stats("classic").unwrap_or_default();
        println!(
            "\nclassic hosts: started {}, crashed {}, killed {}",
            classic.started, classic.crashed, classic.killed
        );
    });
}

/// Creates a classic solo game and solves it, timing the creation, every move
/// and a hint every eighth move; returns the room's code (`last`: the one before).
async fn play_one_game(ada: &mut Client, into: &mut Latencies, last: Option<String>) -> String {
    let started = Instant::now();
    ada.send(&ClientMessage::CreateRoom {
        settings: classic_solo(),
    })
    .await;
    // Frames of the room just left may still be on their way.
    let room = ada
        .until(|m| match m {
            ServerMessage::Room { room } if Some(&room.code) != last.as_ref() => Some(room),
            _ => None,
        })
        .await;
    let code = room.code.clone();
    into.create.push(ms(started.elapsed()));
    let puzzle = room.puzzle.expect("a puzzle");
    for (i, m) in solving_moves(&puzzle).iter().enumerate() {
        if i % 8 == 4 {
            let asked = Instant::now();
            ada.send(&ClientMessage::Hint { marks: None }).await;
            ada.until(|m| matches!(m, ServerMessage::Hint { .. }).then_some(()))
                .await;
            into.hints.push(ms(asked.elapsed()));
        }
        let sent = Instant::now();
        ada.send(m).await;
        let refused = ada
            .until(|f| match f {
                ServerMessage::MoveAccepted { .. } => Some(None),
                ServerMessage::Error { message, .. } => Some(Some(message)),
                _ => None,
            })
            .await;
        assert_eq!(refused, None, "move {i} refused");
        into.moves.push(ms(sent.elapsed()));
    }
    ada.finished().await;
    ada.send(&ClientMessage::LeaveRoom).await;
    code
}

/// Another player making the misbehaving plugin fail, every way it can, until
/// `stop`.
async fn inject_faults(
    addr: std::net::SocketAddr,
    faults: &(Vec<String>, Vec<String>),
    stop: &AtomicBool,
    made: &AtomicU64,
) {
    let (generate, hints) = faults;
    let mut bob = Client::connect(addr, "Bob").await;
    let misbehaving = |difficulty: &str| RoomSettings {
        variant: "test-misbehave".into(),
        difficulty: difficulty.into(),
        ..classic_solo()
    };
    for n in 0.. {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if n % 2 == 0 {
            let fault = &generate[(n / 2) % generate.len()];
            bob.send(&ClientMessage::CreateRoom {
                settings: misbehaving(fault),
            })
            .await;
            bob.error_message().await;
        } else {
            let fault = &hints[(n / 2) % hints.len()];
            bob.send(&ClientMessage::CreateRoom {
                settings: misbehaving(fault),
            })
            .await;
            bob.until(|m| matches!(m, ServerMessage::Room { .. }).then_some(()))
                .await;
            bob.send(&ClientMessage::Hint { marks: None }).await;
            bob.error_message().await;
            bob.send(&ClientMessage::LeaveRoom).await;
        }
        made.fetch_add(1, Ordering::Relaxed);
    }
}
