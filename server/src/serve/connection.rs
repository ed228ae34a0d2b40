//! One task per WebSocket. A loop `select!`s over the socket and the player's
//! outbox (frames from the room); both branches are cancel-safe (`StreamExt::next`
//! and `mpsc::Receiver::recv`). Every frame is decoded and validated here before
//! anything reaches a room; a bad frame gets an error and the connection stays.
//! After the loop, the player leaves their room.

use super::clock::now_ms;
use super::limit::Bucket;
use super::metrics::Metrics;
use super::room::{encode, Command, Frame, RoomHandle};
use super::session::{hash, valid_name, Identity};
use super::store::Write;
use super::Shared;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use protocol::wire::{ClientMessage, ErrorCode, ServerMessage, PROTOCOL_VERSION};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Per-connection state.
struct Player {
    me: Option<Identity>,
    room: Option<RoomHandle>,
    outbox: Option<mpsc::Receiver<Frame>>,
    /// Join attempts: room codes are unguessable, and stay so at this rate.
    joins: Bucket,
}

fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
    ServerMessage::Error {
        code,
        message: message.into(),
    }
}

/// Waits for the next frame from the room, or forever when not in a room.
async fn next_frame(outbox: &mut Option<mpsc::Receiver<Frame>>) -> Option<Frame> {
    match outbox {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// Serves one WebSocket until it closes.
pub async fn serve(socket: WebSocket, shared: Arc<Shared>) {
    let (mut sink, mut stream) = socket.split();
    let mut player = Player {
        me: None,
        room: None,
        outbox: None,
        joins: Bucket::new(10, 0.5),
    };
    let config = &shared.config;
    let metrics = Arc::clone(&shared.metrics);
    Metrics::inc(&metrics.connections);
    Metrics::inc(&metrics.connections_total);
    let mut closing = shared.closing.clone();
    let mut bucket = Bucket::new(config.burst, f64::from(config.per_second));
    let mut strikes = 0u32;
    loop {
        tokio::select! {
            () = async { let _ = closing.wait_for(|c| *c).await; } => {
                close(&mut sink, &mut stream, 1001, "the server is shutting down".into()).await;
                break;
            }
            incoming = stream.next() => {
                let data = matches!(incoming, Some(Ok(Message::Binary(_) | Message::Text(_))));
                if data {
                    Metrics::inc(&metrics.messages_total);
                }
                if data && !bucket.take(Instant::now()) {
                    Metrics::inc(&metrics.rate_limited_total);
                    strikes += 1;
                    if strikes >= config.abuse_limit {
                        close(&mut sink, &mut stream, 1008, "too many messages".into()).await;
                        break;
                    }
                    let reply = error(ErrorCode::RateLimited, "too many messages; slow down");
                    if sink.send(Message::Binary(encode(&reply).to_vec().into())).await.is_err() {
                        break;
                    }
                    continue;
                }
                let reply = match incoming {
                    Some(Ok(Message::Binary(bytes))) => handle(&shared, &mut player, &bytes).await,
                    Some(Ok(Message::Text(_))) => {
                        Some(error(ErrorCode::Malformed, "frames are binary MessagePack"))
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(e)) => {
                        // Typically a frame over the size limit: say so, then close.
                        close(&mut sink, &mut stream, 1009, e.to_string().chars().take(100).collect()).await;
                        break;
                    }
                    Some(Ok(_)) => None,
                };
                if let Some(reply) = reply {
                    if sink.send(Message::Binary(encode(&reply).to_vec().into())).await.is_err() {
                        break;
                    }
                }
            }
            frame = next_frame(&mut player.outbox) => match frame {
                Some(frame) => {
                    if sink.send(Message::Binary(frame.to_vec().into())).await.is_err() {
                        break;
                    }
                }
                None => {
                    // The room dropped this outbox: the client fell too far behind.
                    close(&mut sink, &mut stream, 1008, "too slow; reconnect for a fresh snapshot".into()).await;
                    break;
                }
            },
        }
    }
    if let (Some(room), Some(me)) = (player.room, player.me) {
        room.send(Command::Leave {
            player: me.id,
            for_good: false,
            done: None,
        });
    }
    metrics
        .connections
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
}

/// How long a closing connection may take to acknowledge the close.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// How long leaving a room waits for the room to let go.
const LEAVE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends a close frame, then reads (and ignores) what the client still sends until
/// it closes too, so the close frame is not lost to a TCP reset over unread data.
async fn close(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    code: u16,
    reason: String,
) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    if sink.send(Message::Close(Some(frame))).await.is_err() {
        return;
    }
    let drain = async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, drain).await;
}

/// Handles one decoded frame; returns a direct reply, if any.
async fn handle(shared: &Shared, player: &mut Player, bytes: &[u8]) -> Option<ServerMessage> {
    let message: ClientMessage = match rmp_serde::from_slice(bytes) {
        Ok(m) => m,
        Err(e) => {
            return Some(error(
                ErrorCode::Malformed,
                format!("not a client message: {e}"),
            ))
        }
    };
    let me = match (&player.me, message) {
        (
            None,
            ClientMessage::Hello {
                version,
                name,
                token,
            },
        ) => return Some(hello(shared, player, version, name, token).await),
        (None, _) => return Some(error(ErrorCode::NotIntroduced, "say hello first")),
        (Some(_), ClientMessage::Hello { .. }) => {
            return Some(error(ErrorCode::NotIntroduced, "hello was already said"))
        }
        (Some(me), message) => (me.clone(), message),
    };
    let (me, message) = me;
    match message {
        ClientMessage::Hello { .. } => None,
        ClientMessage::ListRooms => Some(ServerMessage::Rooms {
            rooms: shared.lobby.public_rooms(),
        }),
        ClientMessage::ListVariants => Some(ServerMessage::Variants {
            variants: shared.lobby.variants(),
        }),
        ClientMessage::LeaveRoom => {
            leave_room(player, &me).await;
            Some(ServerMessage::Rooms {
                rooms: shared.lobby.public_rooms(),
            })
        }
        ClientMessage::CreateRoom { settings } => {
            leave_room(player, &me).await;
            let (tx, rx) = mpsc::channel(shared.config.outbox_frames);
            match shared.lobby.create(me, settings, tx).await {
                Ok(room) => {
                    player.room = Some(room);
                    player.outbox = Some(rx);
                    None
                }
                Err((code, message)) => Some(error(code, message)),
            }
        }
        ClientMessage::JoinRoom { code, spectator } => {
            if !player.joins.take(Instant::now()) {
                return Some(error(
                    ErrorCode::RateLimited,
                    "too many join attempts; wait a moment",
                ));
            }
            let Some(room) = shared.lobby.get(&code) else {
                return Some(error(ErrorCode::NoRoom, format!("no room '{code}'")));
            };
            if player.room.as_ref().is_some_and(|r| r.code == room.code) {
                player.room = None;
            } else {
                leave_room(player, &me).await;
            }
            let (tx, rx) = mpsc::channel(shared.config.outbox_frames);
            match room.join(me, spectator, tx).await {
                Ok(()) => {
                    player.room = Some(room);
                    player.outbox = Some(rx);
                    None
                }
                Err((code, message)) => Some(error(code, message)),
            }
        }
        ClientMessage::Ready { ready } => in_room(
            player,
            Command::Ready {
                player: me.id,
                ready,
            },
        ),
        ClientMessage::Start => in_room(player, Command::Start { player: me.id }),
        ClientMessage::Move { row, col, value } => in_room(
            player,
            Command::Move {
                player: me.id,
                row,
                col,
                value,
            },
        ),
        ClientMessage::Hint => in_room(player, Command::Hint { player: me.id }),
        ClientMessage::Rematch => in_room(player, Command::Rematch { player: me.id }),
        ClientMessage::Pause => in_room(player, Command::Pause { player: me.id }),
        ClientMessage::Resume => in_room(player, Command::Resume { player: me.id }),
        ClientMessage::Pencil { row, col, marks } => in_room(
            player,
            Command::Pencil {
                player: me.id,
                row,
                col,
                marks,
            },
        ),
        ClientMessage::Cursor { row, col } => in_room(
            player,
            Command::Cursor {
                player: me.id,
                row,
                col,
            },
        ),
        ClientMessage::Chat { text } => in_room(
            player,
            Command::Chat {
                player: me.id,
                text,
            },
        ),
        ClientMessage::Ping { client_time } => Some(ServerMessage::Pong {
            client_time,
            server_time: now_ms(),
        }),
        ClientMessage::Unknown => Some(error(ErrorCode::Unsupported, "unknown message type")),
    }
}

async fn hello(
    shared: &Shared,
    player: &mut Player,
    version: u32,
    name: String,
    token: Option<String>,
) -> ServerMessage {
    if version != PROTOCOL_VERSION {
        return error(
            ErrorCode::Version,
            format!("protocol {version} is not supported; this server speaks {PROTOCOL_VERSION}"),
        );
    }
    let (me, token) = match token.and_then(|t| shared.sessions.resume(&t).map(|me| (me, t))) {
        Some(found) => found,
        None => match valid_name(&name) {
            Ok(name) => {
                let (me, token) = shared.sessions.create(name);
                if let Some(store) = &shared.store {
                    let write = Write::Session {
                        token_hash: hash(&token),
                        who: me.clone(),
                    };
                    if let Err(e) = store.write(write).await {
                        tracing::error!(error = %e, "cannot save a session");
                        return error(
                            ErrorCode::Unavailable,
                            "the server cannot save sessions right now",
                        );
                    }
                }
                (me, token)
            }
            Err(message) => return error(ErrorCode::Invalid, message),
        },
    };
    player.me = Some(me.clone());
    ServerMessage::Welcome {
        player_id: me.id,
        name: me.name,
        token,
        server_time: now_ms(),
    }
}

/// Leaves the current room on purpose and waits (briefly) until the room has let go,
/// so a room it closes no longer counts against the player.
async fn leave_room(player: &mut Player, me: &Identity) {
    player.outbox = None;
    let Some(room) = player.room.take() else {
        return;
    };
    let (done, left) = oneshot::channel();
    let sent = room.send(Command::Leave {
        player: me.id.clone(),
        for_good: true,
        done: Some(done),
    });
    if sent {
        let _ = tokio::time::timeout(LEAVE_WAIT, left).await;
    }
}

fn in_room(player: &Player, command: Command) -> Option<ServerMessage> {
    match &player.room {
        None => Some(error(ErrorCode::NoRoom, "join a room first")),
        Some(room) if room.send(command) => None,
        Some(_) => Some(error(ErrorCode::NoRoom, "the room is closed or busy")),
    }
}
