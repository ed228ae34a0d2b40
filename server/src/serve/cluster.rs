//! Several `arena serve` nodes on one PostgreSQL database. Each unfinished room
//! is owned by one node (a lease it renews and a fencing epoch, see
//! [`super::store::postgres`]). This module is the serving side of it:
//!
//! - [`Cluster::find_room`]: a `join_room` for a room this node does not hold:
//!   the room is on another live node (the client is redirected there), or its
//!   node died (this node takes it over now and replays its log), or it is gone.
//! - [`Cluster::place`]: a new room goes to the least-loaded live node.
//! - [`run`]: the node's heartbeat — renew the leases and report the connected
//!   players, publish the public rooms, take over rooms whose leases ran out,
//!   let go of rooms another node took from this one (their players are sent
//!   to the new owner) — and the other nodes' notifications (LISTEN/NOTIFY):
//!   their room lists, their finished games for the leaderboards, players
//!   hiding from the boards.

use super::room::RoomHandle;
use super::store::postgres::{Notice, Postgres, HIDDEN_CHANNEL, LOBBY_CHANNEL, RECORDS_CHANNEL};
use super::Shared;
use protocol::wire::RoomSummary;
use std::sync::atomic::{AtomicI64, Ordering};
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

/// This node's part in a cluster of nodes sharing one PostgreSQL database.
#[derive(Debug)]
pub struct Cluster {
    pg: Arc<Postgres>,
    /// Held while this node takes a room over (one at a time, so two joins
    /// cannot both restore it).
    takeovers: tokio::sync::Mutex<()>,
    /// The newest game record this node has on its boards.
    last_record: AtomicI64,
}

impl Cluster {
    /// The cluster over `pg`, whose records up to `last_record` are on the
    /// boards already.
    pub fn new(pg: Arc<Postgres>, last_record: i64) -> Cluster {
        Cluster {
            pg,
            takeovers: tokio::sync::Mutex::new(()),
            last_record: AtomicI64::new(last_record),
        }
    }

    /// The database.
    pub fn database(&self) -> &Arc<Postgres> {
        &self.pg
    }

    /// Runs blocking database work off the async workers.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Postgres) -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        let pg = Arc::clone(&self.pg);
        tokio::task::spawn_blocking(move || work(&pg))
            .await
            .map_err(|e| format!("database task failed: {e}"))?
    }

    /// Gives this node's lease up (a clean stop): the other nodes take its
    /// rooms over now, not a lease later.
    pub async fn release(&self) {
        if let Err(e) = self.blocking(|pg| pg.release()).await {
            tracing::warn!(error = %e, "cannot give up this node's lease");
        }
    }

    /// Takes room `code` over if nobody holds it, and opens it here.
    async fn take_over(&self, shared: &Shared, code: &str) -> Result<bool, String> {
        let _one_at_a_time = self.takeovers.lock().await;
        if shared.lobby.get(code).is_some() {
            return Ok(true);
        }
        let room = code.to_string();
        let Some(saved) = self.blocking(move |pg| pg.claim(&room)).await? else {
            return Ok(false);
        };
        Ok(shared.lobby.restore(vec![saved]) == 1)
    }

    /// Where room `code` is (see [`Found`]).
    pub async fn find_room(&self, shared: &Shared, code: &str) -> Result<Found, String> {
        for _ in 0..2 {
            if let Some(room) = shared.lobby.get(code) {
                return Ok(Found::Here(room));
            }
            let room = code.to_string();
            let Some(location) = self.blocking(move |pg| pg.locate(&room)).await? else {
                return Ok(Found::Missing);
            };
            if location.live && location.owner != self.pg.node().id {
                return Ok(Found::Elsewhere(location.url));
            }
            if self.take_over(shared, code).await? {
                if let Some(room) = shared.lobby.get(code) {
                    return Ok(Found::Here(room));
                }
            }
            // Another node took it first: look again.
        }
        Ok(Found::Missing)
    }

    /// A room just created here moves to the least-loaded live node when this
    /// one carries clearly more players (see [`crowded`]): it is handed to that
    /// node in the database and its creator is redirected there. Returns
    /// whether it moved.
    pub async fn place(&self, shared: &Shared, code: &str) -> bool {
        let mine = shared.metrics.connections.load(Ordering::Relaxed);
        if !crowded(mine, 0) {
            // Not crowded even against an empty node: no need to ask the database.
            return false;
        }
        let least = match self.blocking(|pg| pg.least_loaded()).await {
            Ok(Some(least)) => least,
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!(error = %e, "cannot find the least-loaded node; the room stays");
                return false;
            }
        };
        let (node, url, theirs) = least;
        if !crowded(mine, u64::try_from(theirs).unwrap_or(0)) {
            return false;
        }
        let (room, to) = (code.to_string(), node.clone());
        match self.blocking(move |pg| pg.give(&room, &to)).await {
            Ok(true) => {
                tracing::info!(room = %code, to = %node, "new room placed on a less loaded node");
                shared.lobby.hand_over(code, &url);
                true
            }
            Ok(false) => false,
            Err(e) => {
                tracing::warn!(room = %code, error = %e, "cannot place the room elsewhere; it stays");
                false
            }
        }
    }

    /// One heartbeat: renew, publish, take over expired rooms, let go of lost ones.
    async fn beat(&self, shared: &Shared, published: &mut String) -> Result<(), String> {
        let players = shared.metrics.connections.load(Ordering::Relaxed);
        let players = usize::try_from(players).unwrap_or(usize::MAX);
        self.blocking(move |pg| pg.renew(players)).await?;
        let rooms =
            serde_json::to_string(&shared.lobby.local_public_rooms()).map_err(|e| e.to_string())?;
        if rooms != *published {
            let json = rooms.clone();
            self.blocking(move |pg| pg.publish_rooms(&json)).await?;
            *published = rooms;
        }
        for code in self.blocking(|pg| pg.expired(TAKEOVERS_PER_BEAT)).await? {
            if self.take_over(shared, &code).await? {
                tracing::info!(room = %code, "restored a room whose node stopped renewing its lease");
            }
        }
        for code in self.blocking(|pg| pg.lost()).await? {
            let room = code.clone();
            let url = self
                .blocking(move |pg| pg.locate(&room))
                .await?
                .map(|l| l.url)
                .unwrap_or_default();
            tracing::warn!(room = %code, to = %url, "another node took the room over; its players go there");
            shared.lobby.hand_over(&code, &url);
        }
        Ok(())
    }

    /// Applies another node's notification.
    async fn heard(&self, shared: &Shared, notice: Notice) -> Result<(), String> {
        match notice.channel.as_str() {
            LOBBY_CHANNEL => {
                let lists = self.blocking(|pg| pg.remote_rooms()).await?;
                let rooms: Vec<RoomSummary> = lists
                    .iter()
                    .filter_map(|json| serde_json::from_str::<Vec<RoomSummary>>(json).ok())
                    .flatten()
                    .collect();
                shared.lobby.set_remote_rooms(rooms);
            }
            RECORDS_CHANNEL if notice.payload != self.pg.node().id => {
                let after = self.last_record.load(Ordering::Relaxed);
                let (records, newest) = self.blocking(move |pg| pg.records_after(after)).await?;
                for record in &records {
                    shared.lobby.boards().add(record);
                }
                self.last_record.fetch_max(newest, Ordering::Relaxed);
            }
            HIDDEN_CHANNEL => {
                let player = notice.payload.clone();
                let hidden = self.blocking(move |pg| pg.is_hidden(&player)).await?;
                shared.lobby.boards().set_hidden(&notice.payload, hidden);
            }
            _ => {}
        }
        Ok(())
    }
}

/// Whether a node with `mine` connected players should hand a new room to a
/// node with `theirs`: only for a clear difference (a quarter more, and at
/// least 8 players), so rooms do not bounce between nodes of nearly equal load.
pub fn crowded(mine: u64, theirs: u64) -> bool {
    mine >= theirs + 8 && mine * 4 >= theirs * 5
}

/// The node's heartbeat, every third of a lease, and the other nodes'
/// notifications, until the server closes.
pub async fn run(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let (tell, mut notices) = tokio::sync::mpsc::unbounded_channel();
    if let Err(e) = cluster.pg.listen(tell) {
        tracing::error!(error = %e, "no notifications from the other nodes");
    }
    let mut every = tokio::time::interval(shared.config.lease / 3);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut closing = shared.closing.clone();
    let mut published = String::new();
    loop {
        let result = tokio::select! {
            _ = every.tick() => cluster.beat(&shared, &mut published).await,
            Some(notice) = notices.recv() => cluster.heard(&shared, notice).await,
            _ = async { drop(closing.wait_for(|c| *c).await) } => return,
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "cluster heartbeat failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::crowded;

    #[test]
    fn rooms_move_only_for_a_clear_difference() {
        assert!(!crowded(0, 0));
        assert!(!crowded(7, 0), "a handful of players never moves a room");
        assert!(crowded(8, 0));
        assert!(!crowded(100, 90), "nearly equal loads keep their rooms");
        assert!(crowded(100, 70));
    }
}
