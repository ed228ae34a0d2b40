//! The server clock: milliseconds since the Unix epoch, as `f64` for the wire.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in ms since the Unix epoch.
pub fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1e3)
        .unwrap_or(0.0)
}
