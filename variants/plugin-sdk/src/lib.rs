//! The Sudoku Arena plugin SDK: everything a variant crate needs.
//!
//! A variant implements [`Variant`] — its [`Manifest`], and either the engine
//! [`Model`](engine::Model) for a set of parameters (fixed rules) or its own
//! [`Variant::generate`] hook (rules that differ per puzzle, such as jigsaw
//! regions) — and invokes [`export_variant!`] once. The SDK does the rest:
//! - [`ffi`]: the exported C ABI (`plugin-abi`), with every call wrapped in
//!   `catch_unwind`, requests decoded and validated, answers encoded with named
//!   fields, and response buffers freed only by this plugin;
//! - [`ops`]: `generate`, `check`, `count`, `solve` and `hint` on top of the engine,
//!   the same for every variant (check/count/solve/hint read the rules from the v1
//!   puzzle itself);
//! - [`params`]: parameter resolution against the manifest (defaults filled,
//!   unknown keys and values refused);
//! - [`context`]: the [`GenerateContext`] a `generate` hook works in;
//! - [`local_rule`]: a rule the vocabulary lacks, as a predicate over a few
//!   cells, listed into a table constraint when the model is built;
//! - [`Plugin`]: a variant with its completed manifest (the standard clue ranges
//!   filled in when the variant declares none), built once per process.
//!
//! See `docs/writing-a-variant.md`.

/// Every plugin allocates with mimalloc: the logical solver's searches make
/// many small, short-lived allocations, where glibc's allocator took a fifth
/// of a killer's generation time. A plugin has its own allocator anyway (it
/// frees only what it allocated, through its own `free`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `arena_eager_commit` option (its number in `mimalloc.h`, v2 and v3).
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;

/// Sets the plugin's allocator options, once, before its first allocation (the
/// entry point [`export_variant!`] defines calls it first): arenas are committed
/// as they are used. Committed eagerly, on a system whose transparent huge pages
/// are always on, every plugin's first allocations made whole 2 MiB pages
/// resident: the server idled at 59 MiB instead of 21 with the bundled plugins,
/// and held 37 MiB more at 10,000 clients.
pub fn configure_allocator() {
    static CONFIGURED: std::sync::Once = std::sync::Once::new();
    CONFIGURED.call_once(|| {
        // SAFETY: called once, before this library allocates (options are not
        // thread-safe to set while others allocate).
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) }
    });
}

pub mod context;
pub mod ffi;
mod label;
pub mod local_rule;
pub mod ops;
pub mod params;

pub use context::{GenerateContext, GenerateError};
pub use engine;
pub use local_rule::local_rule;
pub use plugin_abi;
pub use protocol;
pub use protocol::plugin::{ClueRange, Manifest, ParamSpec, Params};
pub use protocol::ParamValue;

/// A Sudoku variant: what it is called, its rules, and how its puzzles are made.
pub trait Variant: Send + Sync + 'static {
    /// The variant's id, name, rules text, parameters, difficulties and clue
    /// policy (leave `clues` empty for the standard bands of each parameter set's
    /// model).
    fn manifest(&self) -> Manifest;

    /// The model for `params`, already checked against the manifest (every key
    /// present, every value allowed). A variant whose rules differ per puzzle
    /// has no fixed model: it keeps this default and implements
    /// [`generate`](Variant::generate).
    fn model(&self, params: &Params) -> Result<engine::Model, engine::PuzzleError> {
        let _ = params;
        Err(engine::PuzzleError::new(
            "this variant's rules differ per puzzle: it has no fixed model",
        ))
    }

    /// One unique puzzle for the context's parameters, difficulty and seed. The
    /// default is standard generation on [`model`](Variant::model), which every
    /// fixed-rule variant keeps.
    fn generate(&self, ctx: &GenerateContext) -> Result<engine::Generated, GenerateError> {
        ctx.standard(self.model(ctx.params())?)
    }
}

/// The four standard difficulties, easiest first, as manifest strings.
pub fn standard_difficulties() -> Vec<String> {
    engine::Difficulty::ALL
        .iter()
        .map(|d| d.to_string())
        .collect()
}

/// The engine's standard clue band of each of `difficulties` for a model of
/// `cells` active cells and values 1..=`size`, for the parameter sets matching
/// `when`.
pub fn standard_clues(
    when: &Params,
    cells: usize,
    size: u32,
    difficulties: &[String],
) -> Vec<ClueRange> {
    difficulties
        .iter()
        .filter_map(|name| {
            let d: engine::Difficulty = name.parse().ok()?;
            let (lo, hi) = d.clue_band(cells, size);
            Some(ClueRange {
                when: when.clone(),
                difficulty: name.clone(),
                min: lo as u32,
                max: hi as u32,
            })
        })
        .collect()
}

/// A variant with its completed manifest, computed once.
pub struct Plugin {
    variant: Box<dyn Variant>,
    manifest: Manifest,
}

impl Plugin {
    /// Wraps `variant`, completing its manifest: where it declares no clue
    /// ranges, each parameter set gets the standard bands of its model (a set
    /// whose model fails, or panics, gets none: generating it then fails with a
    /// clear error, and the other sets still work).
    pub fn new(variant: Box<dyn Variant>) -> Plugin {
        let mut manifest = variant.manifest();
        if manifest.clues.is_empty() {
            for params in manifest.parameter_sets() {
                let model = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    variant.model(&params)
                }));
                let model = match model {
                    Ok(model) => model,
                    Err(payload) => {
                        // Dropping a panic payload can panic again: forget it.
                        std::mem::forget(payload);
                        continue;
                    }
                };
                if let Ok(model) = model {
                    manifest.clues.extend(standard_clues(
                        &params,
                        model.cell_count(),
                        model.size(),
                        &manifest.difficulties,
                    ));
                }
            }
        }
        Plugin { variant, manifest }
    }

    /// The variant.
    pub fn variant(&self) -> &dyn Variant {
        self.variant.as_ref()
    }

    /// The completed manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
}

/// Exports a [`Variant`] as a plugin: defines the ABI entry symbol and its header.
/// Use once per crate, with an expression building the variant:
/// `plugin_sdk::export_variant!(XSudoku);`
#[macro_export]
macro_rules! export_variant {
    ($variant:expr) => {
        fn __sudoku_arena_plugin() -> &'static $crate::Plugin {
            static PLUGIN: ::std::sync::OnceLock<$crate::Plugin> = ::std::sync::OnceLock::new();
            PLUGIN.get_or_init(|| $crate::Plugin::new(::std::boxed::Box::new($variant)))
        }

        unsafe extern "C" fn __sudoku_arena_call(
            op: u32,
            request: *const u8,
            request_len: usize,
            deadline_ms: u64,
            response: *mut $crate::plugin_abi::ByteBuffer,
        ) -> i32 {
            // SAFETY: the host upholds the ABI contract documented on `CallFn`.
            unsafe {
                $crate::ffi::dispatch(
                    __sudoku_arena_plugin,
                    op,
                    request,
                    request_len,
                    deadline_ms,
                    response,
                )
            }
        }

        static __SUDOKU_ARENA_HEADER: $crate::plugin_abi::PluginHeader =
            $crate::ffi::header(__sudoku_arena_call);

        /// The plugin entry point (see `plugin-abi`).
        #[no_mangle]
        pub extern "C" fn sudoku_arena_plugin_v1() -> *const $crate::plugin_abi::PluginHeader {
            $crate::configure_allocator();
            &__SUDOKU_ARENA_HEADER
        }
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_allocator_commits_arenas_as_used() {
        super::configure_allocator();
        // SAFETY: reading an option is always allowed.
        let eager = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_ARENA_EAGER_COMMIT) };
        assert_eq!(eager, 0);
    }
}
