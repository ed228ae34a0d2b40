//! The multiplayer server in-process: started on an ephemeral loopback port with
//! the built plugins (dlopen'ed once per test binary), and a plain HTTP client
//! for its other endpoints.

use crate::ws::WAIT;
use crate::{built_arena, built_plugin_dir};
use server::plugins::{HostCommand, Isolation, LoadOptions, PluginHost, TestPlugins};
use server::serve::{Config, Server};
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

/// The built plugins, loaded once per test binary.
pub fn plugins() -> Arc<PluginHost> {
    static HOST: OnceLock<Arc<PluginHost>> = OnceLock::new();
    Arc::clone(
        HOST.get_or_init(|| {
            Arc::new(PluginHost::load(&[built_plugin_dir()], 4, TestPlugins::Load).0)
        }),
    )
}

/// The built plugins (test-only ones too), each in `workers` host processes
/// started from the built `arena`, as `arena serve` runs them.
pub fn isolated_plugins(workers: usize) -> Arc<PluginHost> {
    let options = LoadOptions {
        workers,
        test_plugins: TestPlugins::Load,
        isolation: Isolation::Processes(HostCommand {
            exe: built_arena(),
            memory_mb: server::plugins::process::DEFAULT_MEMORY_MB,
        }),
    };
    let (host, refused) = PluginHost::load_with(&[built_plugin_dir()], &options);
    assert!(
        host.manifest("classic").is_some(),
        "the built plugins load in host processes (refused: {refused:?})"
    );
    Arc::new(host)
}

/// The faults the misbehaving test plugin's manifest offers as difficulties:
/// those of `generate`, and those of `hint` (`hint-*`: the difficulty of a
/// playable puzzle whose hints do the fault).
pub fn misbehave_faults(plugins: &PluginHost) -> (Vec<String>, Vec<String>) {
    let manifest = plugins
        .manifest("test-misbehave")
        .expect("the misbehaving plugin is loaded");
    let (hint, generate) = manifest
        .difficulties
        .iter()
        .filter(|d| !["easy", "slow-hints"].contains(&d.as_str()))
        .cloned()
        .partition(|d| d.starts_with("hint-"));
    (generate, hint)
}

/// Starts a server on `plugins` with `config`; returns the game address.
pub async fn start_server_on(plugins: Arc<PluginHost>, config: Config) -> SocketAddr {
    spawn_server(plugins, config, None).await
}

/// Opens a server on `plugins` and serves it (and `/metrics` on `metrics`)
/// on an ephemeral loopback port until the test's runtime ends.
async fn spawn_server(
    plugins: Arc<PluginHost>,
    config: Config,
    metrics: Option<TcpListener>,
) -> SocketAddr {
    let game = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = game.local_addr().expect("address");
    let server = Server::open(plugins, config)
        .await
        .expect("the server opens");
    tokio::spawn(server.serve(game, metrics, std::future::pending()));
    addr
}

/// Starts a server with no countdown that ranks every finish (the tests'
/// scripted players solve in milliseconds; the plausibility floor has tests
/// of its own); it stops when the test's runtime ends.
pub async fn start_server() -> SocketAddr {
    start_server_with(Config {
        countdown: Duration::ZERO,
        fastest_cell_ms: 0,
        ..Config::default()
    })
    .await
}

/// Starts a server with `config`; returns the game address.
pub async fn start_server_with(config: Config) -> SocketAddr {
    start_server_with_metrics(config).await.0
}

/// Starts a server with `config` and a metrics listener; returns the game and
/// the metrics addresses.
pub async fn start_server_with_metrics(config: Config) -> (SocketAddr, SocketAddr) {
    let metrics = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let metrics_addr = metrics.local_addr().expect("address");
    let game = spawn_server(plugins(), config, Some(metrics)).await;
    (game, metrics_addr)
}

/// The value of metric `name` in Prometheus text (unlabelled), if present.
pub fn metric_value(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// A plain HTTP/1.1 GET; returns the status code and the body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    tokio::time::timeout(WAIT, s.read_to_string(&mut response))
        .await
        .expect("an answer in time")
        .expect("read");
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
    (status, body.to_string())
}
