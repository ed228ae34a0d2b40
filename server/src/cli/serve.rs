//! `arena serve`: the multiplayer server, until SIGINT or SIGTERM.

use crate::plugins::{HostCommand, Isolation, PluginHost};
use crate::serve::store::Synchronous;
use crate::serve::{Config, Server};
use anyhow::Context;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `arena serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Settings from a file, one `name = value` per line with these flags'
    /// names (flags given here win); read before the rest.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Countdown between the host's start and the first move, in ms.
    #[arg(long, default_value_t = 3000)]
    pub countdown_ms: u64,
    /// Directory of the embedded database (`arena.db`, SQLite in WAL mode).
    #[arg(long, default_value = "data")]
    pub data: std::path::PathBuf,
    /// A PostgreSQL URL (`postgres://user@host:port/db`) to keep everything in
    /// instead of `--data`; several nodes can share it.
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// This node's id among the nodes sharing `--database` (unique per node).
    #[arg(long, default_value = "1")]
    pub node_id: String,
    /// Where clients reach this node (`ws://host:port/ws`), sent to clients of
    /// rooms it owns; by default the address it listens on.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Where players open the game, e.g. `https://sudoku.example.org/` or
    /// `http://192.168.1.20:8080/`: invite links start with it (by default,
    /// the address the host's browser shows).
    #[arg(long, value_name = "URL")]
    pub site_url: Option<String>,
    /// The fastest plausible solving time per empty cell of an easy puzzle,
    /// ms (medium 1.5x, hard 2x, extreme 3x): a finish under its puzzle's
    /// floor is kept but ranked on no leaderboard. 0 ranks every finish.
    #[arg(long, default_value_t = crate::serve::DEFAULT_FASTEST_CELL_MS)]
    pub fastest_cell_ms: u64,
    /// Rate racers of one race who connect from the same address against each
    /// other (by default they are left out of that race's rating: two
    /// identities of one player cannot feed each other points).
    #[arg(long)]
    pub rate_shared_addresses: bool,
    /// Hold an arena tournament of this kind every hour, 30 minutes from the
    /// top of the hour, listed an hour ahead (repeatable), e.g. classic:easy.
    #[arg(long = "hourly-tournament", value_name = "VARIANT:DIFFICULTY")]
    pub hourly_tournaments: Vec<crate::serve::tournament::HourlyKind>,
    /// How long a quick race waits for more players once it has two, in ms
    /// (it starts at once when full).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub quick_race_wait_ms: u64,
    /// How long a room's lease lasts without renewal, in ms: when a node dies,
    /// another takes its rooms over after this.
    #[arg(long, default_value_t = 4000)]
    pub lease_ms: u64,
    /// Open WebSocket connections allowed from one IP address.
    #[arg(long, default_value_t = 64)]
    pub connections_per_ip: usize,
    /// Allowed `Origin` for WebSocket upgrades (repeatable; none = any origin).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,
    /// Pre-generated puzzles kept at most per (variant, parameters, difficulty):
    /// two of each first, then two more per game asked of a kind, up to this,
    /// grown in the background and paced.
    #[arg(long, default_value_t = 250)]
    pub pool_size: usize,
    /// The web client's built files, served at `/`.
    #[arg(long, default_value = "client-web/dist")]
    pub client: std::path::PathBuf,
    /// Serve Prometheus `/metrics` on this address (e.g. 127.0.0.1:9100); it is
    /// never served on the game port.
    #[arg(long, value_name = "ADDR")]
    pub metrics_bind: Option<SocketAddr>,
    /// `join_room` attempts one client address may make in a burst…
    #[arg(long, default_value_t = 30)]
    pub address_join_burst: u32,
    /// …and per second after it (whichever identities it uses).
    #[arg(long, default_value_t = 2.0)]
    pub address_joins_per_second: f64,
    /// New identities one client address may make in a burst (then one per five
    /// seconds).
    #[arg(long, default_value_t = 30)]
    pub address_hello_burst: u32,
    /// Messages one connection may send in a burst…
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..))]
    pub message_burst: u32,
    /// …and per second after it (beyond that: `rate_limited` errors).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub messages_per_second: u32,
    /// `full`: an acknowledged change is synced to the disk (survives a power
    /// loss); `normal`: it survives a crash of the process only, for less disk work.
    #[arg(long, value_enum, default_value_t = SyncArg::Full)]
    pub synchronous: SyncArg,
    /// How long a player waits for a new puzzle (when the pool has none), in ms.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    pub generate_deadline_ms: u64,
    /// Load the plugins into the server's own process instead of one host
    /// process per plugin worker: a crashing plugin then takes the server down.
    /// For debugging a plugin only.
    #[arg(long)]
    pub in_process_plugins: bool,
    /// The most workers per plugin, each with its own host process: one starts
    /// with the plugin, another while calls wait for one (a background
    /// generation and a player's hint, say), up to this many.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub plugin_workers: u64,
    /// Address-space limit of each plugin host process, in MiB (0: none).
    #[arg(long, default_value_t = crate::plugins::process::DEFAULT_MEMORY_MB)]
    pub plugin_memory_mb: u64,
    /// A reverse proxy whose `X-Forwarded-For` header names the client's address
    /// for per-address limits (repeatable). Other peers' headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// `--synchronous` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SyncArg {
    /// Sync every commit (power-loss safe).
    Full,
    /// Sync at checkpoints (process-crash safe).
    Normal,
}

/// Loads the plugins as `args` says (isolated in host processes by default) and
/// runs the server until a shutdown signal.
pub fn run(args: &ServeArgs, cli: &super::Cli) -> anyhow::Result<bool> {
    let isolation = if args.in_process_plugins {
        Isolation::InProcess
    } else {
        let mut command = HostCommand::current_exe()
            .context("cannot find the arena executable to start plugin hosts")?;
        command.memory_mb = args.plugin_memory_mb;
        Isolation::Processes(command)
    };
    let plugins = super::load_plugins_with(cli, args.plugin_workers as usize, isolation);
    serve(args, plugins)
}

/// The server's async runtime: its threads (and the calling one, which runs
/// the root future) live long and mostly wait, so they keep no allocation
/// cache ([`crate::allocator`]).
pub(crate) fn server_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    crate::allocator::disable_on_this_thread();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(crate::allocator::disable_on_this_thread)
        .build()
}

/// Runs the server on `plugins` until a shutdown signal.
fn serve(args: &ServeArgs, plugins: PluginHost) -> anyhow::Result<bool> {
    let ids: Vec<&str> = plugins.manifests().map(|m| m.id.as_str()).collect();
    tracing::info!(variants = ?ids, "plugins loaded");
    if ids.is_empty() {
        anyhow::bail!("no variant plugins found (see --plugins)");
    }
    if let Some(url) = &args.public_url {
        if !(url.starts_with("ws://") || url.starts_with("wss://")) {
            anyhow::bail!(
                "--public-url must be a WebSocket URL (ws://host:port/ws or wss://…), not '{url}'"
            );
        }
    }
    if let Some(url) = &args.site_url {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            anyhow::bail!(
                "--site-url is the address players open (http://host:port/ or https://…), not '{url}'"
            );
        }
    }
    if args.public_url.is_some() && args.database.is_none() {
        anyhow::bail!("--public-url tells other nodes where this one is: it needs --database");
    }
    let runtime = server_runtime().context("cannot start the async runtime")?;
    let served = runtime.block_on(async {
        let config = Config {
            countdown: Duration::from_millis(args.countdown_ms),
            generate_deadline: Duration::from_millis(args.generate_deadline_ms),
            data_dir: Some(args.data.clone()),
            connections_per_ip: args.connections_per_ip,
            allowed_origins: args.allowed_origins.clone(),
            pool_size: args.pool_size,
            client_dir: Some(args.client.clone()),
            trusted_proxies: args.trusted_proxies.clone(),
            database: args.database.clone(),
            node_id: args.node_id.clone(),
            public_url: args.public_url.clone(),
            site_url: args.site_url.clone(),
            fastest_cell_ms: args.fastest_cell_ms,
            rate_shared_addresses: args.rate_shared_addresses,
            hourly_tournaments: args.hourly_tournaments.clone(),
            quick_wait: Duration::from_millis(args.quick_race_wait_ms),
            lease: Duration::from_millis(args.lease_ms.max(300)),
            burst: args.message_burst,
            per_second: args.messages_per_second,
            synchronous: match args.synchronous {
                SyncArg::Full => Synchronous::Full,
                SyncArg::Normal => Synchronous::Normal,
            },
            address_hello_rate: crate::serve::limit::Rate {
                burst: args.address_hello_burst,
                per_second: 0.2,
            },
            address_join_rate: crate::serve::limit::Rate {
                burst: args.address_join_burst,
                per_second: args.address_joins_per_second,
            },
            ..Config::default()
        };
        // The database is opened and checked before anything is announced.
        let place = match &args.database {
            Some(url) => crate::serve::store::postgres::redact(url),
            None => args.data.display().to_string(),
        };
        let server = Server::open(Arc::new(plugins), config)
            .await
            .with_context(|| format!("cannot open the database in {place}"))?;
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let metrics = match args.metrics_bind {
            Some(addr) => Some(
                tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("cannot listen on {addr} for metrics"))?,
            ),
            None => None,
        };
        if let Some(m) = &metrics {
            eprintln!("arena: metrics on http://{}/metrics", m.local_addr()?);
        }
        server.announce(listener.local_addr()?).await;
        // The last start-up line: scripts wait for it (and another node may
        // hand this one rooms from now on).
        eprintln!("arena: serving on http://{}", listener.local_addr()?);
        server.serve(listener, metrics, shutdown_signal()).await?;
        eprintln!("arena: stopped");
        Ok(true)
    });
    // Blocking work still running now is given a few seconds (a database
    // write finishes), not forever (a runaway computation would keep the
    // process alive): its player is gone and no answer of it is awaited.
    runtime.shutdown_timeout(AFTER_STOP);
    served
}

/// How long blocking work may still run once the server has stopped.
const AFTER_STOP: Duration = Duration::from_secs(5);

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::server_runtime;
    use crate::allocator::tests::{told, RECORDING};
    use crate::allocator::{install, with_cache};

    #[test]
    fn the_servers_threads_start_with_the_cache_off() {
        install(RECORDING);
        std::thread::spawn(|| {
            let runtime = server_runtime().expect("a runtime");
            assert_eq!(told(), vec![false], "the thread running the root future");
            let on_a_worker = runtime.block_on(async { tokio::spawn(async { told() }).await });
            assert_eq!(on_a_worker.expect("the task ran"), vec![false]);
            let blocking =
                runtime.block_on(async { tokio::task::spawn_blocking(|| with_cache(told)).await });
            assert_eq!(blocking.expect("the work ran"), vec![false, true]);
        })
        .join()
        .expect("the checks pass");
    }
}
