//! A WebSocket test client for the server: MessagePack frames, every received
//! frame kept raw (for privacy checks), and helpers that wait for the frame a
//! test expects (with a timeout that fails the test; never a sleep).

use futures_util::{SinkExt, StreamExt};
use protocol::plugin::Params;
use protocol::wire::{
    ClientMessage, ErrorCode, HintPolicy, MistakePolicy, Mode, RoomSettings, RoomState, RoomView,
    ServerMessage, PROTOCOL_VERSION,
};
use protocol::{ParamValue, PuzzleV1};
use std::fmt::Display;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for any one frame.
pub const WAIT: Duration = Duration::from_secs(30);

/// A public race room on classic 4x4 (easy, no mistake policy, no hints): the
/// quickest real game to set up and finish.
pub fn race_settings(max_players: u32) -> RoomSettings {
    RoomSettings {
        variant: "classic".into(),
        params: Params::from([("box".to_string(), ParamValue::Text("2x2".into()))]),
        difficulty: "easy".into(),
        mode: Mode::Race,
        public: true,
        max_players,
        mistakes: MistakePolicy::None,
        hints: HintPolicy::Off,
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

/// One connected client.
pub struct Client {
    /// The socket.
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every binary frame received, in order.
    pub raw: Vec<Vec<u8>>,
    /// The player id from `welcome` (empty before).
    pub id: String,
    /// The session token from `welcome` (empty before).
    pub token: String,
}

impl Client {
    /// Opens a WebSocket to `addr` without saying hello.
    pub async fn open(addr: impl Display) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("websocket");
        Client::adopt(ws)
    }

    /// A client on a socket opened elsewhere (custom headers), before hello.
    pub fn adopt(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            raw: Vec::new(),
            id: String::new(),
            token: String::new(),
        }
    }

    /// Connects and says hello as a new player called `name`.
    pub async fn connect(addr: impl Display, name: &str) -> Client {
        Client::hello(addr, name, None).await
    }

    /// Connects and resumes the identity of `token`.
    pub async fn resume(addr: impl Display, token: String) -> Client {
        Client::hello(addr, "resumed", Some(token)).await
    }

    async fn hello(addr: impl Display, name: &str, token: Option<String>) -> Client {
        let mut c = Client::open(addr).await;
        c.say_hello(name, token).await;
        c
    }

    /// Says hello (as `name`, or resuming `token`) and keeps the id and token
    /// from the `welcome`.
    pub async fn say_hello(&mut self, name: &str, token: Option<String>) {
        self.send(&ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.into(),
            token,
        })
        .await;
        self.welcomed().await;
    }

    /// Waits for a `welcome` (after a hello, or a redeemed sync code) and keeps
    /// its id and token.
    pub async fn welcomed(&mut self) {
        let (id, token) = self
            .until(|m| match m {
                ServerMessage::Welcome {
                    player_id, token, ..
                } => Some((player_id, token)),
                _ => None,
            })
            .await;
        self.id = id;
        self.token = token;
    }

    /// Sends a message.
    pub async fn send(&mut self, m: &ClientMessage) {
        let bytes = rmp_serde::to_vec_named(m).expect("encode");
        self.send_raw(bytes).await;
    }

    /// Sends raw bytes as one binary frame.
    pub async fn send_raw(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// Sends raw bytes as one binary frame; `false` once the connection is gone
    /// (or the frame could not leave within [`WAIT`]).
    pub async fn try_send_raw(&mut self, bytes: Vec<u8>) -> bool {
        let sent = self.ws.send(Message::Binary(bytes.into()));
        matches!(tokio::time::timeout(WAIT, sent).await, Ok(Ok(())))
    }

    /// The next server message.
    pub async fn recv(&mut self) -> ServerMessage {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a frame in time")
                .expect("connection open")
                .expect("frame");
            if let Message::Binary(bytes) = frame {
                self.raw.push(bytes.to_vec());
                return rmp_serde::from_slice(&bytes).expect("a server message");
            }
        }
    }

    /// Receives until `pick` accepts a frame. A rate-limit error `pick` does
    /// not want fails at once: whatever was awaited will not come.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
        loop {
            let message = self.recv().await;
            let limited = matches!(
                &message,
                ServerMessage::Error {
                    code: ErrorCode::RateLimited,
                    ..
                }
            );
            if let Some(t) = pick(message) {
                return t;
            }
            assert!(
                !limited,
                "rate limited while waiting: the test sends too fast on one connection"
            );
        }
    }

    /// The next room snapshot in `state`.
    pub async fn room(&mut self, state: RoomState) -> RoomView {
        self.until(|m| match m {
            ServerMessage::Room { room } if room.state == state => Some(*room),
            _ => None,
        })
        .await
    }

    /// Plays every move that solves `puzzle`, each waited for.
    pub async fn solve(&mut self, puzzle: &PuzzleV1) {
        for m in crate::solving_moves(puzzle) {
            self.play(&m).await;
        }
    }

    /// Waits for the game's end (`finished`).
    pub async fn finished(&mut self) {
        self.until(|m| matches!(m, ServerMessage::Finished { .. }).then_some(()))
            .await;
    }

    /// The ranks of the game's end (waits for `finished`).
    pub async fn ranks(&mut self) -> Vec<protocol::wire::Rank> {
        self.until(|m| match m {
            ServerMessage::Finished { ranks, .. } => Some(ranks),
            _ => None,
        })
        .await
    }

    /// The next error's code and message.
    pub async fn error_message(&mut self) -> (ErrorCode, String) {
        self.until(|m| match m {
            ServerMessage::Error { code, message, .. } => Some((code, message)),
            _ => None,
        })
        .await
    }

    /// The next error's code.
    pub async fn error(&mut self) -> ErrorCode {
        self.until(|m| match m {
            ServerMessage::Error { code, .. } => Some(code),
            _ => None,
        })
        .await
    }

    /// Reads until the server closes the connection; its close code and reason,
    /// if it sent a close frame.
    pub async fn closed(&mut self) -> Option<(u16, String)> {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("closed in time")
            {
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()))
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Asks to watch the room `code` as a spectator.
    pub async fn watch(&mut self, code: &str) {
        self.send(&ClientMessage::JoinRoom {
            code: code.to_string(),
            spectator: true,
        })
        .await;
    }

    /// Sends a move and waits for its acceptance.
    pub async fn play(&mut self, m: &ClientMessage) {
        self.send(m).await;
        self.until(|f| matches!(f, ServerMessage::MoveAccepted { .. }).then_some(()))
            .await;
    }
}

/// The state a new room with `settings` is in: a solo game starts itself.
pub fn created_state(settings: &RoomSettings) -> RoomState {
    if settings.mode == Mode::Solo {
        RoomState::Playing
    } else {
        RoomState::Waiting
    }
}

/// Creates a room with `settings` and seats the others; returns the host's view
/// (a solo room's is already playing).
pub async fn seated_room(
    host: &mut Client,
    others: &mut [&mut Client],
    settings: RoomSettings,
) -> RoomView {
    let state = created_state(&settings);
    host.send(&ClientMessage::CreateRoom { settings }).await;
    let room = host.room(state).await;
    for p in others.iter_mut() {
        p.send(&ClientMessage::JoinRoom {
            code: room.code.clone(),
            spectator: false,
        })
        .await;
        p.room(RoomState::Waiting).await;
    }
    room
}

/// Creates a room with `settings`, seats the others, starts; returns the puzzle.
pub async fn started_room(
    host: &mut Client,
    others: &mut [&mut Client],
    settings: RoomSettings,
) -> (String, PuzzleV1) {
    let solo = settings.mode == Mode::Solo;
    let room = seated_room(host, others, settings).await;
    let puzzle = if solo {
        room.puzzle.clone().expect("puzzle")
    } else {
        host.send(&ClientMessage::Start).await;
        host.room(RoomState::Playing).await.puzzle.expect("puzzle")
    };
    for p in others.iter_mut() {
        p.room(RoomState::Playing).await;
    }
    (room.code, puzzle)
}
