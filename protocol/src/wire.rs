//! Messages between the web client and the server, over WebSocket binary frames,
//! MessagePack with named fields, each message an object tagged by `type`.
//! `docs/protocol.md` documents every message with an example.
//!
//! Unknown message types decode as `Unknown` (answered with an error, never a
//! disconnect), so newer clients and servers degrade gracefully.

use crate::plugin::{Manifest, Params};
use crate::puzzle::PuzzleV1;
use crate::setter::{Analysis, PuzzleCheck, SetterDraft};
use serde::{Deserialize, Serialize};

/// The protocol version a `hello` carries.
pub const PROTOCOL_VERSION: u32 = 1;

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message on a connection: who I am. A `token` from an earlier
    /// `welcome` resumes that identity.
    Hello {
        /// [`PROTOCOL_VERSION`].
        version: u32,
        /// Display name (1-24 characters).
        name: String,
        /// A session token to resume.
        #[serde(default)]
        token: Option<String>,
    },
    /// Ask for the public rooms: one page of the most relevant ones, optionally
    /// of one variant or only those with a free seat. `{"type": "list_rooms"}`
    /// alone asks for the first page of every public room.
    ListRooms {
        /// Rooms of the ordered list to skip (a multiple of the page size, 50).
        #[serde(default)]
        offset: u32,
        /// Only rooms of this variant id.
        #[serde(default)]
        variant: Option<String>,
        /// Only rooms waiting for players with a free seat.
        #[serde(default)]
        joinable: bool,
    },
    /// Ask for the variants this server offers (for the lobby's picker).
    ListVariants,
    /// In a waiting room: tell everyone I am ready (or not yet).
    Ready {
        /// Ready or not.
        ready: bool,
    },
    /// Leave the current room (back to the lobby). Before the start the seat is
    /// freed; during a game it is kept, so `join_room` with the code comes back to it.
    LeaveRoom,
    /// Create a room and join it as its host.
    CreateRoom {
        /// The room's settings.
        settings: RoomSettings,
    },
    /// Race whoever else wants to now: join the open quick race of this
    /// variant, parameters and difficulty, or open one. Answered by `room`.
    QuickRace {
        /// Variant id.
        variant: String,
        /// Variant parameters (missing ones take their defaults).
        #[serde(default)]
        params: Params,
        /// Difficulty.
        difficulty: String,
        /// Only a race on this node (what a `redirect` asks for there: never
        /// sent on again). On a server of several nodes, a request without
        /// it is sent to the node whose open race of the kind it would join.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        here: bool,
    },
    /// The race ratings of a variant, parameters and difficulty: the top
    /// established ratings and mine. Answered by `ratings`.
    Ratings {
        /// Variant id.
        variant: String,
        /// Variant parameters (missing ones take their defaults).
        #[serde(default)]
        params: Params,
        /// Difficulty.
        difficulty: String,
    },
    /// Create an arena tournament: players race back-to-back quick races of
    /// one kind for its length, scoring points by place. Answered by
    /// `tournament` (and I watch it).
    CreateTournament {
        /// Its name (1-40 characters).
        name: String,
        /// Variant id.
        variant: String,
        /// Variant parameters (missing ones take their defaults).
        #[serde(default)]
        params: Params,
        /// Difficulty.
        difficulty: String,
        /// How long it runs: 10 to 60 minutes.
        minutes: u32,
        /// When it starts: 0 (now) to 1440 minutes from now.
        #[serde(default)]
        starts_in_minutes: u32,
    },
    /// The tournaments not over (and those over in the last hour). Answered
    /// by `tournaments`.
    ListTournaments,
    /// Watch a tournament's standings: answered by `tournament` now and
    /// again at every change (until I watch another).
    WatchTournament {
        /// Its id.
        id: String,
    },
    /// Race in a running tournament: join its open race or open one (as a
    /// quick race does); I join its standings the first time. Answered by
    /// `room`.
    TournamentRace {
        /// Its id.
        id: String,
    },
    /// A finished race's review, by the id `review_ready` gave (or a shared
    /// link's). Answered by `race_review`.
    RaceReview {
        /// The review's id.
        id: String,
    },
    /// Join a room by its code, as a player or as a spectator (read-only).
    JoinRoom {
        /// The room code (from a link or the lobby).
        code: String,
        /// Watch instead of play.
        #[serde(default)]
        spectator: bool,
    },
    /// The host starts the game.
    Start,
    /// Put a value in a cell of my board (0 erases).
    Move {
        /// Row in the layout.
        row: u32,
        /// Column in the layout.
        col: u32,
        /// 1..=N, or 0 to erase.
        value: u32,
    },
    /// Co-op: set the pencil marks of cells of the shared board, all of them or
    /// none (one change, one `seq`): a mark over a whole selection is one message.
    Pencil {
        /// The cells and their new marks (1 to the number of cells, each cell once).
        cells: Vec<CellMarks>,
    },
    /// Co-op: the cell I have selected (shown to teammates).
    Cursor {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// The host, once a game is over: a new puzzle, same settings and players.
    Rematch,
    /// Ask the variant for one next step (costs the room's hint penalty).
    Hint {
        /// Race and solo: my candidate marks (rows x cols, bit `v - 1` for value
        /// `v`, 0 for a cell without marks), so the hint reasons from them and
        /// points out a mark that leaves out a cell's value. Co-op hints use
        /// the team's marks, which the server has.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        marks: Option<Vec<Vec<u32>>>,
    },
    /// Race: fill my centre marks with every candidate the rules leave (the
    /// client works them out from the board); it costs one hint. The server
    /// answers `candidates_filled`. In solo and co-op the client fills them
    /// itself, free, and sends nothing.
    FillCandidates,
    /// Solo: stop the clock and hide the board.
    Pause,
    /// Solo: start the clock again.
    Resume,
    /// A chat line to everyone in the room (1-300 characters).
    Chat {
        /// The text.
        text: String,
    },
    /// A leaderboard (the puzzle of the day's, this week's or all-time best
    /// times of a variant and difficulty): the server answers `leaderboard`.
    Leaderboard {
        /// Which board.
        #[serde(default)]
        board: BoardKind,
        /// Variant id.
        variant: String,
        /// Variant parameters (missing ones take their defaults).
        #[serde(default)]
        params: Params,
        /// Difficulty.
        difficulty: String,
        /// The daily board's `YYYY-MM-DD`; absent: the server's today (UTC).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        date: Option<String>,
    },
    /// My record: the streak of days with a solved puzzle of the day and my
    /// stats per variant and difficulty; the server answers `profile`.
    Profile {
        /// My local time's offset from UTC in minutes (e.g. 60 for UTC+1), which
        /// decides my local dates; clamped to ±14 h.
        #[serde(default)]
        utc_offset_min: i32,
    },
    /// A one-time code that moves my identity to another device: the server
    /// answers `sync_code`.
    SyncCode,
    /// On the other device (outside any room): take over the identity a sync
    /// code was made for; the server answers `welcome` with it and a token of
    /// this device's own.
    RedeemSync {
        /// The code, as shown (spaces and case do not matter).
        code: String,
    },
    /// Hide my name from public leaderboards (`true`) or show it again.
    HideFromBoards {
        /// Whether to hide.
        hidden: bool,
    },
    /// Clock sync: the server answers `pong` at once.
    Ping {
        /// The client's clock, in ms.
        client_time: f64,
    },
    /// The setter: a variant's empty puzzle (its layout and houses, no
    /// givens, cages or constraints) to set on; the server answers
    /// `setter_template`.
    SetterTemplate {
        /// Variant id.
        variant: String,
        /// Variant parameters (missing ones take their defaults).
        #[serde(default)]
        params: Params,
    },
    /// The setter: count the draft's solutions (none, one, several: where two
    /// differ) and grade it once unique; the server answers `puzzle_check`.
    CheckPuzzle {
        /// The puzzle being set.
        draft: SetterDraft,
    },
    /// The step-through solver: a logical solution, answered by `analysis`.
    /// Without a draft, of the current room's puzzle, once my game there is
    /// over (never while I am still solving it); with one, of the draft,
    /// outside any game in progress.
    Analyse {
        /// The puzzle being set, or none for the room's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draft: Option<SetterDraft>,
    },
    /// A message type this server does not know.
    #[serde(other)]
    Unknown,
}

impl ClientMessage {
    /// The board cells a `move` or `pencil` would change, as `[row, col]` (what
    /// an `error` refusing it names); empty for every other message.
    pub fn board_cells(&self) -> Vec<[u32; 2]> {
        match self {
            ClientMessage::Move { row, col, .. } => vec![[*row, *col]],
            ClientMessage::Pencil { cells } => cells.iter().map(|c| [c.row, c.col]).collect(),
            _ => Vec::new(),
        }
    }
}

/// How a room is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every player fills their own copy; first correct grid wins.
    Race,
    /// A private race of one.
    Solo,
    /// Everyone fills one shared board together.
    Coop,
}

/// What a room plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoomSettings {
    /// Variant id.
    pub variant: String,
    /// Variant parameters.
    #[serde(default)]
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// Race or solo.
    pub mode: Mode,
    /// Listed in the lobby.
    #[serde(default)]
    pub public: bool,
    /// Player limit (1 for solo).
    pub max_players: u32,
    /// What a wrong digit costs.
    #[serde(default)]
    pub mistakes: MistakePolicy,
    /// Whether hints are offered, and at what cost.
    #[serde(default)]
    pub hints: HintPolicy,
    /// The puzzle of the day: a client asking for it sends any value (`"today"`);
    /// the server plays the puzzle of its current UTC date for the variant,
    /// parameters and difficulty, and puts that date (`YYYY-MM-DD`) here. Every
    /// server agrees on it without talking. A daily room has no rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<String>,
    /// A daily solo game against ghosts: the recorded games of up to five
    /// players who finished the same puzzle of the day, fastest to slowest,
    /// replayed as progress bars in real time (the room's `ghosts`).
    #[serde(default)]
    pub ghosts: bool,
    /// A daily solo game against my own best recorded game of the same puzzle
    /// of the day, as a ghost named "Your best" (with `ghosts`, beside the
    /// others'): a rematch against myself.
    #[serde(default)]
    pub own_best: bool,
    /// A puzzle the players bring, as pasted: an 81-character line (dots or
    /// zeros for empty cells), a v1 puzzle or a daily archive file (JSON), or a
    /// killer in the reference solver's text form (or `draft`, from the
    /// setter). The server checks it (well
    /// formed, exactly one solution) and the room plays it, under the variant it
    /// names (`classic` for a plain line); `variant`, `params` and `difficulty`
    /// are then the puzzle's. Never in a room view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<String>,
    /// A puzzle set in the browser, played like a pasted one (never in a
    /// room view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<Box<SetterDraft>>,
    /// A quick race: opened by `quick_race` (never by `create_room`), public,
    /// it starts by itself when full or a short wait after its second player,
    /// and has no rematch (the next quick race is one click).
    #[serde(default)]
    pub quick: bool,
    /// A race whose result moves its racers' ratings (as a quick race's
    /// does), marked so by its host when it is made. Races only.
    #[serde(default)]
    pub rated: bool,
    /// The arena tournament this race belongs to (its id): set by the server
    /// on the races a tournament pairs, never by a client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

/// Whether a room offers hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HintPolicy {
    /// No hints.
    Off,
    /// Each hint adds `seconds` to the player's (co-op: the team's) time.
    Penalty {
        /// Seconds per hint.
        seconds: u32,
    },
}

impl Default for HintPolicy {
    fn default() -> Self {
        HintPolicy::Penalty { seconds: 30 }
    }
}

/// What a wrong digit costs in a race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MistakePolicy {
    /// No feedback while playing; a finished grid must be correct.
    #[default]
    None,
    /// Immediate feedback; each wrong digit adds `seconds` to the final time.
    Penalty {
        /// Seconds per wrong digit.
        seconds: u32,
    },
    /// Immediate feedback; `lives` wrong digits and the player is out.
    Lives {
        /// Wrong digits allowed before being out.
        lives: u32,
    },
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RoomState {
    /// Players gather; the host starts.
    Waiting,
    /// The start instant is set and not reached yet.
    Countdown,
    /// Moves are accepted.
    Playing,
    /// Every player finished (or the room ended).
    Finished,
}

/// A room in the lobby list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoomSummary {
    /// Join code.
    pub code: String,
    /// Settings.
    pub settings: RoomSettings,
    /// Players in it.
    pub players: u32,
    /// Its state.
    pub state: RoomState,
    /// The host's display name.
    #[serde(default)]
    pub host: String,
    /// Players connected right now (the lobby lists only rooms with someone in).
    #[serde(default)]
    pub connected: u32,
    /// A quick race: its racers' mean rating of its kind (a newcomer counts
    /// 1500); null for other rooms.
    #[serde(default)]
    pub rating: Option<i32>,
}

/// A player as others see them: never their digits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerView {
    /// Public player id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Cells filled on their board.
    pub filled: u32,
    /// Finish time in ms from the start (penalties included), once finished.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub finished_ms: Option<u64>,
    /// Wrong digits entered (counted under `penalty` and `lives`).
    #[serde(default)]
    pub mistakes: u32,
    /// Out of lives.
    #[serde(default)]
    pub out: bool,
    /// Race: left the running game (or stayed away past the grace window) and
    /// forfeited; not ranked.
    #[serde(default)]
    pub left: bool,
    /// Hints taken.
    #[serde(default)]
    pub hints: u32,
    /// Said they are ready (waiting rooms; the host starts when they like).
    #[serde(default)]
    pub ready: bool,
    /// After a game: has voted for a rematch.
    #[serde(default)]
    pub rematch: bool,
}

/// A player's board, as spectators see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerBoard {
    /// Player id.
    pub player: String,
    /// Rows x cols, 0 = empty, givens included.
    pub board: Vec<Vec<u32>>,
}

/// A full snapshot of a room for one player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoomView {
    /// Join code.
    pub code: String,
    /// Settings.
    pub settings: RoomSettings,
    /// State.
    pub state: RoomState,
    /// The host's player id.
    pub host: String,
    /// Everyone in the room.
    pub players: Vec<PlayerView>,
    /// The puzzle: geometry and givens, never the solution.
    #[serde(default)]
    pub puzzle: Option<PuzzleV1>,
    /// This player's board (rows x cols, 0 = empty), givens included; co-op:
    /// the shared board (players and spectators). None before play and while paused.
    #[serde(default)]
    pub board: Option<Vec<Vec<u32>>>,
    /// The start instant on the server clock (ms since the Unix epoch).
    #[serde(default)]
    pub start_at: Option<f64>,
    /// A quick race waiting for players: when it starts by itself (ms since
    /// the Unix epoch; the countdown follows), once it has two players.
    #[serde(default)]
    pub auto_start_at: Option<f64>,
    /// Whether this view is a spectator's.
    #[serde(default)]
    pub spectator: bool,
    /// The boards a spectator may see, once playing: in a race only those of
    /// racers who are done (finished or out) until the game is over.
    #[serde(default)]
    pub boards: Vec<PlayerBoard>,
    /// Co-op: the last applied sequence number; events after it follow.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seq: u64,
    /// Co-op: pencil marks of the shared board (rows x cols bitmasks).
    #[serde(default)]
    pub pencil: Option<Vec<Vec<u32>>>,
    /// Co-op: who put each value of the shared board (rows x cols of player
    /// ids; "" for a given or an empty cell), so each shows in its author's colour.
    #[serde(default)]
    pub authors: Option<Vec<Vec<String>>>,
    /// Solo: the clock is stopped and the board hidden.
    #[serde(default)]
    pub paused: bool,
    /// Solo: time spent paused so far, ms (the clock shows now - start_at - paused_ms).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub paused_ms: u64,
    /// A ghost race (`settings.ghosts`), once playing: the recorded games it
    /// replays.
    #[serde(default)]
    pub ghosts: Vec<GhostRun>,
    /// Once playing: the puzzle as links other sites open (f-puzzles,
    /// SudokuPad), to share it; empty when they cannot hold it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<ShareLink>,
}

/// A link that opens the room's puzzle on another site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ShareLink {
    /// The site's name: `f-puzzles`, `SudokuPad`.
    pub site: String,
    /// The whole link.
    pub url: String,
}

/// A recorded game replayed as a ghost: when its board had how many cells
/// right, never which digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GhostRun {
    /// The player's display name.
    pub name: String,
    /// Their finish time, penalties included, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub time_ms: u64,
    /// The cells to fill.
    pub cells: u32,
    /// `[ms from the start, cells right]` after each of their moves, in order.
    #[cfg_attr(feature = "ts", ts(type = "Array<[number, number]>"))]
    pub points: Vec<[u64; 2]>,
}

/// What one player put on a co-op board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Contribution {
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
    /// Cells of the final board they filled.
    pub cells: u32,
}

/// One line of the results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rank {
    /// 1 for the winner.
    pub rank: u32,
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
    /// Time from the start, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub time_ms: u64,
}

/// Which leaderboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum BoardKind {
    /// A puzzle of the day: each player's first finish.
    #[default]
    Daily,
    /// Best times of a variant and difficulty since Monday 00:00 UTC.
    Weekly,
    /// Best times of a variant and difficulty, ever.
    AllTime,
}

/// A player's games of one variant and difficulty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StatRow {
    /// Variant id.
    pub variant: String,
    /// Difficulty.
    pub difficulty: String,
    /// Games finished (race and solo).
    pub solved: u32,
    /// Best time, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub best_ms: u64,
    /// Average time, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub average_ms: u64,
    /// The last (up to 10) times, oldest first: the trend.
    #[cfg_attr(feature = "ts", ts(type = "Array<number>"))]
    pub recent_ms: Vec<u64>,
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BoardRow {
    /// 1 for the fastest.
    pub rank: u32,
    /// Display name.
    pub name: String,
    /// Time the server measured, penalties included, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub time_ms: u64,
    /// Of which penalties, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub penalty_ms: u64,
    /// Whether this row is the asking player's.
    pub me: bool,
}

/// One racer's rating moved by a rated race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RatingChange {
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
    /// The rating before the race (1500 for a first race).
    pub before: i32,
    /// The rating after it.
    pub after: i32,
    /// Fewer than 5 rated races of this kind so far.
    pub provisional: bool,
}

/// What a racer did at one moment of a race, as its review shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ReviewAct {
    /// A right digit.
    Placed,
    /// A wrong digit.
    Mistake,
    /// A digit taken out.
    Erased,
    /// A hint about a cell.
    Hint,
    /// Every candidate filled in (it costs a hint).
    Candidates,
}

/// One thing a racer did, with what it took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReviewStep {
    /// Milliseconds from the start.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub at_ms: u64,
    /// Milliseconds since the racer's previous step (or the start).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub took_ms: u64,
    /// What it was.
    pub act: ReviewAct,
    /// Row (layout coordinates); 0 for `candidates`.
    pub row: u32,
    /// Column; 0 for `candidates`.
    pub col: u32,
    /// The digit put (`placed`, `mistake`); 0 otherwise.
    pub value: u32,
    /// For a right digit: the easiest technique that placed it from the
    /// racer's board at that moment ("Hidden Single", "X-Wing", …); none
    /// where the techniques here do not reach it (a guess, or a digit
    /// the analysis had no time for).
    #[serde(default)]
    pub technique: Option<String>,
    /// That technique's tier (`easy` … `extreme`).
    #[serde(default)]
    pub tier: Option<String>,
}

/// Where a racer's time went: the right digits of one tier (or, without a
/// tier, those no technique here reaches) and the time they took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TierTime {
    /// `easy` … `extreme`, or empty for digits no technique here reaches.
    pub tier: String,
    /// Right digits of that tier.
    pub digits: u32,
    /// The time they took (each digit's `took_ms`), ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub ms: u64,
}

/// One racer of a reviewed race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReviewRacer {
    /// Display name.
    pub name: String,
    /// 1 for the winner; none for a racer who did not finish.
    pub place: Option<u32>,
    /// Finish time from the start, penalties included, ms.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub time_ms: Option<u64>,
    /// Of which penalties (mistakes and hints), ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub penalty_ms: u64,
    /// Wrong digits.
    pub mistakes: u32,
    /// Hints taken.
    pub hints: u32,
    /// Left the race.
    pub forfeited: bool,
    /// Everything they did, in order.
    pub steps: Vec<ReviewStep>,
    /// Their right digits' time by tier, easiest first.
    pub by_tier: Vec<TierTime>,
}

/// A finished race looked back on: the puzzle (with its solution: the race
/// is over) and every racer's timeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RaceReview {
    /// Its id (the share link's `#review-<id>`).
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// When the race ended (ms since the Unix epoch).
    pub at_ms: f64,
    /// The puzzle raced, solution included.
    pub puzzle: PuzzleV1,
    /// The racers, winner first, then those who did not finish.
    pub racers: Vec<ReviewRacer>,
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TournamentState {
    /// Not started: players may join and wait.
    Scheduled,
    /// Races are being paired.
    Running,
    /// Over: no new race (races under way when it ended still count).
    Finished,
}

/// One player's line of a tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StandingRow {
    /// 1 for the leader (ties share a rank).
    pub rank: u32,
    /// Display name.
    pub name: String,
    /// Points: by place (1st 4, 2nd 2, any other finish 1), doubled while on
    /// a streak.
    pub points: u32,
    /// Races finished or not.
    pub races: u32,
    /// Races won.
    pub wins: u32,
    /// Two wins in a row: the next race's points count double.
    pub on_fire: bool,
    /// Their last places, newest last (0: did not finish).
    pub recent: Vec<u32>,
    /// Whether this row is the asking player's.
    pub me: bool,
}

/// A tournament as its players and spectators see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TournamentView {
    /// Its id (the link's `#tournament-<id>`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// Who created it.
    pub host: String,
    /// When it starts and ends (ms since the Unix epoch).
    pub starts_at_ms: f64,
    /// When no new race starts.
    pub ends_at_ms: f64,
    /// Where it is now.
    pub state: TournamentState,
    /// Races played so far.
    pub races: u32,
    /// The standings, leader first (the top 50 and my own row).
    pub standings: Vec<StandingRow>,
    /// Players in it.
    pub players: u32,
}

/// One row of the tournament list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TournamentSummary {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
    /// When it starts and ends (ms since the Unix epoch).
    pub starts_at_ms: f64,
    /// When no new race starts.
    pub ends_at_ms: f64,
    /// Where it is now.
    pub state: TournamentState,
    /// Players in it.
    pub players: u32,
    /// The leader's name, once someone scored.
    pub leader: Option<String>,
}

/// One row of a ratings board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RatingRow {
    /// 1 for the highest.
    pub rank: u32,
    /// Display name.
    pub name: String,
    /// The rating.
    pub rating: i32,
    /// Rated races of this kind.
    pub games: u32,
    /// Whether this row is the asking player's.
    pub me: bool,
}

/// A finish faster than anyone can solve the puzzle: not on the boards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FlaggedTime {
    /// The solving time the server measured, penalties aside, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub time_ms: u64,
    /// The puzzle's fastest plausible time, ms.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub plausible_ms: u64,
}

/// One cell's pencil marks (bit `v-1` = candidate `v`; 0 clears them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellMarks {
    /// Row.
    pub row: u32,
    /// Column.
    pub col: u32,
    /// Candidate bitmask.
    pub marks: u32,
}

/// A change to the co-op board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CoopChange {
    /// A value in one cell (0 erases).
    Value {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// 1..=N or 0.
        value: u32,
    },
    /// Pencil marks of one or more cells, applied together.
    Pencil {
        /// The cells and their marks.
        cells: Vec<CellMarks>,
    },
}

/// Why a request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame was not a MessagePack client message.
    Malformed,
    /// `hello` must come first (or came twice).
    NotIntroduced,
    /// The protocol version is not supported.
    Version,
    /// A field is out of range (cell, value, name, settings…).
    Invalid,
    /// No such room.
    NoRoom,
    /// The room is full or already started.
    Closed,
    /// Only the host may do that.
    NotHost,
    /// Not allowed in the room's current state (e.g. a move before the start).
    WrongState,
    /// That cell is a given.
    Given,
    /// The variant plugin failed.
    Plugin,
    /// A message type the server does not know.
    Unsupported,
    /// Too many messages: slow down (persisting closes the connection, 1008).
    RateLimited,
    /// Spectators watch; they cannot play.
    Spectator,
    /// The server could not save the change; nothing was applied. Try again.
    Unavailable,
    /// A per-player limit was reached (e.g. open rooms).
    TooMany,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// Answer to `hello`: the identity and its resume token (keep it secret).
    Welcome {
        /// Public player id.
        player_id: String,
        /// Display name.
        name: String,
        /// Session token for `hello` after a reconnect.
        token: String,
        /// The server clock (ms since the Unix epoch).
        server_time: f64,
        /// Where players open this server (`--site-url`, e.g.
        /// `https://sudoku.example.org/`): invite links start with it. Null
        /// when the server was not told; the page's own address is used then.
        #[serde(default)]
        site_url: Option<String>,
    },
    /// A request failed; the connection stays open.
    Error {
        /// Machine-readable reason.
        code: ErrorCode,
        /// For people.
        message: String,
        /// A refused `move` or `pencil`: the cells it would have changed, as
        /// `[row, col]`, so the client puts them back as the server has them.
        /// Empty for any other request.
        #[serde(default)]
        cells: Vec<[u32; 2]>,
    },
    /// One page of the public rooms that match the `list_rooms` filter, the most
    /// relevant first (at most 50: rooms waiting with a free seat first, then
    /// games to watch; the busiest first), and how many match in all.
    Rooms {
        /// One entry per room shown.
        rooms: Vec<RoomSummary>,
        /// Matching public rooms in all (`rooms` shows at most one page).
        #[serde(default)]
        total: u32,
        /// Where this page starts in the ordered list.
        #[serde(default)]
        offset: u32,
    },
    /// The variants this server offers, sorted by id.
    Variants {
        /// One manifest per loaded plugin: name, rules, parameters, difficulties.
        variants: Vec<Manifest>,
    },
    /// A full room snapshot (after joining, on every state change).
    Room {
        /// The snapshot.
        room: Box<RoomView>,
    },
    /// A move of mine was applied.
    MoveAccepted {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Value (0 = erased).
        value: u32,
        /// Whether the digit is right (only under `penalty` and `lives`).
        #[serde(default)]
        correct: Option<bool>,
    },
    /// A player's cell changed (spectators only; in a race never while that
    /// racer is still racing).
    CellChanged {
        /// Player id.
        player: String,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Value (0 = erased).
        value: u32,
    },
    /// Co-op: a change to the shared board, in server order. Apply events by
    /// increasing `seq` and every client converges to the same board.
    CoopEvent {
        /// Room sequence number.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        seq: u64,
        /// Author's id.
        player: String,
        /// What changed.
        change: CoopChange,
    },
    /// Race: `fill_candidates` was charged as a hint; fill the marks now.
    CandidatesFilled {
        /// What it added to the time, ms.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        penalty_ms: u64,
    },
    /// A hint from the variant (race: to the player; co-op: to the team).
    Hint {
        /// Who asked.
        player: String,
        /// The step.
        hint: crate::plugin::Hint,
        /// What it added to the time, ms.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        penalty_ms: u64,
    },
    /// Co-op: a teammate's selected cell.
    Cursor {
        /// Player id.
        player: String,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// A chat line.
    Chat {
        /// Sender's id.
        from: String,
        /// Sender's name.
        name: String,
        /// The text.
        text: String,
        /// Server time (ms since the Unix epoch).
        at: f64,
    },
    /// A player's progress changed (never their digits).
    Progress {
        /// The player as others see them.
        player: PlayerView,
    },
    /// The game is over.
    Finished {
        /// Race: everyone who finished, fastest first.
        ranks: Vec<Rank>,
        /// Co-op: the team's time from the start, ms.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        team_ms: Option<u64>,
        /// Co-op: who filled which share of the final board.
        #[serde(default)]
        contributions: Vec<Contribution>,
    },
    /// Answer to `leaderboard`: the board, as the asking player sees it.
    Leaderboard {
        /// Which board.
        #[serde(default)]
        board: BoardKind,
        /// Daily: the day; weekly: the Monday (UTC) the week began; all-time: empty.
        date: String,
        /// Variant id.
        variant: String,
        /// Every parameter, defaults filled in.
        params: Params,
        /// Difficulty.
        difficulty: String,
        /// Players on the board.
        total: u32,
        /// The fastest (up to 10).
        top: Vec<BoardRow>,
        /// My row, if I am on the board.
        #[serde(default)]
        mine: Option<BoardRow>,
        /// My row and the rows around it.
        #[serde(default)]
        around: Vec<BoardRow>,
        /// The share of the other players on the board I was faster than, %.
        #[serde(default)]
        faster_than_pct: Option<u32>,
        /// My finish that counts here but was faster than the puzzle's
        /// fastest plausible time: kept, not ranked.
        #[serde(default)]
        flagged: Option<FlaggedTime>,
    },
    /// A rated race ended: each rated racer's rating before and after (to
    /// everyone in the room, after `finished`).
    Rated {
        /// One per rated racer, in their places' order.
        changes: Vec<RatingChange>,
    },
    /// A tournament's standings (to its watchers, at every change).
    Tournament {
        /// The tournament.
        tournament: Box<TournamentView>,
    },
    /// Answer to `list_tournaments`.
    Tournaments {
        /// Running first, then scheduled (soonest first), then just over.
        tournaments: Vec<TournamentSummary>,
    },
    /// A race in this room ended and its review is ready (to everyone in the
    /// room, after `finished`): ask for it with `race_review`.
    ReviewReady {
        /// The review's id.
        id: String,
    },
    /// Answer to `race_review`.
    RaceReview {
        /// The review.
        review: Box<RaceReview>,
    },
    /// Answer to `ratings`.
    Ratings {
        /// Variant id.
        variant: String,
        /// Every parameter, defaults filled in.
        params: Params,
        /// Difficulty.
        difficulty: String,
        /// Players with an established (not provisional) rating.
        total: u32,
        /// The highest established ratings (up to 10).
        top: Vec<RatingRow>,
        /// My rating, if I have raced this kind rated.
        #[serde(default)]
        rating: Option<i32>,
        /// Whether mine is still provisional (fewer than 5 rated races).
        provisional: bool,
        /// My rated races of this kind.
        games: u32,
        /// My rating after each of my last rated races (up to 30), oldest first.
        #[serde(default)]
        history: Vec<i32>,
    },
    /// Answer to `sync_code`: enter it on the other device within
    /// `expires_in_ms`.
    SyncCode {
        /// The code.
        code: String,
        /// How long it stays valid, ms.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        expires_in_ms: u64,
    },
    /// Answer to `profile`.
    Profile {
        /// Consecutive local days, up to today or yesterday, with a solved
        /// puzzle of the day.
        streak: u32,
        /// The longest such run ever.
        best_streak: u32,
        /// Whether today (local) already has one.
        played_today: bool,
        /// Whether my name is hidden from public leaderboards.
        #[serde(default)]
        hidden: bool,
        /// Per variant and difficulty played.
        stats: Vec<StatRow>,
    },
    /// Answer to `join_room` (or `create_room`) on a server of several nodes
    /// when the room lives on another node: reconnect to `url` (a WebSocket
    /// URL; say `hello` with the same token) and send `join_room` for `code`
    /// there. If `url` cannot be reached, go back to the first address and
    /// join again: a room whose node died is taken over within seconds.
    /// Answer to `quick_race` too, when the open race of the kind is on
    /// another node: there, send `ask` instead of `join_room` (it may have
    /// filled meanwhile: that node then opens the next).
    Redirect {
        /// The room.
        code: String,
        /// Where its node takes WebSocket connections.
        url: String,
        /// What to send there instead of `join_room` for `code`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ask: Option<Box<ClientMessage>>,
    },
    /// Answer to `setter_template`: the variant's empty puzzle.
    SetterTemplate {
        /// Variant id.
        variant: String,
        /// Every parameter, defaults filled in.
        params: Params,
        /// Layout and houses; no givens, cages, constraints or solution.
        puzzle: Box<PuzzleV1>,
    },
    /// Answer to `check_puzzle`.
    PuzzleCheck {
        /// The verdict.
        check: Box<PuzzleCheck>,
    },
    /// Answer to `analyse`: the logical solution.
    Analysis {
        /// The steps and the board they start from.
        analysis: Box<Analysis>,
    },
    /// Answer to `ping`.
    Pong {
        /// Echo of the client's clock.
        client_time: f64,
        /// The server clock (ms since the Unix epoch).
        server_time: f64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_by_type() {
        let m = ClientMessage::Move {
            row: 1,
            col: 2,
            value: 3,
        };
        let json = serde_json::to_string(&m).expect("json");
        assert_eq!(json, r#"{"type":"move","row":1,"col":2,"value":3}"#);
        let back: ClientMessage = serde_json::from_str(r#"{"type":"start"}"#).expect("start");
        assert_eq!(back, ClientMessage::Start);
        let unknown: ClientMessage =
            serde_json::from_str(r#"{"type":"dance"}"#).expect("tolerated");
        assert_eq!(unknown, ClientMessage::Unknown);
    }
}
