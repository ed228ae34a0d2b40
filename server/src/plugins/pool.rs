//! A bounded pool for plugin calls: at most `size` calls run at once, each on its
//! own thread, so the async workers never block and a hung plugin holds one slot,
//! not the server.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Counts free slots.
#[derive(Debug)]
pub struct Pool {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A held slot; dropping it frees the slot.
#[derive(Debug)]
pub struct Slot {
    pool: Arc<Pool>,
}

impl Pool {
    /// A pool of `size` slots.
    pub fn new(size: usize) -> Arc<Pool> {
        Arc::new(Pool {
            free: Mutex::new(size.max(1)),
            freed: Condvar::new(),
        })
    }

    /// Waits up to `timeout` for a slot.
    pub fn acquire(self: &Arc<Pool>, timeout: Duration) -> Option<Slot> {
        let deadline = Instant::now() + timeout;
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        while *free == 0 {
            let left = deadline.checked_duration_since(Instant::now())?;
            free = self
                .freed
                .wait_timeout(free, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        *free -= 1;
        Some(Slot {
            pool: Arc::clone(self),
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut free = self.pool.free.lock().unwrap_or_else(|p| p.into_inner());
        *free += 1;
        self.pool.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_bounded_and_returned() {
        let pool = Pool::new(1);
        let slot = pool.acquire(Duration::ZERO).expect("one free slot");
        assert!(pool.acquire(Duration::from_millis(1)).is_none());
        drop(slot);
        assert!(pool.acquire(Duration::ZERO).is_some());
    }
}
