//! Where puzzles for games come from, for everyone who needs one (a new room, a
//! rematch, and later dailies): the pool first, else a fresh generation by the
//! plugin within the configured deadline, counted in the metrics.

use super::generator::Generator;
use super::pool::{Kind, Pool};
use crate::plugins::PluginHost;
use protocol::wire::RoomSettings;
use protocol::PuzzleV1;
use std::sync::Arc;
use std::time::Duration;

/// The puzzle source.
#[derive(Clone, Debug)]
pub struct Games {
    generator: Generator,
    pool: Arc<Pool>,
    deadline: Duration,
}

impl Games {
    /// Puzzles from `pool`, else from `generator` within `deadline`.
    pub fn new(generator: Generator, pool: Arc<Pool>, deadline: Duration) -> Games {
        Games {
            generator,
            pool,
            deadline,
        }
    }

    /// The variant plugins.
    pub fn plugins(&self) -> &Arc<PluginHost> {
        self.generator.plugins()
    }

    /// The kind of puzzle a room of `settings` plays (every parameter filled in,
    /// as the pool keys it); `None` for a variant no plugin offers.
    pub fn kind(&self, settings: &RoomSettings) -> Option<Kind> {
        let manifest = self.plugins().manifest(&settings.variant)?;
        Some(Kind::of(settings, manifest))
    }

    /// A puzzle of `kind`, with its solution: a pooled one if there is one.
    pub async fn puzzle(&self, kind: &Kind) -> Result<PuzzleV1, String> {
        if let Some(puzzle) = self.pool.take(kind).await {
            return Ok(puzzle);
        }
        let (_, puzzle) = self.generator.fresh(kind, self.deadline).await?;
        Ok(puzzle)
    }
}
