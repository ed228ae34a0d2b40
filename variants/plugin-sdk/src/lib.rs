//! The Sudoku Arena plugin SDK: everything a variant crate needs.
//!
//! A variant implements [`Variant`] — its [`Manifest`] and the engine
//! [`Model`](engine::Model) for a set of parameters — and invokes
//! [`export_variant!`] once. The SDK does the rest:
//! - [`ffi`]: the exported C ABI (`plugin-abi`), with every call wrapped in
//!   `catch_unwind`, requests decoded and validated, answers encoded with named
//!   fields, and response buffers freed only by this plugin;
//! - [`ops`]: `generate`, `check`, `count`, `solve` and `hint` on top of the engine,
//!   the same for every variant (check/count/solve/hint read the rules from the v1
//!   puzzle itself);
//! - [`params`]: parameter resolution against the manifest (defaults filled,
//!   unknown keys and values refused).
//!
//! See `docs/writing-a-variant.md`.

pub mod ffi;
pub mod ops;
pub mod params;

pub use engine;
pub use plugin_abi;
pub use protocol;
pub use protocol::plugin::{Manifest, ParamSpec, Params};
pub use protocol::ParamValue;

/// A Sudoku variant: what it is called, and its rules as an engine model.
pub trait Variant: Send + Sync + 'static {
    /// The variant's id, name, rules text, parameters and difficulties.
    fn manifest(&self) -> Manifest;

    /// The model for `params`, already checked against the manifest (every key
    /// present, every value allowed).
    fn model(&self, params: &Params) -> Result<engine::Model, engine::PuzzleError>;
}

/// The four standard difficulties, easiest first, as manifest strings.
pub fn standard_difficulties() -> Vec<String> {
    engine::Difficulty::ALL
        .iter()
        .map(|d| d.to_string())
        .collect()
}

/// Exports a [`Variant`] as a plugin: defines the ABI entry symbol and its header.
/// Use once per crate, with an expression building the variant:
/// `plugin_sdk::export_variant!(XSudoku);`
#[macro_export]
macro_rules! export_variant {
    ($variant:expr) => {
        fn __sudoku_arena_variant() -> &'static dyn $crate::Variant {
            static VARIANT: ::std::sync::OnceLock<::std::boxed::Box<dyn $crate::Variant>> =
                ::std::sync::OnceLock::new();
            VARIANT
                .get_or_init(|| ::std::boxed::Box::new($variant))
                .as_ref()
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
                    __sudoku_arena_variant,
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
            &__SUDOKU_ARENA_HEADER
        }
    };
}
