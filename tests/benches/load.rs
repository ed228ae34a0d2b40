//! Load generator: starts the real `arena serve`, opens N WebSocket clients in R
//! race rooms, has every player make one correct move per interval, and reports
//! move -> opponent-update latency (p50/p99/p999), messages per second, commits
//! per second, and the server's CPU time and peak RSS (from /proc).
//!
//! Run: `cargo build --release && cargo bench -p arena-tests --bench load --
//! --clients 10000 --rooms 2500 --interval-ms 2000 --seconds 30`
//!
//! With `--postgres --nodes N` the servers are N nodes sharing a private
//! PostgreSQL server (started here; fsync on); room r lives on node r mod N and
//! its players connect there. Every client connects before any room is made,
//! so the nodes carry equal loads and no new room moves between them.

use arena_tests::postgres::PgServer;
use arena_tests::proc::{cpu_seconds, peak_rss_kib, rss_kib};
use arena_tests::process::{spawn_arena_serve_with_lines, LIFTED_LIMITS};
use arena_tests::serve::{http_get, metric_value};
use arena_tests::solving_moves;
use arena_tests::{bench_arg, bench_flag};
use futures_util::{SinkExt, StreamExt};
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomState, ServerMessage,
    PROTOCOL_VERSION,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Command-line settings.
struct Args {
    clients: usize,
    rooms: usize,
    interval: Duration,
    seconds: u64,
    /// `arena serve --synchronous`: `full` (default) or `normal`.
    synchronous: String,
    /// Nodes on a private PostgreSQL server instead of one on SQLite.
    postgres: bool,
    /// How many nodes (with `postgres`).
    nodes: usize,
}

fn args() -> Args {
    Args {
        clients: bench_arg("--clients", 1000),
        rooms: bench_arg("--rooms", 250),
        interval: Duration::from_millis(bench_arg("--interval-ms", 2000)),
        seconds: bench_arg("--seconds", 20),
        synchronous: bench_arg("--synchronous", "full".to_string()),
        postgres: bench_flag("--postgres"),
        nodes: bench_arg("--nodes", 1usize).max(1),
    }
}

/// When each (player, filled count) move was sent, to time its arrival elsewhere.
type Sent = Arc<dashmap::DashMap<(String, u32), Instant>>;

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

async fn send(ws: &mut Ws, m: &ClientMessage) {
    let bytes = rmp_serde::to_vec_named(m).expect("encode");
    ws.send(Message::Binary(bytes.into())).await.expect("send");
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next(ws: &mut Ws) -> ServerMessage {
    loop {
        match ws.next().await {
            Some(Ok(Message::Binary(b))) => {
                return rmp_serde::from_slice(&b).expect("server message")
            }
            Some(Ok(_)) => continue,
            other => panic!("connection ended: {other:?}"),
        }
    }
}

async fn connect(addr: &str, name: &str) -> (Ws, String) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connect");
    send(
        &mut ws,
        &ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            token: None,
        },
    )
    .await;
    loop {
        if let ServerMessage::Welcome { player_id, .. } = next(&mut ws).await {
            return (ws, player_id);
        }
    }
}

/// Sets up one room of connected players: the first creates it, the others
/// join, the first starts. Returns every player's socket and id and the moves
/// that solve the puzzle.
async fn room(mut seats: Vec<(Ws, String)>) -> (Vec<(Ws, String)>, Vec<ClientMessage>) {
    let settings = RoomSettings {
        variant: "classic".into(),
        params: Params::new(),
        difficulty: "easy".into(),
        mode: Mode::Race,
        public: false,
        max_players: seats.len() as u32,
        mistakes: MistakePolicy::None,
        hints: HintPolicy::Off,
        daily: None,
        ghosts: false,
        own_best: false,
        puzzle: None,
        draft: None,
        quick: false,
        rated: false,
        tournament: None,
    };
    send(&mut seats[0].0, &ClientMessage::CreateRoom { settings }).await;
    let code = loop {
        if let ServerMessage::Room { room } = next(&mut seats[0].0).await {
            break room.code;
        }
    };
    for seat in seats.iter_mut().skip(1) {
        send(
            &mut seat.0,
            &ClientMessage::JoinRoom {
                code: code.clone(),
                spectator: false,
            },
        )
        .await;
        // Seated before the host starts (a start overtaking a join would close the room to it).
        loop {
            match next(&mut seat.0).await {
                ServerMessage::Room { .. } => break,
                ServerMessage::Redirect { .. } => panic!("room {code} moved during setup"),
                _ => {}
            }
        }
    }
    send(&mut seats[0].0, &ClientMessage::Start).await;
    let mut puzzle = None;
    for seat in seats.iter_mut() {
        loop {
            if let ServerMessage::Room { room } = next(&mut seat.0).await {
                if room.state == RoomState::Playing {
                    puzzle = room.puzzle;
                    break;
                }
            }
        }
    }
    let moves = solving_moves(&puzzle.expect("a puzzle"));
    (seats, moves)
}

/// Connects the players of one room to `addr`.
async fn players(addr: String, n: usize) -> Vec<(Ws, String)> {
    let mut seats = Vec::with_capacity(n);
    for p in 0..n {
        seats.push(connect(&addr, &format!("p{p}")).await);
    }
    seats
}

/// Runs `work` over `inputs`, at most 64 at a time, results in any order.
async fn batched<I, T, F>(inputs: Vec<I>, work: impl Fn(I) -> F) -> Vec<T>
where
    T: Send + 'static,
    F: std::future::Future<Output = T> + Send + 'static,
{
    let mut out = Vec::with_capacity(inputs.len());
    let mut pending = tokio::task::JoinSet::new();
    for input in inputs {
        pending.spawn(work(input));
        if pending.len() >= 64 {
            if let Some(done) = pending.join_next().await {
                out.push(done.expect("setup task"));
            }
        }
    }
    while let Some(done) = pending.join_next().await {
        out.push(done.expect("setup task"));
    }
    out
}

#[allow(clippy::too_many_arguments)]
async fn player(
    mut ws: Ws,
    me: String,
    moves: Vec<ClientMessage>,
    givens: u32,
    interval: Duration,
    phase: Duration,
    until: Instant,
    sent: Sent,
    latencies: Arc<Mutex<Vec<u64>>>,
    frames: Arc<AtomicU64>,
) {
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + phase, interval);
    let mut done = 0usize;
    let mut mine = Vec::new();
    loop {
        tokio::select! {
            _ = ticker.tick() => {
                if Instant::now() >= until || done >= moves.len() {
                    break;
                }
                sent.insert((me.clone(), givens + done as u32 + 1), Instant::now());
                send(&mut ws, &moves[done]).await;
                done += 1;
            }
            frame = ws.next() => match frame {
                Some(Ok(Message::Binary(bytes))) => {
                    frames.fetch_add(1, Ordering::Relaxed);
                    if let Ok(ServerMessage::Progress { player }) = rmp_serde::from_slice(&bytes) {
                        if player.id != me {
                            let at = sent.get(&(player.id, player.filled)).map(|t| *t);
                            if let Some(at) = at {
                                mine.push(at.elapsed().as_micros() as u64);
                            }
                        }
                    }
                }
                Some(Ok(_)) => {}
                _ => break,
            },
        }
    }
    latencies
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .extend(mine);
}

fn main() {
    let a = args();
    let per_room = (a.clients / a.rooms).max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let data = arena_tests::temp_dir("load");
        // Every simulated player connects from loopback: lift the per-address limits.
        let mut options: Vec<String> = LIFTED_LIMITS
            .iter()
            .chain(&["--synchronous", &a.synchronous, "--metrics-bind", "127.0.0.1:0"])
            .map(|o| o.to_string())
            .collect();
        let pg = a.postgres.then(|| PgServer::start_with_fsync(true));
        let db = pg.as_ref().map(|pg| pg.database("load"));
        let nodes = if a.postgres { a.nodes } else { 1 };
        let mut servers = Vec::new();
        for i in 0..nodes {
            let mut extra = options.clone();
            if let Some(db) = &db {
                extra.extend(["--database".into(), db.clone(), "--node-id".into(), format!("n{i}")]);
            }
            let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
            let (server, started) = spawn_arena_serve_with_lines(&data.join(i.to_string()), &extra).await;
            let metrics: std::net::SocketAddr = started
                .metrics
                .expect("a metrics address")
                .parse()
                .expect("metrics address");
            servers.push((server, started.game, metrics));
        }
        options.clear();
        let pids: Vec<u32> = servers.iter().map(|(s, ..)| s.id().expect("pid")).collect();

        let setup = Instant::now();
        let addrs: Vec<String> = (0..a.rooms).map(|r| servers[r % nodes].1.clone()).collect();
        let connected = batched(addrs, |addr| players(addr, per_room)).await;
        // Every node reports its players at its next heartbeat (a third of the
        // default 4 s lease): wait for it, so that no node looks crowded.
        if a.postgres {
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        let rooms = batched(connected, room).await;
        eprintln!("{} rooms x {} players on {} node(s) ready in {:.1} s", rooms.len(), per_room, nodes, setup.elapsed().as_secs_f64());

        let sent: Sent = Arc::new(dashmap::DashMap::new());
        let latencies = Arc::new(Mutex::new(Vec::new()));
        let frames = Arc::new(AtomicU64::new(0));
        let cpu_of = |pids: &[u32]| pids.iter().map(|&p| cpu_seconds(p)).sum::<f64>();
        let counters = |names: [&'static str; 2]| {
            let metrics: Vec<std::net::SocketAddr> = servers.iter().map(|(_, _, m)| *m).collect();
            async move {
                let mut sums = [0.0; 2];
                for m in metrics {
                    let (_, text) = http_get(m, "/metrics").await;
                    for (sum, name) in sums.iter_mut().zip(names) {
                        *sum += metric_value(&text, name).unwrap_or(0.0);
                    }
                }
                sums
            }
        };
        let names = ["arena_db_commits_total", "arena_db_writes_total"];
        let [commits_before, _] = counters(names).await;
        let cpu_before = cpu_of(&pids);
        let start = Instant::now();
        let until = start + Duration::from_secs(a.seconds);
        let mut tasks = tokio::task::JoinSet::new();
        let mut n = 0u64;
        for (seats, moves) in rooms {
            let givens = 81 - moves.len() as u32;
            for (ws, id) in seats {
                n += 1;
                let phase = Duration::from_millis((n * 7919) % a.interval.as_millis().max(1) as u64);
                tasks.spawn(player(ws, id, moves.clone(), givens, a.interval, phase, until, Arc::clone(&sent), Arc::clone(&latencies), Arc::clone(&frames)));
            }
        }
        while tasks.join_next().await.is_some() {}
        let wall = start.elapsed().as_secs_f64();
        let cpu = cpu_of(&pids) - cpu_before;
        let mib = |kib: u64| kib as f64 / 1024.0;
        let peak: f64 = pids.iter().map(|&p| mib(peak_rss_kib(p))).sum();
        let now: f64 = pids.iter().map(|&p| mib(rss_kib(p))).sum();
        let mut lat = latencies.lock().unwrap_or_else(|p| p.into_inner()).clone();
        lat.sort_unstable();
        let [commits, writes] = counters(names).await;
        let per_commit = writes / commits.max(1.0);
        let store = if a.postgres { "postgres" } else { "sqlite" };
        println!("| store | nodes | sync | clients | rooms | move every | updates timed | p50 ms | p99 ms | p999 ms | commits/s | writes/commit | frames/s | servers' CPU | servers' RSS (peak) |");
        println!("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        println!(
            "| {store} | {nodes} | {} | {} | {} | {} ms | {} | {:.2} | {:.2} | {:.2} | {:.0} | {:.1} | {:.0} | {:.0}% | {:.0} MiB ({:.0}) |",
            a.synchronous,
            n,
            a.rooms,
            a.interval.as_millis(),
            lat.len(),
            percentile(&lat, 0.5),
            percentile(&lat, 0.99),
            percentile(&lat, 0.999),
            (commits - commits_before) / wall,
            per_commit,
            frames.load(Ordering::Relaxed) as f64 / wall,
            100.0 * cpu / wall,
            now,
            peak
        );
        for (mut server, ..) in servers {
            let _ = server.kill().await;
        }
        let _ = std::fs::remove_dir_all(&data);
    });
}
