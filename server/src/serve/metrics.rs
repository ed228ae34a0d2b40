//! Counters for `/metrics`, in the Prometheus text format.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Server-wide counters and gauges (relaxed atomics: monitoring, not logic).
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: AtomicU64,
    /// WebSocket connections ever accepted.
    pub connections_total: AtomicU64,
    /// Client messages received.
    pub messages_total: AtomicU64,
    /// Client messages refused by the rate limit.
    pub rate_limited_total: AtomicU64,
    /// Rooms created.
    pub rooms_total: AtomicU64,
    /// Puzzle generations through a plugin.
    pub generate_total: AtomicU64,
    /// Their total time, in microseconds.
    pub generate_micros_total: AtomicU64,
    /// Rooms whose puzzle came from the pool.
    pub pool_hits_total: AtomicU64,
    /// Rooms that had to wait for a fresh puzzle.
    pub pool_misses_total: AtomicU64,
}

impl Metrics {
    /// Adds one to a counter.
    pub fn inc(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Renders every metric; `rooms` is the number of open rooms.
    pub fn render(&self, rooms: usize) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, value: u64| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        metric(
            "arena_connections",
            "gauge",
            "Open WebSocket connections.",
            get(&self.connections),
        );
        metric(
            "arena_connections_total",
            "counter",
            "WebSocket connections accepted.",
            get(&self.connections_total),
        );
        metric(
            "arena_messages_total",
            "counter",
            "Client messages received.",
            get(&self.messages_total),
        );
        metric(
            "arena_rate_limited_total",
            "counter",
            "Client messages refused by the rate limit.",
            get(&self.rate_limited_total),
        );
        metric("arena_rooms", "gauge", "Open rooms.", rooms as u64);
        metric(
            "arena_rooms_total",
            "counter",
            "Rooms created.",
            get(&self.rooms_total),
        );
        metric(
            "arena_plugin_generate_total",
            "counter",
            "Puzzles generated through plugins.",
            get(&self.generate_total),
        );
        metric(
            "arena_plugin_generate_seconds_total",
            "counter",
            "Time spent generating puzzles through plugins.",
            get(&self.generate_micros_total) / 1_000_000,
        );
        metric(
            "arena_pool_hits_total",
            "counter",
            "Rooms served a pre-generated puzzle.",
            get(&self.pool_hits_total),
        );
        metric(
            "arena_pool_misses_total",
            "counter",
            "Rooms that waited for a fresh puzzle.",
            get(&self.pool_misses_total),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_prometheus_text() {
        let m = Metrics::default();
        Metrics::inc(&m.connections_total);
        let text = m.render(3);
        assert!(
            text.contains("# TYPE arena_connections_total counter\narena_connections_total 1\n")
        );
        assert!(text.contains("arena_rooms 3\n"));
    }
}
