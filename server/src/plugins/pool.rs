//! The plugin workers: persistent threads per plugin (one, and more up to a
//! maximum while calls wait) that run its calls, so no caller's thread (and no async worker) ever runs plugin code, and
//! no plugin can take another's workers. Each thread owns a state `S` (in
//! process: nothing; isolated: its host process). Jobs wait in a bounded queue; a
//! job that reaches a worker after its deadline is not run.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Work for a plugin worker: given the worker's state and told whether it is
/// still wanted (`false` once its deadline has passed, so it can answer without
/// calling the plugin).
pub type Job<S> = Box<dyn FnOnce(&mut S, bool) + Send + 'static>;

/// Jobs that may wait for one plugin's workers before new ones are refused.
const QUEUE: usize = 256;

/// Why a call on a worker gave no answer.
#[derive(Debug)]
pub enum CallFailure {
    /// Every worker is busy and the queue is full.
    Busy,
    /// No answer within the deadline (queued too long, or the plugin was slow).
    Late,
    /// The answer broke the ABI's rules.
    Garbage(String),
    /// The plugin's host process died during the call (or cannot start yet).
    Crashed(String),
}

/// A job with the time it must start by.
type Queued<S> = (Instant, Job<S>);

/// The queue's receiving end, shared by a plugin's workers.
type Jobs<S> = Arc<Mutex<Receiver<Queued<S>>>>;

/// Makes a worker's state, given the worker's number, on the worker's thread.
type MakeState<S> = dyn Fn(usize) -> S + Send + Sync;

/// The worker threads of one plugin and their queue: one to start with, more
/// (up to a maximum) when a call arrives and none is idle. Threads are never
/// retired: a plugin that was busy once keeps its workers.
pub struct Workers<S> {
    queue: SyncSender<Queued<S>>,
    jobs: Jobs<S>,
    state: Arc<MakeState<S>>,
    name: String,
    max: usize,
    started: AtomicUsize,
    counts: Arc<Counts>,
}

/// Workers waiting for a job, and jobs waiting for a worker.
#[derive(Debug, Default)]
struct Counts {
    idle: AtomicUsize,
    queued: AtomicUsize,
}

impl<S> std::fmt::Debug for Workers<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workers")
            .field("name", &self.name)
            .field("started", &self.started)
            .field("max", &self.max)
            .finish()
    }
}

impl<S: Send + 'static> Workers<S> {
    /// Starts `min` worker threads (at least one) named `name-N`, up to `max`
    /// as load needs them, each with the state `state(N)` makes (on the new
    /// thread). A thread the system refuses is logged; with none at all, every
    /// call is refused as busy.
    pub fn new(
        min: usize,
        max: usize,
        name: &str,
        state: impl Fn(usize) -> S + Send + Sync + 'static,
    ) -> Arc<Workers<S>> {
        let (queue, jobs) = sync_channel::<Queued<S>>(QUEUE);
        let min = min.max(1);
        let workers = Workers {
            queue,
            jobs: Arc::new(Mutex::new(jobs)),
            state: Arc::new(state),
            name: name.to_string(),
            max: max.max(min),
            started: AtomicUsize::new(0),
            counts: Arc::new(Counts::default()),
        };
        for _ in 0..min {
            workers.start_one();
        }
        Arc::new(workers)
    }

    /// Starts one more worker thread unless the maximum runs; `false` if not.
    fn start_one(&self) -> bool {
        let n = self.started.fetch_add(1, Ordering::SeqCst);
        if n >= self.max {
            self.started.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        let (jobs, state, counts) = (
            Arc::clone(&self.jobs),
            Arc::clone(&self.state),
            Arc::clone(&self.counts),
        );
        // Counted idle from the start: it takes a job as soon as it is up.
        self.counts.idle.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name(format!("{}-{n}", self.name))
            .spawn(move || work(&jobs, &counts, state(n)));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start a plugin worker");
            self.counts.idle.fetch_sub(1, Ordering::SeqCst);
            self.started.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        true
    }

    /// How many worker threads run calls.
    pub fn size(&self) -> usize {
        self.started.load(Ordering::SeqCst)
    }

    /// Queues `job`, to run before `deadline` (after it, the job is told it is no
    /// longer wanted), starting another worker if more jobs wait than workers
    /// do. `false` when the queue is full.
    pub fn submit(&self, deadline: Instant, job: Job<S>) -> bool {
        if self.size() == 0 {
            return false;
        }
        // Counted before it can be taken, so a worker never counts it out first.
        let queued = self.counts.queued.fetch_add(1, Ordering::SeqCst) + 1;
        match self.queue.try_send((deadline, job)) {
            Ok(()) => {
                if queued > self.counts.idle.load(Ordering::SeqCst) {
                    self.start_one();
                }
                true
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.counts.queued.fetch_sub(1, Ordering::SeqCst);
                false
            }
        }
    }
}

/// One worker's loop: take the next job, run it on the worker's state, until the
/// pool is dropped.
fn work<S>(jobs: &Mutex<Receiver<Queued<S>>>, counts: &Counts, mut state: S) {
    loop {
        let next = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok((deadline, job)) = next else {
            return;
        };
        counts.idle.fetch_sub(1, Ordering::SeqCst);
        counts.queued.fetch_sub(1, Ordering::SeqCst);
        job(&mut state, Instant::now() < deadline);
        counts.idle.fetch_add(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn jobs_run_on_persistent_workers_and_late_ones_are_skipped() {
        let workers = Workers::new(2, 2, "test-worker", |n| n);
        assert_eq!(workers.size(), 2);
        let (tx, rx) = channel();
        for n in 0..10 {
            let tx = tx.clone();
            let soon = Instant::now() + Duration::from_secs(30);
            assert!(workers.submit(
                soon,
                Box::new(move |state: &mut usize, wanted| {
                    let name = std::thread::current().name().unwrap_or("").to_string();
                    let _ = tx.send((n, wanted, name, *state));
                })
            ));
        }
        let mut names: Vec<(String, usize)> = (0..10)
            .map(|_| {
                let (_, wanted, name, state) = rx.recv().expect("a job ran");
                assert!(wanted);
                (name, state)
            })
            .collect();
        names.sort();
        names.dedup();
        assert!(names.len() <= 2, "ten jobs, two threads: {names:?}");
        for (name, state) in &names {
            assert_eq!(
                name,
                &format!("test-worker-{state}"),
                "each thread its own state"
            );
        }
        let late = Instant::now() - Duration::from_millis(1);
        let tx2 = tx.clone();
        assert!(workers.submit(
            late,
            Box::new(move |_: &mut usize, wanted| {
                let _ = tx2.send((99, wanted, String::new(), 0));
            })
        ));
        let (n, wanted, _, _) = rx.recv().expect("the late job is told");
        assert_eq!((n, wanted), (99, false));
    }

    #[test]
    fn workers_are_added_while_calls_wait_up_to_the_maximum() {
        let workers = Workers::new(1, 3, "growing", |n| n);
        assert_eq!(workers.size(), 1, "one to start with");
        let soon = Instant::now() + Duration::from_secs(30);
        // Five calls that each hold their worker until released.
        let (release, held) = channel::<()>();
        let held = Arc::new(Mutex::new(held));
        let (running, started) = channel();
        for _ in 0..5 {
            let (held, running) = (Arc::clone(&held), running.clone());
            assert!(workers.submit(
                soon,
                Box::new(move |n: &mut usize, _| {
                    let _ = running.send(*n);
                    let _ = held.lock().map(|h| h.recv());
                })
            ));
        }
        let mut ran: Vec<usize> = (0..3).map(|_| started.recv().expect("runs")).collect();
        ran.sort_unstable();
        assert_eq!(ran, [0, 1, 2], "three workers run at once");
        assert_eq!(workers.size(), 3, "never more than the maximum");
        for _ in 0..5 {
            let _ = release.send(());
        }
        for _ in 0..2 {
            started.recv().expect("the waiting calls run too");
        }
    }
}
