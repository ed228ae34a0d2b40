//! [`PluginHost`]: finds plugins in the plugin directories, keeps the ones that
//! pass every check (logging why others were refused), and runs typed calls on
//! them on its persistent worker threads, with a deadline and a response size cap:
//! blocking (`call`, for the CLI) or awaited (`call_async`, for the server, which
//! then never parks a thread waiting). Every answer is treated as untrusted input.

use super::library::{Library, RawAnswer};
use super::pool::Workers;
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

/// The largest answer accepted from a plugin.
pub const MAX_RESPONSE_BYTES: usize = 16 << 20;

/// How long a plugin has to describe itself at load time.
const MANIFEST_DEADLINE: Duration = Duration::from_secs(5);

/// Why a call produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PluginError {
    /// No plugin has this id.
    #[error("no variant '{0}' is loaded")]
    UnknownVariant(String),
    /// Every plugin worker is busy (hung plugins hold theirs until they return).
    #[error("{0}: every plugin worker is busy")]
    Busy(String),
    /// No answer within the deadline.
    #[error("{id}: no answer within {millis} ms")]
    Deadline {
        /// The plugin.
        id: String,
        /// The deadline.
        millis: u128,
    },
    /// The plugin does not know the operation.
    #[error("{0}: unsupported operation")]
    Unsupported(String),
    /// The plugin refused the request.
    #[error("{id}: {message}")]
    Rejected {
        /// The plugin.
        id: String,
        /// Its reason.
        message: String,
    },
    /// The plugin panicked (and caught it).
    #[error("{id}: the plugin panicked: {message}")]
    Panicked {
        /// The plugin.
        id: String,
        /// The panic message.
        message: String,
    },
    /// The answer could not be read (not MessagePack, wrong shape, too large…).
    #[error("{id}: unusable answer: {detail}")]
    Garbage {
        /// The plugin.
        id: String,
        /// What was wrong.
        detail: String,
    },
    /// A generated puzzle failed validation.
    #[error("{id}: generated an invalid puzzle: {detail}")]
    InvalidPuzzle {
        /// The plugin.
        id: String,
        /// What was wrong.
        detail: String,
    },
}

/// A library that was not loaded, and why.
#[derive(Debug, Clone)]
pub struct Refused {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}

#[derive(Debug)]
struct Loaded {
    library: Arc<Library>,
    manifest: Manifest,
}

/// The loaded plugins, by variant id.
#[derive(Debug)]
pub struct PluginHost {
    plugins: BTreeMap<String, Arc<Loaded>>,
    workers: Arc<Workers>,
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
    /// Loads every plugin in `dirs` (missing directories are skipped). Refused
    /// libraries are logged and returned; the rest load. With two plugins of the
    /// same id, the first (in directory order, then file name) wins. Test-only
    /// plugins load only with [`TestPlugins::Load`]; otherwise they are refused.
    pub fn load(
        dirs: &[PathBuf],
        workers: usize,
        test_plugins: TestPlugins,
    ) -> (PluginHost, Vec<Refused>) {
        let mut host = PluginHost {
            plugins: BTreeMap::new(),
            workers: Workers::new(workers),
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
                match host.load_one(&path, test_plugins) {
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

    fn load_one(&mut self, path: &Path, test_plugins: TestPlugins) -> Result<String, String> {
        // SAFETY: `path` is in a directory the operator named as a plugin directory.
        let library = unsafe { Library::open(path) }?;
        if library.test_only() && test_plugins == TestPlugins::Skip {
            return Err("a test-only plugin (loaded only by the test suite)".into());
        }
        let library = Arc::new(library);
        let worker_library = Arc::clone(&library);
        let answer = self
            .wait(MANIFEST_DEADLINE, move |deadline| {
                worker_library.call(op::MANIFEST, &[], deadline, MAX_RESPONSE_BYTES)
            })
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
                other.library.path().display()
            ));
        }
        let id = manifest.id.clone();
        self.plugins
            .insert(id.clone(), Arc::new(Loaded { library, manifest }));
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

    /// Queues `call` (given the time it has left) on a plugin worker; `done`
    /// gets its outcome, or `Deadline` if no worker took it in time.
    fn submit<T: Send + 'static>(
        &self,
        deadline: Duration,
        call: impl FnOnce(Duration) -> Result<T, String> + Send + 'static,
        done: impl FnOnce(Result<T, CallFailure>) + Send + 'static,
    ) -> bool {
        let until = Instant::now() + deadline;
        self.workers.submit(
            until,
            Box::new(move |wanted| {
                let left = until.saturating_duration_since(Instant::now());
                done(match wanted {
                    true => call(left).map_err(CallFailure::Garbage),
                    false => Err(CallFailure::Late),
                })
            }),
        )
    }

    /// Runs `call` on a worker and blocks this thread until its outcome or the
    /// deadline.
    fn wait<T: Send + 'static>(
        &self,
        deadline: Duration,
        call: impl FnOnce(Duration) -> Result<T, String> + Send + 'static,
    ) -> Result<T, CallFailure> {
        let (tx, rx) = mpsc::sync_channel(1);
        if !self.submit(deadline, call, move |outcome| {
            let _ = tx.send(outcome);
        }) {
            return Err(CallFailure::Busy);
        }
        rx.recv_timeout(deadline).unwrap_or(Err(CallFailure::Late))
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
        let call = raw_call(self.loaded(id)?, op_code, request);
        self.wait(deadline, call).map_err(|f| f.error(id, deadline))
    }

    /// [`PluginHost::call_raw`] for async callers: no thread waits for the answer.
    pub async fn call_raw_async(
        &self,
        id: &str,
        op_code: u32,
        request: Vec<u8>,
        deadline: Duration,
    ) -> Result<RawAnswer, PluginError> {
        let call = raw_call(self.loaded(id)?, op_code, request);
        let (tx, rx) = tokio::sync::oneshot::channel();
        if !self.submit(deadline, call, move |outcome| {
            let _ = tx.send(outcome);
        }) {
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

/// One raw call of `loaded`, to run on a worker with the time left.
fn raw_call(
    loaded: Arc<Loaded>,
    op_code: u32,
    request: Vec<u8>,
) -> impl FnOnce(Duration) -> Result<RawAnswer, String> + Send + 'static {
    move |left| {
        loaded
            .library
            .call(op_code, &request, left, MAX_RESPONSE_BYTES)
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

/// Why a call on a worker gave no answer.
enum CallFailure {
    /// Every worker is busy and the queue is full.
    Busy,
    /// No answer within the deadline (queued too long, or the plugin was slow).
    Late,
    /// The answer broke the ABI's rules.
    Garbage(String),
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
            message: message(),
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
