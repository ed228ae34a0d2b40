//! Rate limiting: a token bucket refilled at a steady rate, and a set of buckets
//! by key (per identity, per IP address) that forgets keys whose bucket is full;
//! and the most players a room seats.

use dashmap::DashMap;
use std::hash::Hash;
use std::time::Instant;

/// The most players a room may hold.
pub const MAX_PLAYERS: u32 = 16;

/// A token bucket.
#[derive(Debug)]
pub struct Bucket {
    capacity: f64,
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket of `burst` tokens refilled at `per_second`.
    pub fn new(burst: u32, per_second: f64) -> Bucket {
        Bucket {
            capacity: f64::from(burst),
            per_second,
            tokens: f64::from(burst),
            last: Instant::now(),
        }
    }

    /// Takes a token at `now`; `false` when the bucket is empty.
    pub fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Puts back a token taken for something that turned out not to count.
    pub fn give_back(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.capacity);
    }

    /// Whether the bucket is full again at `now` (it then says nothing a new
    /// bucket would not).
    pub fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.capacity
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
    }
}

/// A burst and a steady rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Tokens a fresh bucket holds.
    pub burst: u32,
    /// Tokens added per second.
    pub per_second: f64,
}

/// Keys whose buckets are kept before full ones are swept out.
const SWEEP_ABOVE: usize = 4096;

/// The least time between two sweeps (a sweep visits every key).
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// One token bucket per key, shared by every connection: reconnecting does not
/// give a fresh burst. Memory stays bounded by the keys active recently: once
/// there are many keys, those whose buckets have refilled are forgotten, at most
/// once a second (so a crowd of keys costs one pass a second, not one per take).
#[derive(Debug)]
pub struct KeyedBuckets<K: Eq + Hash> {
    rate: Rate,
    buckets: DashMap<K, Bucket>,
    last_sweep: std::sync::Mutex<Option<Instant>>,
}

impl<K: Eq + Hash + Clone> KeyedBuckets<K> {
    /// Buckets of `rate`, none yet.
    pub fn new(rate: Rate) -> KeyedBuckets<K> {
        KeyedBuckets {
            rate,
            buckets: DashMap::new(),
            last_sweep: std::sync::Mutex::new(None),
        }
    }

    /// Takes a token from `key`'s bucket at `now`; `false` when it is empty.
    pub fn take(&self, key: &K, now: Instant) -> bool {
        if self.buckets.len() > SWEEP_ABOVE && self.sweep_due(now) {
            self.buckets.retain(|_, b| !b.is_full(now));
        }
        self.buckets
            .entry(key.clone())
            .or_insert_with(|| Bucket::new(self.rate.burst, self.rate.per_second))
            .take(now)
    }

    /// Puts back a token taken from `key`'s bucket (see [`Bucket::give_back`]).
    pub fn give_back(&self, key: &K) {
        if let Some(mut bucket) = self.buckets.get_mut(key) {
            bucket.give_back();
        }
    }

    /// Whether a sweep may run at `now` (and if so, records it).
    fn sweep_due(&self, now: Instant) -> bool {
        let mut last = self.last_sweep.lock().unwrap_or_else(|p| p.into_inner());
        let due = last.is_none_or(|t| now.saturating_duration_since(t) >= SWEEP_EVERY);
        if due {
            *last = Some(now);
        }
        due
    }

    /// Keys held right now.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn bursts_then_refills() {
        let start = Instant::now();
        let mut b = Bucket::new(3, 10.0);
        assert!((0..3).all(|_| b.take(start)));
        assert!(!b.take(start));
        assert!(b.take(start + Duration::from_millis(100)));
        assert!(!b.take(start + Duration::from_millis(100)));
        assert!(!b.is_full(start + Duration::from_millis(100)));
        assert!(b.is_full(start + Duration::from_secs(1)));
    }

    #[test]
    fn a_token_given_back_can_be_taken_again_but_never_overfills() {
        let start = Instant::now();
        let keyed = KeyedBuckets::new(Rate {
            burst: 1,
            per_second: 0.0,
        });
        assert!(keyed.take(&"a", start));
        assert!(!keyed.take(&"a", start));
        keyed.give_back(&"a");
        assert!(keyed.take(&"a", start), "the token came back");
        let mut full = Bucket::new(2, 0.0);
        full.give_back();
        assert!(full.take(start) && full.take(start) && !full.take(start));
    }

    #[test]
    fn keyed_buckets_share_a_key_and_forget_full_ones() {
        let start = Instant::now();
        let keyed = KeyedBuckets::new(Rate {
            burst: 2,
            per_second: 1.0,
        });
        assert!(keyed.take(&"a", start) && keyed.take(&"a", start));
        assert!(!keyed.take(&"a", start), "the same key shares one bucket");
        assert!(keyed.take(&"b", start), "another key has its own");
        let many = KeyedBuckets::new(Rate {
            burst: 1,
            per_second: 1.0,
        });
        for n in 0..=SWEEP_ABOVE {
            many.take(&n, start);
        }
        assert_eq!(many.len(), SWEEP_ABOVE + 1);
        // Above the mark, a take sweeps; nothing has refilled after 0.5 s.
        many.take(&(SWEEP_ABOVE + 1), start + Duration::from_millis(500));
        assert_eq!(many.len(), SWEEP_ABOVE + 2);
        // At 1.2 s most buckets are full again, but the last sweep was 0.7 s ago.
        many.take(&(SWEEP_ABOVE + 2), start + Duration::from_millis(1200));
        assert_eq!(many.len(), SWEEP_ABOVE + 3, "at most one sweep a second");
        many.take(&usize::MAX, start + Duration::from_secs(3));
        assert_eq!(many.len(), 1, "refilled buckets are forgotten");
    }
}
