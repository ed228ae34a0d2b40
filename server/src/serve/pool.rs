//! Pre-generated puzzles, so creating a room is instant even for 25x25: two of
//! every (variant, parameters, difficulty) at first, then more of the kinds
//! people play — each game asked of a kind lets its pool grow by two more, up
//! to `--pool-size` (250 by default) — grown in the background one puzzle at a
//! time and paced (so generation never takes both cores, nor more than a
//! quarter of one), and stored, so a restart does not start empty. A server
//! nobody plays on stops generating once every kind has its two. Each puzzle is
//! served once, and no two puzzles of a kind are equal up to the variant's
//! symmetries (`engine::canon`): a generated copy in disguise is dropped, and
//! a kind whose generations keep repeating (a 4x4 has few puzzles) stops
//! growing until a puzzle is taken.

use super::generator::Generator;
pub use super::kind::Kind;
use super::metrics::Metrics;
use super::plugin_health::{Backoff, PluginHealth};
use super::store::{Store, Write};
use dashmap::DashMap;
use protocol::PuzzleV1;
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How long one pool puzzle may take: generous, since nobody waits for it
/// (the largest kinds take tens of seconds; a game asked for now has its own,
/// shorter deadline).
const GENERATE_DEADLINE: Duration = Duration::from_secs(300);

/// The pool.
#[derive(Debug)]
pub struct Pool {
    generator: Generator,
    store: Option<Arc<Store>>,
    metrics: Arc<Metrics>,
    size: usize,
    /// Each kind's puzzles: seed, puzzle and its form's fingerprint.
    puzzles: DashMap<String, VecDeque<(String, PuzzleV1, Option<u64>)>>,
    /// How many puzzles each kind's pool aims for: [`QUICK_FILL`], plus
    /// [`DEMAND_STEP`] per game asked of it, at most the pool size.
    wanted: DashMap<String, usize>,
    taken: Notify,
    health: PluginHealth,
    /// The canonical forms (fingerprints) of the puzzles each kind holds.
    forms: DashMap<String, HashSet<u64>>,
    /// How many generations in a row each kind repeated a held form.
    repeats: DashMap<String, usize>,
}

/// After this many generations in a row that repeat a puzzle it holds, a
/// kind stops growing until one of its puzzles is taken.
const REPEATS_TO_STOP: usize = 8;

/// The fingerprint of a puzzle's canonical form, when it loads.
fn form_of(puzzle: &PuzzleV1) -> Option<u64> {
    let loaded = engine::v1::from_v1(puzzle).ok()?;
    let (frame, form) =
        engine::canon::canonical_form(loaded.puzzle.model(), loaded.puzzle.givens());
    Some(form.fingerprint(&frame))
}

impl Pool {
    /// A pool keeping `size` puzzles of each kind (0 disables it).
    pub fn new(
        generator: Generator,
        store: Option<Arc<Store>>,
        metrics: Arc<Metrics>,
        size: usize,
    ) -> Pool {
        Pool {
            generator,
            store,
            metrics,
            size,
            puzzles: DashMap::new(),
            wanted: DashMap::new(),
            taken: Notify::new(),
            health: PluginHealth::new(Backoff::default()),
            forms: DashMap::new(),
            repeats: DashMap::new(),
        }
    }

    /// The same pool, backing off from failing variants by `policy`.
    pub fn with_backoff(mut self, policy: Backoff) -> Pool {
        self.health = PluginHealth::new(policy);
        self
    }

    /// The plugins it generates with.
    pub fn plugins(&self) -> &Arc<crate::plugins::PluginHost> {
        self.generator.plugins()
    }

    /// How each variant's background generation is faring.
    pub fn health(&self) -> &PluginHealth {
        &self.health
    }

    /// Every kind the loaded plugins offer.
    pub fn all_kinds(&self) -> Vec<Kind> {
        self.generator
            .plugins()
            .manifests()
            .flat_map(|m| {
                m.parameter_sets().into_iter().flat_map(move |params| {
                    m.difficulties_for(&params).into_iter().map(move |d| Kind {
                        variant: m.id.clone(),
                        params: params.clone(),
                        difficulty: d,
                    })
                })
            })
            .collect()
    }

    /// Puts back puzzles stored before a restart.
    pub fn restore(&self, stored: Vec<(String, String, PuzzleV1)>) {
        for (seed, key, puzzle) in stored {
            let form = form_of(&puzzle);
            if let Some(form) = form {
                self.forms.entry(key.clone()).or_default().insert(form);
            }
            self.puzzles
                .entry(key)
                .or_default()
                .push_back((seed, puzzle, form));
        }
    }

    /// Puzzles held right now.
    pub fn len(&self) -> usize {
        self.puzzles.iter().map(|q| q.len()).sum()
    }

    /// Whether the pool holds no puzzle.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A ready puzzle of this kind, if the pool has one (the refill is woken).
    /// A puzzle the store will not give up (another node sharing the database
    /// took it, or the store fails) is skipped: no puzzle is played twice.
    /// Either way the kind is in demand: its pool may grow.
    pub async fn take(&self, kind: &Kind) -> Option<PuzzleV1> {
        let size = self.size;
        self.wanted
            .entry(kind.key())
            .and_modify(|w| *w = (*w + DEMAND_STEP).min(size))
            .or_insert((QUICK_FILL + DEMAND_STEP).min(size));
        self.repeats.remove(&kind.key());
        loop {
            let taken = self
                .puzzles
                .get_mut(&kind.key())
                .and_then(|mut q| q.pop_front());
            let Some((seed, puzzle, form)) = taken else {
                Metrics::inc(&self.metrics.pool_misses_total);
                return None;
            };
            if let (Some(form), Some(mut forms)) = (form, self.forms.get_mut(&kind.key())) {
                forms.remove(&form);
            }
            self.taken.notify_one();
            if let Some(store) = &self.store {
                if let Err(e) = store.write(Write::PoolTake { seed }).await {
                    tracing::warn!(error = %e, "a pool puzzle could not be taken; skipped");
                    continue;
                }
            }
            Metrics::inc(&self.metrics.pool_hits_total);
            return Some(puzzle);
        }
    }

    /// Generates one puzzle for every kind below the target; returns how many.
    pub async fn fill_once(&self, kinds: &[Kind]) -> usize {
        let mut made = 0;
        for kind in kinds {
            while self.held(kind) < self.size {
                let before = self.held(kind);
                if self.add_one(kind).await.is_none() {
                    break;
                }
                made += usize::from(self.held(kind) > before);
            }
        }
        made
    }

    /// How many puzzles of `kind` the pool holds.
    pub fn held(&self, kind: &Kind) -> usize {
        self.puzzles.get(&kind.key()).map_or(0, |q| q.len())
    }

    /// How many puzzles of `kind` the refill aims for now (see [`Pool::take`]).
    pub fn wanted(&self, kind: &Kind) -> usize {
        self.wanted
            .get(&kind.key())
            .map_or(QUICK_FILL, |w| *w)
            .min(self.size)
    }

    /// Generates and keeps one puzzle of `kind` (unless it is a held one in
    /// disguise); how long the generation took, or `None` if it failed
    /// (recorded in the variant's health), could not be stored, the variant
    /// is backing off, or the kind keeps repeating itself.
    async fn add_one(&self, kind: &Kind) -> Option<Duration> {
        let key = kind.key();
        let started = std::time::Instant::now();
        if !self.health.allows(&kind.variant, started)
            || self
                .repeats
                .get(&key)
                .is_some_and(|r| *r >= REPEATS_TO_STOP)
        {
            return None;
        }
        let (seed, puzzle) = match self.generator.fresh(kind, GENERATE_DEADLINE).await {
            Ok(generated) => generated,
            Err(e) => {
                Metrics::inc(&self.metrics.pool_failures_total);
                let error = format!("{key}: {e}");
                self.health
                    .failed(&kind.variant, &error, std::time::Instant::now());
                return None;
            }
        };
        self.health.succeeded(&kind.variant);
        let took = started.elapsed();
        let copy = puzzle.clone();
        let form =
            tokio::task::spawn_blocking(move || crate::allocator::with_cache(|| form_of(&copy)))
                .await
                .ok()
                .flatten();
        if let Some(form) = form {
            if !self.forms.entry(key.clone()).or_default().insert(form) {
                *self.repeats.entry(key.clone()).or_default() += 1;
                tracing::debug!(kind = %key, "a generated puzzle repeats a held one; dropped");
                return Some(took);
            }
        }
        self.repeats.remove(&key);
        if let Some(store) = &self.store {
            let write = Write::PoolAdd {
                seed: seed.clone(),
                key: key.clone(),
                puzzle: Box::new(puzzle.clone()),
            };
            store.write(write).await.ok()?;
        }
        self.puzzles
            .entry(key)
            .or_default()
            .push_back((seed, puzzle, form));
        Some(took)
    }

    /// Keeps every kind topped up until the process ends: first every kind to
    /// [`QUICK_FILL`] puzzles (so a first game of any kind finds one), then,
    /// round-robin, one more per kind at a time up to what the kind is wanted
    /// ([`Pool::wanted`]: more for kinds people play), paced so the background
    /// generation uses at most a quarter of one plugin worker's time: after a
    /// generation of `t`, it rests `3t`. Play never waits behind it.
    pub async fn refill_forever(self: Arc<Self>) {
        if self.size == 0 {
            return;
        }
        let kinds = self.all_kinds();
        self.refill(&kinds, |_, _, rest| tokio::time::sleep(rest))
            .await;
    }

    /// The refill loop of [`Pool::refill_forever`] over `kinds`; after each
    /// paced generation it awaits `pace(kind, took, rest)` (the real loop sleeps
    /// `rest`; a test records the schedule). A variant that fails is skipped
    /// while it backs off ([`PluginHealth`]); the loop wakes when a puzzle is
    /// taken or a back-off ends. Never returns.
    pub async fn refill<P, F>(&self, kinds: &[Kind], mut pace: P)
    where
        P: FnMut(&Kind, Duration, Duration) -> F,
        F: std::future::Future<Output = ()>,
    {
        loop {
            let quick = self.size.min(QUICK_FILL);
            for kind in kinds {
                while self.held(kind) < quick {
                    if self.add_one(kind).await.is_none() {
                        break;
                    }
                }
            }
            let mut grew = true;
            while grew {
                grew = false;
                for kind in kinds {
                    if self.held(kind) >= self.wanted(kind) {
                        continue;
                    }
                    if let Some(took) = self.add_one(kind).await {
                        grew = true;
                        pace(kind, took, took * PACE_REST).await;
                    }
                }
            }
            let taken = self.taken.notified();
            match self.health.next_retry() {
                Some(at) => {
                    tokio::select! {
                        () = taken => {}
                        () = tokio::time::sleep_until(at.into()) => {}
                    }
                }
                None => taken.await,
            }
        }
    }
}

/// Puzzles of each kind generated first, before any kind grows further.
const QUICK_FILL: usize = 2;

/// How much more of a kind its pool aims for with each game asked of it.
const DEMAND_STEP: usize = 2;

/// The rest after each background generation, in multiples of its time.
const PACE_REST: u32 = 3;
