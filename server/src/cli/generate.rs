//! `arena generate`: unique puzzles as v1 JSON Lines, each with its solution.
//!
//! Puzzle `i` (from 0) of a run uses seed `S` for `i = 0` and `S#i` after, and
//! records it, so any single puzzle can be regenerated with `--seed` alone.

use anyhow::{anyhow, bail, Context};
use engine::generate::generate_for_difficulty;
use engine::v1::to_v1;
use engine::Difficulty;
use protocol::ParamValue;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// Arguments of `arena generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Variant id (this build: `classic`).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Variant parameter `key=value`, repeatable (classic: `box=2x2|2x3|3x3|4x4|5x5`).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// easy, medium, hard or extreme.
    #[arg(long)]
    pub difficulty: Difficulty,
    /// Any string (a date works); hashed into the generator's seed.
    #[arg(long)]
    pub seed: String,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
}

const CLASSIC_BOXES: [&str; 5] = ["2x2", "2x3", "3x3", "4x4", "5x5"];

/// Generates and prints the puzzles.
pub fn run(args: &GenerateArgs) -> anyhow::Result<bool> {
    if args.variant != "classic" {
        bail!(
            "unknown variant '{}'; this build knows: classic",
            args.variant
        );
    }
    let params = parse_params(&args.params)?;
    let mut box_shape = "3x3".to_string();
    for (key, value) in &params {
        match key.as_str() {
            "box" => box_shape = value.clone(),
            _ => bail!("classic has no parameter '{key}' (known: box)"),
        }
    }
    if !CLASSIC_BOXES.contains(&box_shape.as_str()) {
        bail!(
            "box={box_shape} is not offered; choose one of {}",
            CLASSIC_BOXES.join(", ")
        );
    }
    let (r, c) = engine::geometry::parse_box(&box_shape)?;
    let model = Arc::new(engine::geometry::classic(r, c)?);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for i in 0..args.count {
        let seed = if i == 0 {
            args.seed.clone()
        } else {
            format!("{}#{i}", args.seed)
        };
        let g = generate_for_difficulty(&model, &seed, args.difficulty)
            .ok_or_else(|| anyhow!("the model has no solution"))?;
        let mut p = to_v1(&g.puzzle, Some(&g.solution));
        p.variant = Some(args.variant.clone());
        p.params = BTreeMap::from([("box".to_string(), ParamValue::Text(box_shape.clone()))]);
        p.difficulty = Some(args.difficulty.to_string());
        p.seed = Some(seed);
        writeln!(out, "{}", serde_json::to_string(&p)?)?;
        out.flush()?;
    }
    Ok(true)
}

/// Splits `key=value` parameters, rejecting malformed and repeated keys.
fn parse_params(raw: &[String]) -> anyhow::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for item in raw {
        let (k, v) = item
            .split_once('=')
            .with_context(|| format!("--param '{item}' is not KEY=VALUE"))?;
        if out
            .insert(k.trim().to_string(), v.trim().to_string())
            .is_some()
        {
            bail!("--param '{k}' given twice");
        }
    }
    Ok(out)
}
