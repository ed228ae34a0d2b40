//! Per-connection rate limiting: a token bucket refilled at a steady rate.

use std::time::Instant;

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
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
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
    }
}
