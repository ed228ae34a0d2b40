//! The `arena` command: see `arena --help`.

use std::process::ExitCode;

/// The server allocates with jemalloc (every allocation in the process, C
/// libraries' too: SQLite's caches live on the blocking threads). On glibc's
/// allocator an idle server kept 4.5 MiB of anonymous memory after a minute of
/// play against 2.0 at start (jemalloc: 2.8): thread arenas' top chunks that
/// `malloc_trim` never shrinks, and chunks parked in each worker's cache
/// pinning the pages they sit on (docs/benchmarks.md, "Idle memory on
/// jemalloc").
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read when it starts (`MALLOC_CONF` in the environment
/// overrides them): one arena, so that no thread's arena idles half empty;
/// freed pages given back about a second after they empty, by jemalloc's own
/// background thread. Thread caches stay on (CPU-bound work is ~35% slower
/// without them); the server turns them off on its long-lived threads
/// through [`set_thread_cache`].
#[cfg(target_os = "linux")]
#[export_name = "malloc_conf"]
pub static MALLOC_CONF: &[u8; 70] =
    b"narenas:1,background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

/// Turns the calling thread's jemalloc cache on or off (off flushes it).
#[cfg(target_os = "linux")]
fn set_thread_cache(enabled: bool) {
    let status = jemalloc_write(c"thread.tcache.enabled", enabled);
    if status != 0 {
        tracing::debug!(status, enabled, "cannot switch the thread's cache");
    }
}

/// jemalloc's heap figures, refreshed (its statistics are a snapshot taken
/// when the `epoch` is advanced).
#[cfg(target_os = "linux")]
fn jemalloc_heap() -> Option<server::allocator::Heap> {
    if jemalloc_write(c"epoch", 1u64) != 0 {
        return None;
    }
    Some(server::allocator::Heap {
        allocated: jemalloc_size(c"stats.allocated")?,
        active: jemalloc_size(c"stats.active")?,
        resident: jemalloc_size(c"stats.resident")?,
    })
}

/// Writes `value` to jemalloc's control `name` (whose documented type `T`
/// must be: jemalloc refuses a value of another size with `EINVAL`); returns
/// jemalloc's status, 0 on success.
#[cfg(target_os = "linux")]
fn jemalloc_write<T: Copy>(name: &std::ffi::CStr, value: T) -> std::ffi::c_int {
    let mut value = value;
    // SAFETY: the new value points at a live `T` of the size given, read
    // only during the call; no old value is asked for.
    unsafe {
        tikv_jemalloc_sys::mallctl(
            name.as_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            (&raw mut value).cast(),
            std::mem::size_of::<T>(),
        )
    }
}

/// One of jemalloc's `size_t` statistics.
#[cfg(target_os = "linux")]
fn jemalloc_size(name: &std::ffi::CStr) -> Option<u64> {
    jemalloc_read::<usize>(name).map(|v| v as u64)
}

/// Reads jemalloc's control `name`, of documented type `T` (jemalloc refuses
/// a read of another size with `EINVAL`: then `None`).
#[cfg(target_os = "linux")]
fn jemalloc_read<T: Copy + Default>(name: &std::ffi::CStr) -> Option<T> {
    let mut value = T::default();
    let mut size = std::mem::size_of::<T>();
    // SAFETY: jemalloc writes at most `size` bytes into a live `T` of that
    // size; nothing is written to jemalloc.
    let status = unsafe {
        tikv_jemalloc_sys::mallctl(
            name.as_ptr(),
            (&raw mut value).cast(),
            &mut size,
            std::ptr::null_mut(),
            0,
        )
    };
    (status == 0).then_some(value)
}

fn main() -> ExitCode {
    #[cfg(target_os = "linux")]
    server::allocator::install(server::allocator::Hooks {
        set_thread_cache,
        heap: jemalloc_heap,
    });
    server::cli::main()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::{jemalloc_heap, jemalloc_read, set_thread_cache};

    /// Whether the calling thread's jemalloc cache is on, as jemalloc says.
    fn thread_cache_enabled() -> bool {
        jemalloc_read::<bool>(c"thread.tcache.enabled").expect("jemalloc answers")
    }

    #[test]
    fn the_switch_turns_this_threads_cache_off_and_on() {
        assert!(thread_cache_enabled(), "on by default");
        set_thread_cache(false);
        assert!(!thread_cache_enabled());
        let freed_while_off = vec![0u8; 100];
        drop(freed_while_off);
        set_thread_cache(true);
        assert!(thread_cache_enabled());
    }

    #[test]
    fn the_heap_figures_follow_a_large_allocation() {
        let before = jemalloc_heap().expect("jemalloc counts (its stats are built in)");
        assert!(before.allocated <= before.active && before.active <= before.resident);
        // 64 MiB, against 60 MiB of slack for what the test harness's other
        // threads allocate or free meanwhile.
        let block = vec![1u8; 64 << 20];
        let during = jemalloc_heap().expect("figures");
        assert!(
            during.allocated >= before.allocated + (60 << 20),
            "{before:?} {during:?}"
        );
        assert!(
            during.resident >= before.resident + (60 << 20),
            "{before:?} {during:?}"
        );
        drop(block);
        let after = jemalloc_heap().expect("figures");
        assert!(
            after.allocated + (60 << 20) <= during.allocated,
            "{during:?} {after:?}"
        );
    }
}
