//! What the process's allocator lets the server do, installed by whoever
//! chose the allocator: switch a thread's allocation cache, and tell the
//! heap's size.
//!
//! The `arena` binary runs on jemalloc with thread caches on: they make
//! CPU-bound work (counting, grading, generating) about a third faster. A
//! cache keeps freed blocks for its thread, though, and on a thread that
//! then idles they pin the pages they sit on. So the server's long-lived
//! threads (the async runtime's, the database's) turn theirs off at start and
//! turn it on only around CPU-bound work ([`with_cache`]), flushing it after.
//! The heap's figures ([`heap`]) go to `/metrics`, to tell live data from
//! pages the allocator keeps.
//!
//! The library does not know the allocator: the binary [`install`]s its
//! [`Hooks`]; without them (tests, benches, another embedder) switching does
//! nothing and [`heap`] says nothing.

use std::sync::OnceLock;

/// What the binary's allocator provides.
#[derive(Clone, Copy, Debug)]
pub struct Hooks {
    /// Turns the calling thread's allocation cache on (`true`) or off
    /// (`false`, which also gives back what it holds).
    pub set_thread_cache: fn(bool),
    /// The heap's figures now, if the allocator can tell.
    pub heap: fn() -> Option<Heap>,
}

/// The heap's size, in bytes, as the allocator counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heap {
    /// Bytes in live allocations.
    pub allocated: u64,
    /// Bytes in pages holding live allocations (allocated plus the free
    /// space inside those pages).
    pub active: u64,
    /// Bytes the allocator holds in physical memory (active, its own
    /// metadata, and free pages not given back yet).
    pub resident: u64,
}

static HOOKS: OnceLock<Hooks> = OnceLock::new();

/// Installs the process's hooks (the first ones installed stay).
pub fn install(hooks: Hooks) {
    let _ = HOOKS.set(hooks);
}

/// Turns the calling thread's cache off: for a thread that lives long and
/// mostly waits.
pub fn disable_on_this_thread() {
    switch_this_thread(false);
}

/// Turns the calling thread's cache on or off, through the installed hooks.
fn switch_this_thread(enabled: bool) {
    if let Some(hooks) = HOOKS.get() {
        (hooks.set_thread_cache)(enabled);
    }
}

/// Runs CPU-bound `work` with the calling thread's cache on, and off again
/// after (also when `work` panics).
pub fn with_cache<T>(work: impl FnOnce() -> T) -> T {
    /// Turns the cache off when dropped.
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            disable_on_this_thread();
        }
    }
    switch_this_thread(true);
    let _off = Off;
    work()
}

/// The heap's figures now, when the installed allocator tells them.
pub fn heap() -> Option<Heap> {
    HOOKS.get().and_then(|hooks| (hooks.heap)())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::cell::RefCell;

    thread_local! {
        /// What the switch was told on this thread, in order.
        static TOLD: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
    }

    /// A switch that records what it is told on each thread.
    fn record(enabled: bool) {
        TOLD.with(|t| t.borrow_mut().push(enabled));
    }

    /// What the recording switch was told on this thread.
    pub(crate) fn told() -> Vec<bool> {
        TOLD.with(|t| t.borrow().clone())
    }

    /// Hooks whose switch records what it is told; no heap figures.
    pub(crate) const RECORDING: Hooks = Hooks {
        set_thread_cache: record,
        heap: || None,
    };

    #[test]
    fn work_runs_with_the_cache_on_and_leaves_it_off_even_when_it_panics() {
        install(RECORDING);
        std::thread::spawn(|| {
            assert_eq!(with_cache(told), vec![true]);
            assert_eq!(told(), vec![true, false]);
            let panicked = std::panic::catch_unwind(|| with_cache(|| panic!("work failed")));
            assert!(panicked.is_err());
            assert_eq!(told(), vec![true, false, true, false]);
        })
        .join()
        .expect("the checks pass");
    }
}
