//! Memory over a long soak of real play: workers pair players into race, co-op
//! and solo rooms on the real `arena serve` (SQLite file), play every move (each
//! one acknowledged), chat, leave and disconnect, over and over — new players
//! and returning ones — while the server's resident memory is sampled. Then
//! everyone leaves and the server idles. Prints RSS over time and a table: the
//! baseline, the growth over the last third of the run, idle RSS, and the
//! anonymous part of it (heaps and stacks) at the start and at idle, and the
//! allocator's own figures (`arena_heap_*` from `/metrics`): live bytes, the
//! pages holding them and what it keeps resident, at start, end and idle.
//!
//! Run: `cargo build --release && cargo bench -p arena-tests --bench memory --
//! --minutes 30 --workers 8 --move-ms 100 --idle-seconds 120 [--population 8]`
//! (`--population N`: N players per worker who come back game after game;
//! without it, a new player in every room).

use arena_tests::bench_arg;
use arena_tests::proc::{anon_kib, children, rss_kib};
use arena_tests::process::{spawn_arena_serve_with_lines, LIFTED_LIMITS};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, started_room, Client};
use protocol::plugin::Params;
use protocol::wire::{ClientMessage, Mode, RoomSettings, ServerMessage};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Command-line settings.
struct Args {
    minutes: f64,
    workers: u64,
    move_ms: u64,
    idle_seconds: u64,
    /// Players per worker who come back game after game; 0: a new player in
    /// every room.
    population: usize,
}

fn args() -> Args {
    Args {
        minutes: bench_arg("--minutes", 3.0),
        workers: bench_arg("--workers", 8),
        move_ms: bench_arg("--move-ms", 40),
        idle_seconds: bench_arg("--idle-seconds", 60),
        population: bench_arg("--population", 0),
    }
}

/// Resident memory of a process's children (the plugin host processes), in KiB.
fn children_rss_kib(pid: u32) -> u64 {
    children(pid).into_iter().map(rss_kib).sum()
}

/// The allocator's heap figures from the metrics listener at `metrics`, in
/// MiB: (allocated, active, resident); `None` when it does not tell them.
async fn heap_mib(metrics: std::net::SocketAddr) -> Option<(f64, f64, f64)> {
    let (status, text) = arena_tests::serve::http_get(metrics, "/metrics").await;
    assert_eq!(status, 200, "metrics: {text}");
    let read = |name: &str| {
        arena_tests::serve::metric_value(&text, name).map(|bytes| bytes / (1024.0 * 1024.0))
    };
    Some((
        read("arena_heap_allocated_bytes")?,
        read("arena_heap_active_bytes")?,
        read("arena_heap_resident_bytes")?,
    ))
}

/// Heap figures as `allocated / active / resident MiB`.
fn show_heap(heap: Option<(f64, f64, f64)>) -> String {
    heap.map_or_else(
        || "not told".to_string(),
        |(a, b, c)| format!("{a:.1} / {b:.1} / {c:.1} MiB"),
    )
}

/// Settings of the `cycle`-th room a worker opens: race, co-op and solo in turn.
fn settings(cycle: u64) -> RoomSettings {
    let mode = [Mode::Race, Mode::Coop, Mode::Solo][(cycle % 3) as usize];
    RoomSettings {
        // Classic 9x9 (the defaults), not the 4x4 of race_settings.
        params: Params::new(),
        mode,
        public: mode != Mode::Solo,
        ..race_settings(if mode == Mode::Solo { 1 } else { 2 })
    }
}

/// What the workers did, for the table.
#[derive(Default)]
struct Counts {
    connections: AtomicU64,
    rooms: AtomicU64,
    acks: AtomicU64,
}

/// The players a worker seats, game after game: with a population of N, the
/// first N it meets are new and every seat after that goes to one of them
/// (their tokens wait in `tokens`); with none, one seat of each room goes to a
/// new player and the other to one of the last few.
struct Regulars {
    /// Resume tokens of players not seated now, longest waiting first.
    tokens: Vec<String>,
    /// Players this worker has made.
    made: usize,
    /// How many come back; 0: a new player in every room.
    population: usize,
}

impl Regulars {
    fn new(population: usize) -> Regulars {
        Regulars {
            tokens: Vec::new(),
            made: 0,
            // A room seats two: fewer regulars could not fill it.
            population: if population == 0 {
                0
            } else {
                population.max(2)
            },
        }
    }

    /// The token of the player for seat `n` of a room; `None`: a new player.
    fn seat(&mut self, n: u64) -> Option<String> {
        let returning = if self.population == 0 {
            n.is_multiple_of(2) && !self.tokens.is_empty()
        } else {
            self.made >= self.population
        };
        if !returning {
            self.made += 1;
        }
        returning.then(|| self.tokens.remove(0))
    }

    /// Seats are free again: their players wait for a later room.
    fn leave(&mut self, token: String) {
        self.tokens.push(token);
        if self.population == 0 {
            // A handful of returning players, the newest.
            let extra = self.tokens.len().saturating_sub(8);
            self.tokens.drain(..extra);
        }
    }
}

/// Plays one room: a race both solve, a co-op game they share move by move, or
/// a solo game with the other watching; then both leave and disconnect. Who
/// sits down is up to `regulars`.
async fn one_room(
    addr: &str,
    cycle: u64,
    regulars: &mut Regulars,
    counts: &Counts,
    pace: Duration,
) {
    let mut seat = |n: u64| (regulars.seat(n), format!("soak {cycle}-{n}"));
    let (ta, na) = seat(0);
    let (tb, nb) = seat(1);
    let open = |token: Option<String>, name: String| async move {
        match token {
            Some(token) => Client::resume(addr, token).await,
            None => Client::connect(addr, &name).await,
        }
    };
    let mut a = open(ta, na).await;
    let mut b = open(tb, nb).await;
    counts.connections.fetch_add(2, Ordering::Relaxed);
    let s = settings(cycle);
    let mode = s.mode;
    let (code, puzzle) = if mode == Mode::Solo {
        let (code, puzzle) = started_room(&mut a, &mut [], s).await;
        b.watch(&code).await;
        (code, puzzle)
    } else {
        started_room(&mut a, &mut [&mut b], s).await
    };
    counts.rooms.fetch_add(1, Ordering::Relaxed);
    let moves = solving_moves(&puzzle);
    a.send(&ClientMessage::Chat {
        text: format!("good luck in {code}"),
    })
    .await;
    for (i, m) in moves.iter().enumerate() {
        // Co-op: the two take turns on the one board; race: both solve it all.
        if mode == Mode::Coop {
            // Its acknowledgement is the shared board's event with the next seq.
            let player = if i % 2 == 1 { &mut b } else { &mut a };
            player.send(m).await;
            let seq = i as u64 + 1;
            player
                .until(|f| {
                    matches!(f, ServerMessage::CoopEvent { seq: s, .. } if s == seq).then_some(())
                })
                .await;
        } else {
            a.play(m).await;
        }
        counts.acks.fetch_add(1, Ordering::Relaxed);
        if mode == Mode::Race {
            b.play(m).await;
            counts.acks.fetch_add(1, Ordering::Relaxed);
        }
        tokio::time::sleep(pace).await;
    }
    a.finished().await;
    for p in [&mut a, &mut b] {
        p.send(&ClientMessage::LeaveRoom).await;
        regulars.leave(std::mem::take(&mut p.token));
        let _ = p.ws.close(None).await;
    }
}

fn main() {
    let a = args();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let dir = arena_tests::temp_dir("memory");
        let serve_args: Vec<&str> = LIFTED_LIMITS
            .into_iter()
            .chain(["--metrics-bind", "127.0.0.1:0"])
            .collect();
        let (mut child, started) = spawn_arena_serve_with_lines(&dir, &serve_args).await;
        let pid = child.id().expect("pid");
        let addr = started.game;
        let metrics = started
            .metrics
            .expect("the metrics address is announced")
            .parse()
            .expect("a metrics address");
        let (baseline, anon_start) = (rss_kib(pid), anon_kib(pid));
        let heap_start = heap_mib(metrics).await;
        let stop = Arc::new(AtomicBool::new(false));
        let counts = Arc::new(Counts::default());
        let pace = Duration::from_millis(a.move_ms);
        let population = a.population;
        let mut workers = Vec::new();
        for w in 0..a.workers {
            let (addr, stop, counts) = (addr.clone(), Arc::clone(&stop), Arc::clone(&counts));
            workers.push(tokio::spawn(async move {
                let mut regulars = Regulars::new(population);
                let mut cycle = w * 1_000_000;
                while !stop.load(Ordering::Relaxed) {
                    one_room(&addr, cycle, &mut regulars, &counts, pace).await;
                    cycle += 1;
                }
            }));
        }
        let began = Instant::now();
        let run = Duration::from_secs_f64(a.minutes * 60.0);
        let mut tick = tokio::time::interval(Duration::from_secs(10));
        tick.tick().await;
        // (seconds, RSS KiB)
        let mut samples = vec![(0u64, baseline)];
        while began.elapsed() < run {
            tick.tick().await;
            let sample = (began.elapsed().as_secs(), rss_kib(pid));
            eprintln!(
                "memory: {:>5} s  RSS {:>7} KiB  (plugin hosts {:>7} KiB)  {:>7} connections  {:>6} rooms  {:>8} acks",
                sample.0,
                sample.1,
                children_rss_kib(pid),
                counts.connections.load(Ordering::Relaxed),
                counts.rooms.load(Ordering::Relaxed),
                counts.acks.load(Ordering::Relaxed),
            );
            samples.push(sample);
        }
        stop.store(true, Ordering::Relaxed);
        for w in workers {
            w.await.expect("a worker");
        }
        let (end, heap_end) = (rss_kib(pid), heap_mib(metrics).await);
        // Idle: nobody connected; rooms close, caches settle.
        let mut idle = Vec::new();
        let quiet = Instant::now();
        while quiet.elapsed() < Duration::from_secs(a.idle_seconds) {
            tick.tick().await;
            idle.push(rss_kib(pid));
        }
        let (idle_rss, anon_idle) = (idle.last().copied().unwrap_or(end), anon_kib(pid));
        let heap_idle = heap_mib(metrics).await;
        let hosts = children_rss_kib(pid);
        let _ = child.kill().await;
        let _ = std::fs::remove_dir_all(&dir);

        let mib = |k: u64| k as f64 / 1024.0;
        let at = |fraction: f64| {
            let t = (began.elapsed().as_secs_f64().min(run.as_secs_f64()) * fraction) as u64;
            samples
                .iter()
                .rev()
                .find(|s| s.0 <= t)
                .map(|s| s.1)
                .unwrap_or(baseline)
        };
        let third = at(2.0 / 3.0);
        println!(
            "\n| run | connections | rooms | acks | RSS start | RSS at 2/3 | RSS at end | last third | idle after {} s | anonymous: start, idle | plugin hosts, idle |",
            a.idle_seconds
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        println!(
            "| {:.0} min, {} workers, {} ms per move, {} | {} | {} | {} | {:.1} MiB | {:.1} MiB | {:.1} MiB | {:+.2} MiB | {:.1} MiB | {:.1}, {:.1} MiB | {:.1} MiB |",
            a.minutes,
            a.workers,
            a.move_ms,
            if a.population == 0 {
                "a new player per room".to_string()
            } else {
                format!("{} players", a.population * a.workers as usize)
            },
            counts.connections.load(Ordering::Relaxed),
            counts.rooms.load(Ordering::Relaxed),
            counts.acks.load(Ordering::Relaxed),
            mib(baseline),
            mib(third),
            mib(end),
            mib(end) - mib(third),
            mib(idle_rss),
            mib(anon_start),
            mib(anon_idle),
            mib(hosts),
        );
        println!(
            "\nheap (allocated / active / resident): start {}, end of play {}, idle {}",
            show_heap(heap_start),
            show_heap(heap_end),
            show_heap(heap_idle),
        );
    });
}
