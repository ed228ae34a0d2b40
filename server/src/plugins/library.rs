//! Opening one plugin library and checking its header. A library, once opened, is
//! leaked: it is never unloaded (`dlclose` with thread-local destructors is a known
//! source of crashes), so the header and function pointers stay valid forever.

use plugin_abi::{
    entry_symbol, flags, op, status, ByteBuffer, EntryFn, HeaderPrefix, PluginHeader, ABI_MAJOR,
    ENTRY_SYMBOL, HEADER_SIZE_V1_0, MAGIC,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The largest answer accepted from a plugin.
pub const MAX_RESPONSE_BYTES: usize = 16 << 20;

/// The largest answer accepted for a hint: a hint reaches the player in one
/// WebSocket frame, whose envelope and the room's other fields must fit too.
pub const MAX_HINT_ANSWER_BYTES: usize = 8 << 10;

/// The largest answer accepted for operation `op_code`.
pub fn answer_cap(op_code: u32) -> usize {
    match op_code {
        op::HINT => MAX_HINT_ANSWER_BYTES,
        _ => MAX_RESPONSE_BYTES,
    }
}

/// A deadline as the ABI's `deadline_ms`: whole milliseconds, at least one.
pub fn deadline_ms(deadline: Duration) -> u64 {
    u64::try_from(deadline.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// An opened plugin whose header passed every check.
#[derive(Debug)]
pub struct Library {
    path: PathBuf,
    header: &'static PluginHeader,
}

/// The outcome of one raw call: a status code and the (copied) answer bytes.
#[derive(Debug)]
pub struct RawAnswer {
    /// One of `plugin_abi::status`.
    pub status: i32,
    /// The answer, copied out of the plugin's buffer.
    pub bytes: Vec<u8>,
}

impl Library {
    /// Opens `path` and checks magic, ABI major version, header size and flags.
    ///
    /// # Safety
    /// Opening a library runs its initialisers: only open files from directories
    /// the operator chose as plugin directories.
    pub unsafe fn open(path: &Path) -> Result<Library, String> {
        // SAFETY: the caller vouches for the directory; see above.
        let lib =
            unsafe { libloading::Library::new(path) }.map_err(|e| format!("cannot open: {e}"))?;
        // SAFETY: the symbol, if present, has the ABI's entry type.
        let entry = match unsafe { lib.get::<EntryFn>(ENTRY_SYMBOL) } {
            Ok(entry) => *entry,
            Err(_) => return Err(missing_entry(&lib)),
        };
        // SAFETY: calling the entry function has no preconditions.
        let header = unsafe { entry() };
        if header.is_null() {
            return Err("entry function returned a null header".into());
        }
        // Never unload: the header and functions must outlive every call.
        std::mem::forget(lib);
        // SAFETY: non-null, and the library stays mapped forever (leaked above).
        // Every header of every version starts with the prefix.
        let prefix: &'static HeaderPrefix = unsafe { &*header.cast::<HeaderPrefix>() };
        if prefix.magic != MAGIC {
            return Err("bad magic bytes in the plugin header".into());
        }
        if prefix.abi_major != ABI_MAJOR {
            return Err(format!(
                "plugin ABI {}.{}, this server speaks {ABI_MAJOR}.x",
                prefix.abi_major, prefix.abi_minor
            ));
        }
        // A 1.x header is at least as large as 1.0's; fields a later minor
        // appends are read only where `size` covers them.
        if (prefix.size as usize) < HEADER_SIZE_V1_0 {
            return Err(format!(
                "header size {} is smaller than ABI 1.0's {HEADER_SIZE_V1_0}",
                prefix.size
            ));
        }
        // SAFETY: magic, major and size say this is a v1 header of at least the
        // 1.0 layout, which is all `PluginHeader` declares today.
        let header: &'static PluginHeader = unsafe { &*header };
        if header.flags & flags::PANIC_UNWIND == 0 {
            return Err(
                "built with panic=abort: a panic would kill the server; rebuild with panic=unwind"
                    .into(),
            );
        }
        if header.flags & flags::THREAD_SAFE == 0 {
            return Err("does not declare itself thread-safe".into());
        }
        Ok(Library {
            path: path.to_path_buf(),
            header,
        })
    }

    /// The header's [`flags`] bits.
    pub fn flags(&self) -> u32 {
        self.header.flags
    }

    /// The file the plugin came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Calls operation `op` with `request`. Answers over the operation's
    /// [`answer_cap`] are refused (and still freed by the plugin).
    pub fn call(&self, op: u32, request: &[u8], deadline: Duration) -> Result<RawAnswer, String> {
        let max_len = answer_cap(op);
        let mut out = ByteBuffer::EMPTY;
        let millis = deadline_ms(deadline);
        // SAFETY: the request is lent for the call; `out` is a valid slot; the
        // function pointer is valid forever (library leaked).
        let code = unsafe {
            (self.header.functions.call)(op, request.as_ptr(), request.len(), millis, &mut out)
        };
        let copied = if out.len > max_len {
            Err(format!(
                "answer of {} bytes exceeds the {max_len}-byte cap",
                out.len
            ))
        } else if out.len == 0 {
            Ok(Vec::new())
        } else if out.ptr.is_null() {
            Err("null answer buffer with a non-zero length".to_string())
        } else {
            // SAFETY: the plugin owns `len` readable bytes at `ptr` until freed.
            Ok(unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec())
        };
        if !out.ptr.is_null() {
            // SAFETY: the buffer came from this plugin and is freed once.
            unsafe { (self.header.functions.free)(out) };
        }
        let bytes = copied?;
        if !(status::OK..=status::DEADLINE).contains(&code) {
            return Err(format!("unknown status code {code}"));
        }
        Ok(RawAnswer {
            status: code,
            bytes,
        })
    }
}

/// The highest ABI major whose entry symbol a refused library is probed for.
const HIGHEST_PROBED_MAJOR: u16 = 16;

/// Why a library without this ABI's entry symbol is refused: it exports another
/// major version's entry (named as such), or none at all.
fn missing_entry(lib: &libloading::Library) -> String {
    let other = (0..=HIGHEST_PROBED_MAJOR)
        .filter(|&m| m != ABI_MAJOR)
        .find(|&m| {
            let name = format!("{}\0", entry_symbol(m));
            // SAFETY: only the symbol's presence is checked; it is never called.
            unsafe { lib.get::<*const ()>(name.as_bytes()) }.is_ok()
        });
    match other {
        Some(major) => format!(
            "a plugin for ABI major {major} ({}), this server speaks {ABI_MAJOR}.x",
            entry_symbol(major)
        ),
        None => format!(
            "not a Sudoku Arena plugin (no {} symbol)",
            entry_symbol(ABI_MAJOR)
        ),
    }
}
