//! Several `arena serve` nodes on one PostgreSQL database. Each unfinished room
//! is owned by one node (a lease it renews and a fencing epoch, see
//! [`super::store::postgres`]). This module is the serving side of it:
//!
//! - [`Cluster::find_room`]: a `join_room` for a room this node does not hold:
//!   the room is on another live node (the client is redirected there), or its
//!   node died (this node takes it over now and replays its log), or it is gone.
//!   A node whose lease is running out (it missed a renewal) is not redirected
//!   to: the join waits for the lease to end and takes the room over.
//! - [`Cluster::place`]: a new room goes to a clearly less loaded live node
//!   (fewer rooms — a node that just joined has none — or fewer players).
//! - [`run`]: the node's heartbeat — renew the leases and report the connected
//!   players, publish the public rooms, take over this node's fair share of the
//!   rooms whose leases ran out (so a dead node's rooms spread over the
//!   survivors), let go of rooms another node took from this one (their players
//!   are sent to the new owner) — and the other nodes' notifications
//!   (LISTEN/NOTIFY): their room lists, their finished games for the
//!   leaderboards, players hiding from the boards.
//! - [`Cluster::drain`]: a clean stop hands every room to the other nodes, its
//!   players redirected, instead of leaving them for a lease.

use super::room::RoomHandle;
use super::store::coordination::{
    Coordination, Expired, NodeLoad, Notice, TournamentMark, HIDDEN_CHANNEL, LOBBY_CHANNEL,
    RATINGS_CHANNEL, RECORDS_CHANNEL, TOURNAMENTS_CHANNEL,
};
use super::store::StoreError;
use super::Shared;
use protocol::wire::RoomSummary;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

/// The newest rows this node read at start-up: what notifications add to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    /// The newest game record's id.
    pub record: i64,
    /// How far the tournament tables were read.
    pub tournaments: TournamentMark,
    /// The newest rated race's id.
    pub rated_race: i64,
}

impl Seen {
    /// Reads them.
    pub async fn read(db: &dyn Coordination) -> Result<Seen, StoreError> {
        Ok(Seen {
            record: db.last_record().await?,
            tournaments: db.tournament_mark().await?,
            rated_race: db.last_rated_race().await?,
        })
    }
}

/// This node's part in a cluster of nodes sharing one PostgreSQL database.
#[derive(Debug)]
pub struct Cluster {
    db: Arc<dyn Coordination>,
    /// Held while this node takes a room over (one at a time, so two joins
    /// cannot both restore it).
    takeovers: tokio::sync::Mutex<()>,
    /// The newest game record this node has on its boards.
    last_record: AtomicI64,
    /// How far this node has read the tournament tables.
    tournaments_read: Mutex<TournamentMark>,
    /// The newest rated race this node has folded into its ratings.
    last_rated_race: AtomicI64,
    /// The live nodes and their loads, as of the last heartbeat (rooms placed
    /// since are counted in).
    nodes: Mutex<Vec<NodeLoad>>,
}

impl Cluster {
    /// The cluster over `db`, whose records, tournament results and rated
    /// races up to `seen`'s ids are counted already.
    pub fn new(db: Arc<dyn Coordination>, seen: Seen) -> Cluster {
        Cluster {
            db,
            takeovers: tokio::sync::Mutex::new(()),
            last_record: AtomicI64::new(seen.record),
            tournaments_read: Mutex::new(seen.tournaments),
            last_rated_race: AtomicI64::new(seen.rated_race),
            nodes: Mutex::new(Vec::new()),
        }
    }

    /// Tells the other nodes where clients reach this node — `public_url`, or
    /// else the address it listens on — and renews its lease with it, so that
    /// from now on rooms may be handed to it.
    pub async fn announce(&self, public_url: Option<&str>, listening: std::net::SocketAddr) {
        let url = public_url.map_or_else(|| format!("ws://{listening}/ws"), str::to_string);
        self.db.announce(&url);
        if let Err(e) = self.db.renew(0).await {
            tracing::warn!(error = %e, "cannot announce this node yet; the heartbeat will");
        }
    }

    /// Gives this node's lease up (a clean stop): the other nodes take its
    /// rooms over now, not a lease later.
    pub async fn release(&self) {
        if let Err(e) = self.db.release().await {
            tracing::warn!(error = %e, "cannot give up this node's lease");
        }
    }

    /// Takes room `code` over if nobody holds it, and opens it here.
    async fn take_over(&self, shared: &Shared, code: &str) -> Result<bool, StoreError> {
        let _one_at_a_time = self.takeovers.lock().await;
        if shared.lobby.get(code).is_some() {
            return Ok(true);
        }
        let Some(saved) = self.db.claim(code).await? else {
            return Ok(false);
        };
        Ok(shared.lobby.restore(vec![saved]) == 1)
    }

    /// Where room `code` is (see [`Found`]).
    pub async fn find_room(&self, shared: &Shared, code: &str) -> Result<Found, StoreError> {
        for _ in 0..3 {
            if let Some(room) = shared.lobby.get(code) {
                return Ok(Found::Here(room));
            }
            let Some(location) = self.db.locate(code).await? else {
                return Ok(Found::Missing);
            };
            if location.live && location.owner != self.db.node().id {
                if !expiring(location.lease_left, self.db.node().lease) {
                    return Ok(Found::Elsewhere(location.url));
                }
                // Its node missed a renewal: probably dead. Sending the player
                // there would cost them a reconnection and a join; wait for the
                // lease to end instead, then take the room (or find it renewed).
                tokio::time::sleep(location.lease_left + LEASE_SLACK).await;
                continue;
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

    /// A room just created here moves to a clearly less loaded live node (see
    /// [`less_loaded`]): it is handed to that node in the database and its
    /// creator is redirected there. The other nodes' loads are the last
    /// heartbeat's, with the rooms placed on them since counted in; this node's
    /// are counted now. Returns whether it moved.
    pub async fn place(&self, shared: &Shared, code: &str) -> bool {
        let me = self.db.node().id.clone();
        let players =
            i64::try_from(shared.metrics.connections.load(Ordering::Relaxed)).unwrap_or(i64::MAX);
        let target = {
            let nodes = self.nodes.lock().unwrap_or_else(|p| p.into_inner());
            let Some(mine) = nodes.iter().find(|n| n.id == me) else {
                return false;
            };
            // This node's own load as it is now, the new room included.
            let rooms = i64::try_from(shared.lobby.open_rooms()).unwrap_or(i64::MAX);
            let mine = NodeLoad {
                players,
                rooms,
                ..mine.clone()
            };
            less_loaded(&mine, &nodes).cloned()
        };
        let Some(target) = target else {
            return false;
        };
        match self.db.give(code, &target.id).await {
            Ok(true) => {
                tracing::info!(room = %code, to = %target.id, "new room placed on a less loaded node");
                let mut nodes = self.nodes.lock().unwrap_or_else(|p| p.into_inner());
                for n in nodes.iter_mut().filter(|n| n.id == target.id) {
                    n.rooms += 1;
                }
                drop(nodes);
                shared.lobby.hand_over(code, &target.url);
                true
            }
            Ok(false) => false,
            Err(e) => {
                tracing::warn!(room = %code, error = %e, "cannot place the room elsewhere; it stays");
                false
            }
        }
    }

    /// A clean stop: every room this node serves goes to the other live nodes,
    /// spread by their rooms, in one statement per node; each room's players
    /// are redirected to its new node (which reads it back, every acknowledged
    /// event included, when they arrive). Waits until the rooms here have
    /// closed, at most [`DRAIN_WAIT`]. Rooms nobody could take are left for a
    /// lease (the lease is given up when the server stops).
    pub async fn drain(&self, shared: &Shared) {
        let me = self.db.node().id.clone();
        let others: Vec<NodeLoad> = match self.db.live_nodes().await {
            Ok(nodes) => nodes.into_iter().filter(|n| n.id != me).collect(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot find the other nodes; rooms wait for the lease");
                return;
            }
        };
        let rooms = shared.lobby.handles();
        if others.is_empty() || rooms.is_empty() {
            return;
        }
        let codes = rooms.iter().map(|r| r.code.clone()).collect();
        let began = std::time::Instant::now();
        let mut handed = std::collections::HashSet::new();
        for (node, rooms) in spread(codes, &others) {
            match self.db.give_all(&rooms, &node.id).await {
                Ok(given) => {
                    for code in given {
                        shared.lobby.hand_over(&code, &node.url);
                        handed.insert(code);
                    }
                }
                Err(e) => {
                    tracing::warn!(to = %node.id, error = %e, "cannot hand rooms over; they wait for the lease");
                }
            }
        }
        let deadline = tokio::time::Instant::now() + DRAIN_WAIT;
        let open = || {
            rooms
                .iter()
                .any(|r| handed.contains(&r.code) && !r.is_closed())
        };
        while open() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tracing::info!(
            rooms = handed.len(),
            ms = began.elapsed().as_millis() as u64,
            "handed this node's rooms to the other nodes"
        );
    }

    /// One heartbeat: renew, publish, take over expired rooms, let go of lost ones.
    async fn beat(&self, shared: &Shared, published: &mut String) -> Result<(), StoreError> {
        let players = shared.metrics.connections.load(Ordering::Relaxed);
        let players = usize::try_from(players).unwrap_or(usize::MAX);
        self.db.renew(players).await?;
        let rooms = serde_json::to_string(&shared.lobby.local_public_rooms())
            .map_err(|e| StoreError::Encode(e.to_string()))?;
        if rooms != *published {
            self.db.publish_rooms(&rooms).await?;
            *published = rooms;
        }
        let nodes = self.db.live_nodes().await?;
        *self.nodes.lock().unwrap_or_else(|p| p.into_inner()) = nodes.clone();
        let expired = self.db.expired(TAKEOVERS_PER_BEAT).await?;
        for code in my_share(&expired, &nodes, &self.db.node().id) {
            if self.take_over(shared, &code).await? {
                tracing::info!(room = %code, "restored a room whose node stopped renewing its lease");
            }
        }
        for code in self.db.lost().await? {
            let found = self.db.locate(&code).await?;
            let url = found.map(|l| l.url).unwrap_or_default();
            tracing::warn!(room = %code, to = %url, "another node took the room over; its players go there");
            shared.lobby.hand_over(&code, &url);
        }
        Ok(())
    }

    /// Applies another node's notification.
    async fn heard(&self, shared: &Shared, notice: Notice) -> Result<(), StoreError> {
        match notice.channel.as_str() {
            LOBBY_CHANNEL => {
                let lists = self.db.remote_rooms().await?;
                let rooms: Vec<RoomSummary> = lists
                    .iter()
                    .filter_map(|json| serde_json::from_str::<Vec<RoomSummary>>(json).ok())
                    .flatten()
                    .collect();
                shared.lobby.set_remote_rooms(rooms);
            }
            RECORDS_CHANNEL if notice.payload != self.db.node().id => {
                let after = self.last_record.load(Ordering::Relaxed);
                let (records, newest) = self.db.records_after(after).await?;
                for record in &records {
                    shared.lobby.boards().add(record);
                }
                self.last_record.fetch_max(newest, Ordering::Relaxed);
            }
            TOURNAMENTS_CHANNEL => {
                // Every node's, this one's too: a result counts once per room.
                let after = *self
                    .tournaments_read
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                let rows = self.db.tournaments_after(after).await?;
                shared.lobby.tournaments().load(rows.specs, rows.results);
                let mut read = self
                    .tournaments_read
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                read.tournament = read.tournament.max(rows.newest.tournament);
                read.result = read.result.max(rows.newest.result);
            }
            RATINGS_CHANNEL if notice.payload != self.db.node().id => {
                let after = self.last_rated_race.load(Ordering::Relaxed);
                let (races, newest) = self.db.rated_races_after(after).await?;
                for race in &races {
                    shared.lobby.ratings().fold(race);
                }
                self.last_rated_race.fetch_max(newest, Ordering::Relaxed);
            }
            HIDDEN_CHANNEL => {
                let hidden = self.db.is_hidden(&notice.payload).await?;
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

/// The node a new room on `mine` should go to, if any (`mine.rooms` counts the
/// new room): among the other nodes, one with at least two rooms fewer (a node
/// that just joined gets new rooms first) or clearly fewer players (see
/// [`crowded`]); the one with the fewest rooms, then players, then by id.
pub fn less_loaded<'a>(mine: &NodeLoad, nodes: &'a [NodeLoad]) -> Option<&'a NodeLoad> {
    let count = |n: i64| u64::try_from(n).unwrap_or(0);
    nodes
        .iter()
        .filter(|n| n.id != mine.id)
        .filter(|n| mine.rooms >= n.rooms + 2 || crowded(count(mine.players), count(n.players)))
        .min_by(|a, b| (a.rooms, a.players, &a.id).cmp(&(b.rooms, b.players, &b.id)))
}

/// The rooms whose leases ran out that node `me` takes over now: as many as
/// bring it up to an even share of every room the live `nodes` hold and the
/// expired ones (rounded up), so a dead node's rooms spread over the
/// survivors; and its slice of the overdue ones (their node's lease ran out
/// more than a lease ago: the nodes that should have shared them did not).
/// Each overdue room is in exactly one live node's slice, by the node's place
/// in the list, so survivors whose heartbeats came late still split them
/// evenly (the first to look no longer takes them all); a slice of a node
/// that stops renewing falls to the others once its own lease runs out.
pub fn my_share(expired: &[Expired], nodes: &[NodeLoad], me: &str) -> Vec<String> {
    let Some(mine) = nodes.iter().find(|n| n.id == me) else {
        return Vec::new();
    };
    let live = i64::try_from(nodes.len()).unwrap_or(i64::MAX).max(1);
    let waiting = i64::try_from(expired.len()).unwrap_or(i64::MAX);
    let total: i64 = nodes.iter().map(|n| n.rooms).sum::<i64>() + waiting;
    let even = (total + live - 1) / live;
    let share = usize::try_from(even - mine.rooms).unwrap_or(0);
    let (overdue, fresh): (Vec<&Expired>, Vec<&Expired>) = expired.iter().partition(|e| e.overdue);
    let rank = nodes.iter().position(|n| n.id == me).unwrap_or(0);
    let slice = |len: usize| rank * len / nodes.len()..(rank + 1) * len / nodes.len();
    let overdue = &overdue[slice(overdue.len())];
    // Nodes start at different places in the list, so they rarely race for the same room.
    let start = slice(fresh.len()).start;
    let fresh = fresh
        .iter()
        .cycle()
        .skip(start)
        .take(fresh.len().min(share.saturating_sub(overdue.len())));
    overdue
        .iter()
        .chain(fresh)
        .map(|e| e.code.clone())
        .collect()
}

/// Spreads `rooms` over `nodes` (none empty), each room to the node with the
/// fewest rooms so far; returns each node with the rooms it gets.
pub fn spread(rooms: Vec<String>, nodes: &[NodeLoad]) -> Vec<(NodeLoad, Vec<String>)> {
    let mut shares: Vec<(NodeLoad, Vec<String>)> =
        nodes.iter().map(|n| (n.clone(), Vec::new())).collect();
    for room in rooms {
        let least = shares
            .iter_mut()
            .min_by_key(|(n, got)| n.rooms + i64::try_from(got.len()).unwrap_or(i64::MAX));
        if let Some((_, got)) = least {
            got.push(room);
        }
    }
    shares.retain(|(_, got)| !got.is_empty());
    shares
}

/// Whether a lease with `left` of `lease` to run is running out: a node
/// renews every third of a lease, so a live one has two thirds or more left;
/// under half, it missed a renewal.
pub fn expiring(left: Duration, lease: Duration) -> bool {
    left < lease / 2
}

/// Added to a lease's remaining time before looking again, so the lease has
/// surely run out in the database's clock too.
const LEASE_SLACK: Duration = Duration::from_millis(50);

/// How long a clean stop waits for its handed-over rooms to close.
pub const DRAIN_WAIT: Duration = Duration::from_secs(1);

/// The node's heartbeat, every third of a lease, and the other nodes'
/// notifications, until the server closes.
pub async fn run(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let (tell, mut notices) = tokio::sync::mpsc::unbounded_channel();
    if let Err(e) = cluster.db.listen(tell) {
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
    use super::*;

    fn node(id: &str, players: i64, rooms: i64) -> NodeLoad {
        NodeLoad {
            id: id.into(),
            url: format!("ws://{id}/ws"),
            players,
            rooms,
        }
    }

    fn expired(codes: &[&str], overdue: bool) -> Vec<Expired> {
        codes
            .iter()
            .map(|c| Expired {
                code: c.to_string(),
                overdue,
            })
            .collect()
    }

    #[test]
    fn rooms_move_only_for_a_clear_difference() {
        assert!(!crowded(0, 0));
        assert!(!crowded(7, 0), "a handful of players never moves a room");
        assert!(crowded(8, 0));
        assert!(!crowded(100, 90), "nearly equal loads keep their rooms");
        assert!(crowded(100, 70));
    }

    #[test]
    fn a_node_that_joins_gets_new_rooms_first() {
        let nodes = [node("a", 6, 3), node("b", 6, 3), node("c", 0, 0)];
        let to = less_loaded(&nodes[0], &nodes).map(|n| n.id.as_str());
        assert_eq!(to, Some("c"));
        let even = [node("a", 6, 3), node("b", 6, 2)];
        assert_eq!(less_loaded(&even[0], &even), None, "one room apart stays");
        let busy = [node("a", 40, 2), node("b", 4, 2)];
        let to = less_loaded(&busy[0], &busy).map(|n| n.id.as_str());
        assert_eq!(to, Some("b"), "clearly fewer players");
    }

    #[test]
    fn a_dead_nodes_rooms_spread_over_the_survivors() {
        // 2/2/2 and the third node died: each survivor takes one.
        let nodes = [node("a", 0, 2), node("b", 0, 2)];
        let dead = expired(&["r1", "r2"], false);
        let a = my_share(&dead, &nodes, "a");
        let b = my_share(&dead, &nodes, "b");
        assert_eq!((a.len(), b.len()), (1, 1));
        assert_ne!(a, b, "they start at different rooms");
        // An uneven start evens out: the emptier node takes more.
        let nodes = [node("a", 0, 4), node("b", 0, 0)];
        let dead = expired(&["r1", "r2", "r3", "r4"], false);
        assert_eq!(my_share(&dead, &nodes, "a").len(), 0);
        assert_eq!(my_share(&dead, &nodes, "b").len(), 4);
        // Overdue rooms (their survivors came late) are split too, each to
        // exactly one live node, whichever looks first; a node not yet live
        // takes none.
        let nodes = [node("a", 0, 1), node("b", 0, 0)];
        let late = expired(&["r6", "r7", "r8", "r9"], true);
        let (a, b) = (my_share(&late, &nodes, "a"), my_share(&late, &nodes, "b"));
        assert_eq!((a.len(), b.len()), (2, 2));
        assert!(a.iter().all(|r| !b.contains(r)));
        let lone = expired(&["r9"], true);
        let takers = ["a", "b"].map(|n| my_share(&lone, &nodes, n).len());
        assert_eq!(takers.iter().sum::<usize>(), 1, "one node takes it");
        assert!(my_share(&dead, &nodes, "z").is_empty());
    }

    #[test]
    fn a_drain_spreads_rooms_by_load() {
        let others = [node("a", 0, 3), node("b", 0, 0)];
        let rooms: Vec<String> = (0..5).map(|i| format!("r{i}")).collect();
        let shares = spread(rooms, &others);
        let count = |id: &str| {
            shares
                .iter()
                .find(|(n, _)| n.id == id)
                .map_or(0, |(_, r)| r.len())
        };
        assert_eq!((count("a"), count("b")), (1, 4));
    }

    #[test]
    fn a_lease_under_half_left_is_running_out() {
        let lease = Duration::from_secs(4);
        assert!(!expiring(Duration::from_millis(2700), lease));
        assert!(expiring(Duration::from_millis(1900), lease));
    }
}
