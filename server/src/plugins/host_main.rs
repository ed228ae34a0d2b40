//! The plugin-host mode (`arena plugin-host LIBRARY`): what runs inside a host
//! process. It limits itself, opens one plugin library, says whether it loaded,
//! then answers [`pipe`] requests from its standard input on its standard output,
//! one call at a time, until its input ends. A crash, a hang or a runaway
//! allocation here costs this process only; the server replaces it.
//!
//! Limits: the address space (`RLIMIT_AS`, so a huge allocation fails here), CPU
//! time per call (`RLIMIT_CPU` raised to the time used plus the call's deadline
//! before each call: a call that spins past it gets `SIGXCPU`), and the process
//! dies with the server (`PR_SET_PDEATHSIG`). What the plugin prints to standard
//! output goes to standard error: the frames have a descriptor of their own.

use super::library::Library;
use super::pipe::{self, Reply};
use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::os::fd::FromRawFd;
use std::path::Path;
use std::time::Duration;

/// The largest request a host reads (a 25x25 grid request is a few KiB).
pub const MAX_REQUEST_BYTES: usize = 4 << 20;

/// CPU seconds a call gets beyond its deadline before `SIGXCPU`.
const CPU_SLACK_SECONDS: u64 = 3;

/// The limits a host process puts on itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Address space in MiB (0: unlimited).
    pub memory_mb: u64,
}

/// Runs the host until its input ends; `Err` only if the frames cannot be set up.
pub fn run(library: &Path, limits: Limits) -> io::Result<()> {
    let frames = take_stdout_for_frames()?;
    die_with_parent();
    let mut out = BufWriter::new(frames);
    if let Err(e) = limit_memory(limits.memory_mb) {
        tracing::warn!(error = %e, "cannot limit the host's memory");
    }
    // SAFETY: the server names only libraries from the operator's plugin
    // directories (see `Library::open`).
    let library = match unsafe { Library::open(library) } {
        Ok(library) => library,
        Err(reason) => return pipe::write_reply(&mut out, &Reply::Refused(reason)),
    };
    pipe::write_reply(&mut out, &Reply::Ready(library.flags()))?;
    let mut input = BufReader::new(io::stdin().lock());
    while let Some(request) = pipe::read_request(&mut input, MAX_REQUEST_BYTES)? {
        let deadline = Duration::from_millis(request.deadline_ms);
        limit_cpu_for(deadline);
        let reply = match library.call(request.op, &request.body, deadline) {
            Ok(answer) => Reply::Answer {
                status: answer.status,
                bytes: answer.bytes,
            },
            Err(why) => Reply::Failure(why),
        };
        pipe::write_reply(&mut out, &reply)?;
    }
    Ok(())
}

/// Moves the frames to a descriptor of their own and points descriptor 1 at
/// standard error, so a plugin's `println!` cannot corrupt a frame.
fn take_stdout_for_frames() -> io::Result<File> {
    // SAFETY: plain descriptor calls on this process's own standard descriptors.
    unsafe {
        let frames = libc::dup(libc::STDOUT_FILENO);
        if frames < 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::dup2(libc::STDERR_FILENO, libc::STDOUT_FILENO) < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(File::from_raw_fd(frames))
    }
}

/// Asks the kernel to kill this process when the server thread that started it
/// ends (a plugin worker: it lives as long as the server) — Linux; elsewhere the
/// host ends when its input closes. A server already gone by then leaves this
/// process to init: it exits at once.
fn die_with_parent() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and nothing else;
    // getppid has no preconditions.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() == 1 {
            std::process::exit(0);
        }
    }
}

fn limit_memory(memory_mb: u64) -> io::Result<()> {
    if memory_mb == 0 {
        return Ok(());
    }
    let bytes = memory_mb.saturating_mul(1 << 20);
    set_soft_limit(libc::RLIMIT_AS, bytes)
}

/// Lets the coming call use its deadline (and some slack) of CPU time on top of
/// what this process used so far.
fn limit_cpu_for(deadline: Duration) {
    // SAFETY: getrusage fills the struct it is given.
    let used = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return;
        }
        // Rounded up to the next second.
        (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1).max(0) as u64
    };
    let budget = used + deadline.as_secs() + CPU_SLACK_SECONDS;
    if let Err(e) = set_soft_limit(libc::RLIMIT_CPU, budget) {
        tracing::debug!(error = %e, "cannot set the host's CPU limit");
    }
}

/// Sets a soft limit (never above the hard one).
fn set_soft_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    // SAFETY: getrlimit/setrlimit read and write the struct they are given.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(resource, &mut limit) != 0 {
            return Err(io::Error::last_os_error());
        }
        limit.rlim_cur = value.min(limit.rlim_max);
        if libc::setrlimit(resource, &limit) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
