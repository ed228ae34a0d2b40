//! Puzzle generation for the server: one way to ask a plugin for a puzzle (on the
//! plugin workers, awaited, under a deadline), counted in the metrics whoever asks —
//! a new room, a rematch, or the pool's background refill.

use super::kind::Kind;
use super::metrics::Metrics;
use super::session::random_hex;
use crate::plugins::{PluginError, PluginHost};
use protocol::plugin::GenerateRequest;
use protocol::PuzzleV1;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Generates puzzles through the plugins and counts them.
#[derive(Clone, Debug)]
pub struct Generator {
    plugins: Arc<PluginHost>,
    metrics: Arc<Metrics>,
}

impl Generator {
    /// A generator over `plugins`, counting in `metrics`.
    pub fn new(plugins: Arc<PluginHost>, metrics: Arc<Metrics>) -> Generator {
        Generator { plugins, metrics }
    }

    /// The plugins it generates with.
    pub fn plugins(&self) -> &Arc<PluginHost> {
        &self.plugins
    }

    /// A puzzle of `kind` from a fresh random seed; returns the seed too.
    pub async fn fresh(
        &self,
        kind: &Kind,
        deadline: Duration,
    ) -> Result<(String, PuzzleV1), PluginError> {
        let seed = random_hex(8);
        let puzzle = self.seeded(kind, &seed, deadline).await?;
        Ok((seed, puzzle))
    }

    /// The puzzle of `kind` for `seed` (the same on every server).
    pub async fn seeded(
        &self,
        kind: &Kind,
        seed: &str,
        deadline: Duration,
    ) -> Result<PuzzleV1, PluginError> {
        let request = GenerateRequest {
            minimal: false,
            params: kind.params.clone(),
            difficulty: kind.difficulty.clone(),
            seed: seed.to_string(),
        };
        let started = Instant::now();
        let generated = self
            .plugins
            .generate_async(&kind.variant, &request, deadline)
            .await?;
        self.metrics.record_generation(started.elapsed());
        Ok(generated)
    }
}
