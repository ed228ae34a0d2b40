//! One task per WebSocket. A loop `select!`s over the socket and the player's
//! outbox (frames from the room); both branches are cancel-safe (`StreamExt::next`
//! and `mpsc::Receiver::recv`). Every frame is decoded and validated here before
//! anything reaches a room; a bad frame gets an error and the connection stays.
//! A request the server refuses changes nothing: a player moves to another room
//! only once the new room has taken them. After the loop, the player leaves
//! their room.

use super::clock::now_ms;
use super::cluster::Found;
use super::frame::decode;
use super::limit::Bucket;
use super::lobby::RoomQuery;
use super::metrics::Metrics;
use super::room::{encode, Command, ConnectionId, Failure, Link, Outgoing, RoomHandle};
use super::session::Identity;
use super::setter;
use super::text::clean_name;
use super::{IpSlot, Shared};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use protocol::setter::{Analysis, SetterDraft};
use protocol::wire::{ClientMessage, ErrorCode, ServerMessage, PROTOCOL_VERSION};
use protocol::PuzzleV1;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Per-connection state.
struct Player {
    /// This connection.
    conn: ConnectionId,
    /// The client's address (joins are limited per address).
    ip: IpAddr,
    me: Option<Identity>,
    room: Option<RoomHandle>,
    outbox: Option<mpsc::Receiver<Outgoing>>,
    /// The UTC offset the client last declared with `profile` (its local dates).
    utc_offset_min: i32,
    /// Where what this connection watches outside a room (a tournament's
    /// standings) is pushed.
    pushes: super::tournaments::Pushes,
}

/// The next connection's id.
static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
    ServerMessage::Error {
        code,
        message: message.into(),
        cells: Vec::new(),
    }
}

/// A refused `move` or `pencil`: the error names the cells the request would
/// have changed, so the client can put them back. Any other reply is unchanged.
fn naming_cells(reply: ServerMessage, cells: Vec<[u32; 2]>) -> ServerMessage {
    match reply {
        ServerMessage::Error { code, message, .. } if !cells.is_empty() => ServerMessage::Error {
            code,
            message,
            cells,
        },
        other => other,
    }
}

/// Waits for the next frame from the room, or forever when not in a room.
async fn next_frame(outbox: &mut Option<mpsc::Receiver<Outgoing>>) -> Option<Outgoing> {
    match outbox {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// Serves one WebSocket from `ip` until it closes; `slot` (its count against
/// the address) is given back before the socket closes, so a client that sees
/// the close can connect again at once.
pub async fn serve(socket: WebSocket, shared: Arc<Shared>, ip: IpAddr, slot: IpSlot) {
    let (mut sink, mut stream) = socket.split();
    let (pushes, mut pushed) = tokio::sync::watch::channel(None);
    let mut player = Player {
        conn: NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed),
        ip,
        me: None,
        room: None,
        outbox: None,
        utc_offset_min: 0,
        pushes: Arc::new(pushes),
    };
    let config = &shared.config;
    let metrics = Arc::clone(&shared.metrics);
    Metrics::inc(&metrics.connections);
    Metrics::inc(&metrics.connections_total);
    let mut closing = shared.closing.clone();
    let mut bucket = Bucket::new(config.burst, f64::from(config.per_second));
    let mut strikes = 0u32;
    let hello_due = tokio::time::Instant::now() + config.hello_timeout;
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(hello_due), if player.me.is_none() => {
                let why = format!("say hello within {} s", config.hello_timeout.as_secs());
                close(&mut sink, &mut stream, 1008, why).await;
                break;
            }
            () = async { let _ = closing.wait_for(|c| *c).await; } => {
                // What the room said last (a redirect to the room's new node) goes first.
                while let Some(Ok(Outgoing::Frame(frame))) = player.outbox.as_mut().map(|o| o.try_recv()) {
                    if !send(&mut sink, frame.to_vec(), config.write_timeout).await {
                        break;
                    }
                }
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
                    let mut reply = error(ErrorCode::RateLimited, "too many messages; slow down");
                    if let Some(Ok(Message::Binary(bytes))) = &incoming {
                        if let Ok(request) = decode(bytes) {
                            reply = naming_cells(reply, request.board_cells());
                        }
                    }
                    if !send(&mut sink, encode(&reply).to_vec(), config.write_timeout).await {
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
                    if !send(&mut sink, encode(&reply).to_vec(), config.write_timeout).await {
                        break;
                    }
                }
            }
            Ok(()) = pushed.changed() => {
                let frame = pushed.borrow_and_update().clone();
                if let Some(frame) = frame {
                    if !send(&mut sink, frame.to_vec(), config.write_timeout).await {
                        break;
                    }
                }
            }
            frame = next_frame(&mut player.outbox) => match frame {
                Some(Outgoing::Frame(frame)) => {
                    if !send(&mut sink, frame.to_vec(), config.write_timeout).await {
                        break;
                    }
                }
                Some(Outgoing::Close { code, reason }) => {
                    // Another connection of this player took the seat: this one is
                    // no longer in the room.
                    player.room = None;
                    close(&mut sink, &mut stream, code, reason.into()).await;
                    break;
                }
                Some(Outgoing::Moved) => {
                    // The room went to another node; the client follows its redirect.
                    player.room = None;
                    player.outbox = None;
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
            conn: player.conn,
            for_good: false,
            done: None,
        });
    }
    metrics
        .connections
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    drop(slot);
    drop((sink, stream));
}

/// Sends one binary frame; `false` if the connection failed, or the client did
/// not take the frame within `timeout` (it does not read: it is dropped, and its
/// descriptor and address slot with it).
async fn send(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    bytes: Vec<u8>,
    timeout: std::time::Duration,
) -> bool {
    matches!(
        tokio::time::timeout(timeout, sink.send(Message::Binary(bytes.into()))).await,
        Ok(Ok(()))
    )
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
    let sent = tokio::time::timeout(CLOSE_GRACE, sink.send(Message::Close(Some(frame)))).await;
    if !matches!(sent, Ok(Ok(()))) {
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

/// The room `code`, here; or the reply that sends the client to the node that
/// has it, or says there is none.
async fn locate(shared: &Shared, code: &str) -> Result<RoomHandle, ServerMessage> {
    let no_room = || error(ErrorCode::NoRoom, format!("no room '{code}'"));
    if let Some(room) = shared.lobby.get(code) {
        return Ok(room);
    }
    let Some(cluster) = &shared.cluster else {
        return Err(no_room());
    };
    match cluster.find_room(shared, code).await {
        Ok(Found::Here(room)) => Ok(room),
        Ok(Found::Elsewhere(url)) => Err(ServerMessage::Redirect {
            code: code.to_string(),
            url,
            ask: None,
        }),
        Ok(Found::Missing) => Err(no_room()),
        Err(e) => {
            tracing::warn!(room = %code, error = %e, "cannot look the room up");
            Err(error(
                ErrorCode::Unavailable,
                "the room cannot be looked up right now; try again",
            ))
        }
    }
}

/// Handles one decoded frame; returns a direct reply, if any.
async fn handle(shared: &Shared, player: &mut Player, bytes: &[u8]) -> Option<ServerMessage> {
    let message = match decode(bytes) {
        Ok(m) => m,
        Err(e) => return Some(error(ErrorCode::Malformed, e.to_string())),
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
        ClientMessage::ListRooms {
            offset,
            variant,
            joinable,
        } => Some(shared.lobby.rooms_message(&RoomQuery {
            offset,
            variant,
            joinable,
        })),
        ClientMessage::ListVariants => Some(ServerMessage::Variants {
            variants: shared.lobby.variants(),
        }),
        ClientMessage::Leaderboard {
            board,
            variant,
            params,
            difficulty,
            date,
        } => Some(leaderboard(
            shared,
            &me.id,
            board,
            &variant,
            &params,
            &difficulty,
            date,
        )),
        ClientMessage::Ratings {
            variant,
            params,
            difficulty,
        } => Some(match shared.lobby.manifest(&variant) {
            Some(manifest) => {
                let params = manifest.with_defaults(&params);
                (shared.lobby.ratings()).view(&variant, &params, &difficulty, &me.id)
            }
            None => error(ErrorCode::Invalid, format!("unknown variant '{variant}'")),
        }),
        ClientMessage::RaceReview { id } => Some(race_review(shared, &me.id, &id).await),
        ClientMessage::Profile { utc_offset_min } => {
            player.utc_offset_min = utc_offset_min;
            Some(shared.lobby.boards().profile(
                &me.id,
                utc_offset_min,
                crate::serve::clock::now_ms(),
            ))
        }
        ClientMessage::SyncCode => Some(match shared.sessions.sync_code(&me).await {
            Ok(code) => ServerMessage::SyncCode {
                code,
                expires_in_ms: crate::serve::session::SYNC_CODE_LIFE.as_millis() as u64,
            },
            Err(e) => error(ErrorCode::Unavailable, format!("no sync code now: {e}")),
        }),
        ClientMessage::RedeemSync { code } => Some(redeem_sync(shared, player, &code).await),
        ClientMessage::HideFromBoards { hidden } => {
            if let Some(store) = &shared.store {
                let write = crate::serve::store::Write::Hidden {
                    player: me.id.clone(),
                    hidden,
                };
                if let Err(e) = store.write(write).await {
                    return Some(error(
                        ErrorCode::Unavailable,
                        format!("cannot save it: {e}"),
                    ));
                }
            }
            shared.lobby.boards().set_hidden(&me.id, hidden);
            Some(
                shared
                    .lobby
                    .boards()
                    .profile(&me.id, 0, crate::serve::clock::now_ms()),
            )
        }
        ClientMessage::LeaveRoom => {
            if let Some(room) = player.room.take() {
                // The outbox stays open until the room has let go: a frame the
                // room sends meanwhile must not find it closed and drop the seat.
                leave(room, &me, player.conn).await;
                player.outbox = None;
            }
            Some(shared.lobby.rooms_message(&RoomQuery::default()))
        }
        ClientMessage::CreateRoom { settings } => {
            let (link, rx) = new_link(shared, player);
            let current = player.room.as_ref();
            match shared
                .lobby
                .create(me.clone(), settings, link, current)
                .await
            {
                Ok(room) => {
                    let code = room.code.clone();
                    move_to(player, &me, room, rx).await;
                    if let Some(cluster) = &shared.cluster {
                        // The creator follows the room if it goes to a less loaded node.
                        cluster.place(shared, &code).await;
                    }
                    None
                }
                Err((code, message)) => Some(error(code, message)),
            }
        }
        ClientMessage::QuickRace {
            variant,
            params,
            difficulty,
            here,
        } => {
            let elsewhere = (shared.cluster.is_some() && !here)
                .then(|| {
                    (shared.lobby).quick_race_elsewhere(&me.id, &variant, &params, &difficulty)
                })
                .flatten();
            if let Some(code) = elsewhere {
                if let Err(ServerMessage::Redirect { code, url, .. }) = locate(shared, &code).await
                {
                    let ask = ClientMessage::QuickRace {
                        variant,
                        params,
                        difficulty,
                        here: true,
                    };
                    return Some(ServerMessage::Redirect {
                        code,
                        url,
                        ask: Some(Box::new(ask)),
                    });
                }
                // Gone, or here after all: a race on this node.
            }
            let (link, rx) = new_link(shared, player);
            let current = player.room.as_ref();
            let matched = (shared.lobby)
                .quick_race(me.clone(), variant, params, difficulty, link, current)
                .await;
            enter(player, &me, matched, rx).await
        }
        ClientMessage::TournamentRace { id } => {
            let (link, rx) = new_link(shared, player);
            let current = player.room.as_ref();
            let matched = (shared.lobby)
                .tournament_race(me.clone(), &id, link, current)
                .await;
            enter(player, &me, matched, rx).await
        }
        ClientMessage::CreateTournament {
            name,
            variant,
            params,
            difficulty,
            minutes,
            starts_in_minutes,
        } => {
            let asked = super::tournament::NewTournament {
                name,
                variant,
                params,
                difficulty,
                minutes,
                starts_in_minutes,
            };
            let made = shared.lobby.create_tournament(&me, asked).await;
            Some(match made {
                Ok(spec) => watch_tournament(shared, player, &me, &spec.id),
                Err((code, message)) => error(code, message),
            })
        }
        ClientMessage::ListTournaments => Some(ServerMessage::Tournaments {
            tournaments: shared.lobby.tournaments().list(),
        }),
        ClientMessage::WatchTournament { id } => Some(watch_tournament(shared, player, &me, &id)),
        ClientMessage::JoinRoom { code, spectator } => {
            let now = Instant::now();
            // Both limits are charged: one identity cannot spread its guesses over
            // addresses, nor one address over identities.
            let by_player = shared.joins_by_player.take(&me.id, now);
            let by_address = shared.joins_by_address.take(&player.ip, now);
            if !(by_player && by_address) {
                return Some(error(
                    ErrorCode::RateLimited,
                    "too many join attempts; wait a moment",
                ));
            }
            let room = match locate(shared, &code).await {
                Ok(room) => room,
                Err(refusal) => {
                    // Being sent to the room's node, or a lookup that failed
                    // here, is no guess at a code: the join there is the one that counts.
                    if matches!(
                        refusal,
                        ServerMessage::Redirect { .. }
                            | ServerMessage::Error {
                                code: ErrorCode::Unavailable,
                                ..
                            }
                    ) {
                        shared.joins_by_player.give_back(&me.id);
                        shared.joins_by_address.give_back(&player.ip);
                    }
                    return Some(refusal);
                }
            };
            let (link, rx) = new_link(shared, player);
            let joined = room.join(me.clone(), spectator, link).await.map(|()| room);
            enter(player, &me, joined, rx).await
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
        )
        .map(|refused| naming_cells(refused, vec![[row, col]])),
        ClientMessage::Hint { marks } => in_room(
            player,
            Command::Hint {
                player: me.id,
                marks,
            },
        ),
        ClientMessage::Rematch => in_room(player, Command::Rematch { player: me.id }),
        ClientMessage::FillCandidates => in_room(player, Command::FillCandidates { player: me.id }),
        ClientMessage::Pause => in_room(player, Command::Pause { player: me.id }),
        ClientMessage::Resume => in_room(player, Command::Resume { player: me.id }),
        ClientMessage::Pencil { cells } => {
            let named = cells.iter().map(|c| [c.row, c.col]).collect();
            in_room(
                player,
                Command::Pencil {
                    player: me.id,
                    cells,
                },
            )
            .map(|refused| naming_cells(refused, named))
        }
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
        ClientMessage::SetterTemplate { variant, params } => Some(
            match shared.lobby.games().template(&variant, &params).await {
                Ok((params, puzzle)) => ServerMessage::SetterTemplate {
                    variant,
                    params,
                    puzzle: Box::new((*puzzle).clone()),
                },
                Err(e) => error(ErrorCode::Invalid, e),
            },
        ),
        ClientMessage::CheckPuzzle { draft } => Some(
            match setter_work(shared, player, &me, draft, |p| Ok(setter::check(p))).await {
                Ok(check) => ServerMessage::PuzzleCheck {
                    check: Box::new(check),
                },
                Err((code, message)) => error(code, message),
            },
        ),
        ClientMessage::Analyse { draft } => Some(match analyse(shared, player, &me, draft).await {
            Ok(analysis) => ServerMessage::Analysis {
                analysis: Box::new(analysis),
            },
            Err((code, message)) => error(code, message),
        }),
        ClientMessage::Unknown => Some(error(ErrorCode::Unsupported, "unknown message type")),
    }
}

/// The step-through solver: the room's puzzle once my game there is over,
/// or a draft of mine outside any game in progress.
async fn analyse(
    shared: &Shared,
    player: &Player,
    me: &Identity,
    draft: Option<SetterDraft>,
) -> Result<Analysis, Failure> {
    let Some(draft) = draft else {
        let Some(room) = &player.room else {
            return Err((ErrorCode::NoRoom, "join a room first".into()));
        };
        let puzzle = room.analysable(me.id.clone()).await?;
        return run_setter_work(shared, move || Ok(setter::analyse_room(&puzzle))).await;
    };
    setter_work(shared, player, me, draft, |p| setter::analyse_draft(&p)).await
}

/// Watches tournament `id` (its standings come again at every change).
fn watch_tournament(shared: &Shared, player: &Player, me: &Identity, id: &str) -> ServerMessage {
    match (shared.lobby.tournaments()).watch(id, &me.id, player.conn, &player.pushes) {
        Some(view) => ServerMessage::Tournament {
            tournament: Box::new(view),
        },
        None => error(ErrorCode::Invalid, format!("there is no tournament '{id}'")),
    }
}

/// A race review by id, from the recent ones or the store; a daily race's
/// only to its racers until its day is over.
async fn race_review(shared: &Shared, me: &str, id: &str) -> ServerMessage {
    let missing = || {
        error(
            ErrorCode::Invalid,
            format!("there is no race review '{id}'"),
        )
    };
    if !super::identity::is_link_id(id) {
        return missing();
    }
    let stored = match (shared.lobby.reviews().get(id), &shared.store) {
        (Some(kept), _) => Some(kept),
        (None, None) => None,
        (None, Some(store)) => match store.race_review(id).await {
            Ok(found) => found.map(Arc::new),
            Err(e) => {
                tracing::error!(review = %id, error = %e, "cannot read a race review");
                return error(ErrorCode::Unavailable, "the review cannot be read now");
            }
        },
    };
    let today = crate::daily::Date::today_utc().to_string();
    match stored {
        Some(s) if s.open_to(me, &today) => ServerMessage::RaceReview {
            review: Box::new(s.review.clone()),
        },
        Some(_) => error(
            ErrorCode::WrongState,
            "this race was on today's puzzle of the day: its review opens to everyone tomorrow",
        ),
        None => missing(),
    }
}

/// Builds `draft` on its variant's template and runs `work` on it off the
/// async threads (at most [`super::SETTER_WORK`] at once). Refused while I
/// am in a room whose game I have not finished: the room's puzzle sent back
/// as a draft (or a board checked against it) must not give away what the
/// game asks.
async fn setter_work<T: Send + 'static>(
    shared: &Shared,
    player: &Player,
    me: &Identity,
    draft: SetterDraft,
    work: impl FnOnce(PuzzleV1) -> Result<T, String> + Send + 'static,
) -> Result<T, Failure> {
    if let Some(room) = &player.room {
        room.analysable(me.id.clone()).await?;
    }
    let (_, template) = shared
        .lobby
        .games()
        .template(&draft.variant, &draft.params)
        .await
        .map_err(|e| (ErrorCode::Invalid, e))?;
    let built = setter::build(&template, &draft).map_err(|e| (ErrorCode::Invalid, e))?;
    run_setter_work(shared, move || work(built)).await
}

/// Runs CPU-bound setter work on a blocking thread once a slot is free.
async fn run_setter_work<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, Failure> {
    let busy = || {
        (
            ErrorCode::Unavailable,
            "the server is busy; try again".to_string(),
        )
    };
    let _slot = shared.setter_work.acquire().await.map_err(|_| busy())?;
    tokio::task::spawn_blocking(|| crate::allocator::with_cache(work))
        .await
        .map_err(|_| busy())?
        .map_err(|e| (ErrorCode::Invalid, e))
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
    let resumed = match token {
        Some(token) => shared.sessions.resume(&token).await.map(|me| (me, token)),
        None => None,
    };
    let (me, token) = match resumed {
        Some(found) => found,
        None if !shared.hellos_by_address.take(&player.ip, Instant::now()) => {
            return error(
                ErrorCode::RateLimited,
                "too many new players from this address; wait a moment or resume with your token",
            );
        }
        None => match clean_name(&name) {
            Ok(name) => match shared.sessions.create(name).await {
                Ok(created) => created,
                Err(e) => {
                    tracing::error!(error = %e, "cannot save a session");
                    return error(
                        ErrorCode::Unavailable,
                        "the server cannot save sessions right now",
                    );
                }
            },
            Err(message) => return error(ErrorCode::Invalid, message),
        },
    };
    player.me = Some(me.clone());
    ServerMessage::Welcome {
        player_id: me.id,
        name: me.name,
        token,
        server_time: now_ms(),
        site_url: shared.config.site_url.clone(),
    }
}

/// A new outbox for the player's next room: the link the room sends to, and
/// the receiving end `move_to` installs once the room has them.
fn new_link(shared: &Shared, player: &Player) -> (Link, mpsc::Receiver<Outgoing>) {
    let (out, rx) = mpsc::channel(shared.config.outbox_frames);
    let link = Link {
        conn: player.conn,
        address: player.ip,
        out,
    };
    (link, rx)
}

/// A room the player joined (or why not): they move to it.
async fn enter(
    player: &mut Player,
    me: &Identity,
    matched: Result<RoomHandle, Failure>,
    rx: mpsc::Receiver<Outgoing>,
) -> Option<ServerMessage> {
    match matched {
        Ok(room) => {
            move_to(player, me, room, rx).await;
            None
        }
        Err((code, message)) => Some(error(code, message)),
    }
}

/// The player is now in `room` with the outbox `rx`: the room they were in
/// before (if another) is left for good.
async fn move_to(
    player: &mut Player,
    me: &Identity,
    room: RoomHandle,
    rx: mpsc::Receiver<Outgoing>,
) {
    if let Some(old) = player.room.replace(room) {
        if player.room.as_ref().is_some_and(|r| r.code != old.code) {
            // The old outbox stays open until the old room has let go (see
            // `LeaveRoom`); the new room's frames wait in `rx` meanwhile.
            leave(old, me, player.conn).await;
        }
    }
    player.outbox = Some(rx);
}

/// Leaves `room` on purpose and waits (briefly) until the room has let go, so a
/// room it closes no longer counts against the player.
async fn leave(room: RoomHandle, me: &Identity, conn: ConnectionId) {
    let (done, left) = oneshot::channel();
    let sent = room.send(Command::Leave {
        player: me.id.clone(),
        conn,
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

/// Takes over the identity a sync code was made for (outside any room; tries
/// are limited per address like joins): a new `welcome`, or why not.
async fn redeem_sync(shared: &Shared, player: &mut Player, code: &str) -> ServerMessage {
    if player.room.is_some() {
        return error(ErrorCode::WrongState, "leave the room first");
    }
    if !shared.joins_by_address.take(&player.ip, Instant::now()) {
        return error(ErrorCode::RateLimited, "too many tries; wait a moment");
    }
    match shared.sessions.redeem(code).await {
        Ok((who, token)) => {
            player.me = Some(who.clone());
            ServerMessage::Welcome {
                player_id: who.id,
                name: who.name,
                token,
                server_time: now_ms(),
                site_url: shared.config.site_url.clone(),
            }
        }
        Err(e) => error(ErrorCode::Invalid, e),
    }
}

/// The leaderboard a player asked for, or why not.
fn leaderboard(
    shared: &Shared,
    me: &str,
    board: protocol::wire::BoardKind,
    variant: &str,
    params: &protocol::plugin::Params,
    difficulty: &str,
    date: Option<String>,
) -> ServerMessage {
    let Some(manifest) = shared.lobby.manifest(variant) else {
        return error(ErrorCode::Invalid, format!("unknown variant '{variant}'"));
    };
    let date = match date {
        Some(d) => match d.parse::<crate::daily::Date>() {
            Ok(d) => d,
            Err(e) => return error(ErrorCode::Invalid, e),
        },
        None => crate::daily::Date::today_utc(),
    };
    let params = manifest.with_defaults(params);
    shared.lobby.boards().view(&super::records::BoardQuery {
        board,
        variant,
        params: &params,
        difficulty,
        date,
        now_ms: crate::serve::clock::now_ms(),
        me,
    })
}
