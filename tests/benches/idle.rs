//! CPU of an idle server: the real `arena serve` started on a fresh data
//! directory with its default pool (every bundled variant), nobody playing. The
//! server's and its plugin hosts' CPU time is sampled every 10 s and printed as
//! a share of one core per interval, then a table: the first two minutes (the
//! pool's first two puzzles of every kind) and after.
//!
//! Run: `cargo build --release && cargo bench -p arena-tests --bench idle --
//! --minutes 5`

use arena_tests::bench_arg;
use arena_tests::proc::{children, cpu_seconds};
use arena_tests::process::spawn_arena_serve_with_lines;
use std::time::{Duration, Instant};

/// CPU seconds of the server and every plugin host it has now. A host that
/// exited took its seconds with it: the intervals only ever undercount a
/// restart, never a steady state.
fn total_cpu(pid: u32) -> f64 {
    cpu_seconds(pid) + children(pid).into_iter().map(cpu_seconds).sum::<f64>()
}

fn main() {
    let minutes: f64 = bench_arg("--minutes", 5.0);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let dir = arena_tests::temp_dir("idle");
        // The default pool, as `make run` has it.
        let (mut child, _) = spawn_arena_serve_with_lines(&dir, &["--pool-size", "250"]).await;
        let pid = child.id().expect("pid");
        let began = Instant::now();
        let mut tick = tokio::time::interval(Duration::from_secs(10));
        tick.tick().await;
        let mut last = (0.0, total_cpu(pid));
        let (mut early, mut late) = (Vec::new(), Vec::new());
        while began.elapsed() < Duration::from_secs_f64(minutes * 60.0) {
            tick.tick().await;
            let now = (began.elapsed().as_secs_f64(), total_cpu(pid));
            let share = (now.1 - last.1).max(0.0) / (now.0 - last.0) * 100.0;
            eprintln!("idle: {:>4.0} s  {share:>5.1}% of a core", now.0);
            if now.0 <= 120.0 {
                early.push(share);
            } else {
                late.push(share);
            }
            last = now;
        }
        let _ = child.kill().await;
        let _ = std::fs::remove_dir_all(&dir);
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        println!("\n| phase | mean CPU (one core) | highest 10 s |");
        println!("|---|---:|---:|");
        println!(
            "| first two minutes | {:.1}% | {:.1}% |",
            mean(&early),
            max(&early)
        );
        println!("| after | {:.1}% | {:.1}% |", mean(&late), max(&late));
    });
}
