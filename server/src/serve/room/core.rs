//! The rules of a room's game, pure: no tokio, no store, no plugins and no clock
//! of its own — every event carries its wall-clock time. [`Play::decide`] checks
//! the event a player asks for (a value, pencil marks, a hint, a pause) without
//! changing anything; [`Play::apply`] is the only way play changes,
//! used by live play (after the event is stored) and by replay after a restart
//! alike, so a restored room is the room that was. The `check_*` methods are the
//! rules for seats, the start and rematches; `seat`, `unseat`, `start`, `begin`
//! and `restart` apply them.

use super::Failure;
use crate::serve::event::RoomEvent;
use engine::Model;
use protocol::wire::{
    CellMarks, ErrorCode, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomState,
};

/// One seat's game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerState {
    /// Player id.
    pub id: String,
    /// Their board (race and solo), givens included.
    pub board: Vec<u8>,
    /// Finish time in ms from the start, penalties included.
    pub finished_ms: Option<u64>,
    /// Wrong digits (counted under `penalty` and `lives`).
    pub mistakes: u32,
    /// Out of lives.
    pub out_of_lives: bool,
    /// Race: left the game (forfeited; not ranked).
    pub forfeited: bool,
    /// Hints taken.
    pub hints: u32,
}

impl PlayerState {
    /// A player at the start: the givens on their board.
    pub fn new(id: String, givens: &[u8]) -> PlayerState {
        PlayerState {
            id,
            board: givens.to_vec(),
            finished_ms: None,
            mistakes: 0,
            out_of_lives: false,
            forfeited: false,
            hints: 0,
        }
    }

    /// Finished, out of lives or forfeited: this player makes no more moves.
    pub fn done(&self) -> bool {
        self.finished_ms.is_some() || self.out_of_lives || self.forfeited
    }
}

/// The shared board of a co-op room, changed only in server order.
#[derive(Clone, Debug, PartialEq)]
pub struct CoopBoard {
    /// Values, givens included.
    pub values: Vec<u8>,
    /// Who put each value.
    pub authors: Vec<Option<String>>,
    /// Pencil marks per cell.
    pub pencil: Vec<u32>,
}

impl CoopBoard {
    fn new(givens: &[u8]) -> CoopBoard {
        CoopBoard {
            values: givens.to_vec(),
            authors: vec![None; givens.len()],
            pencil: vec![0; givens.len()],
        }
    }
}

/// What applying an event tells the room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Whether a value was right (only under `penalty` and `lives`).
    pub correct: Option<bool>,
    /// The event finished the player (race) or the team (co-op).
    pub finished: bool,
    /// The event ended the game: every seat is done, and the phase is
    /// `Finished` now.
    pub game_over: bool,
}

/// A game: the rules, the puzzle's givens and solution, and every seat's play.
#[derive(Clone, Debug, PartialEq)]
pub struct Play {
    /// Race, solo or co-op.
    pub mode: Mode,
    /// What a wrong digit costs.
    pub mistakes: MistakePolicy,
    /// What a hint costs.
    pub hints: HintPolicy,
    /// The puzzle's givens, one per cell.
    pub givens: Vec<u8>,
    /// Its solution.
    pub solution: Vec<u8>,
    /// One per seat, in seat order.
    pub players: Vec<PlayerState>,
    /// The host's player id (starts the game, asks for rematches).
    pub host: String,
    /// Co-op: the shared board.
    pub coop: CoopBoard,
    /// Where the game is.
    pub phase: RoomState,
    /// When play begins (wall clock, ms since the Unix epoch).
    pub start_ms: Option<f64>,
    /// Solo: when the current pause began (wall clock).
    pub paused_since_ms: Option<f64>,
    /// Solo: time paused so far, ms.
    pub paused_total_ms: f64,
    /// The number of the last applied event.
    pub seq: u64,
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Failure {
    (code, message.into())
}

impl Play {
    /// A game of `settings` on a puzzle with these givens and solution, nobody seated.
    pub fn new(settings: &RoomSettings, givens: &[u8], solution: &[u8]) -> Play {
        Play {
            mode: settings.mode,
            mistakes: settings.mistakes,
            hints: settings.hints,
            givens: givens.to_vec(),
            solution: solution.to_vec(),
            players: Vec::new(),
            host: String::new(),
            coop: CoopBoard::new(givens),
            phase: RoomState::Waiting,
            start_ms: None,
            paused_since_ms: None,
            paused_total_ms: 0.0,
            seq: 0,
        }
    }

    /// The same game on a new puzzle (a rematch): every seat back to the givens.
    pub fn restart(&mut self, givens: &[u8], solution: &[u8]) {
        self.givens = givens.to_vec();
        self.solution = solution.to_vec();
        for p in &mut self.players {
            *p = PlayerState::new(std::mem::take(&mut p.id), givens);
        }
        self.coop = CoopBoard::new(givens);
        self.phase = RoomState::Waiting;
        self.start_ms = None;
        self.paused_since_ms = None;
        self.paused_total_ms = 0.0;
        self.seq = 0;
    }

    /// Seats a player (their board holds the givens); the first becomes host.
    pub fn seat(&mut self, id: String) {
        if self.players.is_empty() {
            self.host = id.clone();
        }
        self.players.push(PlayerState::new(id, &self.givens));
    }

    /// Whether someone may take a new seat in a room of at most `max_players`
    /// (someone already seated simply returns to their seat).
    pub fn check_join(&self, max_players: u32) -> Result<(), Failure> {
        if self.phase != RoomState::Waiting {
            return Err(refuse(
                ErrorCode::Closed,
                "the game has already started; join as a spectator",
            ));
        }
        if self.players.len() >= max_players as usize {
            return Err(refuse(ErrorCode::Closed, "the room is full"));
        }
        Ok(())
    }

    /// Frees seat `i` (before the start); the host's role passes to the next
    /// seat. Returns the new host, if it changed.
    pub fn unseat(&mut self, i: usize) -> Option<String> {
        let left = self.players.remove(i);
        if left.id != self.host {
            return None;
        }
        self.host = self.players.first().map(|p| p.id.clone())?;
        Some(self.host.clone())
    }

    /// Whether a player may say they are ready (or not) now.
    pub fn check_ready(&self) -> Result<(), Failure> {
        if self.phase != RoomState::Waiting {
            return Err(refuse(
                ErrorCode::WrongState,
                "the game has already started",
            ));
        }
        Ok(())
    }

    /// Whether `by` may start the game now.
    pub fn check_start(&self, by: &str) -> Result<(), Failure> {
        if by != self.host {
            return Err(refuse(ErrorCode::NotHost, "only the host can start"));
        }
        if self.phase != RoomState::Waiting {
            return Err(refuse(
                ErrorCode::WrongState,
                "the game has already started",
            ));
        }
        Ok(())
    }

    /// The start is stored: play begins at wall-clock `start_ms`.
    pub fn start(&mut self, start_ms: f64) {
        self.start_ms = Some(start_ms);
        self.phase = RoomState::Countdown;
    }

    /// The countdown is over; `false` if there was none to end.
    pub fn begin(&mut self) -> bool {
        let counting = self.phase == RoomState::Countdown;
        if counting {
            self.phase = RoomState::Playing;
        }
        counting
    }

    /// Whether `by` may ask for a rematch now.
    pub fn check_rematch(&self, by: &str) -> Result<(), Failure> {
        if !self.players.iter().any(|p| p.id == by) {
            return Err(refuse(
                ErrorCode::Spectator,
                "only the players vote for a rematch",
            ));
        }
        if self.phase != RoomState::Finished {
            return Err(refuse(
                ErrorCode::WrongState,
                "a rematch follows a finished game",
            ));
        }
        Ok(())
    }

    /// Checks the event seat `i` asks for (a value, pencil marks, a pause, a
    /// resume, or a hint about any cell) against the rules; changes nothing.
    pub fn decide(&self, model: &Model, i: usize, event: &RoomEvent) -> Result<(), Failure> {
        let wrong_state = |why: &str| refuse(ErrorCode::WrongState, why);
        match *event {
            RoomEvent::Pause | RoomEvent::Resume => {
                let pause = *event == RoomEvent::Pause;
                if self.mode != Mode::Solo {
                    return Err(wrong_state("only solo games can pause"));
                }
                if self.phase != RoomState::Playing || self.paused_since_ms.is_some() == pause {
                    return Err(wrong_state(if pause {
                        "not running"
                    } else {
                        "not paused"
                    }));
                }
                Ok(())
            }
            RoomEvent::Forfeit => {
                if self.mode != Mode::Race {
                    return Err(wrong_state("only a race is forfeited"));
                }
                if !matches!(self.phase, RoomState::Countdown | RoomState::Playing) {
                    return Err(wrong_state("the race is not running"));
                }
                if self.players[i].done() {
                    return Err(wrong_state("you are no longer racing"));
                }
                Ok(())
            }
            RoomEvent::Candidates => {
                if self.mode != Mode::Race {
                    return Err(wrong_state(
                        "candidates are filled by the client outside a race",
                    ));
                }
                if self.hints == HintPolicy::Off {
                    return Err(wrong_state(
                        "this race plays without hints, and filling candidates is one",
                    ));
                }
                if self.phase != RoomState::Playing || self.players[i].done() {
                    return Err(wrong_state("you are not racing"));
                }
                Ok(())
            }
            RoomEvent::Hint { .. } => {
                if self.hints == HintPolicy::Off {
                    return Err(wrong_state("this room plays without hints"));
                }
                if self.phase != RoomState::Playing || self.paused_since_ms.is_some() {
                    return Err(wrong_state("hints are given while playing"));
                }
                if self.players[i].done() {
                    return Err(wrong_state("you are no longer playing"));
                }
                Ok(())
            }
            RoomEvent::Value { row, col, value } => {
                self.check_cell(model, i, row, col)?;
                let size = model.size();
                if value > size {
                    return Err(refuse(
                        ErrorCode::Invalid,
                        format!("{value} is outside 0..={size}"),
                    ));
                }
                Ok(())
            }
            RoomEvent::Pencil { row, col, marks } => {
                self.check_marks(model, i, &[CellMarks { row, col, marks }])
            }
            RoomEvent::Marks { ref cells } => self.check_marks(model, i, cells),
        }
    }

    /// Checks that seat `i` may set these pencil marks (co-op, each a cell it
    /// may change, once, no mark above N).
    fn check_marks(&self, model: &Model, i: usize, cells: &[CellMarks]) -> Result<(), Failure> {
        if self.mode != Mode::Coop {
            return Err(refuse(
                ErrorCode::WrongState,
                "shared pencil marks are for co-op rooms",
            ));
        }
        if cells.is_empty() || cells.len() > model.cell_count() {
            return Err(refuse(
                ErrorCode::Invalid,
                format!("a pencil change holds 1 to {} cells", model.cell_count()),
            ));
        }
        let full = engine::full_mask(model.size());
        let mut seen = std::collections::HashSet::with_capacity(cells.len());
        for &CellMarks { row, col, marks } in cells {
            self.check_cell(model, i, row, col)?;
            if !seen.insert((row, col)) {
                return Err(refuse(
                    ErrorCode::Invalid,
                    format!("[{row},{col}] appears twice in one pencil change"),
                ));
            }
            if marks & !full != 0 {
                return Err(refuse(ErrorCode::Invalid, "a mark is above N"));
            }
        }
        Ok(())
    }

    /// Checks that seat `i` may change cell `[row, col]` now.
    fn check_cell(&self, model: &Model, i: usize, row: u32, col: u32) -> Result<(), Failure> {
        let wrong_state = |why: &str| refuse(ErrorCode::WrongState, why);
        if self.phase != RoomState::Playing {
            return Err(wrong_state("moves are accepted while playing"));
        }
        if self.paused_since_ms.is_some() {
            return Err(wrong_state("the game is paused"));
        }
        if self.players[i].done() {
            return Err(wrong_state("you are no longer playing"));
        }
        let Some(cell) = model.cell_at(row, col) else {
            return Err(refuse(
                ErrorCode::Invalid,
                format!("[{row},{col}] is not a cell of this puzzle"),
            ));
        };
        if self.givens[cell] != 0 {
            return Err(refuse(ErrorCode::Given, "that cell is a given"));
        }
        Ok(())
    }

    /// Applies an event by seat `i` at wall-clock `at_ms`; numbers it `seq + 1`.
    /// Events the rules no longer fit (a cell outside the model) change only the
    /// numbering, so a stored log always replays. The event that leaves every
    /// seat done ends the game here (`game_over`), live and in replay alike.
    pub fn apply(&mut self, model: &Model, i: usize, event: &RoomEvent, at_ms: f64) -> Applied {
        self.seq += 1;
        let mut applied = self.apply_event(model, i, event, at_ms);
        if self.phase == RoomState::Playing && self.all_done() {
            self.phase = RoomState::Finished;
            applied.game_over = true;
        }
        applied
    }

    /// What [`Play::apply`] does to the players and boards.
    fn apply_event(&mut self, model: &Model, i: usize, event: &RoomEvent, at_ms: f64) -> Applied {
        let elapsed = self.elapsed_ms(at_ms);
        match *event {
            RoomEvent::Pause => {
                self.paused_since_ms = Some(at_ms);
                Applied::default()
            }
            RoomEvent::Resume => {
                let began = self.paused_since_ms.take().unwrap_or(at_ms);
                self.paused_total_ms += (at_ms - began).max(0.0);
                Applied::default()
            }
            RoomEvent::Hint { .. } | RoomEvent::Candidates => {
                self.players[i].hints += 1;
                Applied::default()
            }
            RoomEvent::Forfeit => {
                self.players[i].forfeited = true;
                Applied::default()
            }
            RoomEvent::Pencil { row, col, marks } => {
                self.apply_marks(model, &[CellMarks { row, col, marks }]);
                Applied::default()
            }
            RoomEvent::Marks { ref cells } => {
                self.apply_marks(model, cells);
                Applied::default()
            }
            RoomEvent::Value { row, col, value } => match model.cell_at(row, col) {
                Some(cell) if self.mode == Mode::Coop => {
                    self.apply_coop_value(i, cell, value, elapsed)
                }
                Some(cell) => self.apply_value(i, cell, value, elapsed),
                None => Applied::default(),
            },
        }
    }

    /// Co-op: pencil marks on the shared board (cells outside the model skipped).
    fn apply_marks(&mut self, model: &Model, cells: &[CellMarks]) {
        for &CellMarks { row, col, marks } in cells {
            if let Some(cell) = model.cell_at(row, col) {
                self.coop.pencil[cell] = marks;
            }
        }
    }

    /// Race and solo: `value` on seat `i`'s board, `elapsed` ms into the game.
    fn apply_value(&mut self, i: usize, cell: usize, value: u32, elapsed: u64) -> Applied {
        let right = value == 0 || u32::from(self.solution[cell]) == value;
        let correct = match self.mistakes {
            MistakePolicy::None => None,
            MistakePolicy::Penalty { .. } | MistakePolicy::Lives { .. } => Some(right),
        };
        let p = &mut self.players[i];
        p.board[cell] = value as u8;
        if correct == Some(false) {
            p.mistakes += 1;
            if let MistakePolicy::Lives { lives } = self.mistakes {
                p.out_of_lives = p.mistakes >= lives;
            }
        }
        let finished = p.board == self.solution;
        if finished {
            self.players[i].finished_ms = Some(elapsed + self.penalty_ms(i));
        }
        Applied {
            correct,
            finished,
            game_over: false,
        }
    }

    /// Race and solo: what seat `i`'s hints and wrong digits add to their time.
    pub fn penalty_ms(&self, i: usize) -> u64 {
        let p = &self.players[i];
        let mistakes = match self.mistakes {
            MistakePolicy::Penalty { seconds } => u64::from(seconds) * 1000 * u64::from(p.mistakes),
            _ => 0,
        };
        self.hint_penalty_ms(p.hints) + mistakes
    }

    /// Co-op: `value` on the shared board; solving it finishes every seat.
    fn apply_coop_value(&mut self, i: usize, cell: usize, value: u32, elapsed: u64) -> Applied {
        self.coop.values[cell] = value as u8;
        self.coop.authors[cell] = (value != 0).then(|| self.players[i].id.clone());
        let finished = self.coop.values == self.solution;
        if finished {
            let hints = self.players.iter().map(|p| p.hints).sum();
            let team = elapsed + self.hint_penalty_ms(hints);
            for p in &mut self.players {
                p.finished_ms = Some(team);
            }
        }
        Applied {
            correct: None,
            finished,
            game_over: false,
        }
    }

    /// Whether every seat is done: the game is over.
    pub fn all_done(&self) -> bool {
        !self.players.is_empty() && self.players.iter().all(PlayerState::done)
    }

    /// Milliseconds of play at wall-clock `now_ms`: since the start, minus time
    /// paused.
    pub fn elapsed_ms(&self, now_ms: f64) -> u64 {
        let Some(start) = self.start_ms else {
            return 0;
        };
        let open_pause = self.paused_since_ms.map_or(0.0, |p| (now_ms - p).max(0.0));
        (now_ms - start - self.paused_total_ms - open_pause).max(0.0) as u64
    }

    /// What `hints` hints add to a time, ms.
    pub fn hint_penalty_ms(&self, hints: u32) -> u64 {
        match self.hints {
            HintPolicy::Off => 0,
            HintPolicy::Penalty { seconds } => u64::from(seconds) * 1000 * u64::from(hints),
        }
    }

    /// Co-op: the cells of the shared board seat `i` filled.
    pub fn cells_by(&self, i: usize) -> usize {
        let id = &self.players[i].id;
        self.coop
            .authors
            .iter()
            .filter(|a| a.as_ref() == Some(id))
            .count()
    }

    /// Seats that finished, fastest first.
    pub fn finishers(&self) -> Vec<usize> {
        let mut done: Vec<usize> = (0..self.players.len())
            .filter(|&i| self.players[i].finished_ms.is_some())
            .collect();
        done.sort_by_key(|&i| self.players[i].finished_ms);
        done
    }
}

/// Seat `seat`'s place among `finishers` (fastest first), 1 for the winner;
/// `None` when it is not among them.
pub fn place_among(finishers: &[usize], seat: usize) -> Option<u32> {
    (finishers.iter().position(|&f| f == seat)).map(|n| n as u32 + 1)
}

#[cfg(test)]
mod tests;
