//! Client frames in the protocol's one form: a MessagePack map with string keys,
//! whose `type` tags (the message's and nested ones) are strings. Other forms a
//! serde decoder would accept — a struct as an array of its fields, a variant by
//! its index — are refused, so every client speaks the same protocol. The two
//! lists a client sends are a hint's `marks` (rows of integers) and a pencil
//! change's `cells` (maps) — and inside a setter's `draft`, its lists of
//! coordinates and numbers (`grid`, `cells`, `line`, …) and of maps (`cages`,
//! `constraints`); an array is refused wherever serde would read a
//! struct or an enum, and allowed in a field this server does not know (which it
//! ignores: forward compatibility). The form is checked by one pass over the
//! bytes (no allocation), then serde decodes. Server frames are encoded once
//! here ([`encode`]) and shared by every recipient.

use protocol::wire::{ClientMessage, ServerMessage};

/// An encoded server message, shared by every recipient.
pub type Frame = std::sync::Arc<[u8]>;

/// Encodes a message once (MessagePack, named fields).
pub fn encode(message: &ServerMessage) -> Frame {
    rmp_serde::to_vec_named(message).unwrap_or_default().into()
}

/// Nesting deeper than any client message (they nest three levels).
const MAX_DEPTH: usize = 8;

/// What is wrong with a client frame (its text is what the client is told).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The frame ends inside a value.
    #[error("not a client message: the frame ends inside a value")]
    Truncated,
    /// Deeper than any client message.
    #[error("not a client message: nested too deeply")]
    TooDeep,
    /// A binary or extension value, which no message uses.
    #[error("not a client message: binary or extension values are not used")]
    Binary,
    /// Not a map at the top.
    #[error("a message is a map with named fields")]
    NotAMap,
    /// A map key that is not a string.
    #[error("a message's field names are strings")]
    FieldName,
    /// An array where serde would read a struct or an enum.
    #[error("positional (array) forms are not part of the protocol; use named fields")]
    Positional,
    /// A `type` tag that is not a string.
    #[error("`type` is a string, e.g. \"move\"")]
    TypeTag,
    /// A hint's `marks` that are not rows of non-negative integers.
    #[error("`marks` is a list of rows of integers")]
    Marks,
    /// A pencil change's `cells` that are not maps.
    #[error("`cells` is a list of maps with named fields")]
    Cells,
    /// A draft's list of numbers or coordinates holding something else.
    #[error("a draft's grids and cell lists hold integers or [row, col] pairs")]
    Numbers,
    /// Well-formed, but not a message this server reads (serde's words).
    #[error("not a client message: {0}")]
    NotAMessage(String),
}

/// Decodes a client frame; `Err` says what is wrong with it.
pub fn decode(bytes: &[u8]) -> Result<ClientMessage, FrameError> {
    let mut scan = Scan { bytes, at: 0 };
    match scan.value(0, true, Context::Message)? {
        Item::Map => {}
        _ => return Err(FrameError::NotAMap),
    }
    rmp_serde::from_slice(bytes).map_err(|e| FrameError::NotAMessage(e.to_string()))
}

/// Where a value lies: in a message, or inside a setter's draft (whose
/// fields hold lists of coordinates, numbers and maps).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Message,
    Draft,
}

/// What one MessagePack value was.
enum Item<'a> {
    Map,
    Str(&'a [u8]),
    Scalar,
}

/// A cursor over the frame's bytes.
struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Scan<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FrameError> {
        let end = self.at.checked_add(n).ok_or(FrameError::Truncated)?;
        let taken = self.bytes.get(self.at..end).ok_or(FrameError::Truncated)?;
        self.at = end;
        Ok(taken)
    }

    /// A big-endian length of `width` bytes.
    fn length(&mut self, width: usize) -> Result<usize, FrameError> {
        let raw = self.take(width)?;
        Ok(raw.iter().fold(0usize, |n, &b| (n << 8) | usize::from(b)))
    }

    /// Checks one value (and everything inside it) and says what it was.
    /// `strict`: the value is one serde would read as a struct or an enum, so an
    /// array (the positional form) is refused; elsewhere an array is a value
    /// like any other (a field this server does not know, which it ignores).
    fn value(&mut self, depth: usize, strict: bool, ctx: Context) -> Result<Item<'a>, FrameError> {
        if depth > MAX_DEPTH {
            return Err(FrameError::TooDeep);
        }
        let marker = self.take(1)?[0];
        let (scalar_bytes, map_len, str_len) = match marker {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => (0, None, None),
            0xcc | 0xd0 => (1, None, None),
            0xcd | 0xd1 => (2, None, None),
            0xca | 0xce | 0xd2 => (4, None, None),
            0xcb | 0xcf | 0xd3 => (8, None, None),
            0x80..=0x8f => (0, Some(usize::from(marker & 0x0f)), None),
            0xde => (0, Some(self.length(2)?), None),
            0xdf => (0, Some(self.length(4)?), None),
            0xa0..=0xbf => (0, None, Some(usize::from(marker & 0x1f))),
            0xd9 => (0, None, Some(self.length(1)?)),
            0xda => (0, None, Some(self.length(2)?)),
            0xdb => (0, None, Some(self.length(4)?)),
            0x90..=0x9f | 0xdc | 0xdd if strict => return Err(FrameError::Positional),
            0x90..=0x9f | 0xdc | 0xdd => {
                self.at -= 1;
                let len = self.array()?.unwrap_or(0);
                for _ in 0..len {
                    self.value(depth + 1, false, ctx)?;
                }
                return Ok(Item::Scalar);
            }
            _ => return Err(FrameError::Binary),
        };
        if let Some(len) = str_len {
            return Ok(Item::Str(self.take(len)?));
        }
        if let Some(entries) = map_len {
            for _ in 0..entries {
                let Item::Str(key) = self.value(depth + 1, true, ctx)? else {
                    return Err(FrameError::FieldName);
                };
                let read = match ctx {
                    Context::Message if key == LIST_FIELD => self.rows()?,
                    Context::Message if key == MAPS_FIELD => self.maps(depth + 1, ctx)?,
                    Context::Draft if DRAFT_NUMBER_LISTS.contains(&key) => self.numbers()?,
                    Context::Draft if DRAFT_MAP_LISTS.contains(&key) => {
                        self.maps(depth + 1, ctx)?
                    }
                    _ => false,
                };
                if read {
                    continue;
                }
                let inner = if key == DRAFT_FIELD {
                    Context::Draft
                } else {
                    ctx
                };
                let value = self.value(depth + 1, STRICT_FIELDS.contains(&key), inner)?;
                if key == b"type" && !matches!(value, Item::Str(_)) {
                    return Err(FrameError::TypeTag);
                }
            }
            return Ok(Item::Map);
        }
        self.take(scalar_bytes)?;
        Ok(Item::Scalar)
    }

    /// An array header's length, if the next value is an array.
    fn array(&mut self) -> Result<Option<usize>, FrameError> {
        let marker = *self.bytes.get(self.at).ok_or(FrameError::Truncated)?;
        let len = match marker {
            0x90..=0x9f => usize::from(marker & 0x0f),
            0xdc => {
                self.at += 1;
                return Ok(Some(self.length(2)?));
            }
            0xdd => {
                self.at += 1;
                return Ok(Some(self.length(4)?));
            }
            _ => return Ok(None),
        };
        self.at += 1;
        Ok(Some(len))
    }

    /// The list field's value, if it is an array: it must be an array of
    /// arrays of plain integers. `false` (nothing read) for any other value,
    /// which is scanned as usual (a pencil message's `marks` is one integer).
    fn rows(&mut self) -> Result<bool, FrameError> {
        let Some(rows) = self.array()? else {
            return Ok(false);
        };
        for _ in 0..rows {
            let cols = self.array()?.ok_or(FrameError::Marks)?;
            for _ in 0..cols {
                let marker = self.take(1)?[0];
                let width = match marker {
                    0x00..=0x7f => 0,
                    0xcc => 1,
                    0xcd => 2,
                    0xce => 4,
                    0xcf => 8,
                    _ => return Err(FrameError::Marks),
                };
                self.take(width)?;
            }
        }
        Ok(true)
    }

    /// The list-of-maps field's value, if it is an array: each element must be
    /// a map (checked like any other). `false` (nothing read) otherwise.
    fn maps(&mut self, depth: usize, ctx: Context) -> Result<bool, FrameError> {
        let Some(items) = self.array()? else {
            return Ok(false);
        };
        for _ in 0..items {
            if !matches!(self.value(depth + 1, true, ctx)?, Item::Map) {
                return Err(FrameError::Cells);
            }
        }
        Ok(true)
    }

    /// A draft's list field, if it is an array: integers, or arrays of
    /// integers (a coordinate, a grid row, a tuple). `false` (nothing read)
    /// otherwise.
    fn numbers(&mut self) -> Result<bool, FrameError> {
        let Some(items) = self.array()? else {
            return Ok(false);
        };
        for _ in 0..items {
            match self.array()? {
                Some(len) => {
                    for _ in 0..len {
                        self.integer()?;
                    }
                }
                None => self.integer()?,
            }
        }
        Ok(true)
    }

    /// One integer (negative ones too: a clue's place outside the grid).
    fn integer(&mut self) -> Result<(), FrameError> {
        let marker = self.take(1)?[0];
        let width = match marker {
            0x00..=0x7f | 0xe0..=0xff => 0,
            0xcc | 0xd0 => 1,
            0xcd | 0xd1 => 2,
            0xce | 0xd2 => 4,
            0xcf | 0xd3 => 8,
            _ => return Err(FrameError::Numbers),
        };
        self.take(width)?;
        Ok(())
    }
}

/// The field whose value is a setter's draft.
const DRAFT_FIELD: &[u8] = b"draft";

/// A draft's fields (and its constraints' and cages') that hold lists of
/// integers or of coordinates.
const DRAFT_NUMBER_LISTS: [&[u8]; 9] = [
    b"grid", b"regions", b"cells", b"circle", b"line", b"clones", b"values", b"tuples", b"clue",
];

/// A draft's fields that hold lists of maps.
const DRAFT_MAP_LISTS: [&[u8]; 2] = [b"cages", b"constraints"];

/// The field whose value may be an array of arrays of integers.
const LIST_FIELD: &[u8] = b"marks";

/// The field whose value may be an array of maps.
const MAPS_FIELD: &[u8] = b"cells";

/// The fields serde reads as a struct, a map or an enum: an array there would be
/// a positional form, so it is refused. Other fields holding an array are either
/// unknown to this server (ignored: a newer client may send them) or refused by
/// serde for their own type.
const STRICT_FIELDS: [&[u8]; 7] = [
    b"settings",
    b"draft",
    b"params",
    b"mistakes",
    b"hints",
    b"board",
    b"mode",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_named_fields_and_string_tags_decode() {
        let named = rmp_serde::to_vec_named(&ClientMessage::Move {
            row: 1,
            col: 2,
            value: 3,
        })
        .expect("encode");
        assert_eq!(
            decode(&named),
            Ok(ClientMessage::Move {
                row: 1,
                col: 2,
                value: 3
            })
        );
        // The same message as serde's positional form: an array of fields.
        let positional = rmp_serde::to_vec(&ClientMessage::Move {
            row: 1,
            col: 2,
            value: 3,
        })
        .expect("encode");
        assert!(decode(&positional).is_err());
        let integer_tag = rmp_serde::to_vec_named(&serde_json::json!({"type": 5})).expect("encode");
        assert!(decode(&integer_tag) == Err(FrameError::TypeTag));
        let nested = serde_json::json!({"type": "create_room", "settings": {
            "variant": "classic", "difficulty": "easy", "mode": "race", "max_players": 2,
            "mistakes": {"type": 1}}});
        let nested = rmp_serde::to_vec_named(&nested).expect("encode");
        assert!(decode(&nested).is_err(), "nested tags are strings too");
        let out_of_range = serde_json::json!({"type": "move", "row": -1, "col": 0, "value": 1});
        let out_of_range = rmp_serde::to_vec_named(&out_of_range).expect("encode");
        assert!(decode(&out_of_range).is_err());
        let unknown =
            rmp_serde::to_vec_named(&serde_json::json!({"type": "dance"})).expect("encode");
        assert_eq!(decode(&unknown), Ok(ClientMessage::Unknown));
    }

    #[test]
    fn a_hints_marks_are_the_one_list() {
        let marks = vec![vec![0, 3, 511], vec![70_000, 0, 1]];
        let hint = ClientMessage::Hint {
            marks: Some(marks.clone()),
        };
        let bytes = rmp_serde::to_vec_named(&hint).expect("encode");
        assert_eq!(decode(&bytes), Ok(hint));
        let plain = rmp_serde::to_vec_named(&serde_json::json!({"type": "hint"})).expect("encode");
        assert_eq!(decode(&plain), Ok(ClientMessage::Hint { marks: None }));
        // A pencil change's `cells` is a list of maps, each `marks` one mask.
        let pencil = ClientMessage::Pencil {
            cells: vec![
                protocol::wire::CellMarks {
                    row: 0,
                    col: 1,
                    marks: 5,
                },
                protocol::wire::CellMarks {
                    row: 2,
                    col: 3,
                    marks: 0,
                },
            ],
        };
        let bytes = rmp_serde::to_vec_named(&pencil).expect("encode");
        assert_eq!(decode(&bytes), Ok(pencil));
        for bad in [
            serde_json::json!({"type": "pencil", "cells": [[0, 1, 5]]}),
            serde_json::json!({"type": "pencil", "cells": [1]}),
            serde_json::json!({"type": "pencil", "row": 0, "col": 1, "marks": 5}),
        ] {
            let bytes = rmp_serde::to_vec_named(&bad).expect("encode");
            assert!(decode(&bytes).is_err(), "{bad}");
        }
        for bad in [
            serde_json::json!({"type": "hint", "marks": [[{"type": "x"}]]}),
            serde_json::json!({"type": "hint", "marks": [["1"]]}),
            serde_json::json!({"type": "hint", "marks": [[-1]]}),
            serde_json::json!({"type": "chat", "text": [1]}),
        ] {
            let bytes = rmp_serde::to_vec_named(&bad).expect("encode");
            assert!(decode(&bytes).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_setters_draft_holds_its_lists_of_cells_and_maps_and_nothing_positional() {
        let draft = protocol::setter::SetterDraft {
            variant: "killer".into(),
            grid: vec![vec![0, 5], vec![0, 0]],
            cages: vec![protocol::Cage {
                cells: vec![[0, 0], [1, 0]],
                sum: 7,
            }],
            regions: vec![vec![1, 1], vec![2, 2]],
            constraints: vec![
                protocol::Constraint::Arrow {
                    circle: vec![[0, 0]],
                    line: vec![[0, 1], [1, 1]],
                },
                protocol::Constraint::LittleKiller {
                    cells: vec![[0, 0], [1, 1]],
                    sum: 9,
                    clue: Some([-1, -1]),
                },
                protocol::Constraint::AntiKnight,
            ],
            ..Default::default()
        };
        let check = ClientMessage::CheckPuzzle {
            draft: draft.clone(),
        };
        let bytes = rmp_serde::to_vec_named(&check).expect("encode");
        assert_eq!(decode(&bytes), Ok(check));
        for bad in [
            // A cage as an array of its fields; a constraint as one.
            serde_json::json!({"type": "check_puzzle", "draft": {"variant": "killer",
                "grid": [[0]], "cages": [[[[0, 0]], 7]]}}),
            serde_json::json!({"type": "check_puzzle", "draft": {"variant": "x",
                "grid": [[0]], "constraints": [["arrow", [[0, 0]], [[0, 1]]]]}}),
            // Coordinates that are not integers; the draft itself positional.
            serde_json::json!({"type": "check_puzzle", "draft": {"variant": "x",
                "grid": [[{"a": 1}]]}}),
            serde_json::json!({"type": "check_puzzle", "draft": ["x", {}, [[0]]]}),
        ] {
            let bytes = rmp_serde::to_vec_named(&bad).expect("encode");
            assert!(decode(&bytes).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_fields_may_hold_lists_known_structs_may_not() {
        // A newer client's extra field is ignored, whatever it holds.
        let newer = serde_json::json!({
            "type": "move", "row": 0, "col": 1, "value": 2,
            "annotations": [[1, 2], {"why": ["a", "b"]}, []],
        });
        let bytes = rmp_serde::to_vec_named(&newer).expect("encode");
        assert_eq!(
            decode(&bytes),
            Ok(ClientMessage::Move {
                row: 0,
                col: 1,
                value: 2
            })
        );
        // Where serde reads a struct or an enum, an array is a positional form.
        for bad in [
            serde_json::json!({"type": "create_room", "settings": ["classic", {}, "easy"]}),
            serde_json::json!({"type": "leaderboard", "board": [0, null], "variant": "classic",
                "params": {}, "difficulty": "easy"}),
            serde_json::json!({"type": "leaderboard", "board": "daily", "variant": "classic",
                "params": [["box", "3x3"]], "difficulty": "easy"}),
        ] {
            let bytes = rmp_serde::to_vec_named(&bad).expect("encode");
            assert!(
                decode(&bytes).is_err_and(|e| e == FrameError::Positional),
                "{bad}"
            );
        }
    }
}
