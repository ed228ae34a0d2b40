//! The plugin workers: a fixed set of persistent threads per plugin that run its
//! calls, so no caller's thread (and no async worker) ever runs plugin code, and
//! no plugin can take another's workers. Each thread owns a state `S` (in
//! process: nothing; isolated: its host process). Jobs wait in a bounded queue; a
//! job that reaches a worker after its deadline is not run.

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

/// The worker threads of one plugin and their queue.
#[derive(Debug)]
pub struct Workers<S> {
    queue: SyncSender<(Instant, Job<S>)>,
    size: usize,
}

impl<S: Send + 'static> Workers<S> {
    /// Starts `size` (at least one) worker threads named `name-N`, each with the
    /// state `state(N)` makes (on the new thread). A thread the system refuses is
    /// logged; with none at all, every call is refused as busy.
    pub fn new(
        size: usize,
        name: &str,
        state: impl Fn(usize) -> S + Send + Sync + 'static,
    ) -> Arc<Workers<S>> {
        let (queue, jobs) = sync_channel::<(Instant, Job<S>)>(QUEUE);
        let jobs = Arc::new(Mutex::new(jobs));
        let state = Arc::new(state);
        let mut started = 0;
        for n in 0..size.max(1) {
            let jobs = Arc::clone(&jobs);
            let state = Arc::clone(&state);
            match std::thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn(move || work(&jobs, state(n)))
            {
                Ok(_) => started += 1,
                Err(e) => tracing::error!(error = %e, "cannot start a plugin worker"),
            }
        }
        Arc::new(Workers {
            queue,
            size: started,
        })
    }

    /// How many worker threads run calls.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Queues `job`, to run before `deadline` (after it, the job is told it is no
    /// longer wanted). `false` when the queue is full.
    pub fn submit(&self, deadline: Instant, job: Job<S>) -> bool {
        if self.size == 0 {
            return false;
        }
        match self.queue.try_send((deadline, job)) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
        }
    }
}

/// One worker's loop: take the next job, run it on the worker's state, until the
/// pool is dropped.
fn work<S>(jobs: &Mutex<Receiver<(Instant, Job<S>)>>, mut state: S) {
    loop {
        let next = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok((deadline, job)) = next else {
            return;
        };
        job(&mut state, Instant::now() < deadline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn jobs_run_on_persistent_workers_and_late_ones_are_skipped() {
        let workers = Workers::new(2, "test-worker", |n| n);
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
}
