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
//! by time with penalties, then by who finished first.

use dashmap::DashMap;
use protocol::plugin::Params;
use protocol::wire::{BoardRow, Mode, ServerMessage};
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
}

impl GameRecord {
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
}

/// The key of the daily board of (date, variant, resolved parameters, difficulty).
pub fn daily_key(date: &str, variant: &str, params: &Params, difficulty: &str) -> String {
    serde_json::to_string(&(date, variant, params, difficulty)).unwrap_or_default()
}

/// One player's place on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    player: String,
    name: String,
    time_ms: u64,
    penalty_ms: u64,
    /// Order of arrival, to break ties.
    order: u64,
}

/// Rows shown above and below the player's own.
const AROUND: usize = 2;

/// Rows at the top of a board.
const TOP: usize = 10;

/// The leaderboards.
#[derive(Debug, Default)]
pub struct Boards {
    daily: DashMap<String, Vec<Entry>>,
    arrivals: std::sync::atomic::AtomicU64,
}

impl Boards {
    /// Adds a record to the boards it belongs to.
    pub fn add(&self, record: &GameRecord) {
        let Some(key) = record.daily_key() else {
            return;
        };
        let order = self
            .arrivals
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut board = self.daily.entry(key).or_default();
        if board.iter().any(|e| e.player == record.player) {
            return;
        }
        let entry = Entry {
            player: record.player.clone(),
            name: record.name.clone(),
            time_ms: record.time_ms,
            penalty_ms: record.penalty_ms,
            order,
        };
        let at = board.partition_point(|e| (e.time_ms, e.order) <= (entry.time_ms, entry.order));
        board.insert(at, entry);
    }

    /// The daily board `key` as `me` sees it: the top rows, my row and the rows
    /// around it, and how many I beat.
    pub fn daily_view(
        &self,
        key: &str,
        me: &str,
        date: String,
        variant: String,
        params: Params,
        difficulty: String,
    ) -> ServerMessage {
        let board = self.daily.get(key);
        let entries: &[Entry] = board.as_deref().map_or(&[], |b| b.as_slice());
        let row = |i: usize| {
            let e = &entries[i];
            BoardRow {
                rank: i as u32 + 1,
                name: e.name.clone(),
                time_ms: e.time_ms,
                penalty_ms: e.penalty_ms,
                me: e.player == me,
            }
        };
        let mine = entries.iter().position(|e| e.player == me);
        let around = mine.map_or(Vec::new(), |i| {
            (i.saturating_sub(AROUND)..(i + AROUND + 1).min(entries.len()))
                .map(row)
                .collect()
        });
        // Faster than N% of the others who finished today's puzzle.
        let faster_than_pct = mine.filter(|_| entries.len() > 1).map(|i| {
            let slower = entries.len() - 1 - i;
            (slower * 100 / (entries.len() - 1)) as u32
        });
        ServerMessage::Leaderboard {
            date,
            variant,
            params,
            difficulty,
            total: entries.len() as u32,
            top: (0..entries.len().min(TOP)).map(row).collect(),
            mine: mine.map(row),
            around,
            faster_than_pct,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(player: &str, time_ms: u64) -> GameRecord {
        GameRecord {
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
        let key = daily_key("2026-11-24", "classic", &Params::new(), "easy");
        let view = boards.daily_view(
            &key,
            "e",
            "2026-11-24".into(),
            "classic".into(),
            Params::new(),
            "easy".into(),
        );
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
        // A record of no puzzle of the day is on no daily board.
        boards.add(&GameRecord {
            daily: None,
            ..record("z", 1)
        });
        assert_eq!(boards.daily.len(), 1);
    }
}
