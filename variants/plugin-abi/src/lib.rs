//! The Sudoku Arena plugin ABI, version 1: everything that crosses the boundary
//! between the server and a variant plugin (a `cdylib`).
//!
//! A plugin exports one symbol, [`ENTRY_SYMBOL`], an [`EntryFn`] returning a pointer
//! to a static [`PluginHeader`]. The header carries [`MAGIC`], the ABI version, its
//! own size, [`flags`] and a [`FunctionTable`]. Requests and responses are
//! MessagePack byte buffers (types in the `protocol` crate); only plain C types and
//! byte buffers cross the boundary. The host lends request bytes for one call; the
//! plugin allocates the response and only the plugin's `free` releases it.
//!
//! Versioning: the major version is in the symbol name; a minor version only ever
//! appends fields to the end of the header (hosts check `size` before reading
//! them), op codes to [`op`], flag bits to [`flags`] and optional message fields.
//! Every major version starts its header with the same [`HeaderPrefix`], so a
//! host can read any header's version before trusting the rest of its layout.
//! See `docs/plugin-abi.md`.

/// The exported entry symbol (NUL-terminated for `dlsym`).
pub const ENTRY_SYMBOL: &[u8] = b"sudoku_arena_plugin_v1\0";

/// The first bytes of every header.
pub const MAGIC: [u8; 8] = *b"SARENA\x00\x01";

/// ABI major version: changes only with a new entry symbol.
pub const ABI_MAJOR: u16 = 1;

/// ABI minor version: appended fields and op codes.
///
/// - 1.0: the header, ops 1-6.
/// - 1.1: [`flags::TEST_ONLY`]; the manifest's optional `clues` (the clue range
///   of each difficulty).
pub const ABI_MINOR: u16 = 1;

/// The entry symbol of ABI major `major` (`sudoku_arena_plugin_v<major>`), without
/// the NUL. Hosts look for other majors' symbols only to say why they refuse a
/// library.
pub fn entry_symbol(major: u16) -> String {
    format!("sudoku_arena_plugin_v{major}")
}

/// Header flags.
pub mod flags {
    /// Built with `panic = "unwind"`: panics can be caught inside the plugin. A host
    /// refuses a plugin without it.
    pub const PANIC_UNWIND: u32 = 1 << 0;
    /// Every function may be called from several threads at once.
    pub const THREAD_SAFE: u32 = 1 << 1;
    /// A plugin for the host's own tests (since 1.1): a host loads it only when
    /// told to, so it never reaches a player.
    pub const TEST_ONLY: u32 = 1 << 2;
}

/// Operation codes for [`FunctionTable::call`].
pub mod op {
    /// Describe the variant: `()` -> `Manifest`.
    pub const MANIFEST: u32 = 1;
    /// `GenerateRequest` -> `GenerateResponse`.
    pub const GENERATE: u32 = 2;
    /// `GridRequest` -> `CheckResponse`.
    pub const CHECK: u32 = 3;
    /// `CountRequest` -> `CountResponse`.
    pub const COUNT: u32 = 4;
    /// `SolveRequest` -> `SolveResponse`.
    pub const SOLVE: u32 = 5;
    /// `GridRequest` -> `HintResponse`.
    pub const HINT: u32 = 6;
}

/// Status codes returned by [`FunctionTable::call`].
pub mod status {
    /// Success: the response buffer holds the answer.
    pub const OK: i32 = 0;
    /// The request was understood but failed: the buffer holds an `ErrorResponse`.
    pub const ERROR: i32 = 1;
    /// Unknown operation code: the buffer may be empty.
    pub const UNSUPPORTED: i32 = 2;
    /// The request could not be decoded or broke a rule: `ErrorResponse`.
    pub const BAD_REQUEST: i32 = 3;
    /// The plugin panicked and caught it: `ErrorResponse` with the message.
    pub const PANICKED: i32 = 4;
    /// The deadline passed before an answer: `ErrorResponse`.
    pub const DEADLINE: i32 = 5;
}

/// A byte buffer allocated by the plugin. Release it only with the same plugin's
/// [`FunctionTable::free`].
#[repr(C)]
#[derive(Debug)]
pub struct ByteBuffer {
    /// Start of the bytes (may be null when `len` is 0).
    pub ptr: *mut u8,
    /// Number of bytes.
    pub len: usize,
    /// Allocation size, for the plugin's own `free`.
    pub capacity: usize,
}

impl ByteBuffer {
    /// An empty buffer (nothing to free).
    pub const EMPTY: ByteBuffer = ByteBuffer {
        ptr: std::ptr::null_mut(),
        len: 0,
        capacity: 0,
    };
}

/// `call(op, request, request_len, deadline_ms, response) -> status`.
///
/// The request bytes are lent for the call. `deadline_ms` is the time the plugin
/// has, from the call, before the host gives up on the answer. The plugin writes
/// its answer to `*response` (always, even if empty) and returns a [`status`].
pub type CallFn = unsafe extern "C" fn(
    op: u32,
    request: *const u8,
    request_len: usize,
    deadline_ms: u64,
    response: *mut ByteBuffer,
) -> i32;

/// Releases a buffer the same plugin returned.
pub type FreeFn = unsafe extern "C" fn(buffer: ByteBuffer);

/// The plugin's functions.
#[repr(C)]
#[derive(Debug)]
pub struct FunctionTable {
    /// Runs one operation.
    pub call: CallFn,
    /// Frees a response buffer.
    pub free: FreeFn,
}

/// The first 16 bytes of every plugin header, in every ABI major version: read
/// these before anything else, and the rest only once `magic`, `abi_major` and
/// `size` say the layout is one the host knows.
#[repr(C)]
#[derive(Debug)]
pub struct HeaderPrefix {
    /// Always [`MAGIC`].
    pub magic: [u8; 8],
    /// The ABI major version the plugin was built with.
    pub abi_major: u16,
    /// The ABI minor version the plugin was built with.
    pub abi_minor: u16,
    /// The size of the whole header in the plugin's build.
    pub size: u32,
}

/// The size of a version 1.0 header: the smallest `size` a v1 host accepts.
/// Fields a later 1.x appends lie past it, and a host reads them only where the
/// plugin's `size` covers them.
pub const HEADER_SIZE_V1_0: usize =
    std::mem::offset_of!(PluginHeader, functions) + std::mem::size_of::<FunctionTable>();

/// What the entry symbol returns a pointer to (static, valid for the life of the
/// process). It starts with the fields of [`HeaderPrefix`].
#[repr(C)]
#[derive(Debug)]
pub struct PluginHeader {
    /// Always [`MAGIC`].
    pub magic: [u8; 8],
    /// [`ABI_MAJOR`] the plugin was built with.
    pub abi_major: u16,
    /// [`ABI_MINOR`] the plugin was built with.
    pub abi_minor: u16,
    /// `size_of::<PluginHeader>()` in the plugin's build; fields past it are absent.
    pub size: u32,
    /// [`flags`] bits.
    pub flags: u32,
    /// The functions (new ones are appended in later minor versions).
    pub functions: FunctionTable,
}

/// The type of [`ENTRY_SYMBOL`].
pub type EntryFn = unsafe extern "C" fn() -> *const PluginHeader;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_stable() {
        // magic 8 + versions 4 + size 4 + flags 4 + padding 4 + two pointers.
        let ptr = std::mem::size_of::<usize>();
        assert_eq!(std::mem::size_of::<PluginHeader>(), 24 + 2 * ptr);
        assert_eq!(std::mem::size_of::<ByteBuffer>(), 3 * ptr);
        assert_eq!(ENTRY_SYMBOL.last(), Some(&0));
        assert_eq!(HEADER_SIZE_V1_0, 24 + 2 * ptr);
        assert_eq!(std::mem::size_of::<HeaderPrefix>(), 16);
        assert_eq!(std::mem::offset_of!(PluginHeader, flags), 16);
        assert_eq!(
            entry_symbol(ABI_MAJOR).as_bytes(),
            &ENTRY_SYMBOL[..ENTRY_SYMBOL.len() - 1]
        );
    }
}
