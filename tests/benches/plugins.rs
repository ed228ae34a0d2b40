//! Generation speed of every variant plugin, through the real host (dlopen,
//! MessagePack both ways, and the host's validation of each puzzle, which includes
//! a uniqueness count).
//!
//! Run: `make bench` (builds the release plugins, then this). Add `-- --quick` for
//! 5 seeds instead of 20.

use arena_tests::built_plugin_dir;
use protocol::plugin::{GenerateRequest, Manifest};
use server::plugins::{PluginHost, TestPlugins};
use std::time::{Duration, Instant};

fn main() {
    let seeds = if std::env::args().any(|a| a == "--quick") {
        5
    } else {
        20
    };
    let dir = built_plugin_dir();
    let (host, refused) = PluginHost::load(std::slice::from_ref(&dir), 2, TestPlugins::Skip);
    for r in &refused {
        eprintln!("refused {}: {}", r.path.display(), r.reason);
    }
    println!(
        "Generation through the plugin host, {seeds} seeds each (\"bench-<i>\"), plugins from {}",
        dir.display()
    );
    println!("| variant | params | difficulty | clues (median) | median ms | worst ms |");
    println!("|---|---|---|---:|---:|---:|");
    let manifests: Vec<Manifest> = host
        .manifests()
        .filter(|m| m.id != "test-misbehave")
        .cloned()
        .collect();
    for m in manifests {
        for params in m.parameter_sets() {
            for difficulty in &m.difficulties {
                let mut times = Vec::new();
                let mut clues = Vec::new();
                for i in 0..seeds {
                    let req = GenerateRequest {
                        params: params.clone(),
                        difficulty: difficulty.clone(),
                        seed: format!("bench-{i}"),
                    };
                    let start = Instant::now();
                    let p = host
                        .generate(&m.id, &req, Duration::from_secs(60))
                        .unwrap_or_else(|e| panic!("{} {params:?} {difficulty}: {e}", m.id));
                    times.push(start.elapsed().as_secs_f64() * 1e3);
                    clues.push(p.clue_count.unwrap_or(0));
                }
                times.sort_by(f64::total_cmp);
                clues.sort_unstable();
                let shown: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                println!(
                    "| {} | {} | {difficulty} | {} | {:.2} | {:.2} |",
                    m.id,
                    shown.join(" "),
                    clues[seeds / 2],
                    times[seeds / 2],
                    times[seeds - 1]
                );
            }
        }
    }
}
