//! What several nodes on one database share besides the store's writes — each
//! node's lease, who owns which room, the nodes' loads and public rooms, their
//! finished games and notifications — as one trait, [`Coordination`]. The
//! PostgreSQL backend implements it; the cluster (`serve::cluster`) speaks
//! only the trait. Its calls are async ([`Pending`]).

use super::{Pending, SavedRoom, StoreError};
use crate::serve::records::GameRecord;
use std::time::Duration;

/// The channel a node notifies when its public rooms change (payload: its id).
pub const LOBBY_CHANNEL: &str = "arena_lobby";

/// The channel a node notifies when it recorded a finished game (payload: its id).
pub const RECORDS_CHANNEL: &str = "arena_records";

/// The channel notified when a player hides from the boards or shows again
/// (payload: the player id).
pub const HIDDEN_CHANNEL: &str = "arena_hidden";

/// The channel a node notifies when it stored a tournament or a tournament
/// race's result (payload: its id).
pub const TOURNAMENTS_CHANNEL: &str = "arena_tournaments";

/// The channel a node notifies when it stored a rated race (payload: its id).
pub const RATINGS_CHANNEL: &str = "arena_ratings";

/// How far a node has read the tournament tables: the newest tournament's
/// and the newest result's row ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TournamentMark {
    /// The newest tournament read.
    pub tournament: i64,
    /// The newest result read.
    pub result: i64,
}

/// What [`Coordination::tournaments_after`] reads.
#[derive(Debug, Default)]
pub struct TournamentRows {
    /// The tournaments stored after the mark, oldest first.
    pub specs: Vec<crate::serve::tournament::TournamentSpec>,
    /// The results stored after the mark, oldest first.
    pub results: Vec<crate::serve::tournament::RaceResult>,
    /// The mark after these rows.
    pub newest: TournamentMark,
}

/// A notification from another node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The channel.
    pub channel: String,
    /// Its payload.
    pub payload: String,
}

/// Who this node is, among the nodes sharing the database.
#[derive(Clone, Debug)]
pub struct NodeIdentity {
    /// The node's id (`--node-id`), unique among the nodes.
    pub id: String,
    /// Where clients reach this node (`--public-url`, `ws://host:port/ws`);
    /// empty until [`Coordination::announce`] when it is the bound address.
    pub url: String,
    /// How long the node's lease lasts without renewal: a dead node's rooms are
    /// taken over after this.
    pub lease: Duration,
}

/// Where an unfinished room lives.
#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    /// The owning node's id.
    pub owner: String,
    /// Where clients reach it (empty if the node never announced itself).
    pub url: String,
    /// Whether its lease is still running (if not, any node may take it over).
    pub live: bool,
    /// How long its lease runs on without another renewal (zero once out).
    pub lease_left: Duration,
}

/// A live node and its load, as the nodes share it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeLoad {
    /// The node's id.
    pub id: String,
    /// Where clients reach it.
    pub url: String,
    /// Its connected players, as it last reported them.
    pub players: i64,
    /// The unfinished rooms it owns.
    pub rooms: i64,
}

/// An unfinished room whose node's lease ran out.
#[derive(Clone, Debug, PartialEq)]
pub struct Expired {
    /// The room's code.
    pub code: String,
    /// Whether the lease ran out more than a lease ago: the nodes that should
    /// have shared it out did not, so any node takes it.
    pub overdue: bool,
}

/// Node leases, room ownership and the nodes' shared state (see the module).
pub trait Coordination: Send + Sync + std::fmt::Debug + 'static {
    /// This node.
    fn node(&self) -> &NodeIdentity;

    /// Sets where clients reach this node (told to the others at the next
    /// [`Coordination::renew`]).
    fn announce(&self, url: &str);

    /// Renews this node's lease (which covers every room it owns) and reports
    /// its connected players (new rooms go to the least-loaded node).
    fn renew(&self, players: usize) -> Pending<'_, ()>;

    /// Ends this node's lease at once (a clean shutdown): the other nodes take
    /// its rooms over without waiting for the lease to run out. A write this
    /// node still makes for one of them is refused once it is taken.
    fn release(&self) -> Pending<'_, ()>;

    /// Where the unfinished room `code` lives, if it exists.
    fn locate<'a>(&'a self, code: &'a str) -> Pending<'a, Option<Location>>;

    /// Every node whose lease runs and that clients can reach (it announced
    /// where: this one too, once its heartbeat has renewed), with its players
    /// and rooms, by id.
    fn live_nodes(&self) -> Pending<'_, Vec<NodeLoad>>;

    /// Takes the room `code` over if its node's lease ran out (or this node already
    /// owns it, as after a restart): its epoch goes up by one, so the previous
    /// owner's writes are refused from now on, and the room is read back,
    /// every acknowledged event included. `None` if it is finished, gone, or
    /// owned by a live node.
    fn claim<'a>(&'a self, code: &'a str) -> Pending<'a, Option<SavedRoom>>;

    /// Hands room `code`, which this node owns, to node `to` (a new epoch; `to`'s
    /// lease covers it from now on); `false` if this node no longer owns it.
    fn give<'a>(&'a self, code: &'a str, to: &'a str) -> Pending<'a, bool>;

    /// Hands the rooms `codes` this node owns to node `to` in one statement (a
    /// new epoch each); returns those it still owned, which `to` has now.
    fn give_all<'a>(&'a self, codes: &'a [String], to: &'a str) -> Pending<'a, Vec<String>>;

    /// The unfinished rooms whose node's lease ran out (it died), up to
    /// `limit`: candidates for [`Coordination::claim`].
    fn expired(&self, limit: i64) -> Pending<'_, Vec<Expired>>;

    /// The rooms this node served that another node has taken over since (its
    /// epoch there is newer than ours, or another node owns it).
    fn lost(&self) -> Pending<'_, Vec<String>>;

    /// Publishes this node's public rooms (JSON) for the other nodes' lobbies
    /// and tells them.
    fn publish_rooms<'a>(&'a self, rooms_json: &'a str) -> Pending<'a, ()>;

    /// The public rooms (JSON) the other live nodes published.
    fn remote_rooms(&self) -> Pending<'_, Vec<String>>;

    /// The newest game record's id (0 if none).
    fn last_record(&self) -> Pending<'_, i64>;

    /// The game records other nodes stored after record `after`, oldest first,
    /// with the newest id read.
    fn records_after(&self, after: i64) -> Pending<'_, (Vec<GameRecord>, i64)>;

    /// The newest rated race's id (0 if none).
    fn last_rated_race(&self) -> Pending<'_, i64>;

    /// The rated races other nodes stored after race `after`, oldest first,
    /// with the newest id read.
    fn rated_races_after(
        &self,
        after: i64,
    ) -> Pending<'_, (Vec<crate::serve::ratings::RatedRace>, i64)>;

    /// The newest tournament's and result's ids (0 if none).
    fn tournament_mark(&self) -> Pending<'_, TournamentMark>;

    /// The tournaments and results stored after `after` (any node's: adding
    /// one twice, or counting a result twice, changes nothing).
    fn tournaments_after(&self, after: TournamentMark) -> Pending<'_, TournamentRows>;

    /// Whether `player` is hidden from public boards now.
    fn is_hidden<'a>(&'a self, player: &'a str) -> Pending<'a, bool>;

    /// Listens on a connection of its own (a task on the current runtime) to the channels the
    /// nodes notify, and hands every notification to `tell`; reconnects after
    /// a dropped connection (telling a lobby and a records notice on each
    /// connection, so the caller reads again what it may have missed).
    fn listen(&self, tell: tokio::sync::mpsc::UnboundedSender<Notice>) -> Result<(), StoreError>;
}
