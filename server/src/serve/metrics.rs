//! Counters for `/metrics`, in the Prometheus text format.

use crate::plugins::HostStats;
use std::fmt::{Display, Write};
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
    /// Background pool generations that failed.
    pub pool_failures_total: AtomicU64,
}

/// A metric's value as Prometheus text shows it.
enum Value {
    Count(u64),
    /// Microseconds, shown as seconds with their fraction.
    Seconds(u64),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Count(n) => write!(f, "{n}"),
            Value::Seconds(micros) => write!(f, "{}.{:06}", micros / 1_000_000, micros % 1_000_000),
        }
    }
}

impl Metrics {
    /// Adds one to a counter.
    pub fn inc(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one puzzle generated through a plugin in `took`.
    pub fn record_generation(&self, took: std::time::Duration) {
        Metrics::inc(&self.generate_total);
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.generate_micros_total
            .fetch_add(micros, Ordering::Relaxed);
    }

    /// Renders every metric; `rooms` is the number of open rooms.
    pub fn render(&self, rooms: usize) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, value: Value| {
            write_metric(&mut out, name, kind, help, value)
        };
        metric(
            "arena_connections",
            "gauge",
            "Open WebSocket connections.",
            Value::Count(get(&self.connections)),
        );
        metric(
            "arena_connections_total",
            "counter",
            "WebSocket connections accepted.",
            Value::Count(get(&self.connections_total)),
        );
        metric(
            "arena_messages_total",
            "counter",
            "Client messages received.",
            Value::Count(get(&self.messages_total)),
        );
        metric(
            "arena_rate_limited_total",
            "counter",
            "Client messages refused by the rate limit.",
            Value::Count(get(&self.rate_limited_total)),
        );
        metric(
            "arena_rooms",
            "gauge",
            "Open rooms.",
            Value::Count(rooms as u64),
        );
        metric(
            "arena_rooms_total",
            "counter",
            "Rooms created.",
            Value::Count(get(&self.rooms_total)),
        );
        metric(
            "arena_plugin_generate_total",
            "counter",
            "Puzzles generated through plugins.",
            Value::Count(get(&self.generate_total)),
        );
        metric(
            "arena_plugin_generate_seconds_total",
            "counter",
            "Time spent generating puzzles through plugins.",
            Value::Seconds(get(&self.generate_micros_total)),
        );
        metric(
            "arena_pool_hits_total",
            "counter",
            "Rooms served a pre-generated puzzle.",
            Value::Count(get(&self.pool_hits_total)),
        );
        metric(
            "arena_pool_misses_total",
            "counter",
            "Rooms that waited for a fresh puzzle.",
            Value::Count(get(&self.pool_misses_total)),
        );
        metric(
            "arena_pool_failures_total",
            "counter",
            "Background pool generations that failed.",
            Value::Count(get(&self.pool_failures_total)),
        );
        out
    }
}

/// Writes one metric: its help, its type and its value.
fn write_metric(out: &mut String, name: &str, kind: &str, help: &str, value: impl Display) {
    let _ = writeln!(
        out,
        "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
    );
}

/// Writes one metric with a value per variant (label `variant`).
fn write_by_variant(
    out: &mut String,
    name: &str,
    kind: &str,
    help: &str,
    values: impl Iterator<Item = (String, u64)>,
) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
    for (variant, value) in values {
        let _ = writeln!(out, "{name}{{variant=\"{variant}\"}} {value}");
    }
}

/// Per-variant plugin metrics, labelled `variant`: each plugin's host process
/// starts, crashes and deadline kills (plugins in host processes only), and
/// whether the pool has it backing off or quarantined.
pub fn render_plugins(report: &super::readiness::Report) -> String {
    use super::plugin_health::State;
    let mut out = String::new();
    type Pick = fn(&HostStats) -> u64;
    let hosts: [(&str, &str, Pick); 3] = [
        (
            "arena_plugin_hosts_started_total",
            "Plugin host processes started.",
            |h| h.started,
        ),
        (
            "arena_plugin_hosts_crashed_total",
            "Plugin host processes that died during a call.",
            |h| h.crashed,
        ),
        (
            "arena_plugin_hosts_killed_total",
            "Plugin host processes killed for overrunning a deadline.",
            |h| h.killed,
        ),
    ];
    for (name, help, pick) in hosts {
        let values = report
            .variants
            .iter()
            .filter_map(|(variant, v)| v.hosts.as_ref().map(|h| (variant.clone(), pick(h))));
        write_by_variant(&mut out, name, "counter", help, values);
    }
    for (name, help, state) in [
        (
            "arena_plugin_backing_off",
            "1 while the pool backs off from the variant.",
            State::BackingOff,
        ),
        (
            "arena_plugin_quarantined",
            "1 while the pool has the variant quarantined.",
            State::Quarantined,
        ),
    ] {
        let values = report
            .variants
            .iter()
            .map(|(variant, v)| (variant.clone(), u64::from(v.state == state)));
        write_by_variant(&mut out, name, "gauge", help, values);
    }
    out
}

/// The edge's counts: open TCP connections (before and after the upgrade),
/// silent ones, and those closed for a late request, evicted for a newer silent
/// one of their address, or refused at the connection ceiling.
pub fn render_edge(edge: &super::edge::EdgeCounts) -> String {
    let mut out = String::new();
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    for (name, kind, help, value) in [
        (
            "arena_edge_open",
            "gauge",
            "Open TCP connections.",
            edge.open() as u64,
        ),
        (
            "arena_edge_silent",
            "gauge",
            "Connections that have sent nothing yet.",
            edge.silent() as u64,
        ),
        (
            "arena_edge_timed_out_total",
            "counter",
            "Connections closed for bringing no whole request in time.",
            get(&edge.timed_out_total),
        ),
        (
            "arena_edge_evicted_total",
            "counter",
            "Silent connections closed for a newer one of their address.",
            get(&edge.evicted_total),
        ),
        (
            "arena_edge_refused_total",
            "counter",
            "Connections refused at the connection ceiling.",
            get(&edge.refused_total),
        ),
    ] {
        write_metric(&mut out, name, kind, help, value);
    }
    out
}

/// The allocator's heap figures (when the binary's allocator tells them):
/// live bytes against the pages that hold them and what stays resident.
pub fn render_heap(heap: &crate::allocator::Heap) -> String {
    let mut out = String::new();
    for (name, help, value) in [
        (
            "arena_heap_allocated_bytes",
            "Bytes in live allocations.",
            heap.allocated,
        ),
        (
            "arena_heap_active_bytes",
            "Bytes in pages holding live allocations.",
            heap.active,
        ),
        (
            "arena_heap_resident_bytes",
            "Bytes the allocator keeps in physical memory.",
            heap.resident,
        ),
    ] {
        write_metric(&mut out, name, "gauge", help, value);
    }
    out
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
        m.record_generation(std::time::Duration::from_micros(10_250));
        m.record_generation(std::time::Duration::from_micros(1_000_001));
        let text = m.render(0);
        assert!(text.contains("arena_plugin_generate_total 2\n"));
        assert!(text.contains("arena_plugin_generate_seconds_total 1.010251\n"));
    }

    #[test]
    fn renders_the_heap_figures() {
        let heap = crate::allocator::Heap {
            allocated: 3,
            active: 4096,
            resident: 8192,
        };
        let text = render_heap(&heap);
        assert!(text
            .contains("# TYPE arena_heap_allocated_bytes gauge\narena_heap_allocated_bytes 3\n"));
        assert!(text.contains("arena_heap_active_bytes 4096\n"));
        assert!(text.contains("arena_heap_resident_bytes 8192\n"));
    }
}
