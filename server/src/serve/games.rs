//! Where puzzles for games come from, for everyone who needs one (a new room, a
//! rematch): the pool first, else a fresh generation by the plugin within the
//! configured deadline, counted in the metrics. Puzzles of the day come from
//! their date's seed ([`crate::daily`]) and are kept for the day.

use super::generator::Generator;
use super::kind::Kind;
use super::pool::Pool;
use crate::daily::{daily_seed, Date};
use crate::plugins::{PluginError, PluginHost};
use dashmap::DashMap;
use protocol::plugin::Params;
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
    /// Puzzles of the day made so far, by date and kind.
    dailies: Arc<DashMap<(Date, String), PuzzleV1>>,
    /// The setter's empty puzzles made so far, by variant and parameters (a
    /// manifest allows finitely many).
    templates: Arc<DashMap<String, Arc<PuzzleV1>>>,
}

impl Games {
    /// Puzzles from `pool`, else from `generator` within `deadline`.
    pub fn new(generator: Generator, pool: Arc<Pool>, deadline: Duration) -> Games {
        Games {
            generator,
            pool,
            deadline,
            dailies: Arc::new(DashMap::new()),
            templates: Arc::new(DashMap::new()),
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

    /// The puzzle of the day of `kind` on `date`, with its solution: generated
    /// from the date's seed once, then kept (older days are dropped).
    pub async fn daily(&self, kind: &Kind, date: Date) -> Result<PuzzleV1, String> {
        let key = (date, kind.key());
        if let Some(p) = self.dailies.get(&key) {
            return Ok(p.clone());
        }
        let seed = daily_seed(date, &kind.variant, &kind.params, &kind.difficulty);
        let puzzle = self
            .generator
            .seeded(kind, &seed, self.deadline)
            .await
            .map_err(for_players)?;
        self.dailies.retain(|(d, _), _| *d >= date.plus(-1));
        self.dailies.insert(key, puzzle.clone());
        Ok(puzzle)
    }

    /// A puzzle of `kind`, with its solution: a pooled one if there is one.
    pub async fn puzzle(&self, kind: &Kind) -> Result<PuzzleV1, String> {
        if let Some(puzzle) = self.pool.take(kind).await {
            return Ok(puzzle);
        }
        let (_, puzzle) = self
            .generator
            .fresh(kind, self.deadline)
            .await
            .map_err(for_players)?;
        Ok(puzzle)
    }
}

impl Games {
    /// The setter's empty puzzle of a variant: the parameters with their
    /// defaults and the template ([`super::setter::template_of`] of a puzzle
    /// generated once from a fixed seed at the variant's first difficulty).
    pub async fn template(
        &self,
        variant: &str,
        params: &Params,
    ) -> Result<(Params, Arc<PuzzleV1>), String> {
        let Some(manifest) = self.plugins().manifest(variant) else {
            return Err(format!("unknown variant '{variant}'"));
        };
        super::kind::check_params(params, manifest)?;
        let params = manifest.with_defaults(params);
        let key = serde_json::to_string(&(variant, &params)).unwrap_or_default();
        if let Some(t) = self.templates.get(&key) {
            return Ok((params, Arc::clone(&t)));
        }
        let Some(difficulty) = manifest.difficulties_for(&params).into_iter().next() else {
            return Err(format!(
                "'{variant}' offers no difficulty for these parameters"
            ));
        };
        let kind = Kind {
            variant: variant.to_string(),
            params: params.clone(),
            difficulty,
        };
        let generated = self
            .generator
            .seeded(&kind, "setter-template", self.deadline)
            .await
            .map_err(for_players)?;
        let template = Arc::new(super::setter::template_of(generated));
        self.templates.insert(key, Arc::clone(&template));
        Ok((params, template))
    }
}

/// A failed generation: logged in full, returned as what a player may read.
fn for_players(e: PluginError) -> String {
    tracing::warn!(variant = %e.variant(), error = %e, "generation for a game failed");
    e.for_players()
}
