//! What happens in a room during play, as stored: one typed event per change a
//! player was told about. Stored as JSON tagged by `type` in the `events` table
//! (schema version 3, see `store`), so a new kind of event is a new variant, not
//! a new meaning for old columns.

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
    /// Co-op: the pencil marks of a cell of the shared board.
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
    /// Solo: the clock stopped.
    Pause,
    /// Solo: the clock runs again.
    Resume,
    /// Race: the player left (or stayed away past the grace window) and forfeits.
    Forfeit,
}

impl RoomEvent {
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
    }
}
