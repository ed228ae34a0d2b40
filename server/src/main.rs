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
/// overrides them): one arena and no per-thread caches, so that nothing a
/// thread cached pins a page once play stops; freed pages given back about a
/// second after they empty, by jemalloc's own background thread.
#[cfg(target_os = "linux")]
#[export_name = "malloc_conf"]
pub static MALLOC_CONF: &[u8; 83] =
    b"narenas:1,tcache:false,background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

fn main() -> ExitCode {
    server::cli::main()
}
