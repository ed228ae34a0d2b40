//! `arena serve`: one port for HTTP (the web client's files, `/healthz`) and the
//! WebSocket endpoint (`/ws`) where players meet in rooms; `/metrics` only on a
//! separate listener, if one is given. On shutdown it stops accepting, tells every
//! connected client (close 1001) and waits briefly for them to go.
//!
//! - [`identity`]: who a player is.
//! - [`session`]: anonymous identities and their resume tokens (stored hashed).
//! - [`lobby`]: the room registry, room creation and the public list.
//! - [`room`]: one task (actor) per room that owns its state.
//! - [`edge`]: every TCP connection until it is a WebSocket: request deadlines,
//!   silent sockets per address, the connection ceiling.
//! - [`connection`]: one task per WebSocket: decode, validate, route, send.
//! - [`frame`]: the one accepted form of a client frame, and decoding it.
//! - [`limit`]: rate limits (per connection; joins per identity and per address).
//! - [`proxy`]: the client's address, behind trusted reverse proxies.
//! - [`metrics`]: counters served at `/metrics`.
//! - [`store`]: the database every acknowledged change is written to first
//!   (an SQLite file, or PostgreSQL shared by several nodes).
//! - [`cluster`]: several nodes on PostgreSQL: where a room lives, takeovers.
//! - [`event`]: the typed events a room stores (schema version 2).
//! - [`kind`]: a kind of puzzle (variant, parameters, difficulty).
//! - [`pool`]: pre-generated puzzles, topped up in the background.
//! - [`plugin_health`]: the pool's back-off from failing variants.
//! - [`readiness`]: `/readyz`, each variant's state.
//! - [`records`]: finished games, verified by replay, and the leaderboards.
//! - [`generator`]: asking a plugin for a puzzle, counted in the metrics.
//! - [`games`]: puzzles for games — the pool first, else the generator.
//! - [`clock`]: the server clock clients sync to.
//! - [`text`]: names and chat lines, normalised and free of hidden characters.
//!
//! [`Server::open`] opens and checks the database and restores what it holds;
//! [`Server::serve`] then serves. [`run`] does both; tests bind `127.0.0.1:0` and
//! call it directly.

pub mod clock;
pub mod cluster;
pub mod connection;
pub mod edge;
pub mod event;
pub mod frame;
pub mod games;
pub mod generator;
pub mod identity;
pub mod kind;
pub mod limit;
pub mod lobby;
pub mod metrics;
pub mod pasted;
pub mod plugin_health;
pub mod pool;
pub mod proxy;
pub mod ratings;
pub mod readiness;
pub mod records;
pub mod review;
pub mod room;
pub mod session;
pub mod setter;
pub mod store;
pub mod text;
pub mod tournament;
pub mod tournaments;

use crate::plugins::PluginHost;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;

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
    /// Where the SQLite file lives; `None` keeps everything in memory.
    pub data_dir: Option<std::path::PathBuf>,
    /// Open WebSocket connections allowed from one IP address.
    pub connections_per_ip: usize,
    /// Open rooms one player may have created.
    pub rooms_per_player: usize,
    /// If not empty, the only `Origin` headers accepted on the WebSocket upgrade.
    pub allowed_origins: Vec<String>,
    /// Pre-generated puzzles kept per (variant, parameters, difficulty); 0 = none.
    pub pool_size: usize,
    /// The web client's built files, served at `/` (none: nothing is served there).
    pub client_dir: Option<std::path::PathBuf>,
    /// `join_room` attempts per player identity, however many connections it opens.
    pub join_rate: limit::Rate,
    /// `join_room` attempts per client address, whichever identities it uses.
    pub address_join_rate: limit::Rate,
    /// New identities (`hello` without a known token) per client address.
    pub address_hello_rate: limit::Rate,
    /// Reverse proxies whose `X-Forwarded-For` names the client's address.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Whether a commit is synced to the disk before it is acknowledged.
    pub synchronous: store::Synchronous,
    /// A PostgreSQL URL: the data lives there, shared with any other nodes
    /// (instead of the SQLite file in `data_dir`).
    pub database: Option<String>,
    /// This node's id among the nodes sharing the database.
    pub node_id: String,
    /// Where clients reach this node (`ws://host:port/ws`); by default the
    /// address it listens on.
    pub public_url: Option<String>,
    /// Where players open the game (`--site-url`), for invite links; `None`:
    /// the page's own address.
    pub site_url: Option<String>,
    /// The fastest plausible solving time per empty cell of an easy puzzle,
    /// ms: a finish faster than the puzzle's floor is recorded but ranked
    /// nowhere (`records::fastest_plausible_ms`). 0 ranks every finish.
    pub fastest_cell_ms: u64,
    /// Rate racers of one race who connect from one address (by default they
    /// are left out of its rating: two identities of one player).
    pub rate_shared_addresses: bool,
    /// The kinds an arena tournament is held of every hour (30 minutes from
    /// the top of the hour, listed an hour ahead).
    pub hourly_tournaments: Vec<tournament::HourlyKind>,
    /// How long a quick race waits for more players once it has two (it
    /// starts at once when full).
    pub quick_wait: Duration,
    /// How long a room's lease lasts without renewal: a dead node's rooms are
    /// taken over by another node after this.
    pub lease: Duration,
    /// The limits on TCP connections before they are WebSockets.
    pub edge: edge::Edge,
    /// How long a new WebSocket has to say `hello`.
    pub hello_timeout: Duration,
    /// How long one frame may take to reach a client that does not read
    /// before the connection is dropped.
    pub write_timeout: Duration,
}

/// The default plausibility floor per empty cell of an easy puzzle, ms: 13.5 s
/// for a 9x9 easy with 45 cells to fill.
pub const DEFAULT_FASTEST_CELL_MS: u64 = 300;

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
            data_dir: None,
            connections_per_ip: 64,
            rooms_per_player: 4,
            allowed_origins: Vec::new(),
            pool_size: 0,
            client_dir: None,
            join_rate: limit::Rate {
                burst: 10,
                per_second: 0.5,
            },
            address_join_rate: limit::Rate {
                burst: 30,
                per_second: 2.0,
            },
            address_hello_rate: limit::Rate {
                burst: 30,
                per_second: 0.2,
            },
            trusted_proxies: Vec::new(),
            synchronous: store::Synchronous::Full,
            database: None,
            node_id: "1".into(),
            public_url: None,
            site_url: None,
            fastest_cell_ms: DEFAULT_FASTEST_CELL_MS,
            rate_shared_addresses: false,
            hourly_tournaments: Vec::new(),
            quick_wait: Duration::from_secs(10),
            lease: Duration::from_secs(4),
            edge: edge::Edge::default(),
            hello_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
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
    /// Counters.
    pub metrics: Arc<metrics::Metrics>,
    /// Becomes `true` when the server shuts down.
    pub closing: watch::Receiver<bool>,
    /// Durable storage, when a data directory or a database is configured.
    pub store: Option<Arc<store::Store>>,
    /// This node's part among several sharing a PostgreSQL database.
    pub cluster: Option<Arc<cluster::Cluster>>,
    /// Pre-generated puzzles (and the health of each variant's generation).
    pub pool: Arc<pool::Pool>,
    /// What the edge counts (open, silent, timed out, evicted, refused).
    pub edge: Arc<edge::EdgeCounts>,
    /// Open connections per client IP.
    pub per_ip: dashmap::DashMap<std::net::IpAddr, usize>,
    /// `join_room` attempts per player id.
    pub joins_by_player: limit::KeyedBuckets<String>,
    /// `join_room` attempts per client address.
    pub joins_by_address: limit::KeyedBuckets<std::net::IpAddr>,
    /// New identities per client address.
    pub hellos_by_address: limit::KeyedBuckets<std::net::IpAddr>,
    /// Setter counts and analyses running at once (each a thread's work).
    pub setter_work: tokio::sync::Semaphore,
}

/// Setter counts and analyses that may run at once; more wait their turn
/// (each is a thread's CPU for up to a second or so).
const SETTER_WORK: usize = 2;

/// How long shutdown waits for connections to say goodbye.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// A server whose database is open and checked and whose saved state is
/// restored, ready to serve.
pub struct Server {
    shared: Arc<Shared>,
    pool: Arc<pool::Pool>,
    closing_tx: watch::Sender<bool>,
}

impl Server {
    /// Opens the database (with `config.data_dir`), checks it, and restores the
    /// puzzle pool and the unfinished rooms it holds (sessions are read when their
    /// tokens come back). A corrupt or
    /// unreadable database is an error here, before anything is announced.
    pub async fn open(plugins: Arc<PluginHost>, config: Config) -> std::io::Result<Server> {
        let (closing_tx, closing) = watch::channel(false);
        let metrics = Arc::new(metrics::Metrics::default());
        let (store, pg) = open_storage(&config).await.map_err(std::io::Error::other)?;
        // Records after this one reach the boards through notifications.
        let cluster = match pg {
            Some(pg) => {
                let seen = cluster::Seen::read(pg.as_ref())
                    .await
                    .map_err(std::io::Error::other)?;
                Some(Arc::new(cluster::Cluster::new(pg, seen)))
            }
            None => None,
        };
        let sessions = session::Sessions::new(store.clone());
        let generator = generator::Generator::new(plugins, Arc::clone(&metrics));
        let pool = Arc::new(pool::Pool::new(
            generator.clone(),
            store.clone(),
            Arc::clone(&metrics),
            config.pool_size,
        ));
        let games = games::Games::new(generator, Arc::clone(&pool), config.generate_deadline);
        let lobby = lobby::Lobby::new(games, config.clone(), Arc::clone(&metrics), store.clone());
        lobby.check_hourly().map_err(std::io::Error::other)?;
        if let Some(store) = &store {
            let saved = store.load().await.map_err(std::io::Error::other)?;
            pool.restore(saved.pool);
            for record in &saved.records {
                lobby.boards().add(record);
            }
            for race in &saved.rated_races {
                lobby.ratings().fold(race);
            }
            for player in &saved.hidden {
                lobby.boards().set_hidden(player, true);
            }
            (lobby.tournaments()).load(saved.tournaments, saved.tournament_results);
            let restored = lobby.restore(saved.rooms);
            tracing::info!(
                rooms = restored,
                pool = pool.len(),
                records = saved.records.len(),
                "restored unfinished rooms, the puzzle pool and the game records"
            );
        }
        let shared = Arc::new(Shared {
            sessions,
            lobby,
            joins_by_player: limit::KeyedBuckets::new(config.join_rate),
            joins_by_address: limit::KeyedBuckets::new(config.address_join_rate),
            hellos_by_address: limit::KeyedBuckets::new(config.address_hello_rate),
            setter_work: tokio::sync::Semaphore::new(SETTER_WORK),
            config,
            metrics,
            closing,
            store,
            cluster,
            pool: Arc::clone(&pool),
            edge: Arc::default(),
            per_ip: dashmap::DashMap::new(),
        });
        Ok(Server {
            shared,
            pool,
            closing_tx,
        })
    }

    /// With several nodes: tells the others where this node is reached (its
    /// public URL, or `listening`), so that rooms may be handed to it from now
    /// on. Call it before saying the server is up, and before [`Server::serve`].
    pub async fn announce(&self, listening: SocketAddr) {
        if let Some(cluster) = &self.shared.cluster {
            cluster
                .announce(self.shared.config.public_url.as_deref(), listening)
                .await;
        }
    }

    /// Serves the game on `listener`, and `/metrics` on `metrics` if given, until
    /// `shutdown` completes.
    pub async fn serve(
        self,
        listener: TcpListener,
        metrics: Option<TcpListener>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let Server {
            shared,
            pool,
            closing_tx,
        } = self;
        let refill = tokio::spawn(Arc::clone(&pool).refill_forever());
        let idle = tokio::spawn(release_when_idle(Arc::clone(&shared)));
        // The hourly tournaments are listed from the first connection on.
        shared.lobby.schedule_hourly().await;
        let hourly = tokio::spawn(schedule_hourly(Arc::clone(&shared)));
        let heartbeat = shared
            .cluster
            .clone()
            .map(|cluster| tokio::spawn(cluster::run(Arc::clone(&shared), cluster)));
        let metrics_server = metrics.map(|listener| {
            let app = Router::new()
                .route("/metrics", get(render_metrics))
                .with_state(Arc::clone(&shared));
            let mut closing = shared.closing.clone();
            tokio::spawn(async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = closing.wait_for(|c| *c).await;
                    })
                    .await
            })
        });
        let mut app = Router::new()
            .route("/healthz", get(|| async { "ok" }))
            .route("/readyz", get(render_readiness))
            .route("/ws", get(upgrade))
            .with_state(Arc::clone(&shared));
        if let Some(dir) = &shared.config.client_dir {
            // Everything else: the web client's files (index.html for `/`).
            // Brotli or gzip copies written at build time go to browsers that
            // take them; hashed assets are cached for good.
            let files = tower_http::services::ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip();
            app = app.fallback_service(
                axum::routing::get_service(files)
                    .layer(axum::middleware::map_response(cache_headers)),
            );
        }
        // The edge's limits on every connection; `tap_io` (doing nothing) lends
        // it axum's connect-info support.
        let listener = edge::EdgeListener::new(
            listener,
            shared.config.edge.clone(),
            Arc::clone(&shared.edge),
        )
        .tap_io(|_| {});
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown({
            let shared = Arc::clone(&shared);
            async move {
                shutdown.await;
                // Several nodes: the rooms go to the others, and their players
                // are told where, before the connections close.
                if let Some(cluster) = &shared.cluster {
                    cluster.drain(&shared).await;
                }
                let _ = closing_tx.send(true);
            }
        })
        .await?;
        refill.abort();
        idle.abort();
        hourly.abort();
        if let Some(task) = heartbeat {
            task.abort();
        }
        if let Some(task) = metrics_server {
            let _ = task.await;
        }
        // Upgraded connections run on their own tasks: wait for them to close.
        let deadline = tokio::time::Instant::now() + SHUTDOWN_GRACE;
        while shared
            .metrics
            .connections
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if let Some(cluster) = &shared.cluster {
            cluster.release().await;
        }
        Ok(())
    }
}

/// How long nobody must be connected before the server gives memory back.
const IDLE_AFTER: Duration = Duration::from_secs(60);

/// Schedules the hourly tournaments every minute after start-up's (the next
/// hour's appears an hour ahead; every node may do it: the same id is stored
/// once).
async fn schedule_hourly(shared: Arc<Shared>) {
    if shared.config.hourly_tournaments.is_empty() {
        return;
    }
    let minute = Duration::from_secs(60);
    let mut every = tokio::time::interval_at(tokio::time::Instant::now() + minute, minute);
    loop {
        every.tick().await;
        shared.lobby.schedule_hourly().await;
    }
}

/// Gives back what busy hours left in memory once nobody has been connected for
/// [`IDLE_AFTER`], once per quiet spell: the store's caches, the race reviews
/// kept in memory that the store holds, and glibc's free pages (when this
/// library runs in a process on glibc's allocator: the `arena` binary's
/// jemalloc gives its own back by itself).
async fn release_when_idle(shared: Arc<Shared>) {
    let mut every = tokio::time::interval(IDLE_AFTER / 2);
    let (mut quiet_since, mut released) = (None::<tokio::time::Instant>, false);
    loop {
        every.tick().await;
        let now = tokio::time::Instant::now();
        if shared
            .metrics
            .connections
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
        {
            (quiet_since, released) = (None, false);
            continue;
        }
        let since = *quiet_since.get_or_insert(now);
        if released || now.duration_since(since) < IDLE_AFTER {
            continue;
        }
        released = true;
        if let Some(store) = shared.lobby.store() {
            if let Err(e) = store.release_memory().await {
                tracing::warn!(error = %e, "cannot empty the database's caches");
            }
        }
        let reviews = shared.lobby.reviews().forget_stored();
        let freed = tokio::task::spawn_blocking(|| {
            // SAFETY: malloc_trim only returns free memory to the system.
            unsafe { libc::malloc_trim(0) }
        })
        .await;
        tracing::debug!(?freed, reviews, "idle: memory given back");
    }
}

/// Cache headers for the web client's files: those under `/assets/` carry a
/// hash of their content in their name, so they never change (a year,
/// immutable); anything else (`index.html`) is checked again every time.
async fn cache_headers(
    uri: axum::http::Uri,
    mut response: axum::response::Response,
) -> axum::response::Response {
    let policy = if uri.path().starts_with("/assets/") && response.status().is_success() {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static(policy),
    );
    response
}

/// The store, and the nodes' coordination when the database is shared.
type Storage = (
    Option<Arc<store::Store>>,
    Option<Arc<dyn store::coordination::Coordination>>,
);

/// The store for `config`: PostgreSQL (also the nodes' coordination) when a
/// database URL is given, else the SQLite file in the data directory, else none.
async fn open_storage(config: &Config) -> Result<Storage, store::StoreError> {
    if let Some(url) = &config.database {
        let node = store::coordination::NodeIdentity {
            id: config.node_id.clone(),
            url: config.public_url.clone().unwrap_or_default(),
            lease: config.lease,
        };
        let pg = Arc::new(store::postgres::Postgres::open(url, node).await?);
        let backend: Arc<dyn store::Backend> = pg.clone();
        return Ok((Some(Arc::new(store::Store::new(backend))), Some(pg)));
    }
    match &config.data_dir {
        Some(dir) => Ok((
            Some(Arc::new(store::Store::open_with(dir, config.synchronous)?)),
            None,
        )),
        None => Ok((None, None)),
    }
}

/// Opens the server ([`Server::open`]) and serves the game on `listener` (no
/// metrics listener) until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    plugins: Arc<PluginHost>,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    Server::open(plugins, config)
        .await?
        .serve(listener, None, shutdown)
        .await
}

fn readiness_report(shared: &Shared) -> readiness::Report {
    readiness::report(shared.pool.plugins(), shared.pool.health())
}

async fn render_readiness(State(shared): State<Arc<Shared>>) -> axum::response::Response {
    let report = readiness_report(&shared);
    let status = if report.ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = serde_json::to_string(&report).unwrap_or_default();
    (
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

async fn render_metrics(State(shared): State<Arc<Shared>>) -> String {
    let mut text = shared.metrics.render(shared.lobby.open_rooms());
    text.push_str(&metrics::render_plugins(&readiness_report(&shared)));
    text.push_str(&metrics::render_edge(&shared.edge));
    if let Some(heap) = crate::allocator::heap() {
        text.push_str(&metrics::render_heap(&heap));
    }
    if let Some(store) = &shared.store {
        text.push_str(&store.render_metrics());
    }
    text
}

/// Counts a connection against its IP for as long as it lives.
pub struct IpSlot {
    shared: Arc<Shared>,
    ip: std::net::IpAddr,
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        if let Some(mut n) = self.shared.per_ip.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
        }
        self.shared.per_ip.remove_if(&self.ip, |_, n| *n == 0);
    }
}

/// The largest frame the server sends (a lobby of many rooms, a big puzzle): the
/// write buffer may grow to hold one. What clients send is capped far lower
/// (`Config::max_message_bytes`).
pub const MAX_SERVER_FRAME: usize = 1 << 20;

/// Per-connection WebSocket buffers: small, so 10,000 idle clients fit in memory
/// (tungstenite's defaults are 128 KiB each way).
const WS_BUFFER: usize = 4 << 10;

async fn upgrade(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let allowed = &shared.config.allowed_origins;
    if !allowed.is_empty() {
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
        if !origin.is_some_and(|o| allowed.iter().any(|a| a == o)) {
            return (StatusCode::FORBIDDEN, "origin not allowed").into_response();
        }
    }
    let ip = proxy::client_ip(peer.ip(), &headers, &shared.config.trusted_proxies);
    {
        let mut open = shared.per_ip.entry(ip).or_insert(0);
        if *open >= shared.config.connections_per_ip {
            return (
                StatusCode::TOO_MANY_REQUESTS,
                "too many connections from this address",
            )
                .into_response();
        }
        *open += 1;
    }
    let slot = IpSlot {
        shared: Arc::clone(&shared),
        ip,
    };
    let limit = shared.config.max_message_bytes;
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(WS_BUFFER)
        .write_buffer_size(WS_BUFFER)
        .max_write_buffer_size(WS_BUFFER + MAX_SERVER_FRAME)
        .on_upgrade(move |socket| connection::serve(socket, shared, ip, slot))
}
