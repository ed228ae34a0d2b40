//! `arena serve`: one port for HTTP (`/healthz`) and the WebSocket endpoint
//! (`/ws`) where players meet in rooms.
//!
//! - [`session`]: anonymous identities and their resume tokens (stored hashed).
//! - [`lobby`]: the room registry, room creation and the public list.
//! - [`room`]: one task (actor) per room that owns its state.
//! - [`connection`]: one task per WebSocket: decode, validate, route, send.
//! - [`limit`]: the per-connection message rate limit.
//! - [`clock`]: the server clock clients sync to.
//!
//! Start a server with [`run`]; tests bind `127.0.0.1:0` and call it directly.

pub mod clock;
pub mod connection;
pub mod limit;
pub mod lobby;
pub mod room;
pub mod session;

use crate::plugins::PluginHost;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Time between the host's start and the first accepted move.
    pub countdown: Duration,
    /// Largest WebSocket message accepted from a client.
    pub max_message_bytes: usize,
    /// Frames queued for one client before it is disconnected as too slow.
    pub outbox_frames: usize,
    /// How long a puzzle may take to generate.
    pub generate_deadline: Duration,
    /// How long a room whose players all disconnected waits for one to return.
    pub reconnect_grace: Duration,
    /// Messages a client may send in a burst…
    pub burst: u32,
    /// …and per second after it. Beyond that: `rate_limited` errors.
    pub per_second: u32,
    /// Rate-limited messages after which the connection is closed (1008).
    pub abuse_limit: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            countdown: Duration::from_secs(3),
            max_message_bytes: 16 << 10,
            outbox_frames: 256,
            generate_deadline: Duration::from_secs(20),
            reconnect_grace: Duration::from_secs(120),
            burst: 40,
            per_second: 20,
            abuse_limit: 100,
        }
    }
}

/// What every connection shares.
#[derive(Debug)]
pub struct Shared {
    /// Settings.
    pub config: Config,
    /// Identities.
    pub sessions: session::Sessions,
    /// Rooms.
    pub lobby: lobby::Lobby,
}

/// Serves on `listener` until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    plugins: Arc<PluginHost>,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let shared = Arc::new(Shared {
        sessions: session::Sessions::default(),
        lobby: lobby::Lobby::new(plugins, config.clone()),
        config,
    });
    let app = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/ws", get(upgrade))
        .with_state(shared);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

async fn upgrade(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> impl IntoResponse {
    let limit = shared.config.max_message_bytes;
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| connection::serve(socket, shared))
}
