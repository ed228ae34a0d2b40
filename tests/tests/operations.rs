//! Running the server: a damaged database stops the real `arena serve` before it
//! announces anything; `/metrics` lives on its own listener and counts every
//! generation with its fractional time; health, the web client's files and the
//! puzzle pool; the binary's allocator settings.

use arena_tests::process::spawn_arena_serve_with_lines;
use arena_tests::serve::{http_get, plugins, start_server_with, start_server_with_metrics};
use arena_tests::ws::{race_settings as settings, Client};
use arena_tests::{built_arena, built_plugin_dir, temp_dir};
use protocol::plugin::Params;
use protocol::wire::{ClientMessage, RoomState};
use protocol::ParamValue;
use server::serve::Config;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn a_damaged_database_stops_the_server_before_it_announces_anything() {
    let mut looks_like_sqlite = b"SQLite format 3\0".to_vec();
    looks_like_sqlite.extend((0..8192u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    for (name, bytes) in [
        ("garbage", b"this is not a database at all".repeat(200)),
        ("damaged", looks_like_sqlite),
    ] {
        let dir = temp_dir(&format!("corrupt-{name}"));
        std::fs::write(dir.join("arena.db"), &bytes).expect("write");
        let out = std::process::Command::new(built_arena())
            .arg("--plugins")
            .arg(built_plugin_dir())
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--pool-size",
                "0",
                "--data",
            ])
            .arg(&dir)
            .output()
            .expect("run arena serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: {stderr}");
        assert!(
            !stderr.contains("serving on"),
            "{name}: announced before checking the database:\n{stderr}"
        );
        assert!(
            stderr.contains("cannot open the database") && stderr.contains("arena.db"),
            "{name}: the error names the database:\n{stderr}"
        );
        assert_eq!(
            std::fs::read(dir.join("arena.db")).expect("read"),
            bytes,
            "{name}: the damaged file is left as it was, for recovery"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The `arena` binary runs on jemalloc with the settings that let an idle
/// server give its memory back (one arena, a background purge; thread caches
/// on, turned off by the server on its own threads): jemalloc reports the
/// options in effect when asked to.
#[cfg(target_os = "linux")]
#[test]
fn the_binary_allocates_with_jemalloc_in_one_arena() {
    let out = std::process::Command::new(built_arena())
        .arg("--help")
        .env("MALLOC_CONF", "stats_print:true")
        .output()
        .expect("run arena");
    assert!(out.status.success());
    let stats = String::from_utf8_lossy(&out.stderr);
    for option in [
        "opt.narenas: 1\n",
        "opt.tcache: true\n",
        "opt.background_thread: true",
        "opt.dirty_decay_ms: 1000",
        "opt.muzzy_decay_ms: 0 ",
    ] {
        assert!(stats.contains(option), "{option:?} not in:\n{stats}");
    }
}

/// The value of metric `name` in Prometheus text.
fn metric(text: &str, name: &str) -> f64 {
    arena_tests::serve::metric_value(text, name).unwrap_or_else(|| panic!("no {name} in\n{text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_private_and_count_generations_with_their_fractional_time() {
    let (game, metrics) = start_server_with_metrics(Config {
        countdown: Duration::ZERO,
        ..Config::default()
    })
    .await;
    assert_eq!(http_get(game, "/metrics").await.0, 404);
    let mut a = Client::connect(game, "Ada").await;
    for _ in 0..3 {
        a.send(&ClientMessage::CreateRoom {
            settings: settings(1),
        })
        .await;
        a.room(RoomState::Waiting).await;
    }
    let (status, text) = http_get(metrics, "/metrics").await;
    assert_eq!(status, 200);
    assert_eq!(metric(&text, "arena_plugin_generate_total"), 3.0);
    let seconds = metric(&text, "arena_plugin_generate_seconds_total");
    assert!(
        seconds > 0.0 && seconds < 60.0,
        "three 4x4 generations take milliseconds, not 0 s: {seconds}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arena_serve_offers_metrics_only_on_the_metrics_address() {
    let dir = temp_dir("metrics-bind");
    let (_child, started) =
        spawn_arena_serve_with_lines(&dir, &["--metrics-bind", "127.0.0.1:0"]).await;
    let game = started.game.parse().expect("game address");
    let metrics = started
        .metrics
        .expect("the metrics address is announced")
        .parse()
        .expect("metrics address");
    assert_eq!(http_get(game, "/metrics").await.0, 404);
    assert_eq!(http_get(game, "/healthz").await, (200, "ok".to_string()));
    let (status, text) = http_get(metrics, "/metrics").await;
    assert_eq!(status, 200);
    assert!(text.contains("# TYPE arena_connections gauge"));
    assert!(text.contains("arena_db_commits_total"));
    // The binary's allocator tells its heap: live bytes within the pages
    // that hold them, within what stays resident.
    let heap = |name: &str| metric(&text, name);
    assert!(heap("arena_heap_allocated_bytes") > 0.0, "{text}");
    assert!(heap("arena_heap_allocated_bytes") <= heap("arena_heap_active_bytes"));
    assert!(heap("arena_heap_active_bytes") <= heap("arena_heap_resident_bytes"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A GET that must answer 200; returns the body.
async fn http_ok(addr: SocketAddr, path: &str) -> String {
    let (status, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_metrics_over_http() {
    let (addr, metrics_addr) = start_server_with_metrics(Config {
        countdown: Duration::ZERO,
        ..Config::default()
    })
    .await;
    assert_eq!(http_ok(addr, "/healthz").await, "ok");
    let (status, _) = http_get(addr, "/metrics").await;
    assert_eq!(status, 404, "metrics are not public on the game port");
    let mut a = Client::connect(addr, "Ada").await;
    a.send(&ClientMessage::CreateRoom {
        settings: settings(1),
    })
    .await;
    a.room(RoomState::Waiting).await;
    let metrics = http_ok(metrics_addr, "/metrics").await;
    for line in [
        "arena_connections 1",
        "arena_rooms 1",
        "arena_rooms_total 1",
        "arena_plugin_generate_total 1",
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "missing {line:?} in\n{metrics}"
        );
    }
    assert!(metrics.contains("# TYPE arena_messages_total counter"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_never_holds_one_puzzle_twice_in_disguise() {
    use server::serve::generator::Generator;
    use server::serve::metrics::Metrics;
    use server::serve::pool::{Kind, Pool};
    // 4x4: the kind where a generation most often repeats a held puzzle
    // (rotated, relabelled); whatever the pool keeps is distinct.
    let metrics = Arc::new(Metrics::default());
    let generator = Generator::new(plugins(), Arc::clone(&metrics));
    let pool = Pool::new(generator, None, Arc::clone(&metrics), 60);
    let kind = Kind {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
    };
    let made = pool.fill_once(std::slice::from_ref(&kind)).await;
    assert!(made >= 2, "{made} distinct 4x4 easy puzzles");
    assert_eq!(pool.held(&kind), made);
    let mut forms = std::collections::HashSet::new();
    while let Some(puzzle) = pool.take(&kind).await {
        let loaded = engine::v1::from_v1(&puzzle).expect("loads");
        let (frame, form) =
            engine::canon::canonical_form(loaded.puzzle.model(), loaded.puzzle.givens());
        assert!(forms.insert((frame, form)), "two equal puzzles were pooled");
    }
    assert_eq!(forms.len(), made);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_puzzle_pool_serves_stores_and_refills() {
    use server::serve::generator::Generator;
    use server::serve::metrics::Metrics;
    use server::serve::pool::{Kind, Pool};
    use server::serve::store::Store;
    let dir = std::env::temp_dir().join(format!("arena-pool-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(Store::open(&dir).expect("store"));
    let metrics = Arc::new(Metrics::default());
    let generator = Generator::new(plugins(), Arc::clone(&metrics));
    let pool = Pool::new(generator, Some(Arc::clone(&store)), Arc::clone(&metrics), 1);
    let kind = Kind {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
    };
    assert!(
        pool.all_kinds().contains(&kind),
        "every offered kind is pooled"
    );
    assert_eq!(pool.fill_once(std::slice::from_ref(&kind)).await, 1);
    assert_eq!(
        pool.fill_once(std::slice::from_ref(&kind)).await,
        0,
        "already full"
    );
    assert_eq!(
        store.load().await.expect("load").pool.len(),
        1,
        "the pool is stored"
    );
    let puzzle = pool.take(&kind).await.expect("a pooled puzzle");
    assert_eq!(puzzle.variant.as_deref(), Some("classic"));
    assert!(puzzle.solution.is_some());
    assert!(pool.take(&kind).await.is_none(), "used up");
    assert!(
        store.load().await.expect("load").pool.is_empty(),
        "a used puzzle leaves the store"
    );
    let text = metrics.render(0);
    assert!(text.contains("arena_pool_hits_total 1") && text.contains("arena_pool_misses_total 1"));
    assert!(
        text.contains("arena_plugin_generate_total 1\n"),
        "pool fills are generations too:\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_files_are_served_on_the_same_port() {
    let dir = std::env::temp_dir().join(format!("arena-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>Sudoku Arena</title>",
    )
    .expect("write");
    let addr = start_server_with(Config {
        client_dir: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    assert!(http_ok(addr, "/")
        .await
        .contains("<title>Sudoku Arena</title>"));
    assert_eq!(
        http_ok(addr, "/healthz").await,
        "ok",
        "the API routes still win"
    );
    // A hashed asset with its brotli copy beside it, as the client's build writes.
    std::fs::create_dir_all(dir.join("assets")).expect("assets");
    std::fs::write(dir.join("assets/app-3f9a.js"), "console.log(1)").expect("write");
    std::fs::write(dir.join("assets/app-3f9a.js.br"), b"\x0b\x07\x80brotli").expect("write");
    let asset = raw_get(addr, "/assets/app-3f9a.js", "Accept-Encoding: br, gzip\r\n").await;
    assert!(asset.contains("content-encoding: br"), "{asset}");
    assert!(
        asset.contains("cache-control: public, max-age=31536000, immutable"),
        "{asset}"
    );
    let plain = raw_get(addr, "/assets/app-3f9a.js", "").await;
    assert!(
        plain.ends_with("console.log(1)"),
        "without Accept-Encoding: as is"
    );
    let page = raw_get(addr, "/", "").await;
    assert!(page.contains("cache-control: no-cache"), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A whole HTTP/1.1 response to GET `path` with `headers` (each line ending
/// in CRLF), lower-cased header names and all.
async fn raw_get(addr: std::net::SocketAddr, path: &str, headers: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n");
    s.write_all(request.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    s.read_to_end(&mut response).await.expect("read");
    String::from_utf8_lossy(&response).to_lowercase()
}

/// The pool's background growth: every kind first gets its quick two, then
/// the kinds people asked for grow one puzzle at a time in turn, each
/// generation followed by a rest of three times its length (a quarter of one
/// worker at most), up to what each is wanted; a puzzle taken is made again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_grows_in_turn_and_paced() {
    use server::serve::generator::Generator;
    use server::serve::metrics::Metrics;
    use server::serve::pool::{Kind, Pool};
    use std::time::Duration;
    use tokio::sync::mpsc;
    let metrics = Arc::new(Metrics::default());
    let pool = Arc::new(Pool::new(
        Generator::new(plugins(), Arc::clone(&metrics)),
        None,
        metrics,
        5,
    ));
    // Mini 6x6: quick to make, and it has three tiers (a 4x4 is only easy).
    let kinds: Vec<Kind> = ["easy", "medium", "hard"]
        .iter()
        .map(|d| Kind {
            variant: "classic".into(),
            params: Params::from([("box".to_string(), ParamValue::Text("2x3".into()))]),
            difficulty: (*d).into(),
        })
        .collect();
    // Each paced step: the kind, its held count then, the generation's time and the rest.
    let (tx, mut rx) = mpsc::unbounded_channel::<(String, usize, Duration, Duration)>();
    // A game of each kind was asked for (none was ready): each pool now aims
    // for two more than the quick two.
    for kind in &kinds {
        assert!(pool.take(kind).await.is_none());
        assert_eq!(pool.wanted(kind), 4);
    }
    let refill = {
        let (pool, kinds) = (Arc::clone(&pool), kinds.clone());
        tokio::spawn(async move {
            let watched = Arc::clone(&pool);
            pool.refill(&kinds, move |kind, took, rest| {
                let _ = tx.send((kind.difficulty.clone(), watched.held(kind), took, rest));
                std::future::ready(())
            })
            .await;
        })
    };
    let mut steps = Vec::new();
    // 3 kinds x (4 wanted - 2 quick) paced steps.
    while steps.len() < 6 {
        steps.push(rx.recv().await.expect("a paced step"));
    }
    for (_, _, took, rest) in &steps {
        assert_eq!(*rest, *took * 3, "rests three times the generation");
    }
    let order: Vec<(&str, usize)> = steps.iter().map(|(d, n, _, _)| (d.as_str(), *n)).collect();
    assert_eq!(
        order,
        [
            ("easy", 3),
            ("medium", 3),
            ("hard", 3),
            ("easy", 4),
            ("medium", 4),
            ("hard", 4),
        ],
        "every kind had its quick two first, then one at a time in turn"
    );
    assert!(kinds.iter().all(|k| pool.held(k) == 4), "as many as wanted");
    // Nothing more until a puzzle is taken: then that kind is wanted more (at
    // most the pool size, 5) and made again.
    assert!(rx.try_recv().is_err());
    assert!(pool.take(&kinds[1]).await.is_some());
    assert_eq!(pool.wanted(&kinds[1]), 5, "capped at the pool size");
    for held in [4, 5] {
        let again = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("refilled in time")
            .expect("a step");
        assert_eq!((again.0.as_str(), again.1), ("medium", held));
    }
    refill.abort();
}

/// A variant whose generation keeps failing is backed off from, then
/// quarantined, without holding up the others; `/readyz` and `/metrics` say so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_backs_off_from_a_failing_variant_then_quarantines_it() {
    use server::serve::generator::Generator;
    use server::serve::metrics::Metrics;
    use server::serve::plugin_health::{Backoff, State};
    use server::serve::pool::{Kind, Pool};
    use std::sync::atomic::Ordering;
    use tokio::sync::mpsc;
    let metrics = Arc::new(Metrics::default());
    let policy = Backoff {
        first: Duration::from_millis(1),
        max: Duration::from_millis(4),
        quarantine_after: 3,
        quarantine_retry: Duration::from_secs(3600),
    };
    let pool = Arc::new(
        Pool::new(
            Generator::new(plugins(), Arc::clone(&metrics)),
            None,
            Arc::clone(&metrics),
            3,
        )
        .with_backoff(policy),
    );
    let classic = Kind {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
    };
    // The misbehaving plugin's generation panics (caught: it answers PANICKED).
    let failing = Kind {
        variant: "test-misbehave".into(),
        params: Params::new(),
        difficulty: "easy".into(),
    };
    // Classic is played (a game asked of it): its pool is to grow past two.
    assert!(pool.take(&classic).await.is_none());
    let mut changes = pool.health().changes();
    let (tx, mut paced) = mpsc::unbounded_channel::<String>();
    let refill = {
        let pool = Arc::clone(&pool);
        let kinds = vec![failing.clone(), classic.clone()];
        tokio::spawn(async move {
            pool.refill(&kinds, move |kind, _, _| {
                let _ = tx.send(kind.variant.clone());
                std::future::ready(())
            })
            .await;
        })
    };
    while pool.health().state("test-misbehave") != State::Quarantined {
        tokio::time::timeout(Duration::from_secs(30), changes.changed())
            .await
            .expect("a change of state in time")
            .expect("the pool lives");
    }
    let first = tokio::time::timeout(Duration::from_secs(30), paced.recv())
        .await
        .expect("classic grew meanwhile");
    assert_eq!(first.as_deref(), Some("classic"));
    assert_eq!(pool.held(&classic), 3);
    assert_eq!(metrics.pool_failures_total.load(Ordering::Relaxed), 3);
    // A taken puzzle wakes the loop: classic is made again, the quarantined
    // variant is not called.
    assert!(pool.take(&classic).await.is_some());
    let again = tokio::time::timeout(Duration::from_secs(30), paced.recv())
        .await
        .expect("refilled in time");
    assert_eq!(again.as_deref(), Some("classic"));
    assert_eq!(metrics.pool_failures_total.load(Ordering::Relaxed), 3);
    refill.abort();

    let report = server::serve::readiness::report(pool.plugins(), pool.health());
    assert!(report.ready, "classic still generates");
    let text = server::serve::metrics::render_plugins(&report);
    assert!(
        text.contains("arena_plugin_quarantined{variant=\"test-misbehave\"} 1")
            && text.contains("arena_plugin_quarantined{variant=\"classic\"} 0"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_names_every_variant_and_its_state() {
    let addr = start_server_with(Config::default()).await;
    let (status, body) = http_get(addr, "/readyz").await;
    assert_eq!(status, 200, "{body}");
    let report: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(report["ready"], true);
    for variant in ["classic", "killer", "test-misbehave"] {
        assert_eq!(report["variants"][variant]["state"], "healthy", "{body}");
    }
}

/// A stored room whose settings break the rules (written by hand, or by a
/// damaged disk) is not restored; the rest are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_rooms_that_break_the_rules_are_not_restored() {
    use protocol::plugin::GenerateRequest;
    use protocol::wire::{ErrorCode, RoomSettings};
    use server::serve::store::{Store, Write};
    let dir = temp_dir("hostile-rooms");
    let request = GenerateRequest {
        minimal: false,
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
        seed: "hostile".into(),
    };
    let puzzle = plugins()
        .generate("classic", &request, Duration::from_secs(30))
        .expect("a puzzle");
    {
        let store = Store::open(&dir).expect("store");
        for (code, max_players) in [("abcdefghjk", 2), ("mnpqrstuvw", 4_000_000_000)] {
            let settings = RoomSettings {
                max_players,
                ..settings(2)
            };
            let write = Write::Room {
                code: code.into(),
                settings,
                puzzle: Box::new(puzzle.clone()),
            };
            store.write(write).await.expect("stored");
        }
    }
    let addr = start_server_with(Config {
        data_dir: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    let mut ada = Client::connect(addr, "Ada").await;
    ada.send(&ClientMessage::JoinRoom {
        code: "mnpqrstuvw".into(),
        spectator: false,
    })
    .await;
    assert_eq!(ada.error().await, ErrorCode::NoRoom, "not restored");
    ada.send(&ClientMessage::JoinRoom {
        code: "abcdefghjk".into(),
        spectator: false,
    })
    .await;
    ada.room(RoomState::Waiting).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arena serve --config FILE` takes the flags' settings from the file; the
/// site address it names reaches the players in `welcome`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_config_file_sets_what_the_flags_set() {
    let dir = std::env::temp_dir().join(format!("arena-conf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("arena.conf");
    std::fs::write(
        &file,
        "# the box in the hall\nsite-url = \"http://192.168.1.20:8080/\"\ncountdown-ms = 0\n",
    )
    .expect("write");
    let path = file.to_string_lossy().to_string();
    let (_child, started) =
        spawn_arena_serve_with_lines(&dir.join("data"), &["--config", &path]).await;
    let mut c = Client::open(&started.game).await;
    c.send(&protocol::wire::ClientMessage::Hello {
        version: protocol::wire::PROTOCOL_VERSION,
        name: "Ada".into(),
        token: None,
    })
    .await;
    let site = c
        .until(|m| match m {
            protocol::wire::ServerMessage::Welcome { site_url, .. } => Some(site_url),
            _ => None,
        })
        .await;
    assert_eq!(site.as_deref(), Some("http://192.168.1.20:8080/"));
    let _ = std::fs::remove_dir_all(&dir);
}
