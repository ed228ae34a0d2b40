//! Co-op over real sockets: teammates editing one board concurrently converge on
//! the server's order and finish together.

use arena_tests::serve::start_server;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, Client};
use protocol::wire::{
    CellMarks, ClientMessage, CoopChange, ErrorCode, Mode, RoomState, RoomView, ServerMessage,
};

/// A client's copy of a co-op board, kept by applying events in `seq` order.
struct CoopCopy {
    board: Vec<Vec<u32>>,
    pencil: Vec<Vec<u32>>,
    seq: u64,
}

impl CoopCopy {
    fn from_view(view: &RoomView) -> CoopCopy {
        CoopCopy {
            board: view.board.clone().expect("shared board"),
            pencil: view.pencil.clone().expect("shared pencil marks"),
            seq: view.seq,
        }
    }

    /// Receives events until `seq` reaches `until`.
    async fn follow(&mut self, c: &mut Client, until: u64) {
        while self.seq < until {
            if let ServerMessage::CoopEvent { seq, change, .. } = c.recv().await {
                assert_eq!(seq, self.seq + 1, "events arrive in order, none missing");
                self.seq = seq;
                match change {
                    CoopChange::Value { row, col, value } => {
                        self.board[row as usize][col as usize] = value
                    }
                    CoopChange::Pencil { cells } => {
                        for m in cells {
                            self.pencil[m.row as usize][m.col as usize] = m.marks;
                        }
                    }
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coop_players_converge_under_concurrent_edits_and_finish_together() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut b = Client::connect(addr, "Bob").await;
    let mut coop = settings(2);
    coop.mode = Mode::Coop;
    a.send(&ClientMessage::CreateRoom { settings: coop }).await;
    let room = a.room(RoomState::Waiting).await;
    b.send(&ClientMessage::JoinRoom {
        code: room.code.clone(),
        spectator: false,
    })
    .await;
    b.room(RoomState::Waiting).await;
    a.send(&ClientMessage::Start).await;
    let view_a = a.room(RoomState::Playing).await;
    let view_b = b.room(RoomState::Playing).await;
    let puzzle = view_a.puzzle.clone().expect("puzzle");
    let (mut copy_a, mut copy_b) = (CoopCopy::from_view(&view_a), CoopCopy::from_view(&view_b));

    // Both write the same three cells at once, with different values.
    let moves = solving_moves(&puzzle);
    let cells: Vec<(u32, u32)> = moves
        .iter()
        .take(3)
        .map(|m| match m {
            ClientMessage::Move { row, col, .. } => (*row, *col),
            _ => unreachable!(),
        })
        .collect();
    for (n, &(row, col)) in cells.iter().enumerate() {
        a.send(&ClientMessage::Move {
            row,
            col,
            value: (n as u32) % 4 + 1,
        })
        .await;
        b.send(&ClientMessage::Move {
            row,
            col,
            value: (n as u32 + 2) % 4 + 1,
        })
        .await;
    }
    // A mark over the three cells is one change.
    b.send(&ClientMessage::Pencil {
        cells: cells
            .iter()
            .map(|&(row, col)| CellMarks {
                row,
                col,
                marks: 0b1010,
            })
            .collect(),
    })
    .await;
    copy_a.follow(&mut a, 7).await;
    copy_b.follow(&mut b, 7).await;
    assert_eq!(copy_a.board, copy_b.board, "both clients converge");
    assert_eq!(copy_a.pencil, copy_b.pencil);
    // The server's own board agrees: a returning player gets it in a snapshot.
    b.send(&ClientMessage::JoinRoom {
        code: room.code.clone(),
        spectator: false,
    })
    .await;
    let fresh = b.room(RoomState::Playing).await;
    assert_eq!(fresh.seq, 7);
    assert_eq!(fresh.board.as_ref(), Some(&copy_b.board));

    a.send(&ClientMessage::Cursor { row: 0, col: 1 }).await;
    let who = b
        .until(|m| match m {
            ServerMessage::Cursor {
                player,
                row: 0,
                col: 1,
            } => Some(player),
            _ => None,
        })
        .await;
    assert_eq!(who, a.id);

    // Solve together, alternating; the room finishes with everyone's share.
    for (n, m) in moves.iter().enumerate() {
        if n % 2 == 0 {
            a.send(m).await
        } else {
            b.send(m).await
        }
    }
    let mut results = Vec::new();
    for c in [&mut a, &mut b] {
        results.push(
            c.until(|m| match m {
                ServerMessage::Finished {
                    team_ms,
                    contributions,
                    ..
                } => Some((team_ms, contributions)),
                _ => None,
            })
            .await,
        );
    }
    assert_eq!(results[0], results[1]);
    let (team_ms, contributions) = &results[0];
    assert!(team_ms.is_some());
    let total: u32 = contributions.iter().map(|c| c.cells).sum();
    assert_eq!(
        total as usize,
        moves.len(),
        "every filled cell is credited to its author"
    );
    assert!(
        contributions.iter().all(|c| c.cells > 0),
        "both contributed"
    );
}

/// A pencil change over several cells is applied whole or not at all: one bad
/// cell (a given) refuses it, the error names every cell of it, and nothing
/// changed (the next change is the next `seq`). A refused move names its cell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pencil_change_is_all_or_nothing_and_a_refusal_names_its_cells() {
    let addr = start_server().await;
    let mut a = Client::connect(addr, "Ada").await;
    let mut coop = settings(1);
    coop.mode = Mode::Coop;
    a.send(&ClientMessage::CreateRoom { settings: coop }).await;
    a.room(RoomState::Waiting).await;
    a.send(&ClientMessage::Start).await;
    let view = a.room(RoomState::Playing).await;
    let puzzle = view.puzzle.clone().expect("puzzle");
    let empty: Vec<(u32, u32)> = solving_moves(&puzzle)
        .iter()
        .take(2)
        .map(|m| match m {
            ClientMessage::Move { row, col, .. } => (*row, *col),
            _ => unreachable!(),
        })
        .collect();
    let given = (0..puzzle.layout.rows)
        .flat_map(|r| (0..puzzle.layout.cols).map(move |c| (r, c)))
        .find(|&(r, c)| puzzle.grid[r as usize][c as usize] != 0)
        .expect("a given");
    let mark = |(row, col): (u32, u32)| CellMarks {
        row,
        col,
        marks: 0b11,
    };
    a.send(&ClientMessage::Pencil {
        cells: vec![mark(empty[0]), mark(given), mark(empty[1])],
    })
    .await;
    let (code, cells) = a
        .until(|m| match m {
            ServerMessage::Error { code, cells, .. } => Some((code, cells)),
            _ => None,
        })
        .await;
    assert_eq!(code, ErrorCode::Given);
    let named = |c: (u32, u32)| [c.0, c.1];
    assert_eq!(cells, vec![named(empty[0]), named(given), named(empty[1])]);
    // Twice the same cell is refused too.
    a.send(&ClientMessage::Pencil {
        cells: vec![mark(empty[0]), mark(empty[0])],
    })
    .await;
    assert_eq!(a.error().await, ErrorCode::Invalid);
    a.send(&ClientMessage::Move {
        row: given.0,
        col: given.1,
        value: 1,
    })
    .await;
    let cells = a
        .until(|m| match m {
            ServerMessage::Error { cells, .. } => Some(cells),
            _ => None,
        })
        .await;
    assert_eq!(cells, vec![named(given)]);
    // Nothing was applied: the server's marks are still empty, and the next
    // change is number 1.
    a.send(&ClientMessage::Pencil {
        cells: vec![mark(empty[1])],
    })
    .await;
    let seq = a
        .until(|m| match m {
            ServerMessage::CoopEvent { seq, .. } => Some(seq),
            _ => None,
        })
        .await;
    assert_eq!(seq, view.seq + 1);
    a.send(&ClientMessage::JoinRoom {
        code: view.code.clone(),
        spectator: false,
    })
    .await;
    let fresh = a.room(RoomState::Playing).await;
    let pencil = fresh.pencil.expect("shared marks");
    assert_eq!(pencil[empty[0].0 as usize][empty[0].1 as usize], 0);
    assert_eq!(pencil[empty[1].0 as usize][empty[1].1 as usize], 0b11);
    // Refused before any room, by the connection itself: named as well.
    let mut lone = Client::connect(addr, "Lone").await;
    lone.send(&ClientMessage::Move {
        row: 2,
        col: 3,
        value: 1,
    })
    .await;
    let (code, cells) = lone
        .until(|m| match m {
            ServerMessage::Error { code, cells, .. } => Some((code, cells)),
            _ => None,
        })
        .await;
    assert_eq!((code, cells), (ErrorCode::NoRoom, vec![[2, 3]]));
}
