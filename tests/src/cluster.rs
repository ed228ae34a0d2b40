//! Helpers for tests and benchmarks of several `arena serve` nodes on one
//! PostgreSQL database: start a node, and get a player into a room the way the
//! web client does (follow redirects; start over at the entry node when the
//! room's node cannot be reached).

use crate::process::spawn_arena_serve_with_lines;
use crate::ws::Client;
use protocol::wire::{ClientMessage, ErrorCode, RoomView, ServerMessage};
use std::time::{Duration, Instant};
use tokio::process::Child;

/// How long a client waits before asking again while a room is between nodes
/// (its node died and its lease has not run out yet).
pub const RETRY: Duration = Duration::from_millis(200);

/// A running node.
pub struct Node {
    /// The `arena serve` process (killed on drop).
    pub child: Child,
    /// Its `host:port`.
    pub addr: String,
    /// Its metrics listener's `host:port`.
    pub metrics: String,
}

impl Node {
    /// The rooms open on this node (`arena_rooms` from its metrics).
    pub async fn rooms(&self) -> u64 {
        let addr = self.metrics.parse().expect("a metrics address");
        let (_, text) = crate::serve::http_get(addr, "/metrics").await;
        text.lines()
            .find_map(|l| l.strip_prefix("arena_rooms "))
            .and_then(|n| n.trim().parse().ok())
            .expect("arena_rooms in the metrics")
    }
}

/// Starts `arena serve` as node `id` on `database`, with room leases of
/// `lease_ms`.
pub async fn start_node(database: &str, id: &str, lease_ms: &str) -> Node {
    start_node_with(database, id, lease_ms, &[]).await
}

/// [`start_node`] with more `arena serve` arguments.
pub async fn start_node_with(database: &str, id: &str, lease_ms: &str, extra: &[&str]) -> Node {
    let data = std::env::temp_dir().join(format!("arena-cluster-{}-{id}", std::process::id()));
    let mut args = vec![
        "--database",
        database,
        "--node-id",
        id,
        "--lease-ms",
        lease_ms,
        "--metrics-bind",
        "127.0.0.1:0",
    ];
    args.extend_from_slice(extra);
    let (child, started) = spawn_arena_serve_with_lines(&data, &args).await;
    Node {
        child,
        addr: started.game,
        metrics: started.metrics.expect("the metrics address"),
    }
}

/// Connects to a full WebSocket URL (from a `redirect`) and resumes `token`;
/// `None` if the node does not answer in time (dead or frozen).
pub async fn resume_at(url: &str, token: &str) -> Option<Client> {
    let connect = tokio_tungstenite::connect_async(url.to_string());
    let (ws, _) = tokio::time::timeout(Duration::from_secs(1), connect)
        .await
        .ok()?
        .ok()?;
    let mut client = Client::adopt(ws);
    let hello = client.say_hello("resumed", Some(token.to_string()));
    tokio::time::timeout(Duration::from_secs(2), hello)
        .await
        .ok()?;
    Some(client)
}

/// What a player does to get into room `code` starting from node `entry`:
/// join; follow a redirect; if the room's node cannot be reached, start over
/// at the entry (as the web client does). Returns the client and the first
/// snapshot.
pub async fn join_via(entry: &str, token: &str, code: &str, spectator: bool) -> (Client, RoomView) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut url = format!("ws://{entry}/ws");
    loop {
        assert!(Instant::now() < deadline, "room {code} never came back");
        let Some(mut client) = resume_at(&url, token).await else {
            url = format!("ws://{entry}/ws");
            tokio::time::sleep(RETRY).await;
            continue;
        };
        client
            .send(&ClientMessage::JoinRoom {
                code: code.to_string(),
                spectator,
            })
            .await;
        let answer = client
            .until(|m| match m {
                ServerMessage::Room { room } => Some(Ok(*room)),
                ServerMessage::Redirect { url, .. } => Some(Err(Some(url))),
                ServerMessage::Error {
                    code: ErrorCode::RateLimited | ErrorCode::Unavailable,
                    ..
                } => Some(Err(None)),
                ServerMessage::Error { code, message, .. } => {
                    panic!("joining {code:?}: {message}")
                }
                _ => None,
            })
            .await;
        match answer {
            Ok(room) => return (client, room),
            Err(Some(next)) => url = next,
            Err(None) => tokio::time::sleep(RETRY).await,
        }
    }
}
