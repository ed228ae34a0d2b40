//! The lobby: every room by code, creating rooms (the puzzle comes from the
//! variant plugin, off the async workers) and listing the public ones.

use super::games::Games;
use super::kind::Kind;
use super::metrics::Metrics;
use super::records::Boards;
use super::room::{self, Failure, Game, Link, RoomHandle};
use super::session::Identity;
use super::store::{SavedRoom, Store, Write};
use super::tournament::{NewTournament, TournamentSpec};
use super::Config;
use dashmap::DashMap;
use protocol::plugin::{Manifest, Params};
use protocol::wire::{
    ErrorCode, GhostRun, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomSummary,
    TournamentState,
};
use rand::rngs::OsRng;
use rand::Rng;
use std::sync::Arc;

pub use super::limit::MAX_PLAYERS;

/// Public rooms the lobby lists at most (the total says how many there are).
pub const LOBBY_ROOMS: usize = 50;

/// What a `list_rooms` asks for: a page, optionally only one variant's rooms
/// or only rooms with a free seat. The default is the first page of all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoomQuery {
    /// Rooms of the ordered list to skip.
    pub offset: u32,
    /// Only rooms of this variant.
    pub variant: Option<String>,
    /// Only rooms waiting with a free seat.
    pub joinable: bool,
}

/// A room waiting for players with a seat free.
fn joinable(room: &RoomSummary) -> bool {
    room.state == protocol::wire::RoomState::Waiting && room.players < room.settings.max_players
}

/// Characters of room codes: no 0/o, 1/l/i look-alikes.
const CODE_ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// Length of a room code: 31^10, about 2^49 codes, unguessable at any sane
/// join rate.
const CODE_LENGTH: usize = 10;

/// The room registry.
#[derive(Debug)]
pub struct Lobby {
    games: Games,
    config: Config,
    /// The open rooms; each leaves the map as its task ends.
    rooms: Arc<DashMap<String, RoomHandle>>,
    metrics: Arc<Metrics>,
    store: Option<Arc<Store>>,
    /// Rooms each player created, to cap how many they keep open.
    created: DashMap<String, Vec<String>>,
    /// The leaderboards.
    boards: Arc<Boards>,
    /// The race ratings.
    ratings: Arc<super::ratings::Ratings>,
    /// The most recent race reviews.
    reviews: Arc<super::review::Reviews>,
    /// The arena tournaments.
    tournaments: Arc<super::tournaments::Tournaments>,
    /// The public rooms of the other nodes, as they last published them.
    remote_rooms: std::sync::Mutex<Vec<RoomSummary>>,
    /// Held while a quick race is matched, so two players asking together
    /// meet in one race rather than open two.
    quick_matching: tokio::sync::Mutex<()>,
}

/// Racers a quick race holds before it may be passed over for a player far
/// from its mean rating: a smaller race takes anyone (it has to fill to start).
pub const SPREAD_FROM: u32 = 4;

/// How far (shown rating points) a race of [`SPREAD_FROM`] or more racers may
/// be from a player's rating before that player is given a race of their own.
pub const SPREAD: i32 = 300;

/// The open quick races (racers, mean rating) a player rated `mine` may join,
/// best first: nearest in rating, then the fullest. A race of
/// [`SPREAD_FROM`] or more racers more than [`SPREAD`] away is left out, so
/// when enough are waiting the strong and the new race apart; when none is
/// left, the player opens a race.
pub fn quick_race_order(open: &[(u32, Option<i32>)], mine: i32) -> Vec<usize> {
    let gap = |i: usize| open[i].1.map_or(0, |r| (r - mine).abs());
    let mut order: Vec<usize> = (0..open.len())
        .filter(|&i| open[i].0 < SPREAD_FROM || gap(i) <= SPREAD)
        .collect();
    order.sort_by_key(|&i| (gap(i), std::cmp::Reverse(open[i].0)));
    order
}

/// The most players of a quick race: it starts at once when this many are in.
pub const QUICK_RACE_PLAYERS: u32 = 10;

/// A quick race's settings: public, up to [`QUICK_RACE_PLAYERS`], a wrong
/// digit costs 10 s and a hint 30 s (as the lobby's race defaults).
pub fn quick_settings(variant: String, params: Params, difficulty: String) -> RoomSettings {
    RoomSettings {
        variant,
        params,
        difficulty,
        mode: Mode::Race,
        public: true,
        max_players: QUICK_RACE_PLAYERS,
        mistakes: MistakePolicy::Penalty { seconds: 10 },
        hints: HintPolicy::Penalty { seconds: 30 },
        daily: None,
        ghosts: false,
        own_best: false,
        puzzle: None,
        draft: None,
        quick: true,
        rated: true,
        tournament: None,
    }
}

fn new_code() -> String {
    (0..CODE_LENGTH)
        .map(|_| char::from(CODE_ALPHABET[OsRng.gen_range(0..CODE_ALPHABET.len())]))
        .collect()
}

fn invalid(message: impl Into<String>) -> Failure {
    (ErrorCode::Invalid, message.into())
}

/// The ghost of a player's own best game of the day's puzzle.
pub const OWN_BEST: &str = "Your best";

/// The most ghosts a ghost race replays.
const GHOSTS: usize = 5;

/// The longest penalty, per wrong digit or per hint, in seconds.
pub const MAX_PENALTY_SECONDS: u32 = 600;

/// The most lives a room may give.
pub const MAX_LIVES: u32 = 99;

/// Checks room settings against their ranges and the variant's manifest.
pub fn check_settings(settings: &RoomSettings, manifest: &Manifest) -> Result<(), String> {
    check_limits(settings)?;
    // The parameters first: with one the variant does not have, no
    // difficulty is offered and the message would name none.
    super::kind::check_params(&settings.params, manifest)?;
    if !manifest.offers(&settings.params, &settings.difficulty) {
        return Err(format!(
            "'{}' offers the difficulties {} here, not '{}'",
            manifest.id,
            manifest.difficulties_for(&settings.params).join(", "),
            settings.difficulty
        ));
    }
    Ok(())
}

/// The rules settings keep whatever the variant: players, modes, policies in
/// their ranges. A room read back from the database is held to them too.
pub fn check_limits(settings: &RoomSettings) -> Result<(), String> {
    if settings.max_players == 0 || settings.max_players > MAX_PLAYERS {
        return Err(format!("max_players must be 1..={MAX_PLAYERS}"));
    }
    // A tournament's races are quick races only its players are sent to.
    let listed = settings.public || settings.tournament.is_some();
    if settings.quick && (settings.mode != Mode::Race || !listed || settings.daily.is_some()) {
        return Err("a quick race is a public race of a generated puzzle".into());
    }
    if settings.tournament.is_some() && !settings.quick {
        return Err("a tournament's races are quick races".into());
    }
    if settings.rated && settings.mode != Mode::Race {
        return Err("only races are rated".into());
    }
    if (settings.ghosts || settings.own_best)
        && (settings.daily.is_none() || settings.mode != Mode::Solo)
    {
        return Err("ghosts race a solo game of the puzzle of the day (daily and solo)".into());
    }
    match settings.mode {
        Mode::Solo if settings.max_players != 1 || settings.public => {
            return Err("a solo room is private and has one player".into());
        }
        Mode::Coop if settings.mistakes != MistakePolicy::None => {
            return Err("co-op rooms play without a mistake policy".into());
        }
        _ => {}
    }
    match settings.mistakes {
        MistakePolicy::Penalty { seconds } if !(1..=MAX_PENALTY_SECONDS).contains(&seconds) => {
            return Err(format!(
                "a mistake penalty is 1..={MAX_PENALTY_SECONDS} seconds"
            ));
        }
        MistakePolicy::Lives { lives } if !(1..=MAX_LIVES).contains(&lives) => {
            return Err(format!("lives must be 1..={MAX_LIVES}"));
        }
        _ => {}
    }
    if let HintPolicy::Penalty { seconds } = settings.hints {
        if seconds > MAX_PENALTY_SECONDS {
            return Err(format!(
                "a hint penalty is 0..={MAX_PENALTY_SECONDS} seconds"
            ));
        }
    }
    Ok(())
}

impl Lobby {
    /// An empty lobby whose rooms get their puzzles from `games`.
    pub fn new(
        games: Games,
        config: Config,
        metrics: Arc<Metrics>,
        store: Option<Arc<Store>>,
    ) -> Lobby {
        Lobby {
            games,
            boards: Arc::new(Boards::new(config.fastest_cell_ms)),
            ratings: Arc::new(super::ratings::Ratings::new(config.rate_shared_addresses)),
            reviews: Arc::new(super::review::Reviews::default()),
            tournaments: Arc::new(super::tournaments::Tournaments::default()),
            config,
            rooms: Arc::new(DashMap::new()),
            metrics,
            store,
            created: DashMap::new(),
            remote_rooms: std::sync::Mutex::new(Vec::new()),
            quick_matching: tokio::sync::Mutex::new(()),
        }
    }

    /// The store, if the server keeps one.
    pub fn store(&self) -> Option<&Arc<Store>> {
        self.store.as_ref()
    }

    /// The leaderboards (rooms add their finished games to them).
    pub fn boards(&self) -> &Arc<Boards> {
        &self.boards
    }

    /// The arena tournaments.
    pub fn tournaments(&self) -> &Arc<super::tournaments::Tournaments> {
        &self.tournaments
    }

    /// The most recent race reviews (older ones are in the store).
    pub fn reviews(&self) -> &Arc<super::review::Reviews> {
        &self.reviews
    }

    /// The race ratings (rated races move them).
    pub fn ratings(&self) -> &Arc<super::ratings::Ratings> {
        &self.ratings
    }

    /// Up to [`GHOSTS`] recorded first finishes of the room's puzzle of the day,
    /// spread from the fastest to the slowest, as ghost runs (none without a
    /// database, or when it cannot be read: the game goes on without them).
    async fn ghost_runs(
        &self,
        settings: &RoomSettings,
        kind: &Kind,
        game: &Game,
        me: &str,
    ) -> Vec<GhostRun> {
        let (Some(store), Some(date)) = (&self.store, &settings.daily) else {
            return Vec::new();
        };
        let key = super::records::daily_key(date, &kind.variant, &kind.params, &kind.difficulty);
        let records = match store.daily_records(&key).await {
            Ok(records) => records,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the day's records; no ghosts");
                return Vec::new();
            }
        };
        let run = |r: &super::records::GameRecord| {
            super::records::ghost_run(r, game.puzzle.model(), game.puzzle.givens(), &game.solution)
        };
        let mut runs = Vec::new();
        if settings.own_best {
            let best = (records.iter().filter(|r| r.player == me)).min_by_key(|r| r.time_ms);
            if let Some(best) = best {
                runs.push(GhostRun {
                    name: OWN_BEST.to_string(),
                    ..run(best)
                });
            }
        }
        if settings.ghosts {
            let others: Vec<_> = records.into_iter().filter(|r| r.player != me).collect();
            runs.extend(super::records::pick_ghosts(others, GHOSTS).iter().map(run));
        }
        runs
    }

    /// The manifest of a loaded variant.
    pub fn manifest(&self, id: &str) -> Option<&Manifest> {
        self.games.plugins().manifest(id)
    }

    /// Reopens stored unfinished rooms; returns how many. A room whose puzzle no
    /// longer reads is skipped with a warning.
    pub fn restore(&self, rooms: Vec<SavedRoom>) -> usize {
        let mut n = 0;
        for saved in rooms {
            let code = saved.code.clone();
            let seats = u32::try_from(saved.seats.len()).unwrap_or(u32::MAX);
            let limits = check_limits(&saved.settings).and_then(|()| {
                if seats > saved.settings.max_players {
                    return Err(format!(
                        "{seats} seats for {} players",
                        saved.settings.max_players
                    ));
                }
                Ok(())
            });
            if let Err(e) = limits {
                tracing::warn!(room = %code, error = %e, "stored room breaks the rules; not restored");
                continue;
            }
            let game = match Game::from_puzzle(saved.puzzle.clone()) {
                Ok(game) => game,
                Err((_, e)) => {
                    tracing::warn!(room = %code, error = %e, "cannot restore room");
                    continue;
                }
            };
            let handle = room::restore(saved, game, &self.config, self.services());
            self.add_room(code, handle);
            n += 1;
        }
        n
    }

    /// Another node owns room `code` now: its players are sent to `url` and it
    /// closes here.
    pub fn hand_over(&self, code: &str, url: &str) {
        if let Some((_, room)) = self.rooms.remove(code) {
            room.send(room::Command::HandOver {
                url: url.to_string(),
            });
        }
    }

    fn services(&self) -> room::Services {
        room::Services {
            store: self.store.clone(),
            games: self.games.clone(),
            boards: Arc::clone(&self.boards),
            ratings: Arc::clone(&self.ratings),
            reviews: Arc::clone(&self.reviews),
            tournaments: Arc::clone(&self.tournaments),
        }
    }

    /// The manifests of every loaded variant, in id order (the host keeps them so).
    pub fn variants(&self) -> Vec<protocol::plugin::Manifest> {
        self.games.plugins().manifests().cloned().collect()
    }

    /// Every open room here (closed ones are forgotten on the way).
    pub fn handles(&self) -> Vec<RoomHandle> {
        self.rooms.retain(|_, h| !h.is_closed());
        self.rooms.iter().map(|h| h.value().clone()).collect()
    }

    /// The number of open rooms (closed ones are forgotten on the way).
    pub fn open_rooms(&self) -> usize {
        self.rooms.retain(|_, h| !h.is_closed());
        self.rooms.len()
    }

    /// Checks the settings, generates the puzzle, opens the room and seats its
    /// creator as host (frames go to `link`). `leaving` is the room the creator
    /// is in now: if leaving it will close it, it does not count against their
    /// limit of open rooms. A refused request changes nothing.
    pub async fn create(
        &self,
        who: Identity,
        settings: RoomSettings,
        link: Link,
        leaving: Option<&RoomHandle>,
    ) -> Result<RoomHandle, Failure> {
        if settings.quick {
            return Err(invalid("quick races are opened by quick_race"));
        }
        if settings.tournament.is_some() {
            return Err(invalid("tournament races are opened by tournament_race"));
        }
        self.open(who, settings, link, leaving).await
    }

    /// Joins an open quick race of the kind (see [`quick_race_order`]: the
    /// nearest in rating, the fullest first, so races fill and start), or opens
    /// one and seats `who` in it. One matching at a time
    /// (two players asking together meet in one race). Races of other nodes
    /// are [`Lobby::quick_race_elsewhere`]'s.
    pub async fn quick_race(
        &self,
        who: Identity,
        variant: String,
        params: Params,
        difficulty: String,
        link: Link,
        leaving: Option<&RoomHandle>,
    ) -> Result<RoomHandle, Failure> {
        let settings = quick_settings(variant, params, difficulty);
        self.match_quick(who, settings, link, leaving).await
    }

    /// Races in tournament `id`: its open race, or a new one (as a quick race,
    /// among its own races only); `who` joins its standings. Only while it
    /// runs.
    pub async fn tournament_race(
        &self,
        who: Identity,
        id: &str,
        link: Link,
        leaving: Option<&RoomHandle>,
    ) -> Result<RoomHandle, Failure> {
        let Some(spec) = self.tournaments.spec(id) else {
            return Err(invalid(format!("there is no tournament '{id}'")));
        };
        let now = super::clock::now_ms();
        match spec.state(now) {
            TournamentState::Scheduled => {
                let minutes = ((spec.starts_at_ms - now) / 60_000.0).ceil();
                return Err((
                    ErrorCode::WrongState,
                    format!("the tournament starts in {minutes} min"),
                ));
            }
            TournamentState::Finished => {
                return Err((ErrorCode::Closed, "the tournament is over".to_string()));
            }
            TournamentState::Running => {}
        }
        let settings = RoomSettings {
            public: false,
            tournament: Some(spec.id.clone()),
            ..quick_settings(spec.variant, spec.params, spec.difficulty)
        };
        let room = self
            .match_quick(who.clone(), settings, link, leaving)
            .await?;
        self.tournaments.join(id, &who);
        Ok(room)
    }

    /// A new tournament hosted by `who`, checked (its kind as a quick race's,
    /// its name, length and start); stored before it is known.
    pub async fn create_tournament(
        &self,
        who: &Identity,
        asked: NewTournament,
    ) -> Result<TournamentSpec, Failure> {
        let name = super::text::clean_title(&asked.name).map_err(invalid)?;
        let minutes = asked.minutes;
        if !super::tournament::MINUTES.contains(&minutes) {
            return Err(invalid(format!(
                "a tournament lasts 10 to 60 minutes, not {minutes}"
            )));
        }
        if asked.starts_in_minutes > super::tournament::LATEST_START_MINUTES {
            return Err(invalid("a tournament starts within a day"));
        }
        let settings = quick_settings(asked.variant, asked.params, asked.difficulty);
        let (manifest, _) = self.checked_quick(&settings).map_err(invalid)?;
        let spec = TournamentSpec {
            id: super::identity::link_id(),
            name,
            params: manifest.with_defaults(&settings.params),
            variant: settings.variant,
            difficulty: settings.difficulty,
            host: who.id.clone(),
            host_name: who.name.clone(),
            starts_at_ms: super::clock::now_ms() + f64::from(asked.starts_in_minutes) * 60_000.0,
            minutes,
        };
        self.schedule(spec.clone()).await.map_err(|e| {
            tracing::error!(error = %e, "cannot save a tournament");
            (
                ErrorCode::Unavailable,
                "the server cannot save tournaments right now".to_string(),
            )
        })?;
        Ok(spec)
    }

    /// Stores `spec` (once: storing it again changes nothing), then knows it.
    pub async fn schedule(&self, spec: TournamentSpec) -> Result<(), super::store::StoreError> {
        if let Some(store) = &self.store {
            store
                .write(super::store::Write::Tournament(Box::new(spec.clone())))
                .await?;
        }
        self.tournaments.add(spec);
        Ok(())
    }

    /// The hourly tournaments of the configured kinds, this hour's (while it
    /// runs) and the next: scheduled where missing.
    pub async fn schedule_hourly(&self) {
        let now = super::clock::now_ms();
        for kind in &self.config.hourly_tournaments {
            let Some(manifest) = self.games.plugins().manifest(&kind.variant) else {
                continue;
            };
            let params = manifest.with_defaults(&Params::new());
            for next in [false, true] {
                let spec = kind.spec(&params, now, next);
                let over = spec.state(now) == TournamentState::Finished;
                if over || self.tournaments.spec(&spec.id).is_some() {
                    continue;
                }
                if let Err(e) = self.schedule(spec).await {
                    tracing::warn!(error = %e, variant = %kind.variant, "cannot schedule an hourly tournament; trying again in a minute");
                }
            }
        }
    }

    /// Whether every configured hourly kind is one this server offers as a
    /// quick race (checked at start-up: a typo is an error, not silence).
    pub fn check_hourly(&self) -> Result<(), String> {
        for kind in &self.config.hourly_tournaments {
            let settings =
                quick_settings(kind.variant.clone(), Params::new(), kind.difficulty.clone());
            self.checked_quick(&settings).map_err(|e| {
                format!(
                    "--hourly-tournament {}:{}: {e}",
                    kind.variant, kind.difficulty
                )
            })?;
        }
        Ok(())
    }

    /// On a server of several nodes, the code of another node's open quick
    /// race of this kind that `player` would join (by [`quick_race_order`]),
    /// when this node has none: the player is sent there (the other nodes'
    /// public rooms are as fresh as their last notification).
    pub fn quick_race_elsewhere(
        &self,
        player: &str,
        variant: &str,
        params: &Params,
        difficulty: &str,
    ) -> Option<String> {
        let settings = quick_settings(variant.to_string(), params.clone(), difficulty.to_string());
        let (_, kind) = self.checked_quick(&settings).ok()?;
        let open_here = (self.rooms.iter()).any(|r| {
            !r.value().is_closed() && self.is_open_race(&r.value().summary(), &settings, &kind)
        });
        if open_here {
            return None;
        }
        let remote: Vec<RoomSummary> = (self.remote_rooms.lock())
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .filter(|s| self.is_open_race(s, &settings, &kind) && self.rooms.get(&s.code).is_none())
            .cloned()
            .collect();
        let shape: Vec<(u32, Option<i32>)> = remote.iter().map(|s| (s.players, s.rating)).collect();
        let mine = self.ratings.shown_of(&kind, player);
        let first = quick_race_order(&shape, mine).into_iter().next()?;
        Some(remote[first].code.clone())
    }

    /// Joins an open quick race with `settings`' kind (and tournament), or
    /// opens one (see [`Lobby::quick_race`]).
    async fn match_quick(
        &self,
        who: Identity,
        settings: RoomSettings,
        link: Link,
        leaving: Option<&RoomHandle>,
    ) -> Result<RoomHandle, Failure> {
        let (_, kind) = self.checked_quick(&settings).map_err(invalid)?;
        let _one_at_a_time = self.quick_matching.lock().await;
        let open: Vec<(RoomSummary, RoomHandle)> = (self.rooms.iter())
            .map(|r| (r.value().summary(), r.value().clone()))
            .filter(|(s, h)| !h.is_closed() && self.is_open_race(s, &settings, &kind))
            .collect();
        let mine = self.ratings.shown_of(&kind, &who.id);
        let shape: Vec<(u32, Option<i32>)> =
            open.iter().map(|(s, _)| (s.players, s.rating)).collect();
        for i in quick_race_order(&shape, mine) {
            // It may have started or filled since its summary: then the next.
            let room = &open[i].1;
            if room.join(who.clone(), false, link.clone()).await.is_ok() {
                return Ok(room.clone());
            }
        }
        self.open(who, settings, link, leaving).await
    }

    /// Quick-race `settings` checked against their variant: its manifest and
    /// the kind's key.
    fn checked_quick(&self, settings: &RoomSettings) -> Result<(&Manifest, String), String> {
        let manifest = (self.manifest(&settings.variant))
            .ok_or_else(|| format!("unknown variant '{}'", settings.variant))?;
        check_settings(settings, manifest)?;
        Ok((manifest, Kind::of(settings, manifest).key()))
    }

    /// Whether `room` is a quick race with a free seat of `settings`' kind
    /// (keyed `kind`) and tournament.
    fn is_open_race(&self, room: &RoomSummary, settings: &RoomSettings, kind: &str) -> bool {
        // Cheap before the resolved key: the same variant and difficulty.
        room.settings.quick
            && joinable(room)
            && room.settings.variant == settings.variant
            && room.settings.difficulty == settings.difficulty
            && room.settings.tournament == settings.tournament
            && (self.manifest(&room.settings.variant))
                .is_some_and(|m| Kind::of(&room.settings, m).key() == kind)
    }

    /// Opens a room on checked-or-internal settings (see [`Lobby::create`]).
    async fn open(
        &self,
        who: Identity,
        mut settings: RoomSettings,
        link: Link,
        leaving: Option<&RoomHandle>,
    ) -> Result<RoomHandle, Failure> {
        let Some(manifest) = self.games.plugins().manifest(&settings.variant) else {
            return Err(invalid(format!("unknown variant '{}'", settings.variant)));
        };
        check_settings(&settings, manifest).map_err(invalid)?;
        self.forget_creators();
        let closes_on_leave = leaving.filter(|r| r.closes_when_left());
        let open = {
            let mut mine = self.created.entry(who.id.clone()).or_default();
            mine.retain(|code| self.rooms.get(code).is_some_and(|h| !h.is_closed()));
            mine.iter()
                .filter(|code| closes_on_leave.is_none_or(|r| &r.code != *code))
                .count()
        };
        if open >= self.config.rooms_per_player {
            return Err((
                ErrorCode::TooMany,
                format!("you already have {open} open rooms"),
            ));
        }
        if let Some(draft) = settings.draft.take() {
            // A set puzzle is played as a pasted one: the same checks.
            let (_, template) = self
                .games
                .template(&draft.variant, &draft.params)
                .await
                .map_err(invalid)?;
            let built = super::setter::build(&template, &draft)
                .map_err(|e| invalid(format!("set puzzle: {e}")))?;
            let text =
                serde_json::to_string(&built).map_err(|e| invalid(format!("set puzzle: {e}")))?;
            settings.puzzle = Some(text);
        }
        let pasted = match settings.puzzle.take() {
            Some(text) => Some(self.pasted(text, &mut settings).await?),
            None => None,
        };
        // A pasted puzzle may have named another variant.
        let manifest = self
            .games
            .plugins()
            .manifest(&settings.variant)
            .unwrap_or(manifest);
        let kind = Kind::of(&settings, manifest);
        let generated = if let Some(puzzle) = pasted {
            Ok(puzzle)
        } else if settings.daily.is_some() {
            // The day is the server's (UTC), whatever the client sent.
            let today = crate::daily::Date::today_utc();
            settings.daily = Some(today.to_string());
            self.games.daily(&kind, today).await
        } else {
            self.games.puzzle(&kind).await
        }
        .map_err(|e| (ErrorCode::Plugin, e))?;
        let stored = generated.clone();
        let mut game = Game::from_puzzle(generated)?;
        if settings.ghosts || settings.own_best {
            game.ghosts = self.ghost_runs(&settings, &kind, &game, &who.id).await;
        }
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
        self.add_room(code.clone(), handle.clone());
        self.created.entry(who.id.clone()).or_default().push(code);
        Metrics::inc(&self.metrics.rooms_total);
        handle.join(who, false, link).await?;
        Ok(handle)
    }

    /// Registers an open room; it leaves the map by itself once its task has
    /// ended (so the lobby never holds the rooms it ever had, whether or not
    /// anyone lists them).
    fn add_room(&self, code: String, handle: RoomHandle) {
        let (rooms, watched) = (Arc::clone(&self.rooms), handle.clone());
        self.rooms.insert(code.clone(), handle);
        tokio::spawn(async move {
            watched.closed().await;
            rooms.remove_if(&code, |_, h| h.is_closed());
        });
    }

    /// Forgets the creators whose rooms have all closed, once they clearly
    /// outnumber the open rooms (so memory does not grow with every player who
    /// ever made a room, and the sweep is rare).
    fn forget_creators(&self) {
        if self.created.len() <= 2 * self.rooms.len() + 64 {
            return;
        }
        self.rooms.retain(|_, h| !h.is_closed());
        self.created.retain(|_, codes| {
            codes.retain(|code| self.rooms.contains_key(code));
            !codes.is_empty()
        });
    }

    /// A puzzle the players brought: read and checked off the async threads (a
    /// count to two and a grade), and the room's settings made the puzzle's own
    /// (its variant, parameters and graded tier).
    async fn pasted(
        &self,
        text: String,
        settings: &mut RoomSettings,
    ) -> Result<protocol::PuzzleV1, Failure> {
        if settings.daily.is_some() {
            return Err(invalid(String::from(
                "the puzzle of the day is the server's, not a pasted one",
            )));
        }
        let pasted = tokio::task::spawn_blocking(move || {
            crate::allocator::with_cache(|| super::pasted::read_pasted(&text))
        })
        .await
        .map_err(|e| (ErrorCode::Unavailable, e.to_string()))?
        .map_err(|e| invalid(format!("pasted puzzle: {e}")))?;
        let Some(manifest) = self.games.plugins().manifest(&pasted.variant) else {
            return Err(invalid(format!(
                "pasted puzzle: this server has no '{}' variant",
                pasted.variant
            )));
        };
        settings.variant = pasted.variant;
        settings.params = pasted.params;
        if let Some(tier) = pasted
            .difficulty
            .filter(|d| manifest.offers(&settings.params, d))
        {
            settings.difficulty = tier;
        }
        Ok(pasted.puzzle)
    }

    /// Where rooms' puzzles (and the setter's templates) come from.
    pub fn games(&self) -> &Games {
        &self.games
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

    /// The lobby's answer to `list_rooms`: the page at `query.offset` of the
    /// public rooms that match it, the most relevant first — waiting with a free
    /// seat, then being played (to watch), then the rest; the busiest first —
    /// and how many match in all. Pages hold [`LOBBY_ROOMS`] rooms.
    pub fn rooms_message(&self, query: &RoomQuery) -> protocol::wire::ServerMessage {
        let mut rooms: Vec<RoomSummary> = self
            .public_rooms()
            .into_iter()
            .filter(|r| {
                query
                    .variant
                    .as_ref()
                    .is_none_or(|v| &r.settings.variant == v)
            })
            .filter(|r| !query.joinable || joinable(r))
            .collect();
        let total = u32::try_from(rooms.len()).unwrap_or(u32::MAX);
        let relevance = |r: &RoomSummary| {
            let watchable = matches!(
                r.state,
                protocol::wire::RoomState::Countdown | protocol::wire::RoomState::Playing
            );
            (!joinable(r), !watchable, std::cmp::Reverse(r.connected))
        };
        rooms.sort_by(|a, b| {
            relevance(a)
                .cmp(&relevance(b))
                .then_with(|| a.code.cmp(&b.code))
        });
        let offset = query.offset.min(total);
        let page = rooms
            .into_iter()
            .skip(offset as usize)
            .take(LOBBY_ROOMS)
            .collect();
        protocol::wire::ServerMessage::Rooms {
            rooms: page,
            total,
            offset,
        }
    }

    /// The open public rooms with someone in them, this node's and the other
    /// nodes', in no order (closed ones are forgotten on the way).
    pub fn public_rooms(&self) -> Vec<RoomSummary> {
        let mut rooms = self.local_public_rooms();
        rooms.extend(
            self.remote_rooms
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .filter(|r| self.rooms.get(&r.code).is_none())
                .cloned(),
        );
        rooms
    }

    /// The public rooms this node serves, by code.
    pub fn local_public_rooms(&self) -> Vec<RoomSummary> {
        self.rooms.retain(|_, h| !h.is_closed());
        let mut rooms: Vec<RoomSummary> = self
            .rooms
            .iter()
            .map(|h| h.summary())
            // Public, and someone is there: a room whose players all went away
            // (waiting out the grace window) is no place to join.
            .filter(|s| s.settings.public && s.connected > 0)
            .collect();
        rooms.sort_by(|a, b| a.code.cmp(&b.code));
        rooms
    }

    /// The public rooms the other nodes serve (several nodes only); joining one
    /// redirects to its node.
    pub fn set_remote_rooms(&self, rooms: Vec<RoomSummary>) {
        *self.remote_rooms.lock().unwrap_or_else(|p| p.into_inner()) = rooms;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_races_fill_the_fullest_among_the_nearest_in_rating() {
        // Newcomers all: the fullest first.
        assert_eq!(
            quick_race_order(&[(1, Some(1500)), (3, Some(1500))], 1500),
            [1, 0]
        );
        // Nearer in rating wins over fuller.
        assert_eq!(
            quick_race_order(&[(3, Some(1900)), (2, Some(1520))], 1500),
            [1, 0]
        );
    }

    #[test]
    fn a_big_race_far_from_my_rating_is_left_to_others_a_small_one_never() {
        // Four or more racers 301+ away: not mine; a new race opens for me.
        assert!(quick_race_order(&[(SPREAD_FROM, Some(1500 + SPREAD + 1))], 1500).is_empty());
        assert_eq!(
            quick_race_order(&[(SPREAD_FROM, Some(1500 + SPREAD))], 1500),
            [0]
        );
        // A smaller race takes anyone: it has to fill to start.
        assert_eq!(
            quick_race_order(&[(SPREAD_FROM - 1, Some(2400))], 1500),
            [0]
        );
    }
}
