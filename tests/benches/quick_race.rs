//! Quick-race matching under a crowd: the real `arena serve` (release), and
//! `--players` simulated players arriving evenly over `--seconds`, each
//! connecting, asking `quick_race` once (classic 9x9 easy) and waiting for
//! their race to start. Reports the time from the request to a seat in a race
//! (p50/p90/p99/max), the time to the race's start, how many races opened and
//! how full they were, and checks that no player ever sat in two races.
//!
//! Run: `cargo build --release && cargo bench -p arena-tests --bench quick_race --
//! --players 2000 --seconds 60`

use arena_tests::process::{spawn_arena_serve_with_lines, LIFTED_LIMITS};
use arena_tests::ws::Client;
use arena_tests::{bench_arg, temp_dir};
use protocol::plugin::Params;
use protocol::wire::{ClientMessage, RoomState, ServerMessage};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// What one simulated player saw.
struct Seen {
    /// From `quick_race` to the `room` that seats them.
    to_seat: Duration,
    /// From `quick_race` to their race's start, if it started in time.
    to_start: Option<Duration>,
    /// Every room code they were seated in, and the racers each listed.
    rooms: Vec<(String, Vec<String>)>,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A table row: p50, p90, p99 and max of `sorted`.
fn row(label: &str, sorted: &[f64]) {
    let [p50, p90, p99] = [0.5, 0.9, 0.99].map(|p| percentile(sorted, p));
    let max = sorted.last().copied().unwrap_or(0.0);
    println!("| {label} | {p50:.1} | {p90:.1} | {p99:.1} | {max:.1} |");
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// One player: connect at `at`, ask once, wait for the start until `give_up`.
async fn player(addr: String, n: usize, at: Instant, give_up: Instant) -> Seen {
    tokio::time::sleep_until(at.into()).await;
    let mut c = Client::connect(&addr, &format!("Racer {n}")).await;
    let asked = Instant::now();
    c.send(&ClientMessage::QuickRace {
        variant: "classic".into(),
        params: Params::new(),
        difficulty: "easy".into(),
        here: false,
    })
    .await;
    let mut seen = Seen {
        to_seat: Duration::ZERO,
        to_start: None,
        rooms: Vec::new(),
    };
    let mut seated = false;
    loop {
        let left = give_up.saturating_duration_since(Instant::now());
        let Ok(message) = tokio::time::timeout(left, c.recv()).await else {
            break;
        };
        let ServerMessage::Room { room } = message else {
            continue;
        };
        if !seated {
            seated = true;
            seen.to_seat = asked.elapsed();
        }
        let racers = room.players.iter().map(|p| p.id.clone()).collect();
        match seen.rooms.iter_mut().find(|(code, _)| *code == room.code) {
            Some(entry) => entry.1 = racers,
            None => seen.rooms.push((room.code.clone(), racers)),
        }
        if matches!(room.state, RoomState::Countdown | RoomState::Playing) {
            seen.to_start = Some(asked.elapsed());
            break;
        }
    }
    seen
}

fn main() {
    let players: usize = bench_arg("--players", 2000);
    let seconds: u64 = bench_arg("--seconds", 60);
    let wait_ms: u64 = bench_arg("--wait-ms", 10_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let data = temp_dir("quick-race-bench");
        let wait = wait_ms.to_string();
        // Every simulated player connects from loopback: lift the per-address
        // limits; the pool as the product runs it.
        let extra: Vec<&str> = LIFTED_LIMITS
            .iter()
            .copied()
            .chain(["--quick-race-wait-ms", &wait, "--pool-size", "250"])
            .collect();
        let (mut server, started) = spawn_arena_serve_with_lines(&data, &extra).await;
        let start = Instant::now() + Duration::from_millis(500);
        let spacing = Duration::from_secs(seconds).as_secs_f64() / players as f64;
        let give_up = start + Duration::from_secs(seconds) + Duration::from_millis(wait_ms) + Duration::from_secs(10);
        let mut tasks = tokio::task::JoinSet::new();
        for n in 0..players {
            let at = start + Duration::from_secs_f64(spacing * n as f64);
            tasks.spawn(player(started.game.clone(), n, at, give_up));
        }
        let mut seen = Vec::with_capacity(players);
        while let Some(done) = tasks.join_next().await {
            seen.push(done.expect("a player task"));
        }
        server.kill().await.expect("stop the server");
        let _ = std::fs::remove_dir_all(&data);

        let mut seat: Vec<f64> = seen.iter().map(|s| ms(s.to_seat)).collect();
        seat.sort_by(f64::total_cmp);
        let mut begun: Vec<f64> = seen.iter().filter_map(|s| s.to_start.map(ms)).collect();
        begun.sort_by(f64::total_cmp);
        // No player in two races: each player was seated in one room, and no
        // room's last roster names a player another room's roster names too.
        let mut rooms_of: HashMap<&str, HashSet<&str>> = HashMap::new();
        for s in &seen {
            for (code, racers) in &s.rooms {
                for r in racers {
                    rooms_of.entry(r.as_str()).or_default().insert(code.as_str());
                }
            }
        }
        let twice = rooms_of.values().filter(|codes| codes.len() > 1).count()
            + seen.iter().filter(|s| s.rooms.len() > 1).count();
        let races: HashSet<&str> = seen.iter().flat_map(|s| s.rooms.iter().map(|(c, _)| c.as_str())).collect();
        let seated = seen.iter().filter(|s| !s.rooms.is_empty()).count();
        println!("quick races: {players} players over {seconds} s, wait {wait_ms} ms");
        println!("| | p50 | p90 | p99 | max |");
        println!("|---|---:|---:|---:|---:|");
        row("request -> seat in a race (ms)", &seat);
        row(&format!("request -> the race starts (ms; {} of {players} started)", begun.len()), &begun);
        println!(
            "races: {}, seated: {seated}/{players}, mean racers per race: {:.1}, players in two races: {twice}",
            races.len(),
            seated as f64 / races.len().max(1) as f64
        );
    });
}
