//! Generation speed of every variant plugin, through the real host (dlopen,
//! MessagePack both ways, and the host's validation of each puzzle, which includes
//! a uniqueness count).
//!
//! Run: `make bench` (builds the release plugins, then this). Add `-- --quick` for
//! 5 seeds instead of 20, `--seeds N` for N, `--variant ID` (repeatable) for some
//! variants only, `--difficulty D` (repeatable) for some difficulties only. The table gives, per variant, parameters and difficulty: the
//! clue counts (min / median / max), how many puzzles the logical solver grades
//! at the requested tier, and the median and worst time.

use arena_tests::built_plugin_dir;
use protocol::plugin::{GenerateRequest, Manifest};
use server::plugins::{PluginHost, TestPlugins};
use std::time::{Duration, Instant};

/// The value after `flag` in the arguments, for each time it appears.
fn values_of(flag: &str) -> Vec<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2)
        .filter(|w| w[0] == flag)
        .map(|w| w[1].clone())
        .collect()
}

fn main() {
    let seeds = match values_of("--seeds").first() {
        Some(n) => n.parse().expect("--seeds N"),
        None if std::env::args().any(|a| a == "--quick") => 5,
        None => 20,
    };
    let only = values_of("--variant");
    let difficulties = values_of("--difficulty");
    let dir = built_plugin_dir();
    let (host, refused) = PluginHost::load(std::slice::from_ref(&dir), 2, TestPlugins::Skip);
    for r in &refused {
        eprintln!("refused {}: {}", r.path.display(), r.reason);
    }
    println!(
        "Generation through the plugin host, {seeds} seeds each (\"bench-<i>\"), plugins from {}",
        dir.display()
    );
    println!("| variant | params | difficulty | clues min / median / max | graded at tier | median ms | worst ms |");
    println!("|---|---|---|---:|---:|---:|---:|");
    let manifests: Vec<Manifest> = host
        .manifests()
        .filter(|m| m.id != "test-misbehave")
        .filter(|m| only.is_empty() || only.contains(&m.id))
        .cloned()
        .collect();
    for m in manifests {
        for params in m.parameter_sets() {
            for difficulty in &m.difficulties {
                if !difficulties.is_empty() && !difficulties.contains(difficulty) {
                    continue;
                }
                let mut times = Vec::new();
                let mut clues = Vec::new();
                let mut at_tier = 0;
                let mut graded = 0;
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
                    if let Some(g) = &p.grade {
                        graded += 1;
                        at_tier += usize::from(&g.tier == difficulty);
                    }
                }
                times.sort_by(f64::total_cmp);
                clues.sort_unstable();
                let shown: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let tier = if graded == 0 {
                    "not graded".to_string()
                } else {
                    format!("{at_tier}/{seeds}")
                };
                println!(
                    "| {} | {} | {difficulty} | {} / {} / {} | {tier} | {:.2} | {:.2} |",
                    m.id,
                    shown.join(" "),
                    clues[0],
                    clues[seeds / 2],
                    clues[seeds - 1],
                    times[seeds / 2],
                    times[seeds - 1]
                );
            }
        }
    }
}
