//! A soak test: many short-lived connections send fuzzed frames to the real
//! `arena serve` (SQLite file included) while its resident memory is sampled; it
//! prints RSS over time and fails when memory keeps growing with the connections
//! served. `ARENA_SOAK_SECONDS` runs it longer (default 30 s).

use arena_tests::proc::rss_kib;
use arena_tests::process::{spawn_arena_serve_with_lines, LIFTED_LIMITS};
use arena_tests::ws::Client;
use futures_util::SinkExt;
use protocol::wire::{ClientMessage, PROTOCOL_VERSION};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A small deterministic generator (xorshift), so runs are repeatable.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// One fuzzed frame: garbage, a mangled message, or a real request with odd values.
fn fuzzed(noise: &mut Noise) -> Vec<u8> {
    let real = |m: &ClientMessage| rmp_serde::to_vec_named(m).unwrap_or_default();
    match noise.next() % 8 {
        0 => {
            let n = (noise.next() % 64) as usize;
            noise.bytes(n)
        }
        1 => {
            let mut m = real(&ClientMessage::Move {
                row: noise.next() as u32,
                col: 3,
                value: 5,
            });
            let cut = (noise.next() as usize) % m.len().max(1);
            m.truncate(cut);
            m
        }
        2 => real(&ClientMessage::JoinRoom {
            code: format!("{:x}", noise.next()),
            spectator: noise.next().is_multiple_of(2),
        }),
        3 => real(&ClientMessage::Chat {
            text: "x".repeat((noise.next() % 400) as usize),
        }),
        4 => rmp_serde::to_vec(&ClientMessage::Move {
            row: 1,
            col: 1,
            value: 1,
        })
        .unwrap_or_default(),
        5 => real(&ClientMessage::ListRooms {
            offset: 0,
            variant: None,
            joinable: false,
        }),
        6 => real(&ClientMessage::Ping {
            client_time: noise.next() as f64,
        }),
        _ => real(&ClientMessage::Start),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_levels_off_under_fuzzed_short_connections() {
    let seconds: u64 = std::env::var("ARENA_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let dir = std::env::temp_dir().join(format!("arena-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Every connection comes from loopback: lift the per-address limits, so the
    // server keeps every identity and connection the fuzzer asks for.
    let (mut child, started) = spawn_arena_serve_with_lines(&dir, &LIFTED_LIMITS).await;
    let pid = child.id().expect("pid");
    let addr = started.game;
    let stop = Arc::new(AtomicBool::new(false));
    let connections = Arc::new(AtomicU64::new(0));
    let mut fuzzers = Vec::new();
    for worker in 0..16u64 {
        let (addr, stop, connections) = (addr.clone(), Arc::clone(&stop), Arc::clone(&connections));
        fuzzers.push(tokio::spawn(async move {
            let mut noise = Noise(0x9e37_79b9_7f4a_7c15 ^ (worker + 1));
            while !stop.load(Ordering::Relaxed) {
                let mut c = Client::open(&addr).await;
                if !noise.next().is_multiple_of(4) {
                    c.send(&ClientMessage::Hello {
                        version: PROTOCOL_VERSION,
                        name: format!("fuzz {}", noise.next() % 100_000),
                        token: None,
                    })
                    .await;
                }
                for _ in 0..(noise.next() % 12) {
                    let frame = fuzzed(&mut noise);
                    if c.ws.send(Message::Binary(frame.into())).await.is_err() {
                        break;
                    }
                }
                let _ = c.ws.close(None).await;
                connections.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    let began = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    // (seconds, connections made, RSS KiB) once a second.
    let mut samples = Vec::new();
    while began.elapsed() < Duration::from_secs(seconds) {
        tick.tick().await;
        let sample = (
            began.elapsed().as_secs(),
            connections.load(Ordering::Relaxed),
            rss_kib(pid),
        );
        eprintln!(
            "soak: {:>3} s  {:>7} connections  RSS {:>6} KiB",
            sample.0, sample.1, sample.2
        );
        samples.push(sample);
    }
    stop.store(true, Ordering::Relaxed);
    for f in fuzzers {
        let _ = f.await;
    }
    let _ = child.kill().await;
    let _ = std::fs::remove_dir_all(&dir);
    // Allocators and SQLite's page caches fill up first; after that, memory must
    // not grow with the number of connections served. Measured on the second half
    // of 30 s: about 200 bytes per connection while every identity stayed in
    // memory; 15-50 once they lived in the database only (more when the machine
    // is busy and fewer connections share the caches' warm-up). The growth is the
    // median over that half's one-second steps: a leak grows memory in every
    // step, while an allocator's high-water mark (a moment with many connections
    // at once, a new arena) is one step that end-minus-middle would spread over
    // every connection.
    let second_half = &samples[samples.len() / 2..];
    let (_, mid_connections, mid_rss) = second_half[0];
    let (_, end_connections, end_rss) = second_half[second_half.len() - 1];
    let served = end_connections - mid_connections;
    assert!(served > 5000, "the fuzzer made only {served} connections");
    let per_connection = median_growth_per_connection(second_half);
    eprintln!(
        "soak: {per_connection} bytes of RSS per connection in the second half (median of its seconds; {mid_rss} -> {end_rss} KiB over {served} connections)"
    );
    assert!(
        per_connection < MAX_BYTES_PER_CONNECTION as i64,
        "RSS grows with every connection: {per_connection} bytes each ({mid_rss} -> {end_rss} KiB over {served} connections)"
    );
}

/// The median, over consecutive samples of (seconds, connections, RSS KiB), of
/// the bytes of RSS gained per connection served in between.
fn median_growth_per_connection(samples: &[(u64, u64, u64)]) -> i64 {
    let mut steps: Vec<i64> = samples
        .windows(2)
        .filter(|w| w[1].1 > w[0].1)
        .map(|w| (w[1].2 as i64 - w[0].2 as i64) * 1024 / (w[1].1 - w[0].1) as i64)
        .collect();
    steps.sort_unstable();
    steps.get(steps.len() / 2).copied().unwrap_or(0)
}

/// Memory growth allowed per short-lived connection once warmed up.
const MAX_BYTES_PER_CONNECTION: u64 = 96;
