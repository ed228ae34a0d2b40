//! The plugin workers: a fixed set of persistent threads that run plugin calls,
//! so no caller's thread (and no async worker) ever runs plugin code. Jobs wait
//! in a bounded queue; a job that reaches a worker after its deadline is not run.
//! A plugin that hangs holds one worker until it returns; the others go on.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Work for a plugin worker: told whether it is still wanted (`false` once its
/// deadline has passed, so it can answer without calling the plugin).
pub type Job = Box<dyn FnOnce(bool) + Send + 'static>;

/// Jobs that may wait for a worker before new ones are refused.
const QUEUE: usize = 1024;

/// The worker threads and their queue.
#[derive(Debug)]
pub struct Workers {
    queue: SyncSender<(Instant, Job)>,
    size: usize,
}

impl Workers {
    /// Starts `size` (at least one) worker threads. A thread the system refuses
    /// is logged; with none at all, every call is refused as busy.
    pub fn new(size: usize) -> Arc<Workers> {
        let (queue, jobs) = sync_channel::<(Instant, Job)>(QUEUE);
        let jobs = Arc::new(Mutex::new(jobs));
        let mut started = 0;
        for n in 0..size.max(1) {
            let jobs = Arc::clone(&jobs);
            match std::thread::Builder::new()
                .name(format!("plugin-worker-{n}"))
                .spawn(move || work(&jobs))
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
    pub fn submit(&self, deadline: Instant, job: Job) -> bool {
        if self.size == 0 {
            return false;
        }
        match self.queue.try_send((deadline, job)) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
        }
    }
}

/// One worker's loop: take the next job, run it, until the pool is dropped.
fn work(jobs: &Mutex<Receiver<(Instant, Job)>>) {
    loop {
        let next = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok((deadline, job)) = next else {
            return;
        };
        job(Instant::now() < deadline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn jobs_run_on_persistent_workers_and_late_ones_are_skipped() {
        let workers = Workers::new(2);
        assert_eq!(workers.size(), 2);
        let (tx, rx) = channel();
        for n in 0..10 {
            let tx = tx.clone();
            let soon = Instant::now() + Duration::from_secs(30);
            assert!(workers.submit(
                soon,
                Box::new(move |wanted| {
                    let name = std::thread::current().name().unwrap_or("").to_string();
                    let _ = tx.send((n, wanted, name));
                })
            ));
        }
        let mut names: Vec<String> = (0..10)
            .map(|_| {
                let (_, wanted, name) = rx.recv().expect("a job ran");
                assert!(wanted);
                name
            })
            .collect();
        names.sort();
        names.dedup();
        assert!(names.len() <= 2, "ten jobs, two threads: {names:?}");
        let late = Instant::now() - Duration::from_millis(1);
        let tx2 = tx.clone();
        assert!(workers.submit(
            late,
            Box::new(move |wanted| {
                let _ = tx2.send((99, wanted, String::new()));
            })
        ));
        let (n, wanted, _) = rx.recv().expect("the late job is told");
        assert_eq!((n, wanted), (99, false));
    }
}
