//! Finished games, recorded, and the leaderboards built from them.
//!
//! A record is written when a race or solo game ends, for each player who
//! finished, only after the room has replayed that player's move log from the
//! givens and reached the solution at the time the server measured (no time ever
//! comes from a client). Records are durable (the store's `records` table) and
//! the boards are rebuilt from them at start-up; queries are answered from
//! memory.
//!
//! The daily board of a puzzle of the day counts each player's first finished
//! game of that puzzle (a second try, knowing the grid, does not count), ordered
//! by time with penalties, then by who finished first. The weekly (since Monday
//! 00:00 UTC) and all-time boards of a variant, parameters and difficulty hold
//! each player's best time. A player's profile has their streak of days with a
//! solved puzzle of the day (by their local date) and their stats.

use dashmap::DashMap;
use protocol::plugin::Params;
use protocol::wire::{BoardKind, BoardRow, FlaggedTime, GhostRun, Mode, ServerMessage, StatRow};
use serde::{Deserialize, Serialize};

/// One move of a recorded game: when (ms from the start) and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMove {
    /// Milliseconds from the start.
    pub at_ms: u64,
    /// Row.
    pub row: u32,
    /// Column.
    pub col: u32,
    /// The value (0 erases).
    pub value: u32,
}

/// One player's finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Player id.
    pub player: String,
    /// Display name at the time.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// The date of the puzzle of the day, for a daily game.
    pub daily: Option<String>,
    /// Race or solo.
    pub mode: Mode,
    /// The time the server measured, penalties included, ms.
    pub time_ms: u64,
    /// Of which penalties (mistakes and hints), ms.
    pub penalty_ms: u64,
    /// Wrong digits.
    pub mistakes: u32,
    /// Hints taken.
    pub hints: u32,
    /// When the game ended (ms since the Unix epoch).
    pub at_ms: f64,
    /// The room it was played in.
    pub room: String,
    /// Every value the player put, in order.
    pub moves: Vec<RecordedMove>,
    /// The fastest plausible solving time of this puzzle, ms (penalties
    /// aside): a finish faster than it is kept but ranked nowhere. 0 in
    /// records written before there was a floor.
    #[serde(default)]
    pub plausible_ms: u64,
}

impl GameRecord {
    /// Whether the solving time (penalties aside) is under the puzzle's
    /// fastest plausible time: a scripted solve, flagged and not ranked.
    pub fn flagged(&self) -> bool {
        under_floor(self.time_ms, self.penalty_ms, self.plausible_ms)
    }

    /// The key of the daily board this record belongs to, if any.
    pub fn daily_key(&self) -> Option<String> {
        let date = self.daily.as_ref()?;
        Some(daily_key(
            date,
            &self.variant,
            &self.params,
            &self.difficulty,
        ))
    }

    /// The key of the weekly and all-time boards it belongs to.
    pub fn kind_key(&self) -> String {
        kind_key(&self.variant, &self.params, &self.difficulty)
    }
}

/// The fastest plausible time to solve a puzzle with `empty_cells` to fill at
/// `difficulty`: `cell_ms` per empty cell on an easy puzzle, half as much
/// again per tier above it (medium 1.5x, hard 2x, extreme 3x). With the
/// server's default of 300 ms a 9x9 easy of 45 empty cells is 13.5 s — well
/// under the fastest human solves known, far over a script's milliseconds.
pub fn fastest_plausible_ms(empty_cells: usize, difficulty: &str, cell_ms: u64) -> u64 {
    let per_tier = match difficulty {
        "medium" => 1.5,
        "hard" => 2.0,
        "extreme" => 3.0,
        _ => 1.0,
    };
    (empty_cells as f64 * cell_ms as f64 * per_tier) as u64
}

/// Whether a finish of `time_ms` with `penalty_ms` of penalties in it was
/// solved faster than the puzzle's floor `plausible_ms` (penalties do not lift
/// a scripted solve over it).
pub fn under_floor(time_ms: u64, penalty_ms: u64, plausible_ms: u64) -> bool {
    time_ms.saturating_sub(penalty_ms) < plausible_ms
}

/// The key of the daily board of (date, variant, resolved parameters, difficulty).
pub fn daily_key(date: &str, variant: &str, params: &Params, difficulty: &str) -> String {
    serde_json::to_string(&(date, variant, params, difficulty)).unwrap_or_default()
}

/// The key of the weekly and all-time boards of (variant, resolved parameters,
/// difficulty).
pub fn kind_key(variant: &str, params: &Params, difficulty: &str) -> String {
    serde_json::to_string(&(variant, params, difficulty)).unwrap_or_default()
}

/// One finished game on a board.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    player: String,
    name: String,
    time_ms: u64,
    penalty_ms: u64,
    /// When it ended (ms since the Unix epoch).
    at_ms: f64,
    /// Order of arrival, to break ties.
    order: u64,
}

impl Entry {
    fn sort_key(&self) -> (u64, u64) {
        (self.time_ms, self.order)
    }
}

/// A kind's weekly board: the week it holds (its Monday, 00:00 UTC, in ms)
/// and each player's best finish in it — its size grows with the week's
/// players, not with their games.
#[derive(Debug, Default)]
struct Week {
    monday_ms: Option<f64>,
    best: std::collections::HashMap<String, Entry>,
}

impl Week {
    /// Counts a finish in: a new week starts the board over; a finish from a
    /// week before the one held is too late to show.
    fn add(&mut self, entry: &Entry) {
        let monday = monday_ms(week_start(entry.at_ms));
        match self.monday_ms {
            Some(held) if monday < held => return,
            Some(held) if monday == held => {}
            _ => {
                self.monday_ms = Some(monday);
                self.best.clear();
            }
        }
        let slot = self
            .best
            .entry(entry.player.clone())
            .or_insert_with(|| entry.clone());
        if entry.sort_key() < slot.sort_key() {
            *slot = entry.clone();
        }
    }

    /// The board of the week starting at `monday_ms`, fastest first (empty if
    /// this is another week).
    fn board(&self, monday_ms: f64) -> Vec<Entry> {
        if self.monday_ms != Some(monday_ms) {
            return Vec::new();
        }
        let mut out: Vec<Entry> = self.best.values().cloned().collect();
        out.sort_by_key(Entry::sort_key);
        out
    }
}

/// What a player's profile needs of their finished games, kept per player in
/// a bounded size however many games they play: per kind, the count, the
/// best, the running average and the last [`RECENT`] times; and when each
/// daily puzzle was solved (for streaks, at most a few a day).
#[derive(Debug, Default)]
struct Played {
    /// One row per (variant, difficulty), in first-finish order.
    stats: Vec<StatRow>,
    /// When each daily finish came, ms since the Unix epoch.
    daily_at: Vec<f64>,
}

impl Played {
    /// Counts one finish in.
    fn add(&mut self, record: &GameRecord) {
        if record.daily.is_some() {
            self.daily_at.push(record.at_ms);
        }
        let i = match self
            .stats
            .iter()
            .position(|s| s.variant == record.variant && s.difficulty == record.difficulty)
        {
            Some(i) => i,
            None => {
                self.stats.push(StatRow {
                    variant: record.variant.clone(),
                    difficulty: record.difficulty.clone(),
                    solved: 0,
                    best_ms: u64::MAX,
                    average_ms: 0,
                    recent_ms: Vec::new(),
                });
                self.stats.len() - 1
            }
        };
        let s = &mut self.stats[i];
        let t = record.time_ms;
        s.average_ms = (s.average_ms * u64::from(s.solved) + t) / u64::from(s.solved + 1);
        s.solved += 1;
        s.best_ms = s.best_ms.min(t);
        s.recent_ms.push(t);
        if s.recent_ms.len() > RECENT {
            s.recent_ms.remove(0);
        }
    }
}

/// Rows shown above and below the player's own.
const AROUND: usize = 2;

/// Rows at the top of a board.
const TOP: usize = 10;

/// Times in a stat row's trend.
const RECENT: usize = 10;

/// The furthest a declared local time may be from UTC.
const MAX_OFFSET_MIN: i32 = 14 * 60;

const DAY_MS: f64 = 86_400_000.0;

/// What a board query asks for.
pub struct BoardQuery<'a> {
    /// Which board.
    pub board: BoardKind,
    /// Variant id.
    pub variant: &'a str,
    /// Every parameter, defaults filled in.
    pub params: &'a Params,
    /// Difficulty.
    pub difficulty: &'a str,
    /// The daily board's date.
    pub date: crate::daily::Date,
    /// Now, ms since the Unix epoch (the weekly board's week).
    pub now_ms: f64,
    /// The asking player.
    pub me: &'a str,
}

/// The leaderboards and profiles.
#[derive(Debug, Default)]
pub struct Boards {
    /// Daily boards, sorted, one entry per player.
    daily: DashMap<String, Vec<Entry>>,
    /// Each (variant, parameters, difficulty)'s weekly board: each player's
    /// best finish of the current week (older weeks are let go).
    weeks: DashMap<String, Week>,
    /// All-time boards: each player's best finish of each kind, sorted.
    all_time: DashMap<String, Vec<Entry>>,
    /// The sort key of each (kind, player)'s all-time entry.
    all_time_best: DashMap<(String, String), (u64, u64)>,
    /// Each player's profile, summed up.
    players: DashMap<String, Played>,
    /// Finishes faster than plausible, by (board key, player): the daily
    /// board's and the kind's, each player's last. Never ranked.
    flagged: DashMap<(String, String), FlaggedTime>,
    /// Players who hide from public boards: others see them unnamed.
    hidden: dashmap::DashSet<String>,
    arrivals: std::sync::atomic::AtomicU64,
    /// The fastest plausible time per empty cell of an easy puzzle, ms
    /// ([`fastest_plausible_ms`]); 0 ranks every finish.
    fastest_cell_ms: u64,
}

impl Boards {
    /// Empty boards that flag finishes faster than `fastest_cell_ms` per
    /// empty cell (see [`fastest_plausible_ms`]).
    pub fn new(fastest_cell_ms: u64) -> Boards {
        Boards {
            fastest_cell_ms,
            ..Boards::default()
        }
    }

    /// The fastest plausible time of a puzzle with `empty_cells` at
    /// `difficulty`, by these boards' floor.
    pub fn plausible_ms(&self, empty_cells: usize, difficulty: &str) -> u64 {
        fastest_plausible_ms(empty_cells, difficulty, self.fastest_cell_ms)
    }

    /// Adds a record to the boards it belongs to and to its player's profile;
    /// a flagged one ([`GameRecord::flagged`]) to neither: it is only shown
    /// to its player as not ranked (and a puzzle of the day's first try it
    /// was, so a later one does not count).
    pub fn add(&self, record: &GameRecord) {
        let kind = record.kind_key();
        let daily = record.daily_key();
        if record.flagged() {
            let flag = FlaggedTime {
                time_ms: record.time_ms.saturating_sub(record.penalty_ms),
                plausible_ms: record.plausible_ms,
            };
            for key in std::iter::once(kind).chain(daily) {
                self.flagged
                    .insert((key, record.player.clone()), flag.clone());
            }
            return;
        }
        let order = self
            .arrivals
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let entry = Entry {
            player: record.player.clone(),
            name: record.name.clone(),
            time_ms: record.time_ms,
            penalty_ms: record.penalty_ms,
            at_ms: record.at_ms,
            order,
        };
        self.players
            .entry(record.player.clone())
            .or_default()
            .add(record);
        self.add_best(&kind, &entry);
        self.weeks.entry(kind).or_default().add(&entry);
        if let Some(key) = daily {
            let tried = self
                .flagged
                .contains_key(&(key.clone(), record.player.clone()));
            let mut board = self.daily.entry(key).or_default();
            if !tried && !board.iter().any(|e| e.player == record.player) {
                let at = board.partition_point(|e| e.sort_key() <= entry.sort_key());
                board.insert(at, entry);
            }
        }
    }

    /// Hides `player`'s name from others on every board, or shows it again.
    pub fn set_hidden(&self, player: &str, hidden: bool) {
        if hidden {
            self.hidden.insert(player.to_string());
        } else {
            self.hidden.remove(player);
        }
    }

    /// Puts `entry` on its kind's all-time board if it is the player's best.
    fn add_best(&self, kind: &str, entry: &Entry) {
        let key = (kind.to_string(), entry.player.clone());
        let previous = self.all_time_best.get(&key).map(|k| *k);
        if previous.is_some_and(|k| k <= entry.sort_key()) {
            return;
        }
        self.all_time_best.insert(key, entry.sort_key());
        let mut board = self.all_time.entry(kind.to_string()).or_default();
        if let Some(old) = previous {
            // Sort keys are unique (arrival order breaks ties): find it by halving.
            if let Ok(at) = board.binary_search_by_key(&old, Entry::sort_key) {
                board.remove(at);
            }
        }
        let at = board.partition_point(|e| e.sort_key() <= entry.sort_key());
        board.insert(at, entry.clone());
    }

    /// A board as `q.me` sees it: the top rows, my row and the rows around it,
    /// and how many I beat.
    pub fn view(&self, q: &BoardQuery) -> ServerMessage {
        let kind = kind_key(q.variant, q.params, q.difficulty);
        let flagged_on = |key: &str| {
            let mine = self.flagged.get(&(key.to_string(), q.me.to_string()));
            mine.map(|f| f.clone())
        };
        match q.board {
            BoardKind::Daily => {
                let key = daily_key(&q.date.to_string(), q.variant, q.params, q.difficulty);
                let board = self.daily.get(&key);
                let entries = board.as_deref().map_or(&[][..], Vec::as_slice);
                render(
                    q,
                    &self.hidden,
                    q.date.to_string(),
                    entries,
                    flagged_on(&key),
                )
            }
            BoardKind::Weekly => {
                let monday = week_start(q.now_ms);
                let entries = (self.weeks.get(&kind)).map(|w| w.board(monday_ms(monday)));
                let entries = entries.unwrap_or_default();
                render(
                    q,
                    &self.hidden,
                    monday.to_string(),
                    &entries,
                    flagged_on(&kind),
                )
            }
            BoardKind::AllTime => {
                let board = self.all_time.get(&kind);
                let entries = board.as_deref().map_or(&[][..], Vec::as_slice);
                render(q, &self.hidden, String::new(), entries, flagged_on(&kind))
            }
        }
    }

    /// `player`'s profile, their local dates `utc_offset_min` from UTC.
    pub fn profile(&self, player: &str, utc_offset_min: i32, now_ms: f64) -> ServerMessage {
        let offset = f64::from(utc_offset_min.clamp(-MAX_OFFSET_MIN, MAX_OFFSET_MIN)) * 60_000.0;
        let local_day = |ms: f64| ((ms + offset) / DAY_MS).floor() as i64;
        let played = self.players.get(player);
        let mut days: Vec<i64> = played
            .iter()
            .flat_map(|p| p.daily_at.iter().map(|&at| local_day(at)))
            .collect();
        days.sort_unstable();
        days.dedup();
        let today = local_day(now_ms);
        let (mut best_streak, mut run) = (0u32, 0u32);
        for (i, d) in days.iter().enumerate() {
            run = if i > 0 && days[i - 1] + 1 == *d {
                run + 1
            } else {
                1
            };
            best_streak = best_streak.max(run);
        }
        // The streak still counts if today's puzzle is not solved yet.
        let last = days.last().copied();
        let streak = if last == Some(today) || last == Some(today - 1) {
            run
        } else {
            0
        };
        let mut stats: Vec<StatRow> = played.map(|p| p.stats.clone()).unwrap_or_default();
        stats.sort_by(|a, b| (&a.variant, &a.difficulty).cmp(&(&b.variant, &b.difficulty)));
        ServerMessage::Profile {
            streak,
            best_streak,
            played_today: last == Some(today),
            hidden: self.hidden.contains(player),
            stats,
        }
    }
}

/// Shown instead of the name of a player who hides from public boards.
const HIDDEN_NAME: &str = "(a hidden player)";

/// The board message for `entries` (sorted, one per player) as `q.me` sees it;
/// the `hidden` players' names are shown to themselves only.
fn render(
    q: &BoardQuery,
    hidden: &dashmap::DashSet<String>,
    date: String,
    entries: &[Entry],
    flagged: Option<FlaggedTime>,
) -> ServerMessage {
    let row = |i: usize| {
        let e = &entries[i];
        let name = if e.player != q.me && hidden.contains(&e.player) {
            HIDDEN_NAME.to_string()
        } else {
            e.name.clone()
        };
        BoardRow {
            rank: i as u32 + 1,
            name,
            time_ms: e.time_ms,
            penalty_ms: e.penalty_ms,
            me: e.player == q.me,
        }
    };
    let mine = entries.iter().position(|e| e.player == q.me);
    let around = mine.map_or(Vec::new(), |i| {
        (i.saturating_sub(AROUND)..(i + AROUND + 1).min(entries.len()))
            .map(row)
            .collect()
    });
    // Faster than N% of the others on the board.
    let faster_than_pct = mine.filter(|_| entries.len() > 1).map(|i| {
        let slower = entries.len() - 1 - i;
        (slower * 100 / (entries.len() - 1)) as u32
    });
    ServerMessage::Leaderboard {
        board: q.board,
        date,
        variant: q.variant.to_string(),
        params: q.params.clone(),
        difficulty: q.difficulty.to_string(),
        total: entries.len() as u32,
        top: (0..entries.len().min(TOP)).map(row).collect(),
        mine: mine.map(row),
        around,
        faster_than_pct,
        flagged,
    }
}

/// Up to `n` of a day's records for a ghost race: each player's first finish,
/// spread evenly from the fastest to the slowest.
pub fn pick_ghosts(records: Vec<GameRecord>, n: usize) -> Vec<GameRecord> {
    let mut firsts: Vec<GameRecord> = Vec::new();
    for r in records.into_iter().filter(|r| !r.flagged()) {
        if !firsts.iter().any(|f| f.player == r.player) {
            firsts.push(r);
        }
    }
    firsts.sort_by_key(|r| r.time_ms);
    if firsts.len() <= n {
        return firsts;
    }
    let last = firsts.len() - 1;
    let mut picked: Vec<usize> = (0..n).map(|k| k * last / (n - 1).max(1)).collect();
    picked.dedup();
    picked.into_iter().map(|i| firsts[i].clone()).collect()
}

/// A record as a ghost run: after each of its moves, how many cells of the board
/// (`givens` on `model`, solved by `solution`) were right. No digit leaves.
pub fn ghost_run(
    r: &GameRecord,
    model: &engine::Model,
    givens: &[u8],
    solution: &[u8],
) -> GhostRun {
    let mut board = givens.to_vec();
    let right = |board: &[u8]| {
        (0..board.len())
            .filter(|&c| givens[c] == 0 && board[c] == solution[c])
            .count() as u64
    };
    let points = r
        .moves
        .iter()
        .filter_map(|m| {
            let cell = model.cell_at(m.row, m.col)?;
            if givens[cell] == 0 {
                board[cell] = u8::try_from(m.value).unwrap_or(0);
            }
            Some([m.at_ms, right(&board)])
        })
        .collect();
    GhostRun {
        name: r.name.clone(),
        time_ms: r.time_ms,
        cells: givens.iter().filter(|&&g| g == 0).count() as u32,
        points,
    }
}

/// The Monday (UTC) of the week of `now_ms`.
fn week_start(now_ms: f64) -> crate::daily::Date {
    let today = crate::daily::Date::at_ms(now_ms);
    // 1970-01-01 was a Thursday: 3 days after a Monday.
    today.plus(-(today.days_since_epoch() + 3).rem_euclid(7))
}

/// 00:00 UTC of `date`, ms since the Unix epoch.
fn monday_ms(date: crate::daily::Date) -> f64 {
    date.days_since_epoch() as f64 * DAY_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weekly_board_keeps_each_players_best_of_this_week_only() {
        let boards = Boards::default();
        let monday = monday_ms(week_start(1_800_000_000_000.0));
        let mut last_week = record("old", 5_000);
        last_week.at_ms = monday - DAY_MS;
        boards.add(&last_week);
        let mut this_week = record("new", 9_000);
        this_week.at_ms = monday + DAY_MS;
        boards.add(&this_week);
        let mut again = record("new", 7_000);
        again.at_ms = monday + 2.0 * DAY_MS;
        boards.add(&again);
        let kind = this_week.kind_key();
        let kept: Vec<(String, u64)> = boards
            .weeks
            .get(&kind)
            .map(|w| {
                w.board(monday)
                    .iter()
                    .map(|e| (e.player.clone(), e.time_ms))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            kept,
            vec![("new".to_string(), 7_000)],
            "last week's finish let go; one entry per player, the best"
        );
        let key = (kind, "old".to_string());
        assert!(
            boards.all_time_best.contains_key(&key),
            "but not from all time"
        );
    }

    #[test]
    fn a_profile_sums_many_games_up_in_a_bounded_size() {
        let boards = Boards::default();
        for t in 1..=100u64 {
            boards.add(&record("p", t * 1000));
        }
        let played = boards.players.get("p").expect("a profile");
        assert_eq!(played.stats.len(), 1);
        let row = &played.stats[0];
        assert_eq!((row.solved, row.best_ms), (100, 1000));
        assert_eq!(row.recent_ms.len(), RECENT);
        assert_eq!(row.recent_ms.last(), Some(&100_000));
    }

    /// A query of the classic easy boards of 2026-11-24 (week of time 0).
    fn classic_easy<'a>(params: &'a Params, me: &'a str, board: BoardKind) -> BoardQuery<'a> {
        BoardQuery {
            board,
            variant: "classic",
            params,
            difficulty: "easy",
            date: "2026-11-24".parse().expect("date"),
            now_ms: 0.0,
            me,
        }
    }

    fn record(player: &str, time_ms: u64) -> GameRecord {
        GameRecord {
            plausible_ms: 0,
            player: player.into(),
            name: player.to_uppercase(),
            variant: "classic".into(),
            params: Params::new(),
            difficulty: "easy".into(),
            daily: Some("2026-11-24".into()),
            mode: Mode::Solo,
            time_ms,
            penalty_ms: 0,
            mistakes: 0,
            hints: 0,
            at_ms: 0.0,
            room: "r".into(),
            moves: Vec::new(),
        }
    }

    #[test]
    fn the_plausible_floor_grows_with_the_cells_and_the_tier() {
        assert_eq!(fastest_plausible_ms(45, "easy", 300), 13_500);
        assert_eq!(fastest_plausible_ms(45, "medium", 300), 20_250);
        assert_eq!(fastest_plausible_ms(45, "hard", 300), 27_000);
        assert_eq!(fastest_plausible_ms(45, "extreme", 300), 40_500);
        assert_eq!(fastest_plausible_ms(45, "easy", 0), 0);
    }

    #[test]
    fn a_finish_under_the_floor_is_ranked_nowhere_and_uses_up_the_first_try() {
        let boards = Boards::new(300);
        let floor = boards.plausible_ms(10, "easy");
        let at = |player: &str, time_ms, penalty_ms| GameRecord {
            plausible_ms: floor,
            penalty_ms,
            ..record(player, time_ms)
        };
        // Penalties do not lift a scripted solve over the floor.
        boards.add(&at("bot", floor - 1 + 60_000, 60_000));
        boards.add(&at("ada", floor, 0));
        // The bot's second try, slower, is not its first of the day.
        boards.add(&at("bot", floor * 2, 0));
        let params = Params::new();
        let query = |me, board| classic_easy(&params, me, board);
        let view = |me, board| match boards.view(&query(me, board)) {
            ServerMessage::Leaderboard { total, flagged, .. } => (total, flagged),
            _ => panic!("a leaderboard"),
        };
        let bot = Some(FlaggedTime {
            time_ms: floor - 1,
            plausible_ms: floor,
        });
        assert_eq!(view("bot", BoardKind::Daily), (1, bot.clone()));
        assert_eq!(view("ada", BoardKind::Daily), (1, None));
        // On the kind's boards its honest later game counts.
        assert_eq!(view("bot", BoardKind::AllTime), (2, bot));
        assert!(!boards
            .players
            .get("bot")
            .expect("a profile")
            .stats
            .is_empty());
    }

    #[test]
    fn first_finish_counts_ranks_by_time_and_shows_my_neighbours() {
        let boards = Boards::default();
        for (p, t) in [
            ("a", 500),
            ("b", 300),
            ("c", 900),
            ("d", 100),
            ("e", 700),
            ("f", 800),
        ] {
            boards.add(&record(p, t));
        }
        // A second, faster try does not count.
        boards.add(&record("c", 50));
        let params = Params::new();
        let query = |me, board| classic_easy(&params, me, board);
        let view = boards.view(&query("e", BoardKind::Daily));
        let ServerMessage::Leaderboard {
            total,
            top,
            mine,
            around,
            faster_than_pct,
            ..
        } = view
        else {
            panic!("a leaderboard");
        };
        assert_eq!(total, 6);
        let names: Vec<&str> = top.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["D", "B", "A", "E", "F", "C"]);
        assert_eq!(mine.map(|r| r.rank), Some(4));
        let ranks: Vec<u32> = around.iter().map(|r| r.rank).collect();
        assert_eq!(ranks, [2, 3, 4, 5, 6]);
        assert!(around.iter().any(|r| r.me));
        // Faster than 2 of the 5 others.
        assert_eq!(faster_than_pct, Some(40));
        // A record of no puzzle of the day is on no daily board, but on the
        // all-time one, where c's faster second try counts.
        boards.add(&GameRecord {
            daily: None,
            ..record("z", 1)
        });
        assert_eq!(boards.daily.len(), 1);
        let ServerMessage::Leaderboard { top, .. } = boards.view(&query("e", BoardKind::AllTime))
        else {
            panic!("a leaderboard");
        };
        let names: Vec<&str> = top.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Z", "C", "D", "B", "A", "E", "F"]);
        // The weekly board of the week all of them played (at 0 ms): each
        // player's best of it, here as all-time; a week later, nobody yet.
        let ServerMessage::Leaderboard { top, date, .. } =
            boards.view(&query("e", BoardKind::Weekly))
        else {
            panic!("a leaderboard");
        };
        let names: Vec<&str> = top.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Z", "C", "D", "B", "A", "E", "F"]);
        assert_eq!(date, "1969-12-29", "the Monday the week began");
        let next_week = BoardQuery {
            now_ms: 7.0 * DAY_MS,
            ..query("e", BoardKind::Weekly)
        };
        let ServerMessage::Leaderboard { total, .. } = boards.view(&next_week) else {
            panic!("a leaderboard");
        };
        assert_eq!(total, 0);
    }

    #[test]
    fn weeks_start_on_monday_and_streaks_follow_local_dates() {
        // 2026-11-24 is a Tuesday.
        let tuesday_noon = 1_795_478_400_000.0 + 12.0 * 3_600_000.0;
        assert_eq!(
            crate::daily::Date::at_ms(tuesday_noon).to_string(),
            "2026-11-24"
        );
        assert_eq!(week_start(tuesday_noon).to_string(), "2026-11-23");
        let boards = Boards::default();
        let at = |day: f64, hour: f64| tuesday_noon + day * DAY_MS + (hour - 12.0) * 3_600_000.0;
        // Solved dailies: Sunday 23:30 UTC, Monday 10:00 UTC, Tuesday 22:30 UTC.
        for (day, hour) in [(-2.0, 23.5), (-1.0, 10.0), (0.0, 22.5)] {
            boards.add(&GameRecord {
                at_ms: at(day, hour),
                ..record("p", 1000)
            });
        }
        let streak = |offset: i32, now: f64| match boards.profile("p", offset, now) {
            ServerMessage::Profile {
                streak,
                best_streak,
                played_today,
                ..
            } => (streak, best_streak, played_today),
            _ => panic!("a profile"),
        };
        // In UTC: Sunday, Monday, Tuesday — three days, today included.
        assert_eq!(streak(0, at(0.0, 23.0)), (3, 3, true));
        // At UTC+2 the Sunday game was on Monday and the Tuesday one on
        // Wednesday: Monday, then a gap, then Wednesday.
        assert_eq!(streak(120, at(1.0, 10.0)), (1, 1, true));
        // At UTC-5: Sunday, Monday, Tuesday again; on Wednesday afternoon
        // (local) the streak still stands until the day is over.
        assert_eq!(streak(-300, at(1.0, 20.0)), (3, 3, false));
        // Two days without: gone, the best remains. Offsets are clamped to ±14 h.
        assert_eq!(streak(0, at(3.0, 12.0)), (0, 3, false));
        assert_eq!(
            streak(10_000, at(0.0, 23.0)),
            streak(14 * 60, at(0.0, 23.0))
        );
        let ServerMessage::Profile { stats, .. } = boards.profile("p", 0, at(0.0, 23.0)) else {
            panic!("a profile");
        };
        let s = &stats[0];
        assert_eq!(
            (stats.len(), s.solved, s.best_ms, s.recent_ms.len()),
            (1, 3, 1000, 3)
        );
    }
}
