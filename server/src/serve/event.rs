//! What happens in a room during play, as stored: one typed event per change a
//! player was told about. Stored as JSON tagged by `type` in the `events` table
//! (schema version 5, see `store`), so a new kind of event is a new variant, not
//! a new meaning for old columns.

use protocol::wire::CellMarks;
use serde::{Deserialize, Serialize};

/// One stored change to a room's game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomEvent {
    /// A value in a cell of the player's board (co-op: the shared board); 0 erases.
    Value {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// 1..=N, or 0.
        value: u32,
    },
    /// Co-op: the pencil marks of cells of the shared board, set together.
    Marks {
        /// The cells and their marks.
        cells: Vec<CellMarks>,
    },
    /// Co-op: the pencil marks of one cell (written before schema 5; replayed,
    /// no longer written).
    Pencil {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Candidate bitmask.
        marks: u32,
    },
    /// A hint was given about this cell (it costs the room's hint penalty).
    Hint {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// Race: the player had every candidate filled in; it counts as a hint.
    Candidates,
    /// Solo: the clock stopped.
    Pause,
    /// Solo: the clock runs again.
    Resume,
    /// Race: the player left (or stayed away past the grace window) and forfeits.
    Forfeit,
}

impl RoomEvent {
    /// The board cells a value or pencil event changes, as `[row, col]`.
    pub fn cells(&self) -> Vec<[u32; 2]> {
        match self {
            RoomEvent::Value { row, col, .. } | RoomEvent::Pencil { row, col, .. } => {
                vec![[*row, *col]]
            }
            RoomEvent::Marks { cells } => cells.iter().map(|c| [c.row, c.col]).collect(),
            _ => Vec::new(),
        }
    }

    /// The event a schema-1 row stood for: `kind` 0 value, 1 pencil marks, 2 hint
    /// (row and column of the hinted cell), 3 pause, 4 resume (row = col = value
    /// = 0). `None` for any other kind.
    pub fn from_legacy(kind: u8, row: u32, col: u32, value: u32) -> Option<RoomEvent> {
        Some(match kind {
            0 => RoomEvent::Value { row, col, value },
            1 => RoomEvent::Pencil {
                row,
                col,
                marks: value,
            },
            2 => RoomEvent::Hint { row, col },
            3 => RoomEvent::Pause,
            4 => RoomEvent::Resume,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_tagged_json() {
        let e = RoomEvent::Value {
            row: 1,
            col: 2,
            value: 3,
        };
        let json = serde_json::to_string(&e).expect("json");
        assert_eq!(json, r#"{"type":"value","row":1,"col":2,"value":3}"#);
        assert_eq!(
            serde_json::from_str::<RoomEvent>(r#"{"type":"pause"}"#).ok(),
            Some(RoomEvent::Pause)
        );
        assert_eq!(
            RoomEvent::from_legacy(2, 4, 5, 0),
            Some(RoomEvent::Hint { row: 4, col: 5 })
        );
        assert_eq!(RoomEvent::from_legacy(9, 0, 0, 0), None);
        let marks = RoomEvent::Marks {
            cells: vec![CellMarks {
                row: 0,
                col: 1,
                marks: 6,
            }],
        };
        let json = serde_json::to_string(&marks).expect("json");
        assert_eq!(
            json,
            r#"{"type":"marks","cells":[{"row":0,"col":1,"marks":6}]}"#
        );
        assert_eq!(
            serde_json::from_str::<RoomEvent>(&json).ok(),
            Some(marks.clone())
        );
        // A schema-4 pencil row still reads.
        assert_eq!(
            serde_json::from_str::<RoomEvent>(r#"{"type":"pencil","row":1,"col":1,"marks":3}"#)
                .ok(),
            Some(RoomEvent::Pencil {
                row: 1,
                col: 1,
                marks: 3
            })
        );
        assert_eq!(marks.cells(), vec![[0, 1]]);
    }
}
