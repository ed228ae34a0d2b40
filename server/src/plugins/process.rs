//! Plugin host processes, seen from the server: [`HostProcess`] starts `arena
//! plugin-host LIBRARY` and makes calls on it over [`pipe`] frames; [`HostSlot`]
//! is one worker's host, replaced when it dies or overruns a deadline.
//!
//! A call past its deadline (plus [`KILL_GRACE`], for a plugin that answers its
//! own `DEADLINE` status) kills the host and starts a new one at once: a hang
//! costs its deadline, never a worker. A host that dies during a call is started
//! again at once the first time, then with a doubling backoff while it keeps
//! dying (up to [`MAX_BACKOFF`]); one good answer resets it.

use super::library::{deadline_ms, RawAnswer, MAX_RESPONSE_BYTES};
use super::pipe::{self, Reply, Request};
use super::pool::CallFailure;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a host may take to open its library and say so.
pub const START_DEADLINE: Duration = Duration::from_secs(10);

/// How long past a call's deadline a host may still answer before it is killed.
pub const KILL_GRACE: Duration = Duration::from_millis(250);

/// The longest wait before a host that keeps dying is started again.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// How long a host whose output closed may take to finish dying before it is
/// killed.
const EXIT_WAIT: Duration = Duration::from_millis(200);

/// The default address-space limit of a host process, in MiB.
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// How to start a host process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostCommand {
    /// The `arena` executable (its `plugin-host` subcommand).
    pub exe: PathBuf,
    /// The address-space limit of each host, in MiB (0: none).
    pub memory_mb: u64,
}

impl HostCommand {
    /// The running `arena` itself, with the default limits.
    pub fn current_exe() -> io::Result<HostCommand> {
        Ok(HostCommand {
            exe: std::env::current_exe()?,
            memory_mb: DEFAULT_MEMORY_MB,
        })
    }
}

/// What happened to one plugin's hosts, for metrics and readiness.
#[derive(Debug, Default)]
pub struct HostEvents {
    /// Hosts started (the first of each worker included).
    pub started: AtomicU64,
    /// Hosts that died during a call (crash, abort, signal).
    pub crashed: AtomicU64,
    /// Hosts killed for overrunning a deadline.
    pub killed: AtomicU64,
}

impl HostEvents {
    /// The counts now.
    pub fn snapshot(&self) -> HostStats {
        HostStats {
            started: self.started.load(Ordering::Relaxed),
            crashed: self.crashed.load(Ordering::Relaxed),
            killed: self.killed.load(Ordering::Relaxed),
        }
    }
}

/// What one plugin's host processes went through (a [`HostEvents`] snapshot,
/// as `/readyz` and the metrics show it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct HostStats {
    /// Hosts started.
    pub started: u64,
    /// Hosts that died during a call.
    pub crashed: u64,
    /// Hosts killed for overrunning a deadline.
    pub killed: u64,
}

/// One running host process.
#[derive(Debug)]
pub struct HostProcess {
    child: Child,
    input: ChildStdin,
    replies: Receiver<io::Result<Reply>>,
}

/// How a host ended a call: still usable, or gone.
enum Ending {
    Alive,
    Gone,
}

impl HostProcess {
    /// Starts a host for `library` and waits until it has opened it; returns
    /// the host and the library's header flags, or why the library was refused
    /// (or the host could not start).
    pub fn start(command: &HostCommand, library: &Path) -> Result<(HostProcess, u32), String> {
        let mut child = Command::new(&command.exe)
            .arg("plugin-host")
            .arg("--memory-mb")
            .arg(command.memory_mb.to_string())
            .arg(library)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command.exe.display()))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            kill(&mut child);
            return Err("the host's pipes were not set up".into());
        };
        let (tx, replies) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("plugin-host-reader".into())
            .spawn(move || {
                crate::allocator::disable_on_this_thread();
                let mut output = BufReader::new(output);
                loop {
                    let reply = match pipe::read_reply(&mut output, MAX_RESPONSE_BYTES + 4096) {
                        Ok(Some(reply)) => Ok(reply),
                        Ok(None) => Err(io::ErrorKind::UnexpectedEof.into()),
                        Err(e) => Err(e),
                    };
                    let last = reply.is_err();
                    if tx.send(reply).is_err() || last {
                        return;
                    }
                }
            });
        if let Err(e) = reader {
            kill(&mut child);
            return Err(format!("cannot start the host's reader: {e}"));
        }
        let mut host = HostProcess {
            child,
            input,
            replies,
        };
        match host.replies.recv_timeout(START_DEADLINE) {
            Ok(Ok(Reply::Ready(flags))) => Ok((host, flags)),
            Ok(Ok(Reply::Refused(why))) => Err(why),
            Ok(Ok(other)) => Err(format!("the host said {other:?} before it was ready")),
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                Err(format!("the host {}", host.death()))
            }
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut host.child);
                Err(format!(
                    "the host did not open the library within {} s",
                    START_DEADLINE.as_secs()
                ))
            }
        }
    }

    /// One call: `deadline` is the time the plugin has.
    fn call(
        &mut self,
        op: u32,
        body: Vec<u8>,
        deadline: Duration,
    ) -> (Result<RawAnswer, CallFailure>, Ending) {
        let request = Request {
            op,
            deadline_ms: deadline_ms(deadline),
            body,
        };
        if pipe::write_request(&mut self.input, &request).is_err() {
            return (Err(CallFailure::Crashed(self.death())), Ending::Gone);
        }
        match self.replies.recv_timeout(deadline + KILL_GRACE) {
            Ok(Ok(Reply::Answer { status, bytes })) => {
                (Ok(RawAnswer { status, bytes }), Ending::Alive)
            }
            Ok(Ok(Reply::Failure(why))) => (Err(CallFailure::Garbage(why)), Ending::Alive),
            Ok(Ok(other)) => {
                kill(&mut self.child);
                let why = format!("the host answered out of turn: {other:?}");
                (Err(CallFailure::Garbage(why)), Ending::Gone)
            }
            Ok(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                kill(&mut self.child);
                (Err(CallFailure::Garbage(e.to_string())), Ending::Gone)
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                (Err(CallFailure::Crashed(self.death())), Ending::Gone)
            }
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut self.child);
                (Err(CallFailure::Late), Ending::Gone)
            }
        }
    }

    /// How the host ended (it is reaped; killed first if it was still running).
    fn death(&mut self) -> String {
        // The output closes a moment before a dying process can be reaped:
        // give it that moment, then make sure (it may have closed its output
        // and gone on running).
        let exiting = Instant::now() + EXIT_WAIT;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < exiting => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                _ => {
                    kill(&mut self.child);
                    break self.child.try_wait().ok().flatten();
                }
            }
        };
        status.map_or_else(|| "stopped".to_string(), describe)
    }
}

impl Drop for HostProcess {
    fn drop(&mut self) {
        kill(&mut self.child);
    }
}

/// Kills and reaps `child` (nothing if it already exited).
fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// How a host process ended, in words.
fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        let name = match signal {
            libc::SIGSEGV => " (SIGSEGV: invalid memory access)",
            libc::SIGABRT => " (SIGABRT: aborted)",
            libc::SIGBUS => " (SIGBUS)",
            libc::SIGILL => " (SIGILL)",
            libc::SIGFPE => " (SIGFPE)",
            libc::SIGKILL => " (SIGKILL)",
            libc::SIGXCPU => " (SIGXCPU: CPU time limit)",
            _ => "",
        };
        format!("crashed: killed by signal {signal}{name}")
    } else {
        match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "exited".to_string(),
        }
    }
}

/// One worker's host: started with the worker, replaced after it dies or
/// overruns a deadline.
#[derive(Debug)]
pub struct HostSlot {
    command: Arc<HostCommand>,
    library: PathBuf,
    process: Option<HostProcess>,
    crashes: u32,
    retry_at: Instant,
    events: Arc<HostEvents>,
}

impl HostSlot {
    /// A slot for `library`, its host started at once (on the calling thread,
    /// which the host will not outlive: call it on the worker's own thread).
    pub fn new(command: Arc<HostCommand>, library: PathBuf, events: Arc<HostEvents>) -> HostSlot {
        let mut slot = HostSlot {
            command,
            library,
            process: None,
            crashes: 0,
            retry_at: Instant::now(),
            events,
        };
        slot.start();
        slot
    }

    /// Calls `op` with `body`, answering by `until` (plus [`KILL_GRACE`] when
    /// the host has to be killed).
    pub fn call(
        &mut self,
        op: u32,
        body: Vec<u8>,
        until: Instant,
    ) -> Result<RawAnswer, CallFailure> {
        if self.process.is_none() {
            let wait = self.retry_at.saturating_duration_since(Instant::now());
            if Instant::now() + wait >= until {
                return Err(CallFailure::Crashed(format!(
                    "the plugin keeps crashing; its next start is in {} ms",
                    wait.as_millis()
                )));
            }
            std::thread::sleep(wait);
            self.start();
        }
        let Some(process) = self.process.as_mut() else {
            return Err(CallFailure::Crashed(
                "the plugin's host cannot start".into(),
            ));
        };
        let left = until.saturating_duration_since(Instant::now());
        let (outcome, ending) = process.call(op, body, left);
        match (&outcome, ending) {
            (Ok(_), _) => self.crashes = 0,
            (Err(CallFailure::Late), Ending::Gone) => {
                self.events.killed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(library = %self.library.display(), "plugin host overran its deadline; killed and replaced");
                self.process = None;
                self.start();
            }
            (Err(failure), Ending::Gone) => {
                self.events.crashed.fetch_add(1, Ordering::Relaxed);
                self.crashes += 1;
                let backoff = backoff(self.crashes);
                tracing::error!(library = %self.library.display(), ?failure, backoff_ms = backoff.as_millis() as u64, "plugin host died during a call; it will be replaced");
                self.process = None;
                self.retry_at = Instant::now() + backoff;
                if backoff.is_zero() {
                    self.start();
                }
            }
            (Err(_), Ending::Alive) => {}
        }
        outcome
    }

    /// Starts a host; if it cannot, logs why and backs off.
    fn start(&mut self) {
        match HostProcess::start(&self.command, &self.library) {
            Ok((process, _)) => {
                self.events.started.fetch_add(1, Ordering::Relaxed);
                self.process = Some(process);
            }
            Err(why) => {
                self.crashes += 1;
                self.retry_at =
                    Instant::now() + backoff(self.crashes).max(Duration::from_millis(100));
                tracing::error!(library = %self.library.display(), %why, "cannot start a plugin host");
            }
        }
    }
}

/// The wait before starting a host again after its `crashes`-th death in a row:
/// none after the first, then 100 ms doubling up to [`MAX_BACKOFF`].
pub fn backoff(crashes: u32) -> Duration {
    if crashes <= 1 {
        return Duration::ZERO;
    }
    doubling(Duration::from_millis(100), crashes - 2, MAX_BACKOFF)
}

/// `first` doubled `times` times, at most `cap` (the one back-off curve: the
/// hosts' restarts here, the pool's retries of a failing variant).
pub fn doubling(first: Duration, times: u32, cap: Duration) -> Duration {
    first.saturating_mul(1 << times.min(16)).min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_from_nothing_to_its_cap() {
        assert_eq!(backoff(0), Duration::ZERO);
        assert_eq!(backoff(1), Duration::ZERO);
        assert_eq!(backoff(2), Duration::from_millis(100));
        assert_eq!(backoff(3), Duration::from_millis(200));
        assert_eq!(backoff(12), MAX_BACKOFF);
        assert_eq!(backoff(u32::MAX), MAX_BACKOFF);
    }
}
