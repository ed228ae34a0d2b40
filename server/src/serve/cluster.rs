//! Several `arena serve` nodes on one PostgreSQL database. Each unfinished room
//! is owned by one node (a lease it renews and a fencing epoch, see
//! [`super::store::postgres`]). This module is the serving side of it:
//!
//! - [`find_room`]: a `join_room` for a room this node does not hold: the room
//!   is on another live node (the client is redirected there), or its node
//!   died (this node takes it over now and replays its log), or it is gone.
//! - [`run`]: the node's heartbeat — renew the leases and report the connected
//!   players, take over rooms whose leases ran out, and let go of rooms another
//!   node took from this one (their players are sent to the new owner).

use super::room::RoomHandle;
use super::store::postgres::Postgres;
use super::Shared;
use std::sync::Arc;

/// Where a room is, seen from this node.
#[derive(Debug)]
pub enum Found {
    /// Here (perhaps just taken over).
    Here(RoomHandle),
    /// On another live node, reached at this URL.
    Elsewhere(String),
    /// Nowhere: no such room, or it is over.
    Missing,
}

/// Rooms taken over per heartbeat at most (a node never stalls on a big takeover).
const TAKEOVERS_PER_BEAT: i64 = 64;

/// Runs blocking database work off the async workers.
async fn blocking<T: Send + 'static>(
    cluster: &Arc<Postgres>,
    work: impl FnOnce(&Postgres) -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let pg = Arc::clone(cluster);
    tokio::task::spawn_blocking(move || work(&pg))
        .await
        .map_err(|e| format!("database task failed: {e}"))?
}

/// Takes room `code` over if nobody holds it (one takeover at a time per node,
/// so two joins cannot both restore it) and opens it here.
async fn take_over(shared: &Shared, cluster: &Arc<Postgres>, code: &str) -> Result<bool, String> {
    let _one_at_a_time = shared.takeovers.lock().await;
    if shared.lobby.get(code).is_some() {
        return Ok(true);
    }
    let room = code.to_string();
    let Some(saved) = blocking(cluster, move |pg| pg.claim(&room)).await? else {
        return Ok(false);
    };
    Ok(shared.lobby.restore(vec![saved]) == 1)
}

/// Where room `code` is (see [`Found`]).
pub async fn find_room(
    shared: &Shared,
    cluster: &Arc<Postgres>,
    code: &str,
) -> Result<Found, String> {
    for _ in 0..2 {
        if let Some(room) = shared.lobby.get(code) {
            return Ok(Found::Here(room));
        }
        let room = code.to_string();
        let Some(location) = blocking(cluster, move |pg| pg.locate(&room)).await? else {
            return Ok(Found::Missing);
        };
        if location.live && location.owner != cluster.node().id {
            return Ok(Found::Elsewhere(location.url));
        }
        if take_over(shared, cluster, code).await? {
            if let Some(room) = shared.lobby.get(code) {
                return Ok(Found::Here(room));
            }
        }
        // Another node took it first: look again.
    }
    Ok(Found::Missing)
}

/// One heartbeat: renew, take over expired rooms, let go of lost ones.
async fn beat(shared: &Shared, cluster: &Arc<Postgres>) -> Result<(), String> {
    let players = shared
        .metrics
        .connections
        .load(std::sync::atomic::Ordering::Relaxed);
    let players = usize::try_from(players).unwrap_or(usize::MAX);
    blocking(cluster, move |pg| pg.renew(players)).await?;
    let expired = blocking(cluster, |pg| pg.expired(TAKEOVERS_PER_BEAT)).await?;
    for code in expired {
        if take_over(shared, cluster, &code).await? {
            tracing::info!(room = %code, "restored a room whose node stopped renewing its lease");
        }
    }
    for code in blocking(cluster, |pg| pg.lost()).await? {
        let url = blocking(cluster, {
            let code = code.clone();
            move |pg| pg.locate(&code)
        })
        .await?
        .map(|l| l.url)
        .unwrap_or_default();
        tracing::warn!(room = %code, to = %url, "another node took the room over; its players go there");
        shared.lobby.hand_over(&code, &url);
    }
    Ok(())
}

/// The node's heartbeat, every third of a lease, until the server closes.
pub async fn run(shared: Arc<Shared>, cluster: Arc<Postgres>) {
    let mut every = tokio::time::interval(shared.config.lease / 3);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut closing = shared.closing.clone();
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = closing.wait_for(|c| *c) => return,
        }
        if let Err(e) = beat(&shared, &cluster).await {
            tracing::warn!(error = %e, "cluster heartbeat failed");
        }
    }
}
