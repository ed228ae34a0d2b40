//! `arena variants`: what the loaded plugins offer.

use crate::plugins::PluginHost;
use std::io::Write;

/// Prints one block per loaded variant.
pub fn run(host: &PluginHost) -> anyhow::Result<bool> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut any = false;
    for m in host.manifests() {
        any = true;
        writeln!(out, "{}\t{}", m.id, m.name)?;
        for p in &m.params {
            let allowed: Vec<String> = p.allowed.iter().map(|v| v.to_string()).collect();
            writeln!(
                out,
                "    --param {}=<{}>  (default {}; {})",
                p.key,
                allowed.join("|"),
                p.default,
                p.name
            )?;
        }
        writeln!(out, "    difficulties: {}", m.difficulties.join(", "))?;
        // Parameter sets that offer fewer (a 4x4 is never beyond easy).
        for params in m.parameter_sets() {
            let offered = m.difficulties_for(&params);
            if offered.len() < m.difficulties.len() {
                let shown: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                writeln!(
                    out,
                    "      with {}: {}",
                    shown.join(" "),
                    offered.join(", ")
                )?;
            }
        }
        // The clue policy of the default parameters.
        let defaults = m.with_defaults(&Default::default());
        let clues: Vec<String> = m
            .difficulties
            .iter()
            .filter_map(|d| {
                let (lo, hi) = m.clue_range(&defaults, d)?;
                Some(format!("{d} {lo}-{hi}"))
            })
            .collect();
        if !clues.is_empty() {
            writeln!(out, "    clues (default parameters): {}", clues.join(", "))?;
        }
    }
    if !any {
        eprintln!("no variant plugins found (see --plugins)");
    }
    Ok(any)
}
