//! Co-op over real sockets: teammates editing one board concurrently converge on
//! the server's order and finish together.

use arena_tests::serve::start_server;
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings as settings, Client};
use protocol::wire::{ClientMessage, CoopChange, Mode, RoomState, RoomView, ServerMessage};

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
            if let ServerMessage::CoopEvent {
                seq,
                row,
                col,
                change,
                ..
            } = c.recv().await
            {
                assert_eq!(seq, self.seq + 1, "events arrive in order, none missing");
                self.seq = seq;
                let (r, k) = (row as usize, col as usize);
                match change {
                    CoopChange::Value { value } => self.board[r][k] = value,
                    CoopChange::Pencil { marks } => self.pencil[r][k] = marks,
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
    b.send(&ClientMessage::Pencil {
        row: cells[0].0,
        col: cells[0].1,
        marks: 0b1010,
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
