//! The real `arena` as a child process: `arena serve` started on an ephemeral
//! port with the built plugins and a data directory, its address read from its
//! stderr; and one-shot commands ([`run_arena`]).

use crate::{built_arena, built_plugin_dir};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// What a one-shot `arena` command did.
pub struct Ran {
    /// Whether it exited with status 0.
    pub ok: bool,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// Runs the built `arena --plugins <built plugins> ARGS…` to the end.
pub fn run_arena(args: &[&str]) -> Ran {
    let out = std::process::Command::new(built_arena())
        .arg("--plugins")
        .arg(built_plugin_dir())
        .args(args)
        .output()
        .expect("run arena");
    Ran {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `arena serve` arguments that lift the per-address limits: every simulated
/// player of a soak or a benchmark connects from loopback.
pub const LIFTED_LIMITS: [&str; 6] = [
    "--connections-per-ip",
    "100000",
    "--address-join-burst",
    "100000000",
    "--address-hello-burst",
    "100000000",
];

/// How long the server may take to start listening.
const START: Duration = Duration::from_secs(30);

/// Starts `arena serve --bind 127.0.0.1:0 --countdown-ms 0 --pool-size 0 --data DATA`
/// plus `extra` arguments (which may set `--pool-size` instead); returns the child (killed on drop) and its `host:port`.
pub async fn spawn_arena_serve(data: &Path, extra: &[&str]) -> (Child, String) {
    let (child, started) = spawn_arena_serve_with_lines(data, extra).await;
    (child, started.game)
}

/// What `arena serve` announced on start-up.
pub struct Started {
    /// The game's `host:port`.
    pub game: String,
    /// The metrics listener's `host:port`, with `--metrics-bind`.
    pub metrics: Option<String>,
}

/// [`spawn_arena_serve`], also reading the metrics address it announces.
pub async fn spawn_arena_serve_with_lines(data: &Path, extra: &[&str]) -> (Child, Started) {
    let arena = built_arena();
    assert!(
        arena.exists(),
        "{} missing: run `cargo build --workspace` (or --release) first",
        arena.display()
    );
    let mut child = Command::new(arena)
        .arg("--plugins")
        .arg(built_plugin_dir())
        .args(["serve", "--bind", "127.0.0.1:0", "--countdown-ms", "0"])
        .args(if extra.contains(&"--pool-size") {
            &[][..]
        } else {
            &["--pool-size", "0"][..]
        })
        // Scripted players solve in milliseconds: rank them (the floor has its own tests).
        .args(if extra.contains(&"--fastest-cell-ms") {
            &[][..]
        } else {
            &["--fastest-cell-ms", "0"][..]
        })
        // A scripted player sends a whole 9x9's moves back to back, each
        // acknowledged within milliseconds: more than the default burst (40).
        .args(if extra.contains(&"--message-burst") {
            &[][..]
        } else {
            &["--message-burst", "200"][..]
        })
        // Every test client connects from loopback: rate them against each
        // other (the rule against shared addresses has its own test).
        .arg("--rate-shared-addresses")
        .arg("--data")
        .arg(data)
        .args(extra)
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start arena serve");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let started = tokio::time::timeout(START, async {
        let mut metrics = None;
        while let Some(line) = lines.next_line().await.expect("read stderr") {
            if let Some(rest) = line.split("metrics on http://").nth(1) {
                metrics = Some(rest.trim().trim_end_matches("/metrics").to_string());
            }
            if let Some(rest) = line.split("serving on http://").nth(1) {
                let game = rest.trim().to_string();
                return Started { game, metrics };
            }
        }
        panic!("arena serve exited before listening");
    })
    .await
    .expect("the server starts in time");
    // Keep draining stderr so the child never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, started)
}
