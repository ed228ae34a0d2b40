//! The frames the server and a plugin host process exchange over the host's
//! standard input and output (see docs/plugin-abi.md, "Host processes"). Bodies
//! are the plugin's own MessagePack bytes, passed through untouched; the frame
//! only carries what the C ABI carries beside them (op code, deadline, status).
//!
//! - Request (server -> host): `op: u32`, `deadline_ms: u64`, `len: u32`, body.
//! - Reply (host -> server): `kind: u8`, `code: i32`, `len: u32`, body, where
//!   `kind` is [`Reply::Answer`] (`code` is the plugin's status), [`Reply::Failure`]
//!   (the call broke the ABI's rules; the body says how, in UTF-8) or
//!   [`Reply::Ready`] (sent once, first: the library opened; `code` holds its
//!   header flags) and [`Reply::Refused`] (sent instead of `Ready`: why it did not).
//!
//! Integers are little-endian. Every length is checked against a cap before
//! anything is allocated.

use std::io::{self, Read, Write};

/// A request for the host: one plugin call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The operation (`plugin_abi::op`).
    pub op: u32,
    /// The time the plugin has, in milliseconds.
    pub deadline_ms: u64,
    /// The MessagePack request.
    pub body: Vec<u8>,
}

/// What a host says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The library opened and passed every check; its header flags.
    Ready(u32),
    /// The library was refused, and why.
    Refused(String),
    /// The plugin's answer: its status code and bytes.
    Answer {
        /// One of `plugin_abi::status`.
        status: i32,
        /// The answer bytes.
        bytes: Vec<u8>,
    },
    /// The call broke the ABI's rules (an answer over the cap, a null buffer…).
    Failure(String),
}

const KIND_READY: u8 = 1;
const KIND_REFUSED: u8 = 2;
const KIND_ANSWER: u8 = 3;
const KIND_FAILURE: u8 = 4;

/// Writes `request` as one frame.
pub fn write_request(out: &mut impl Write, request: &Request) -> io::Result<()> {
    let len = u32::try_from(request.body.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "request too large"))?;
    let mut head = [0u8; 16];
    head[..4].copy_from_slice(&request.op.to_le_bytes());
    head[4..12].copy_from_slice(&request.deadline_ms.to_le_bytes());
    head[12..].copy_from_slice(&len.to_le_bytes());
    out.write_all(&head)?;
    out.write_all(&request.body)?;
    out.flush()
}

/// Reads one request frame; `Ok(None)` at a clean end of input.
pub fn read_request(input: &mut impl Read, max_len: usize) -> io::Result<Option<Request>> {
    let mut head = [0u8; 16];
    if !read_head(input, &mut head)? {
        return Ok(None);
    }
    let op = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let mut deadline = [0u8; 8];
    deadline.copy_from_slice(&head[4..12]);
    let len = u32::from_le_bytes([head[12], head[13], head[14], head[15]]);
    let body = read_body(input, len, max_len)?;
    Ok(Some(Request {
        op,
        deadline_ms: u64::from_le_bytes(deadline),
        body,
    }))
}

/// Writes `reply` as one frame.
pub fn write_reply(out: &mut impl Write, reply: &Reply) -> io::Result<()> {
    let (kind, code, body): (u8, i32, &[u8]) = match reply {
        Reply::Ready(flags) => (KIND_READY, i32::from_le_bytes(flags.to_le_bytes()), &[]),
        Reply::Refused(why) => (KIND_REFUSED, 0, why.as_bytes()),
        Reply::Answer { status, bytes } => (KIND_ANSWER, *status, bytes),
        Reply::Failure(why) => (KIND_FAILURE, 0, why.as_bytes()),
    };
    let len = u32::try_from(body.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "reply too large"))?;
    let mut head = [0u8; 9];
    head[0] = kind;
    head[1..5].copy_from_slice(&code.to_le_bytes());
    head[5..].copy_from_slice(&len.to_le_bytes());
    out.write_all(&head)?;
    out.write_all(body)?;
    out.flush()
}

/// Reads one reply frame; `Ok(None)` when the host closed its output (it exited
/// or died) between frames. A body over `max_len` is an error, read no further.
pub fn read_reply(input: &mut impl Read, max_len: usize) -> io::Result<Option<Reply>> {
    let mut head = [0u8; 9];
    if !read_head(input, &mut head)? {
        return Ok(None);
    }
    let code = i32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let len = u32::from_le_bytes([head[5], head[6], head[7], head[8]]);
    let body = read_body(input, len, max_len)?;
    let text = || String::from_utf8_lossy(&body).into_owned();
    Ok(Some(match head[0] {
        KIND_READY => Reply::Ready(u32::from_le_bytes(code.to_le_bytes())),
        KIND_REFUSED => Reply::Refused(text()),
        KIND_ANSWER => Reply::Answer {
            status: code,
            bytes: body,
        },
        KIND_FAILURE => Reply::Failure(text()),
        other => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("unknown reply kind {other}"),
            ))
        }
    }))
}

/// Fills `head`; `false` if the input ended before its first byte.
fn read_head(input: &mut impl Read, head: &mut [u8]) -> io::Result<bool> {
    let mut filled = 0;
    while filled < head.len() {
        match input.read(&mut head[filled..]) {
            Ok(0) if filled == 0 => return Ok(false),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

fn read_body(input: &mut impl Read, len: u32, max_len: usize) -> io::Result<Vec<u8>> {
    let len = len as usize;
    if len > max_len {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame of {len} bytes exceeds the {max_len}-byte cap"),
        ));
    }
    let mut body = vec![0u8; len];
    input.read_exact(&mut body)?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_caps_hold() {
        let request = Request {
            op: 6,
            deadline_ms: 5_000,
            body: vec![0x80, 1, 2],
        };
        let mut bytes = Vec::new();
        write_request(&mut bytes, &request).expect("write");
        let mut input = &bytes[..];
        assert_eq!(read_request(&mut input, 16).expect("read"), Some(request));
        assert_eq!(read_request(&mut input, 16).expect("end"), None);
        let mut small = &bytes[..];
        assert!(read_request(&mut small, 2).is_err(), "over the cap");

        let replies = [
            Reply::Ready(7),
            Reply::Refused("no".into()),
            Reply::Answer {
                status: 4,
                bytes: vec![1, 2, 3],
            },
            Reply::Failure("bad".into()),
        ];
        let mut bytes = Vec::new();
        for r in &replies {
            write_reply(&mut bytes, r).expect("write");
        }
        let mut input = &bytes[..];
        for r in &replies {
            assert_eq!(read_reply(&mut input, 16).expect("read").as_ref(), Some(r));
        }
        assert_eq!(read_reply(&mut input, 16).expect("end"), None);
        let cut = &bytes[..bytes.len() - 1];
        let mut input = cut;
        for _ in 0..3 {
            read_reply(&mut input, 16).expect("whole frames");
        }
        assert!(
            read_reply(&mut input, 16).is_err(),
            "a cut frame is an error"
        );
    }
}
