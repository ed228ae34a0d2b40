//! [`PluginHost`]: finds plugins in the plugin directories, keeps the ones that
//! pass every check (logging why others were refused), and runs typed calls on
//! them on its persistent worker threads, with a deadline and a response size cap:
//! blocking (`call`, for the CLI) or awaited (`call_async`, for the server, which
//! then never parks a thread waiting). Every answer is treated as untrusted input.

pub use super::error::PluginError;
use super::library::{Library, RawAnswer};
use super::pool::{CallFailure, Workers};
pub use super::process::HostStats;
use super::process::{HostCommand, HostEvents, HostProcess, HostSlot};
use super::validate;
use plugin_abi::{op, status};
use protocol::plugin::{ErrorResponse, GenerateRequest, GenerateResponse, Manifest};
use protocol::PuzzleV1;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

pub use super::library::{answer_cap, MAX_HINT_ANSWER_BYTES, MAX_RESPONSE_BYTES};

/// How long a plugin has to describe itself at load time.
const MANIFEST_DEADLINE: Duration = Duration::from_secs(5);

/// A library that was not loaded, and why.
#[derive(Debug, Clone)]
pub struct Refused {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}

/// How a plugin's calls run.
#[derive(Debug)]
enum Runner {
    /// In this process, on the plugin's own worker threads.
    InProcess(Arc<Library>, Arc<Workers<()>>),
    /// In host processes, one per worker thread.
    Isolated(Arc<Workers<HostSlot>>, Arc<HostEvents>),
}

#[derive(Debug)]
struct Loaded {
    path: PathBuf,
    runner: Runner,
    manifest: Manifest,
}

/// Where plugin calls run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Libraries are loaded into this process: for the CLI and for tests that
    /// want it. A plugin that crashes takes the process with it.
    InProcess,
    /// Each plugin runs in host processes started with this command: a crash or
    /// a hang costs that host only (what `arena serve` does by default).
    Processes(HostCommand),
}

/// How plugins are loaded and run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Worker threads per plugin. In process, all start with the plugin;
    /// isolated, one (with its host process) starts with it and more while calls
    /// wait for one, up to this many.
    pub workers: usize,
    /// Whether test-only plugins load.
    pub test_plugins: TestPlugins,
    /// Where calls run.
    pub isolation: Isolation,
}

/// The loaded plugins, by variant id.
#[derive(Debug)]
pub struct PluginHost {
    plugins: BTreeMap<String, Arc<Loaded>>,
}

/// The default plugin directories: the directory of the running executable (so
/// `target/release/arena` finds the plugins built beside it), then `./plugins`.
pub fn default_plugin_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        dirs.push(dir);
    }
    dirs.push(PathBuf::from("plugins"));
    dirs
}

/// The dynamic libraries directly inside `dir`, sorted by name. Other files are
/// skipped, each with a debug log line (`RUST_LOG=server=debug` lists them).
fn libraries_in(dir: &Path) -> Vec<PathBuf> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            tracing::debug!(dir = %dir.display(), error = %e, "plugin directory skipped");
            return Vec::new();
        }
    };
    let is_library = |p: &Path| {
        p.extension()
            .is_some_and(|x| x == std::env::consts::DLL_EXTENSION)
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(std::env::consts::DLL_PREFIX))
    };
    let mut files = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_file() && is_library(&path) {
            files.push(path);
        } else {
            tracing::debug!(path = %path.display(), "not a plugin library, skipped");
        }
    }
    files.sort();
    files
}

/// Whether plugins that declare themselves test-only load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestPlugins {
    /// Skip them (logged): what every real server does.
    Skip,
    /// Load them: for the host's own test suite.
    Load,
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl PluginHost {
    /// Loads every plugin in `dirs` into this process, with `workers` threads
    /// per plugin (see [`PluginHost::load_with`]).
    pub fn load(
        dirs: &[PathBuf],
        workers: usize,
        test_plugins: TestPlugins,
    ) -> (PluginHost, Vec<Refused>) {
        let options = LoadOptions {
            workers,
            test_plugins,
            isolation: Isolation::InProcess,
        };
        PluginHost::load_with(dirs, &options)
    }

    /// Loads every plugin in `dirs` (missing directories are skipped). Refused
    /// libraries are logged and returned; the rest load. With two plugins of the
    /// same id, the first (in directory order, then file name) wins. Test-only
    /// plugins load only with [`TestPlugins::Load`]; otherwise they are refused.
    pub fn load_with(dirs: &[PathBuf], options: &LoadOptions) -> (PluginHost, Vec<Refused>) {
        let mut host = PluginHost {
            plugins: BTreeMap::new(),
        };
        let mut refused = Vec::new();
        let mut seen = Vec::new();
        for dir in dirs {
            for path in libraries_in(dir) {
                let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
                if seen.contains(&canonical) {
                    tracing::debug!(path = %path.display(), "already loaded from another directory");
                    continue;
                }
                seen.push(canonical);
                match host.load_one(&path, options) {
                    Ok(id) => {
                        tracing::info!(plugin = %id, path = %path.display(), "loaded variant plugin")
                    }
                    Err(reason) => {
                        tracing::warn!(path = %path.display(), %reason, "refused plugin");
                        refused.push(Refused { path, reason });
                    }
                }
            }
        }
        (host, refused)
    }

    fn load_one(&mut self, path: &Path, options: &LoadOptions) -> Result<String, String> {
        let test_only = |flags: u32| {
            if flags & plugin_abi::flags::TEST_ONLY != 0
                && options.test_plugins == TestPlugins::Skip
            {
                return Err("a test-only plugin (loaded only by the test suite)".to_string());
            }
            Ok(())
        };
        let workers = options.workers;
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("plugin")
            .to_string();
        let runner = match &options.isolation {
            Isolation::InProcess => {
                // SAFETY: `path` is in a directory the operator named as a plugin directory.
                let library = unsafe { Library::open(path) }?;
                test_only(library.flags())?;
                // All at once, before any call: a thread started later, while
                // the plugin's allocator (mimalloc v3) serves other threads,
                // crashed in its first allocation (seen in the conformance suite).
                // Isolated workers never run plugin code, so they can grow.
                let pool = Workers::new(workers, workers, &name, |_| ());
                Runner::InProcess(Arc::new(library), pool)
            }
            Isolation::Processes(command) => {
                // A probe host says whether the library loads and what its flags
                // are, then goes. Each worker starts its own host on its own
                // thread: a host dies with the thread that started it
                // (PR_SET_PDEATHSIG), and worker threads live as long as the host.
                let (probe, flags) = HostProcess::start(command, path)?;
                drop(probe);
                test_only(flags)?;
                let events = Arc::new(HostEvents::default());
                let (command, library, slot_events) = (
                    Arc::new(command.clone()),
                    path.to_path_buf(),
                    Arc::clone(&events),
                );
                let pool = Workers::new(1, workers, &name, move |_| {
                    // A relay that mostly waits on its host: no allocation
                    // cache to pin pages (the work runs in the host).
                    crate::allocator::disable_on_this_thread();
                    let (command, events) = (Arc::clone(&command), Arc::clone(&slot_events));
                    HostSlot::new(command, library.clone(), events)
                });
                Runner::Isolated(pool, events)
            }
        };
        let answer = runner
            .wait(op::MANIFEST, Vec::new(), MANIFEST_DEADLINE)
            .map_err(|f| format!("manifest: {}", f.error("(loading)", MANIFEST_DEADLINE)))?;
        if answer.status != status::OK {
            return Err(format!("manifest failed with status {}", answer.status));
        }
        let manifest: Manifest = rmp_serde::from_slice(&answer.bytes)
            .map_err(|e| format!("manifest is not readable: {e}"))?;
        if !valid_id(&manifest.id) {
            return Err(format!(
                "invalid variant id {:?} (a-z, 0-9, '-', at most 40)",
                manifest.id
            ));
        }
        if let Some(other) = self.plugins.get(&manifest.id) {
            return Err(format!(
                "variant id '{}' is already provided by {}",
                manifest.id,
                other.path.display()
            ));
        }
        let id = manifest.id.clone();
        let loaded = Loaded {
            path: path.to_path_buf(),
            runner,
            manifest,
        };
        self.plugins.insert(id.clone(), Arc::new(loaded));
        Ok(id)
    }

    /// The manifests of the loaded plugins, by id.
    pub fn manifests(&self) -> impl Iterator<Item = &Manifest> {
        self.plugins.values().map(|p| &p.manifest)
    }

    /// The manifest of one plugin.
    pub fn manifest(&self, id: &str) -> Option<&Manifest> {
        self.plugins.get(id).map(|p| &p.manifest)
    }

    /// What one plugin's host processes went through; `None` for an unknown or
    /// in-process plugin.
    pub fn host_stats(&self, id: &str) -> Option<HostStats> {
        match &self.plugins.get(id)?.runner {
            Runner::InProcess(..) => None,
            Runner::Isolated(_, events) => Some(events.snapshot()),
        }
    }

    /// Sends raw request bytes and returns the raw answer, blocking this thread
    /// (the CLI, conformance tests).
    pub fn call_raw(
        &self,
        id: &str,
        op_code: u32,
        request: Vec<u8>,
        deadline: Duration,
    ) -> Result<RawAnswer, PluginError> {
        self.loaded(id)?
            .runner
            .wait(op_code, request, deadline)
            .map_err(|f| f.error(id, deadline))
    }

    /// [`PluginHost::call_raw`] for async callers: no thread waits for the answer.
    pub async fn call_raw_async(
        &self,
        id: &str,
        op_code: u32,
        request: Vec<u8>,
        deadline: Duration,
    ) -> Result<RawAnswer, PluginError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let submitted =
            self.loaded(id)?
                .runner
                .submit(op_code, request, deadline, move |outcome| {
                    let _ = tx.send(outcome);
                });
        if !submitted {
            return Err(CallFailure::Busy.error(id, deadline));
        }
        let outcome = match tokio::time::timeout(deadline, rx).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) | Err(_) => Err(CallFailure::Late),
        };
        outcome.map_err(|f| f.error(id, deadline))
    }

    fn loaded(&self, id: &str) -> Result<Arc<Loaded>, PluginError> {
        self.plugins
            .get(id)
            .cloned()
            .ok_or_else(|| PluginError::UnknownVariant(id.to_string()))
    }

    /// Calls operation `op_code` with `request` and decodes the answer as `Resp`,
    /// blocking this thread.
    pub fn call<Req: Serialize, Resp: DeserializeOwned>(
        &self,
        id: &str,
        op_code: u32,
        request: &Req,
        deadline: Duration,
    ) -> Result<Resp, PluginError> {
        let answer = self.call_raw(id, op_code, encode(id, request)?, deadline)?;
        decode(id, &answer, deadline)
    }

    /// [`PluginHost::call`] for async callers.
    pub async fn call_async<Req: Serialize, Resp: DeserializeOwned>(
        &self,
        id: &str,
        op_code: u32,
        request: &Req,
        deadline: Duration,
    ) -> Result<Resp, PluginError> {
        let bytes = encode(id, request)?;
        let answer = self.call_raw_async(id, op_code, bytes, deadline).await?;
        decode(id, &answer, deadline)
    }

    /// Generates a puzzle and validates it (well-formed, inside the engine's
    /// limits, the variant's own id, a solution that keeps every rule, unique).
    pub fn generate(
        &self,
        id: &str,
        request: &GenerateRequest,
        deadline: Duration,
    ) -> Result<PuzzleV1, PluginError> {
        let answer: GenerateResponse = self.call(id, op::GENERATE, request, deadline)?;
        checked(id, answer.puzzle)
    }

    /// [`PluginHost::generate`] for async callers.
    pub async fn generate_async(
        &self,
        id: &str,
        request: &GenerateRequest,
        deadline: Duration,
    ) -> Result<PuzzleV1, PluginError> {
        let answer: GenerateResponse = self.call_async(id, op::GENERATE, request, deadline).await?;
        checked(id, answer.puzzle)
    }
}

impl Runner {
    /// Queues one call on this plugin's workers; `done` gets its outcome, or
    /// `Late` if no worker took it in time. `false` if the queue is full.
    fn submit(
        &self,
        op_code: u32,
        request: Vec<u8>,
        deadline: Duration,
        done: impl FnOnce(Result<RawAnswer, CallFailure>) + Send + 'static,
    ) -> bool {
        let until = Instant::now() + deadline;
        match self {
            Runner::InProcess(library, workers) => {
                let library = Arc::clone(library);
                workers.submit(
                    until,
                    Box::new(move |_, wanted| {
                        let left = until.saturating_duration_since(Instant::now());
                        done(match wanted {
                            true => library
                                .call(op_code, &request, left)
                                .map_err(CallFailure::Garbage),
                            false => Err(CallFailure::Late),
                        })
                    }),
                )
            }
            Runner::Isolated(workers, _) => workers.submit(
                until,
                Box::new(move |slot: &mut HostSlot, wanted| {
                    done(match wanted {
                        true => slot.call(op_code, request, until),
                        false => Err(CallFailure::Late),
                    })
                }),
            ),
        }
    }

    /// Runs one call and blocks this thread until its outcome or the deadline.
    fn wait(
        &self,
        op_code: u32,
        request: Vec<u8>,
        deadline: Duration,
    ) -> Result<RawAnswer, CallFailure> {
        let (tx, rx) = mpsc::sync_channel(1);
        if !self.submit(op_code, request, deadline, move |outcome| {
            let _ = tx.send(outcome);
        }) {
            return Err(CallFailure::Busy);
        }
        rx.recv_timeout(deadline).unwrap_or(Err(CallFailure::Late))
    }
}

/// A generated puzzle, if it passes [`validate::generated`].
fn checked(id: &str, puzzle: PuzzleV1) -> Result<PuzzleV1, PluginError> {
    validate::generated(id, &puzzle).map_err(|detail| PluginError::InvalidPuzzle {
        id: id.to_string(),
        detail,
    })?;
    Ok(puzzle)
}

impl CallFailure {
    fn error(self, id: &str, deadline: Duration) -> PluginError {
        let id = id.to_string();
        match self {
            CallFailure::Busy => PluginError::Busy(id),
            CallFailure::Late => PluginError::Deadline {
                id,
                millis: deadline.as_millis(),
            },
            CallFailure::Garbage(detail) => PluginError::Garbage { id, detail },
            CallFailure::Crashed(detail) => PluginError::Crashed { id, detail },
        }
    }
}

/// A request as MessagePack with named fields.
fn encode<Req: Serialize>(id: &str, request: &Req) -> Result<Vec<u8>, PluginError> {
    rmp_serde::to_vec_named(request).map_err(|e| PluginError::Rejected {
        id: id.to_string(),
        message: format!("cannot encode the request: {e}"),
    })
}

/// A plugin's answer decoded as `Resp`, or the error its status stands for.
fn decode<Resp: DeserializeOwned>(
    id: &str,
    answer: &RawAnswer,
    deadline: Duration,
) -> Result<Resp, PluginError> {
    let message = || {
        rmp_serde::from_slice::<ErrorResponse>(&answer.bytes)
            .map(|e| e.message)
            .unwrap_or_else(|_| "(no readable message)".to_string())
    };
    let id = id.to_string();
    match answer.status {
        status::OK => rmp_serde::from_slice(&answer.bytes).map_err(|e| PluginError::Garbage {
            id,
            detail: format!("cannot decode the answer: {e}"),
        }),
        status::UNSUPPORTED => Err(PluginError::Unsupported(id)),
        status::PANICKED => Err(PluginError::Panicked {
            id,
            message: message()
                .trim_start_matches("the plugin panicked: ")
                .to_string(),
        }),
        status::DEADLINE => Err(PluginError::Deadline {
            id,
            millis: deadline.as_millis(),
        }),
        _ => Err(PluginError::Rejected {
            id,
            message: message(),
        }),
    }
}
