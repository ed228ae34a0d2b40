//! The lobby: every room by code, creating rooms (the puzzle comes from the
//! variant plugin, off the async workers) and listing the public ones.

use super::metrics::Metrics;
use super::pool::{Kind, Pool};
use super::room::{self, Failure, Game, Outbox, RoomHandle};
use super::session::{random_hex, Identity};
use super::store::{SavedRoom, Store, Write};
use super::Config;
use crate::plugins::PluginHost;
use dashmap::DashMap;
use protocol::plugin::GenerateRequest;
use protocol::wire::{ErrorCode, MistakePolicy, Mode, RoomSettings, RoomSummary};
use rand::rngs::OsRng;
use rand::Rng;
use std::sync::Arc;

/// The most players a room may hold.
pub const MAX_PLAYERS: u32 = 16;

/// Characters of room codes: no 0/o, 1/l/i look-alikes.
const CODE_ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// Length of a room code: 31^10, about 2^49 codes, unguessable at any sane
/// join rate.
const CODE_LENGTH: usize = 10;

/// The room registry.
#[derive(Debug)]
pub struct Lobby {
    plugins: Arc<PluginHost>,
    config: Config,
    rooms: DashMap<String, RoomHandle>,
    metrics: Arc<Metrics>,
    store: Option<Arc<Store>>,
    /// Rooms each player created, to cap how many they keep open.
    created: DashMap<String, Vec<String>>,
    pool: Arc<Pool>,
}

fn new_code() -> String {
    (0..CODE_LENGTH)
        .map(|_| char::from(CODE_ALPHABET[OsRng.gen_range(0..CODE_ALPHABET.len())]))
        .collect()
}

/// The game for a puzzle with its solution: the engine's view, and the public
/// view without the solution.
pub fn game_from(puzzle: protocol::PuzzleV1) -> Result<Game, Failure> {
    let loaded = engine::v1::from_v1(&puzzle).map_err(|e| (ErrorCode::Plugin, e.to_string()))?;
    let solution = loaded.solution.ok_or_else(|| {
        (
            ErrorCode::Plugin,
            "the plugin shipped no solution".to_string(),
        )
    })?;
    let mut public = puzzle.clone();
    public.solution = None;
    Ok(Game {
        puzzle: loaded.puzzle,
        solution,
        public,
        full: puzzle,
    })
}

fn invalid(message: impl Into<String>) -> Failure {
    (ErrorCode::Invalid, message.into())
}

impl Lobby {
    /// An empty lobby generating puzzles with `plugins`.
    pub fn new(
        plugins: Arc<PluginHost>,
        config: Config,
        metrics: Arc<Metrics>,
        store: Option<Arc<Store>>,
        pool: Arc<Pool>,
    ) -> Lobby {
        Lobby {
            plugins,
            config,
            rooms: DashMap::new(),
            metrics,
            store,
            created: DashMap::new(),
            pool,
        }
    }

    /// Reopens stored unfinished rooms; returns how many. A room whose puzzle no
    /// longer reads is skipped with a warning.
    pub fn restore(&self, rooms: Vec<SavedRoom>) -> usize {
        let mut n = 0;
        for saved in rooms {
            let code = saved.code.clone();
            let game = match game_from(saved.puzzle.clone()) {
                Ok(game) => game,
                Err((_, e)) => {
                    tracing::warn!(room = %code, error = %e, "cannot restore room");
                    continue;
                }
            };
            let handle = room::restore(saved, game, &self.config, self.services());
            self.rooms.insert(code, handle);
            n += 1;
        }
        n
    }

    fn services(&self) -> room::Services {
        room::Services {
            store: self.store.clone(),
            plugins: Arc::clone(&self.plugins),
        }
    }

    /// The manifests of every loaded variant, in id order (the host keeps them so).
    pub fn variants(&self) -> Vec<protocol::plugin::Manifest> {
        self.plugins.manifests().cloned().collect()
    }

    /// The number of open rooms (closed ones are forgotten on the way).
    pub fn open_rooms(&self) -> usize {
        self.rooms.retain(|_, h| !h.is_closed());
        self.rooms.len()
    }

    /// Checks the settings, generates the puzzle, opens the room and seats its
    /// creator as host (frames go to `out`).
    pub async fn create(
        &self,
        who: Identity,
        settings: RoomSettings,
        out: Outbox,
    ) -> Result<RoomHandle, Failure> {
        if settings.max_players == 0 || settings.max_players > MAX_PLAYERS {
            return Err(invalid(format!("max_players must be 1..={MAX_PLAYERS}")));
        }
        if settings.mode == Mode::Solo && (settings.max_players != 1 || settings.public) {
            return Err(invalid("a solo room is private and has one player"));
        }
        if settings.mode == Mode::Coop && settings.mistakes != MistakePolicy::None {
            return Err(invalid("co-op rooms play without a mistake policy"));
        }
        let open = {
            let mut mine = self.created.entry(who.id.clone()).or_default();
            mine.retain(|code| self.rooms.get(code).is_some_and(|h| !h.is_closed()));
            mine.len()
        };
        if open >= self.config.rooms_per_player {
            return Err((
                ErrorCode::TooMany,
                format!("you already have {open} open rooms"),
            ));
        }
        let Some(manifest) = self.plugins.manifest(&settings.variant) else {
            return Err(invalid(format!("unknown variant '{}'", settings.variant)));
        };
        let kind = Kind {
            variant: settings.variant.clone(),
            params: manifest.with_defaults(&settings.params),
            difficulty: settings.difficulty.clone(),
        };
        let generated = match self.pool.take(&kind).await {
            Some(puzzle) => puzzle,
            None => self.generate(&kind).await?,
        };
        let stored = generated.clone();
        let game = game_from(generated)?;
        let code = new_code();
        if let Some(store) = &self.store {
            let write = Write::Room {
                code: code.clone(),
                settings: settings.clone(),
                puzzle: Box::new(stored),
            };
            store
                .write(write)
                .await
                .map_err(|e| (ErrorCode::Unavailable, format!("cannot save the room: {e}")))?;
        }
        let handle = room::spawn(code.clone(), settings, game, &self.config, self.services());
        self.rooms.insert(code.clone(), handle.clone());
        self.created.entry(who.id.clone()).or_default().push(code);
        Metrics::inc(&self.metrics.rooms_total);
        handle.join(who, false, out).await?;
        Ok(handle)
    }

    /// A fresh puzzle from the plugin, off the async workers.
    async fn generate(&self, kind: &Kind) -> Result<protocol::PuzzleV1, Failure> {
        let request = GenerateRequest {
            params: kind.params.clone(),
            difficulty: kind.difficulty.clone(),
            seed: random_hex(8),
        };
        let plugins = Arc::clone(&self.plugins);
        let (variant, deadline) = (kind.variant.clone(), self.config.generate_deadline);
        let started = std::time::Instant::now();
        let generated =
            tokio::task::spawn_blocking(move || plugins.generate(&variant, &request, deadline))
                .await
                .map_err(|e| (ErrorCode::Plugin, format!("generation task failed: {e}")))?
                .map_err(|e| (ErrorCode::Plugin, e.to_string()))?;
        Metrics::inc(&self.metrics.generate_total);
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.metrics
            .generate_micros_total
            .fetch_add(micros, std::sync::atomic::Ordering::Relaxed);
        Ok(generated)
    }

    /// The room with this code, if it is still open.
    pub fn get(&self, code: &str) -> Option<RoomHandle> {
        let handle = self.rooms.get(code).map(|h| h.clone())?;
        if handle.is_closed() {
            self.rooms.remove(code);
            return None;
        }
        Some(handle)
    }

    /// The open public rooms (closed ones are forgotten on the way).
    pub fn public_rooms(&self) -> Vec<RoomSummary> {
        self.rooms.retain(|_, h| !h.is_closed());
        let mut rooms: Vec<RoomSummary> = self
            .rooms
            .iter()
            .map(|h| h.summary())
            .filter(|s| s.settings.public)
            .collect();
        rooms.sort_by(|a, b| a.code.cmp(&b.code));
        rooms
    }
}
