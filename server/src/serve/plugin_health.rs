//! How each variant's background generation is faring, so the puzzle pool backs
//! off from a plugin that fails or times out instead of calling it again and
//! again: after a failure it waits (doubling from [`Backoff::first`] up to
//! [`Backoff::max`]); after [`Backoff::quarantine_after`] failures in a row the
//! variant is quarantined and tried only every [`Backoff::quarantine_retry`]. One
//! success makes it healthy again. Each change of state is logged once (not
//! every failure), counted in the metrics and shown by `/readyz`.
//!
//! Players are not held back by it: their own requests still reach the plugin.

use crate::plugins::process::doubling;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The back-off policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The wait after the first failure.
    pub first: Duration,
    /// The longest wait before quarantine.
    pub max: Duration,
    /// Failures in a row that quarantine a variant.
    pub quarantine_after: u32,
    /// How often a quarantined variant is tried again.
    pub quarantine_retry: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            first: Duration::from_secs(5),
            max: Duration::from_secs(300),
            quarantine_after: 6,
            quarantine_retry: Duration::from_secs(1800),
        }
    }
}

/// A variant's state, as `/readyz` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Its last generation succeeded (or none failed yet).
    Healthy,
    /// It failed lately; the pool waits before trying again.
    BackingOff,
    /// It failed too often in a row; the pool tries it rarely.
    Quarantined,
}

#[derive(Debug)]
struct Entry {
    failures: u32,
    retry_at: Instant,
}

impl Entry {
    fn state(&self, policy: &Backoff) -> State {
        match self.failures {
            0 => State::Healthy,
            n if n >= policy.quarantine_after => State::Quarantined,
            _ => State::BackingOff,
        }
    }
}

/// The health of every variant the pool generates for.
#[derive(Debug)]
pub struct PluginHealth {
    policy: Backoff,
    entries: Mutex<BTreeMap<String, Entry>>,
    changes: watch::Sender<u64>,
}

impl PluginHealth {
    /// Every variant healthy, under `policy`.
    pub fn new(policy: Backoff) -> PluginHealth {
        PluginHealth {
            policy,
            entries: Mutex::new(BTreeMap::new()),
            changes: watch::channel(0).0,
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the pool may call `variant` at `now`.
    pub fn allows(&self, variant: &str, now: Instant) -> bool {
        self.entries()
            .get(variant)
            .is_none_or(|e| e.failures == 0 || now >= e.retry_at)
    }

    /// The state of `variant`.
    pub fn state(&self, variant: &str) -> State {
        self.entries()
            .get(variant)
            .map_or(State::Healthy, |e| e.state(&self.policy))
    }

    /// Every variant that is not healthy, with its state.
    pub fn troubled(&self) -> Vec<(String, State)> {
        self.entries()
            .iter()
            .map(|(v, e)| (v.clone(), e.state(&self.policy)))
            .filter(|(_, s)| *s != State::Healthy)
            .collect()
    }

    /// The earliest time a backing-off or quarantined variant may be tried.
    pub fn next_retry(&self) -> Option<Instant> {
        self.entries()
            .values()
            .filter(|e| e.failures > 0)
            .map(|e| e.retry_at)
            .min()
    }

    /// A receiver that sees a new value at every change of state.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Records a failure of `variant` at `now` (why: `error`); returns its
    /// state, logged if it changed.
    pub fn failed(&self, variant: &str, error: &str, now: Instant) -> State {
        let (before, after, wait) = {
            let mut entries = self.entries();
            let entry = entries.entry(variant.to_string()).or_insert(Entry {
                failures: 0,
                retry_at: now,
            });
            let before = entry.state(&self.policy);
            entry.failures = entry.failures.saturating_add(1);
            let after = entry.state(&self.policy);
            let wait = match after {
                State::Quarantined => self.policy.quarantine_retry,
                _ => doubling(self.policy.first, entry.failures - 1, self.policy.max),
            };
            entry.retry_at = now + wait;
            (before, after, wait)
        };
        if before != after {
            let wait_s = wait.as_secs();
            match after {
                State::Quarantined => {
                    tracing::error!(%variant, %error, retry_in_s = wait_s, "the pool quarantines this variant: its generation keeps failing")
                }
                _ => {
                    tracing::warn!(%variant, %error, retry_in_s = wait_s, "pool generation failing; backing off")
                }
            }
            self.changes.send_modify(|n| *n += 1);
        } else {
            tracing::debug!(%variant, %error, "pool generation failed again");
        }
        after
    }

    /// Records a success of `variant`: healthy again (logged if it was not).
    pub fn succeeded(&self, variant: &str) {
        let was = self
            .entries()
            .remove(variant)
            .map(|e| e.state(&self.policy));
        if was.is_some_and(|s| s != State::Healthy) {
            tracing::info!(%variant, "pool generation works again");
            self.changes.send_modify(|n| *n += 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_back_off_then_quarantine_and_one_success_heals() {
        let policy = Backoff {
            first: Duration::from_secs(1),
            max: Duration::from_secs(4),
            quarantine_after: 4,
            quarantine_retry: Duration::from_secs(100),
        };
        let health = PluginHealth::new(policy);
        let changes = health.changes();
        let t0 = Instant::now();
        assert!(health.allows("x", t0));
        assert_eq!(health.failed("x", "boom", t0), State::BackingOff);
        assert!(!health.allows("x", t0));
        assert!(health.allows("x", t0 + Duration::from_secs(1)));
        assert!(
            health.allows("other", t0),
            "other variants are not held back"
        );
        assert_eq!(health.next_retry(), Some(t0 + Duration::from_secs(1)));
        health.failed("x", "boom", t0);
        assert_eq!(health.next_retry(), Some(t0 + Duration::from_secs(2)));
        health.failed("x", "boom", t0);
        assert_eq!(
            health.next_retry(),
            Some(t0 + Duration::from_secs(4)),
            "doubling"
        );
        assert_eq!(health.failed("x", "boom", t0), State::Quarantined);
        assert_eq!(health.next_retry(), Some(t0 + Duration::from_secs(100)));
        assert_eq!(
            health.troubled(),
            vec![("x".to_string(), State::Quarantined)]
        );
        assert_eq!(*changes.borrow(), 2, "two changes of state, not four");
        health.succeeded("x");
        assert_eq!(health.state("x"), State::Healthy);
        assert!(health.troubled().is_empty() && health.next_retry().is_none());
        assert_eq!(*changes.borrow(), 3);
        health.succeeded("x");
        assert_eq!(*changes.borrow(), 3, "healthy stays quiet");
    }
}
