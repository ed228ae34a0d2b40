//! Running the server: a damaged database stops the real `arena serve` before it
//! announces anything; `/metrics` lives on its own listener and counts every
//! generation with its fractional time.

use arena_tests::process::spawn_arena_serve_with_lines;
use arena_tests::serve::{http_get, start_server_with_metrics};
use arena_tests::ws::{race_settings as settings, Client};
use arena_tests::{built_arena, built_plugin_dir};
use protocol::wire::{ClientMessage, RoomState};
use server::serve::Config;
use std::path::PathBuf;
use std::time::Duration;

/// A fresh temporary directory for this test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

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

/// The value of metric `name` in Prometheus text.
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in\n{text}"))
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
    let _ = std::fs::remove_dir_all(&dir);
}
