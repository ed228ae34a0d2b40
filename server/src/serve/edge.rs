//! The edge: every TCP connection from its accept until it is an upgraded
//! WebSocket (or closed). A connection must bring a whole HTTP request within
//! [`Edge::handshake`] of its accept, and each further request on a kept-alive
//! connection within the same time of the last response; a silent or
//! trickling one is closed. Silent connections (not a byte read yet) are
//! counted per address: past [`Edge::silent_per_ip`], the oldest silent one of
//! that address is closed to make room, so a flood of silent sockets from one
//! address never locks out that address's real requests (a health check, a
//! player). Past [`Edge::max_connections`] (kept below the descriptor limit), a
//! new connection is told `503` and closed: the descriptors left serve those
//! already in. Once a `101 Switching Protocols` goes out, the connection is a
//! WebSocket and the edge only counts it; the WebSocket's own timeouts apply.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// The edge's limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// How long a connection has to bring a whole request (from its accept, or
    /// from the last response on a kept-alive connection).
    pub handshake: Duration,
    /// Silent connections (no byte yet) kept per address; a newer one closes the
    /// oldest.
    pub silent_per_ip: usize,
    /// Open connections beyond which new ones are refused.
    pub max_connections: usize,
}

/// Descriptors kept free for the database, the plugins' pipes and the log.
const DESCRIPTOR_RESERVE: u64 = 64;

impl Default for Edge {
    fn default() -> Self {
        Edge {
            handshake: Duration::from_secs(10),
            silent_per_ip: 16,
            max_connections: default_max_connections(),
        }
    }
}

/// The process's open-file limit less [`DESCRIPTOR_RESERVE`] (at least 64).
pub fn default_max_connections() -> usize {
    // SAFETY: getrlimit fills the struct it is given.
    let soft = unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        limit.rlim_cur
    };
    soft.saturating_sub(DESCRIPTOR_RESERVE).clamp(64, 1 << 20) as usize
}

/// What the edge counts, shared by the listener and its connections.
#[derive(Debug, Default)]
pub struct EdgeCounts {
    open: AtomicUsize,
    silent: Mutex<HashMap<IpAddr, VecDeque<Arc<Eviction>>>>,
    /// Connections closed for bringing no whole request in time.
    pub timed_out_total: AtomicU64,
    /// Silent connections closed to make room for a newer one of their address.
    pub evicted_total: AtomicU64,
    /// Connections refused at the connection ceiling.
    pub refused_total: AtomicU64,
}

impl EdgeCounts {
    /// Open TCP connections (WebSockets included).
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Silent connections now.
    pub fn silent(&self) -> usize {
        self.silent_map().values().map(VecDeque::len).sum()
    }

    fn silent_map(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, VecDeque<Arc<Eviction>>>> {
        self.silent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a new silent connection of `ip`. Beyond `cap` silent ones of
    /// that address, the oldest is closed once it has been silent for
    /// [`SILENT_GRACE`] (a client that opens many connections at once sends its
    /// requests a moment later; one that never will is closed), and whatever its
    /// age beyond [`SILENT_BURST`] times `cap`.
    fn enter_silent(&self, ip: IpAddr, cap: usize) -> Arc<Eviction> {
        let eviction = Arc::new(Eviction::new());
        let mut map = self.silent_map();
        let queue = map.entry(ip).or_default();
        let cap = cap.max(1);
        while let Some(oldest) = queue.front() {
            let over = queue.len() >= cap * SILENT_BURST;
            if queue.len() < cap || !(over || oldest.since.elapsed() >= SILENT_GRACE) {
                break;
            }
            if let Some(oldest) = queue.pop_front() {
                oldest.evict();
                self.evicted_total.fetch_add(1, Ordering::Relaxed);
            }
        }
        queue.push_back(Arc::clone(&eviction));
        eviction
    }

    fn leave_silent(&self, ip: IpAddr, eviction: &Arc<Eviction>) {
        let mut map = self.silent_map();
        if let Some(queue) = map.get_mut(&ip) {
            queue.retain(|e| !Arc::ptr_eq(e, eviction));
            if queue.is_empty() {
                map.remove(&ip);
            }
        }
    }
}

/// How long a silent connection is left alone before a newer one of its
/// address may close it.
const SILENT_GRACE: Duration = Duration::from_millis(500);

/// Silent connections of one address, as a multiple of the cap, beyond which
/// the oldest is closed however young.
const SILENT_BURST: usize = 4;

/// A flag another connection sets to close a silent one, the waker of the task
/// reading it, and when it connected.
#[derive(Debug)]
struct Eviction {
    evicted: AtomicBool,
    waker: futures_util::task::AtomicWaker,
    since: std::time::Instant,
}

impl Eviction {
    fn new() -> Eviction {
        Eviction {
            evicted: AtomicBool::new(false),
            waker: futures_util::task::AtomicWaker::new(),
            since: std::time::Instant::now(),
        }
    }

    fn evict(&self) {
        self.evicted.store(true, Ordering::SeqCst);
        self.waker.wake();
    }

    fn evicted(&self) -> bool {
        self.evicted.load(Ordering::SeqCst)
    }
}

/// A TCP listener that applies the [`Edge`] limits to what it accepts.
#[derive(Debug)]
pub struct EdgeListener {
    inner: TcpListener,
    edge: Edge,
    counts: Arc<EdgeCounts>,
}

impl EdgeListener {
    /// `inner` under `edge`'s limits, counted in `counts`.
    pub fn new(inner: TcpListener, edge: Edge, counts: Arc<EdgeCounts>) -> EdgeListener {
        EdgeListener {
            inner,
            edge,
            counts,
        }
    }
}

/// What a refused connection is told before it is closed.
fn refusal() -> Vec<u8> {
    let body = "the server is full; try again soon";
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n\
         Content-Length: {}\r\nConnection: close\r\nRetry-After: 5\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl axum::serve::Listener for EdgeListener {
    type Io = EdgeStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (EdgeStream, SocketAddr) {
        loop {
            let (tcp, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors (or another failure of the listener, not
                    // of one connection): wait a little for some to close.
                    if !matches!(
                        e.kind(),
                        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
                    ) {
                        tracing::error!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            };
            if self.counts.open() >= self.edge.max_connections {
                self.counts.refused_total.fetch_add(1, Ordering::Relaxed);
                // A fresh socket's send buffer is empty: this never blocks.
                let _ = tcp.try_write(&refusal());
                continue;
            }
            // No Nagle delays: a move is a small frame that must leave at once.
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::warn!(error = %e, "cannot set TCP_NODELAY");
            }
            let eviction = self.counts.enter_silent(addr.ip(), self.edge.silent_per_ip);
            self.counts.open.fetch_add(1, Ordering::Relaxed);
            let stream = EdgeStream {
                tcp,
                ip: addr.ip(),
                counts: Arc::clone(&self.counts),
                handshake: self.edge.handshake,
                timer: Box::pin(tokio::time::sleep(self.edge.handshake)),
                silent: Some(eviction),
                upgraded: false,
            };
            return (stream, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// One accepted connection under the edge's limits.
#[derive(Debug)]
pub struct EdgeStream {
    tcp: TcpStream,
    ip: IpAddr,
    counts: Arc<EdgeCounts>,
    handshake: Duration,
    /// When the request being waited for is due (unused once upgraded).
    timer: Pin<Box<Sleep>>,
    /// Set while no byte has been read.
    silent: Option<Arc<Eviction>>,
    upgraded: bool,
}

impl EdgeStream {
    fn no_longer_silent(&mut self) {
        if let Some(eviction) = self.silent.take() {
            self.counts.leave_silent(self.ip, &eviction);
        }
    }

    /// Notes a response going out: a `101` makes this a WebSocket; any other
    /// gives the next request the handshake time from now.
    fn responding(&mut self, first: &[u8]) {
        if self.upgraded {
            return;
        }
        if first.starts_with(b"HTTP/1.1 101") {
            self.upgraded = true;
            self.no_longer_silent();
        } else if !first.is_empty() {
            let due = Instant::now() + self.handshake;
            self.timer.as_mut().reset(due);
        }
    }
}

impl Drop for EdgeStream {
    fn drop(&mut self) {
        self.no_longer_silent();
        self.counts.open.fetch_sub(1, Ordering::Relaxed);
    }
}

impl AsyncRead for EdgeStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if !this.upgraded {
            if let Some(eviction) = &this.silent {
                eviction.waker.register(cx.waker());
                if eviction.evicted() {
                    this.silent = None;
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::ConnectionAborted,
                        "a silent connection closed for a newer one of its address",
                    )));
                }
            }
            if this.timer.as_mut().poll(cx).is_ready() {
                this.counts.timed_out_total.fetch_add(1, Ordering::Relaxed);
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no whole request in time",
                )));
            }
        }
        let before = buf.filled().len();
        let read = Pin::new(&mut this.tcp).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.no_longer_silent();
        }
        read
    }
}

impl AsyncWrite for EdgeStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.responding(buf);
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| b);
        self.responding(first);
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}
