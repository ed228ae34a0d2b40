//! The room rules with plain values: thousands of decide cases against an
//! independent statement of the rules, replay equals live play, and the
//! policies' arithmetic.

use super::*;
use protocol::wire::RoomSettings;

/// Classic 4x4: this solution, with these cells empty.
const SOLUTION: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
const EMPTY: [usize; 6] = [0, 3, 5, 10, 12, 15];

fn model() -> Model {
    engine::geometry::classic(2, 2).expect("4x4")
}

fn givens() -> Vec<u8> {
    let mut g = SOLUTION.to_vec();
    for c in EMPTY {
        g[c] = 0;
    }
    g
}

fn settings(mode: Mode, mistakes: MistakePolicy, hints: HintPolicy) -> RoomSettings {
    RoomSettings {
        variant: "classic".into(),
        params: Default::default(),
        difficulty: "easy".into(),
        mode,
        public: false,
        max_players: 4,
        mistakes,
        hints,
        daily: None,
        ghosts: false,
        own_best: false,
        puzzle: None,
        draft: None,
        quick: false,
        rated: false,
        tournament: None,
    }
}

const MODES: [Mode; 3] = [Mode::Race, Mode::Solo, Mode::Coop];
const MISTAKES: [MistakePolicy; 3] = [
    MistakePolicy::None,
    MistakePolicy::Penalty { seconds: 7 },
    MistakePolicy::Lives { lives: 2 },
];
const HINTS: [HintPolicy; 2] = [HintPolicy::Off, HintPolicy::Penalty { seconds: 30 }];

/// A game with `players` seats, playing since wall-clock 1000 ms.
fn playing(mode: Mode, mistakes: MistakePolicy, hints: HintPolicy, players: usize) -> Play {
    let mut play = Play::new(&settings(mode, mistakes, hints), &givens(), &SOLUTION);
    for p in 0..players {
        play.seat(format!("p{p}"));
    }
    play.start_ms = Some(1000.0);
    play.phase = RoomState::Playing;
    play
}

/// Every legal combination of rules a room can have (co-op has no mistake policy).
fn every_rule_set() -> Vec<(Mode, MistakePolicy, HintPolicy)> {
    let mut out = Vec::new();
    for mode in MODES {
        for mistakes in MISTAKES {
            if mode == Mode::Coop && mistakes != MistakePolicy::None {
                continue;
            }
            for hints in HINTS {
                out.push((mode, mistakes, hints));
            }
        }
    }
    out
}

/// The rules for a value, stated independently of `decide`.
fn expected_value_verdict(play: &Play, row: u32, col: u32, value: u32) -> Option<ErrorCode> {
    if play.phase != RoomState::Playing || play.paused_since_ms.is_some() || play.players[0].done()
    {
        return Some(ErrorCode::WrongState);
    }
    if row >= 4 || col >= 4 {
        return Some(ErrorCode::Invalid);
    }
    if givens()[(row * 4 + col) as usize] != 0 {
        return Some(ErrorCode::Given);
    }
    (value > 4).then_some(ErrorCode::Invalid)
}

#[test]
fn decide_follows_the_rules_and_never_changes_the_game() {
    let model = model();
    let mut cases = 0;
    for (mode, mistakes, hints) in every_rule_set() {
        for phase in [
            RoomState::Waiting,
            RoomState::Countdown,
            RoomState::Playing,
            RoomState::Finished,
        ] {
            for paused in [false, true] {
                for done in [false, true] {
                    let mut play = playing(mode, mistakes, hints, 1);
                    play.phase = phase;
                    play.paused_since_ms = paused.then_some(2000.0);
                    play.players[0].out_of_lives = done;
                    let before = play.clone();
                    for row in 0..5 {
                        for col in 0..5 {
                            for value in 0..=5 {
                                let event = RoomEvent::Value { row, col, value };
                                let verdict = play.decide(&model, 0, &event);
                                assert_eq!(play, before, "decide changed the game");
                                assert_eq!(
                                    verdict.as_ref().err().map(|e| e.0),
                                    expected_value_verdict(&play, row, col, value),
                                    "{mode:?} {phase:?} paused={paused} done={done} [{row},{col}]={value}"
                                );
                                let pencil = play.decide(
                                    &model,
                                    0,
                                    &RoomEvent::Pencil {
                                        row,
                                        col,
                                        marks: value,
                                    },
                                );
                                let cell_ok = expected_value_verdict(&play, row, col, 0).is_none();
                                assert_eq!(
                                    pencil.is_ok(),
                                    cell_ok && mode == Mode::Coop,
                                    "pencil {mode:?} {phase:?} [{row},{col}]"
                                );
                                // Several cells: all fit, or the change is refused.
                                let other = EMPTY[0] as u32;
                                let (other_row, other_col) = (other / 4, other % 4);
                                let marks = play.decide(
                                    &model,
                                    0,
                                    &RoomEvent::Marks {
                                        cells: vec![
                                            CellMarks {
                                                row: other_row,
                                                col: other_col,
                                                marks: 1,
                                            },
                                            CellMarks {
                                                row,
                                                col,
                                                marks: value,
                                            },
                                        ],
                                    },
                                );
                                let twice = (row, col) == (other_row, other_col);
                                assert_eq!(
                                    marks.is_ok(),
                                    pencil.is_ok() && !twice,
                                    "marks {mode:?} {phase:?} [{row},{col}]"
                                );
                                cases += 3;
                            }
                        }
                    }
                    let fill = play.decide(&model, 0, &RoomEvent::Candidates);
                    let fill_ok = mode == Mode::Race
                        && hints != HintPolicy::Off
                        && phase == RoomState::Playing
                        && !done;
                    assert_eq!(
                        fill.is_ok(),
                        fill_ok,
                        "candidates {mode:?} {phase:?} {hints:?}"
                    );
                    let hint = play.decide(&model, 0, &RoomEvent::Hint { row: 1, col: 1 });
                    let hint_ok =
                        hints != HintPolicy::Off && phase == RoomState::Playing && !paused && !done;
                    assert_eq!(hint.is_ok(), hint_ok, "hint {mode:?} {phase:?} {hints:?}");
                    for (request, wants_paused) in
                        [(RoomEvent::Pause, false), (RoomEvent::Resume, true)]
                    {
                        let verdict = play.decide(&model, 0, &request);
                        let ok = mode == Mode::Solo
                            && phase == RoomState::Playing
                            && paused == wants_paused;
                        assert_eq!(
                            verdict.is_ok(),
                            ok,
                            "{request:?} {mode:?} {phase:?} paused={paused}"
                        );
                    }
                    assert_eq!(play, before, "decide changed the game");
                    cases += 4;
                }
            }
        }
    }
    assert!(cases > 10_000, "{cases} cases");
}

/// A small deterministic random source.
struct Noise(u64);

impl Noise {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn replaying_the_stored_log_rebuilds_the_game_exactly() {
    let model = model();
    let mut games = 0;
    for (mode, mistakes, hints) in every_rule_set() {
        for seed in 1..=40u64 {
            let mut noise = Noise(seed * 0x9e37_79b9);
            let players = if mode == Mode::Solo { 1 } else { 3 };
            let mut live = playing(mode, mistakes, hints, players);
            let mut log = Vec::new();
            let mut now = 1000.0;
            for _ in 0..60 {
                now += noise.below(5000) as f64;
                let i = noise.below(players as u64) as usize;
                let cell = EMPTY[noise.below(EMPTY.len() as u64) as usize];
                let (row, col) = ((cell / 4) as u32, (cell % 4) as u32);
                let event = match noise.below(10) {
                    0 => RoomEvent::Pause,
                    1 => RoomEvent::Resume,
                    2 if noise.below(3) == 0 => RoomEvent::Candidates,
                    2 => RoomEvent::Hint { row, col },
                    3 if noise.below(2) == 0 => RoomEvent::Pencil {
                        row,
                        col,
                        marks: noise.below(16) as u32,
                    },
                    3 => RoomEvent::Marks {
                        cells: EMPTY
                            .iter()
                            .map(|&c| CellMarks {
                                row: (c / 4) as u32,
                                col: (c % 4) as u32,
                                marks: noise.below(16) as u32,
                            })
                            .filter(|m| m.marks % 3 == 0)
                            .collect(),
                    },
                    // Mostly right values, sometimes wrong ones and erasures.
                    4 => RoomEvent::Value {
                        row,
                        col,
                        value: noise.below(5) as u32,
                    },
                    _ => RoomEvent::Value {
                        row,
                        col,
                        value: u32::from(SOLUTION[cell]),
                    },
                };
                if live.decide(&model, i, &event).is_err() {
                    continue;
                }
                let applied = live.apply(&model, i, &event, now);
                log.push((i, event, now));
                assert_eq!(applied.game_over, live.phase == RoomState::Finished);
                if applied.game_over {
                    break;
                }
            }
            let mut replayed = playing(mode, mistakes, hints, players);
            for (i, event, at) in &log {
                replayed.apply(&model, *i, event, *at);
            }
            assert_eq!(replayed, live, "{mode:?} {mistakes:?} seed {seed}");
            assert_eq!(replayed.seq, log.len() as u64);
            games += 1;
        }
    }
    assert!(games >= 400, "{games} games");
}

/// Plays every empty cell of seat `i` right, at `at_ms`.
fn solve(play: &mut Play, i: usize, at_ms: f64) -> Applied {
    let model = model();
    let mut last = Applied::default();
    for cell in EMPTY {
        let event = RoomEvent::Value {
            row: (cell / 4) as u32,
            col: (cell % 4) as u32,
            value: u32::from(SOLUTION[cell]),
        };
        last = play.apply(&model, i, &event, at_ms);
    }
    last
}

#[test]
fn a_race_time_adds_the_mistake_and_hint_penalties() {
    let model = model();
    let mut play = playing(
        Mode::Race,
        MistakePolicy::Penalty { seconds: 7 },
        HintPolicy::Penalty { seconds: 30 },
        2,
    );
    let wrong = RoomEvent::Value {
        row: 0,
        col: 0,
        value: 4,
    };
    assert_eq!(play.apply(&model, 0, &wrong, 2000.0).correct, Some(false));
    play.apply(&model, 0, &wrong, 2500.0);
    // An erase is never a mistake.
    let erase = RoomEvent::Value {
        row: 0,
        col: 0,
        value: 0,
    };
    assert_eq!(play.apply(&model, 0, &erase, 2600.0).correct, Some(true));
    play.apply(&model, 0, &RoomEvent::Hint { row: 0, col: 0 }, 3000.0);
    let last = solve(&mut play, 0, 61_000.0);
    assert!(last.finished && last.correct == Some(true));
    // 60 s of play, 2 mistakes x 7 s, 1 hint x 30 s.
    assert_eq!(play.players[0].finished_ms, Some(60_000 + 14_000 + 30_000));
    assert!(!play.all_done(), "the other racer still plays");
    solve(&mut play, 1, 31_000.0);
    assert!(play.all_done());
    assert_eq!(play.finishers(), vec![1, 0], "fastest first");
}

#[test]
fn lives_run_out_and_the_player_is_done() {
    let model = model();
    let mut play = playing(
        Mode::Race,
        MistakePolicy::Lives { lives: 2 },
        HintPolicy::Off,
        1,
    );
    let wrong = RoomEvent::Value {
        row: 0,
        col: 3,
        value: 1,
    };
    play.apply(&model, 0, &wrong, 2000.0);
    assert!(!play.players[0].out_of_lives);
    play.apply(&model, 0, &wrong, 3000.0);
    assert!(play.players[0].out_of_lives && play.all_done());
    let again = play.decide(
        &model,
        0,
        &RoomEvent::Value {
            row: 0,
            col: 0,
            value: 1,
        },
    );
    assert_eq!(again.err().map(|e| e.0), Some(ErrorCode::WrongState));
    assert!(play.finishers().is_empty(), "out of lives is not ranked");
}

#[test]
fn coop_solves_one_board_and_finishes_every_seat_with_the_team_time() {
    let model = model();
    let mut play = playing(
        Mode::Coop,
        MistakePolicy::None,
        HintPolicy::Penalty { seconds: 10 },
        3,
    );
    play.apply(&model, 2, &RoomEvent::Hint { row: 0, col: 0 }, 1500.0);
    for (n, cell) in EMPTY.iter().enumerate() {
        let event = RoomEvent::Value {
            row: (*cell / 4) as u32,
            col: (*cell % 4) as u32,
            value: u32::from(SOLUTION[*cell]),
        };
        let applied = play.apply(&model, n % 2, &event, 11_000.0);
        assert_eq!(applied.finished, n + 1 == EMPTY.len());
    }
    assert!(play
        .players
        .iter()
        .all(|p| p.finished_ms == Some(10_000 + 10_000)));
    assert_eq!(
        (play.cells_by(0), play.cells_by(1), play.cells_by(2)),
        (3, 3, 0)
    );
    assert!(
        play.players.iter().all(|p| p.board == givens()),
        "own boards untouched"
    );
}

#[test]
fn a_pause_stops_the_clock_and_a_restart_resets_the_game() {
    let model = model();
    let mut play = playing(Mode::Solo, MistakePolicy::None, HintPolicy::Off, 1);
    play.apply(&model, 0, &RoomEvent::Pause, 2000.0);
    assert_eq!(play.elapsed_ms(9000.0), 1000, "a pause stops the clock");
    play.apply(&model, 0, &RoomEvent::Resume, 6000.0);
    assert_eq!(play.elapsed_ms(7000.0), 2000);
    solve(&mut play, 0, 8000.0);
    assert_eq!(play.players[0].finished_ms, Some(3000));
    play.restart(&givens(), &SOLUTION);
    assert_eq!(
        (
            play.phase,
            play.seq,
            play.start_ms,
            play.players[0].finished_ms
        ),
        (RoomState::Waiting, 0, None, None)
    );
    assert_eq!(play.players[0].board, givens());
    assert_eq!(play.players[0].id, "p0");
}

#[test]
fn an_event_outside_the_model_still_counts_in_the_log() {
    let model = model();
    let mut play = playing(Mode::Race, MistakePolicy::None, HintPolicy::Off, 1);
    let before = play.players.clone();
    let stray = RoomEvent::Value {
        row: 9,
        col: 9,
        value: 1,
    };
    assert_eq!(play.apply(&model, 0, &stray, 2000.0), Applied::default());
    assert_eq!((play.seq, &play.players), (1, &before));
}

#[test]
fn seats_the_start_and_rematches_follow_the_room_rules() {
    let mut cases = 0;
    for (mode, mistakes, hints) in every_rule_set() {
        for seated in 0..4usize {
            for phase in [
                RoomState::Waiting,
                RoomState::Countdown,
                RoomState::Playing,
                RoomState::Finished,
            ] {
                let mut play = playing(mode, mistakes, hints, seated);
                play.phase = phase;
                let before = play.clone();
                for max_players in 1..=4u32 {
                    let join = play.check_join(max_players).err().map(|e| e.0);
                    let open = phase == RoomState::Waiting && seated < max_players as usize;
                    assert_eq!(join, (!open).then_some(ErrorCode::Closed));
                    cases += 1;
                }
                for by in ["p0", "p1", "stranger"] {
                    let host = seated > 0 && by == "p0";
                    let start = play.check_start(by).err().map(|e| e.0);
                    let expected = if !host {
                        Some(ErrorCode::NotHost)
                    } else if phase != RoomState::Waiting {
                        Some(ErrorCode::WrongState)
                    } else {
                        None
                    };
                    assert_eq!(start, expected, "start by {by} in {phase:?}");
                    let rematch = play.check_rematch(by).err().map(|e| e.0);
                    let player = (by == "p0" && seated > 0) || (by == "p1" && seated > 1);
                    let expected = if !player {
                        Some(ErrorCode::Spectator)
                    } else if phase != RoomState::Finished {
                        Some(ErrorCode::WrongState)
                    } else {
                        None
                    };
                    assert_eq!(rematch, expected, "rematch by {by} in {phase:?}");
                    cases += 2;
                }
                assert_eq!(play.check_ready().is_ok(), phase == RoomState::Waiting);
                assert_eq!(play, before, "checks change nothing");
            }
        }
    }
    assert!(cases > 500, "{cases} cases");
}

#[test]
fn the_first_seat_hosts_and_the_role_passes_on() {
    let mut play = Play::new(
        &settings(Mode::Race, MistakePolicy::None, HintPolicy::Off),
        &givens(),
        &SOLUTION,
    );
    for id in ["ada", "bob", "cy"] {
        play.seat(id.into());
    }
    assert_eq!(play.host, "ada");
    assert_eq!(play.unseat(1), None, "a guest leaving changes no host");
    assert_eq!(play.unseat(0).as_deref(), Some("cy"));
    assert_eq!(play.host, "cy");
    assert_eq!(play.unseat(0), None, "nobody left to host");
    play.seat("dee".into());
    assert_eq!(play.host, "dee");
    play.start(5000.0);
    assert_eq!(
        (play.phase, play.start_ms),
        (RoomState::Countdown, Some(5000.0))
    );
    assert!(play.begin() && play.phase == RoomState::Playing);
    assert!(!play.begin(), "no countdown left to end");
}

#[test]
fn a_racer_who_forfeits_is_done_and_unranked() {
    let model = model();
    for mode in MODES {
        let play = playing(mode, MistakePolicy::None, HintPolicy::Off, 2);
        let verdict = play.decide(&model, 1, &RoomEvent::Forfeit);
        assert_eq!(verdict.is_ok(), mode == Mode::Race, "{mode:?}");
    }
    let mut play = playing(Mode::Race, MistakePolicy::None, HintPolicy::Off, 2);
    play.apply(&model, 1, &RoomEvent::Forfeit, 2000.0);
    assert!(play.players[1].done() && !play.all_done());
    assert!(play.decide(&model, 1, &RoomEvent::Forfeit).is_err(), "once");
    let last = solve(&mut play, 0, 5000.0);
    assert!(
        play.all_done() && last.game_over,
        "the last finish ends the race"
    );
    assert_eq!(play.phase, RoomState::Finished);
    assert_eq!(play.finishers(), vec![0]);
    assert!(play.decide(&model, 0, &RoomEvent::Forfeit).is_err());
}
