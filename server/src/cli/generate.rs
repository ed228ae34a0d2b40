//! `arena generate`: unique puzzles from a variant plugin, as v1 JSON Lines, each
//! with its solution.
//!
//! Puzzle `i` (from 0) of a run uses seed `S` for `i = 0` and `S#i` after, and
//! records it, so any single puzzle can be regenerated with `--seed` alone.

use crate::plugins::PluginHost;
use anyhow::{bail, Context};
use protocol::plugin::{GenerateRequest, Manifest, Params};
use protocol::ParamValue;
use std::io::Write;
use std::time::Duration;

/// How long one puzzle may take.
const GENERATE_DEADLINE: Duration = Duration::from_secs(60);

/// Arguments of `arena generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Variant id (see `arena variants`).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Variant parameter `key=value`, repeatable (classic: `box=2x2|2x3|3x3|4x4|5x5`).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// easy, medium, hard or extreme.
    #[arg(long)]
    pub difficulty: String,
    /// Any string (a date works); hashed into the generator's seed.
    #[arg(long)]
    pub seed: String,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// Minimal puzzles: every given needed for uniqueness (at the same tier).
    #[arg(long)]
    pub minimal: bool,
}

/// Generates and prints the puzzles.
pub fn run(args: &GenerateArgs, host: &PluginHost) -> anyhow::Result<bool> {
    let Some(manifest) = host.manifest(&args.variant) else {
        let known: Vec<&str> = host.manifests().map(|m| m.id.as_str()).collect();
        bail!(
            "unknown variant '{}'; loaded: {}",
            args.variant,
            if known.is_empty() {
                "none (see --plugins)".to_string()
            } else {
                known.join(", ")
            }
        );
    };
    let params = parse_params(manifest, &args.params)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for i in 0..args.count {
        let seed = if i == 0 {
            args.seed.clone()
        } else {
            format!("{}#{i}", args.seed)
        };
        let request = GenerateRequest {
            minimal: args.minimal,
            params: params.clone(),
            difficulty: args.difficulty.clone(),
            seed,
        };
        let puzzle = host.generate(&args.variant, &request, GENERATE_DEADLINE)?;
        writeln!(out, "{}", serde_json::to_string(&puzzle)?)?;
        out.flush()?;
    }
    Ok(true)
}

/// Splits `key=value` parameters and types each value like the manifest's
/// allowed values (true/false, integers, text). The plugin checks the values.
pub(super) fn parse_params(manifest: &Manifest, raw: &[String]) -> anyhow::Result<Params> {
    let mut out = Params::new();
    for item in raw {
        let (key, value) = item
            .split_once('=')
            .with_context(|| format!("--param '{item}' is not KEY=VALUE"))?;
        let (key, value) = (key.trim(), value.trim());
        let spec = manifest.params.iter().find(|p| p.key == key);
        let typed = match spec.map(|s| &s.default) {
            Some(ParamValue::Bool(_)) => match value {
                "true" => ParamValue::Bool(true),
                "false" => ParamValue::Bool(false),
                _ => bail!("--param {key}={value}: expected true or false"),
            },
            Some(ParamValue::Int(_)) => ParamValue::Int(
                value
                    .parse()
                    .with_context(|| format!("--param {key}={value}: expected an integer"))?,
            ),
            _ => ParamValue::Text(value.to_string()),
        };
        if out.insert(key.to_string(), typed).is_some() {
            bail!("--param '{key}' given twice");
        }
    }
    Ok(out)
}
