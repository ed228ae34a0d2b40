//! The setter and the step-through solver over a real socket with the real
//! plugins: templates, live counts (where two solutions differ), grades, rooms
//! opened on a set puzzle, and analyses that open only once a game is over.

use arena_tests::serve::start_server_with;
use arena_tests::ws::{race_settings, started_room, Client};
use protocol::plugin::Params;
use protocol::setter::{Analysis, PuzzleCheck, SetterDraft};
use protocol::wire::{ClientMessage, ErrorCode, Mode, RoomSettings, ServerMessage};
use protocol::{Cage, Constraint, HouseKind, ParamValue, PuzzleV1};
use server::serve::Config;

/// A well-known unique classic (Wikipedia's).
const LINE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn grid_of(line: &str) -> Vec<Vec<u32>> {
    let digits: Vec<u32> = line.chars().map(|c| c.to_digit(10).unwrap_or(0)).collect();
    digits.chunks(9).map(|r| r.to_vec()).collect()
}

fn classic_draft(line: &str) -> SetterDraft {
    SetterDraft {
        variant: "classic".into(),
        grid: grid_of(line),
        ..SetterDraft::default()
    }
}

async fn server() -> std::net::SocketAddr {
    // Solving moves come 51 in a row: more than the default burst.
    start_server_with(Config {
        burst: 100,
        ..Config::default()
    })
    .await
}

async fn template(c: &mut Client, variant: &str, params: Params) -> PuzzleV1 {
    c.send(&ClientMessage::SetterTemplate {
        variant: variant.into(),
        params,
    })
    .await;
    c.until(|m| match m {
        ServerMessage::SetterTemplate { puzzle, .. } => Some(*puzzle),
        _ => None,
    })
    .await
}

async fn check(c: &mut Client, draft: SetterDraft) -> PuzzleCheck {
    c.send(&ClientMessage::CheckPuzzle { draft }).await;
    c.until(|m| match m {
        ServerMessage::PuzzleCheck { check } => Some(*check),
        _ => None,
    })
    .await
}

async fn analysis(c: &mut Client, draft: Option<SetterDraft>) -> Result<Analysis, ErrorCode> {
    c.send(&ClientMessage::Analyse { draft }).await;
    c.until(|m| match m {
        ServerMessage::Analysis { analysis } => Some(Ok(*analysis)),
        ServerMessage::Error { code, .. } => Some(Err(code)),
        _ => None,
    })
    .await
}

/// Plays an analysis forward from its start: the board it ends on.
fn replayed(a: &Analysis) -> Vec<u32> {
    let mut board: Vec<[u32; 4]> = a.start.clone();
    for step in &a.steps {
        for cell in &step.after {
            let i = board
                .iter()
                .position(|b| b[0] == cell[0] && b[1] == cell[1])
                .expect("a cell of the board");
            board[i] = *cell;
        }
    }
    board.iter().map(|c| c[2]).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn templates_are_empty_and_keep_the_variants_houses() {
    let addr = server().await;
    let mut a = Client::connect(addr, "Setter").await;
    let classic = template(&mut a, "classic", Params::new()).await;
    assert_eq!((classic.layout.rows, classic.layout.cols), (9, 9));
    assert!(classic.grid.iter().flatten().all(|&v| v == 0));
    assert_eq!(classic.houses.len(), 27);
    assert!(classic.solution.is_none());

    let killer = template(&mut a, "killer", Params::new()).await;
    assert!(killer.cages.is_empty() && killer.grid.iter().flatten().all(|&v| v == 0));

    let jigsaw = template(&mut a, "jigsaw", Params::new()).await;
    let regions = jigsaw.houses.iter().filter(|h| h.kind == HouseKind::Region);
    assert_eq!(
        regions.count(),
        9,
        "a jigsaw's template has regions to repaint"
    );

    a.send(&ClientMessage::SetterTemplate {
        variant: "nonomino".into(),
        params: Params::new(),
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Invalid);
    let mut bad = Params::new();
    bad.insert("box".into(), ParamValue::Text("7x7".into()));
    a.send(&ClientMessage::SetterTemplate {
        variant: "classic".into(),
        params: bad,
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Invalid);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draft_is_counted_shown_where_it_is_ambiguous_and_graded_once_unique() {
    let addr = server().await;
    let mut a = Client::connect(addr, "Setter").await;

    // Without its first row the puzzle has several solutions; the cells where
    // two of them differ are shown, and no grade.
    let open = format!("{}{}", ".".repeat(9), &LINE[9..]);
    let verdict = check(&mut a, classic_draft(&open)).await;
    assert_eq!(verdict.solutions, 2);
    assert!(!verdict.differing.is_empty());
    assert!(verdict.differing.iter().all(|&[r, c]| r < 9 && c < 9));
    assert!(verdict.grade.is_none());

    let verdict = check(&mut a, classic_draft(LINE)).await;
    assert_eq!(verdict.solutions, 1);
    let grade = verdict.grade.expect("graded once unique");
    assert_eq!(grade.tier, "easy");
    let drawn = verdict.puzzle.expect("the puzzle to draw");
    assert!(drawn.solution.is_none(), "a check never sends a solution");

    // Two 5s in one row: no solution.
    let clash = format!("55{}", &LINE[2..]);
    assert_eq!(check(&mut a, classic_draft(&clash)).await.solutions, 0);

    // A thermometer off the board is named, not dropped.
    let mut off = classic_draft(&open);
    off.constraints.push(Constraint::Thermometer {
        cells: vec![[0, 0], [0, 9]],
        slow: false,
    });
    let verdict = check(&mut a, off).await;
    let problem = verdict.problem.expect("a problem");
    assert!(problem.contains("thermometer"), "{problem}");

    // A killer drafted with cages: the totals are the clues.
    let killer = template(&mut a, "killer", Params::new()).await;
    let mut draft = SetterDraft {
        variant: "killer".into(),
        grid: killer.grid.clone(),
        ..SetterDraft::default()
    };
    draft.cages.push(Cage {
        cells: vec![[0, 0], [0, 1]],
        sum: 3,
    });
    let verdict = check(&mut a, draft).await;
    assert_eq!(verdict.solutions, 2);
    let drawn = verdict.puzzle.expect("drawn");
    assert_eq!(drawn.cages.len(), 1);

    // A jigsaw region of the wrong size is refused by name.
    let jigsaw = template(&mut a, "jigsaw", Params::new()).await;
    let draft = SetterDraft {
        variant: "jigsaw".into(),
        grid: jigsaw.grid.clone(),
        regions: vec![vec![1; 9]; 9],
        ..SetterDraft::default()
    };
    a.send(&ClientMessage::CheckPuzzle { draft }).await;
    let (code, why) = a.error_message().await;
    assert_eq!(code, ErrorCode::Invalid);
    assert!(why.contains("region 1 has 81 cells"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_puzzle_opens_a_room_and_its_analysis_opens_only_after_the_game() {
    let addr = server().await;
    let mut a = Client::connect(addr, "Setter").await;

    // Outside any game the setter's own puzzle can be analysed: the steps
    // replayed from the start reach the solution.
    let own = analysis(&mut a, Some(classic_draft(LINE)))
        .await
        .expect("an analysis");
    assert!(own.solved && !own.steps.is_empty());
    assert!(replayed(&own).iter().all(|&v| v != 0));
    assert!(own.steps.iter().all(|s| !s.explanation.is_empty()));
    let ambiguous = format!("{}{}", ".".repeat(9), &LINE[9..]);
    assert_eq!(
        analysis(&mut a, Some(classic_draft(&ambiguous))).await,
        Err(ErrorCode::Invalid)
    );

    // A room on the set puzzle: it plays those givens.
    let settings = RoomSettings {
        mode: Mode::Solo,
        public: false,
        draft: Some(Box::new(classic_draft(LINE))),
        ..race_settings(1)
    };
    let (_, puzzle) = started_room(&mut a, &mut [], settings).await;
    assert_eq!(puzzle.grid, grid_of(LINE));
    assert!(puzzle.solution.is_none());

    // While solving: no analysis of the room's puzzle, nor of it sent back
    // as a draft, nor a count of my board so far.
    assert_eq!(analysis(&mut a, None).await, Err(ErrorCode::WrongState));
    assert_eq!(
        analysis(&mut a, Some(classic_draft(LINE))).await,
        Err(ErrorCode::WrongState)
    );
    a.send(&ClientMessage::CheckPuzzle {
        draft: classic_draft(LINE),
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::WrongState);

    a.solve(&puzzle).await;
    a.finished().await;
    let after = analysis(&mut a, None).await.expect("open after the game");
    assert!(after.solved);
    assert_eq!(after.start.len(), 81);
    let solution: Vec<u32> = replayed(&after);
    let loaded = engine::v1::from_v1(&puzzle).expect("valid");
    let engine::Solution::Unique(expected) = loaded.puzzle.solve() else {
        panic!("unique");
    };
    let expected: Vec<u32> = expected.iter().map(|&v| u32::from(v)).collect();
    assert_eq!(solution, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_racer_still_racing_cannot_analyse_but_one_who_finished_can() {
    let addr = server().await;
    let mut a = Client::connect(addr, "Quick").await;
    let mut b = Client::connect(addr, "Slow").await;
    let settings = RoomSettings {
        draft: Some(Box::new(classic_draft(LINE))),
        ..race_settings(2)
    };
    let (_, puzzle) = started_room(&mut a, &mut [&mut b], settings).await;
    a.solve(&puzzle).await;
    let mine = analysis(&mut a, None).await.expect("my race is over");
    assert!(mine.solved);
    assert_eq!(analysis(&mut b, None).await, Err(ErrorCode::WrongState));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killers_analysis_shows_the_cages_its_steps_read_the_45_rules_virtual_ones_too() {
    let addr = server().await;
    let mut a = Client::connect(addr, "Killer analyst").await;
    // A real killer (krazydad's), drafted on the killer template: cages only.
    let record = arena_tests::killer_records("killer/krazydad-intermediate.csv").remove(0);
    let v1 = engine::v1::to_v1(&record.puzzle, None);
    let draft = SetterDraft {
        variant: "killer".into(),
        grid: v1.grid.clone(),
        cages: v1.cages.clone(),
        ..SetterDraft::default()
    };
    let verdict = check(&mut a, draft.clone()).await;
    assert_eq!(verdict.solutions, 1, "{verdict:?}");
    let analysis = analysis(&mut a, Some(draft)).await.expect("analysed");
    let caged: Vec<_> = analysis
        .steps
        .iter()
        .filter(|s| !s.cage.is_empty())
        .collect();
    assert!(!caged.is_empty(), "killer steps name their cages");
    // A cage no real cage equals: one the 45 rule derived.
    let real: Vec<Vec<[u32; 2]>> = v1
        .cages
        .iter()
        .map(|c| {
            let mut cells = c.cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect();
    let is_virtual = |cells: &[[u32; 2]]| {
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        !real.contains(&sorted)
    };
    assert!(
        caged.iter().any(|s| is_virtual(&s.cage) && s.cage_sum > 0),
        "{:?}",
        caged.iter().map(|s| &s.technique).collect::<Vec<_>>()
    );
    let expected: Vec<u32> = record.solution.iter().map(|&v| u32::from(v)).collect();
    assert!(analysis.solved, "an intermediate killer solves logically");
    assert_eq!(replayed(&analysis), expected);
}
