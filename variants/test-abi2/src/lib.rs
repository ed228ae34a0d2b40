//! A library that looks like a plugin for a future ABI major version 2: it exports
//! `sudoku_arena_plugin_v2` and no v1 entry. A v1 host must refuse it, naming the
//! version, rather than calling it "not a plugin". Only its symbol's presence is
//! ever checked; the header it points to is a bare prefix.

/// The header prefix every ABI major shares (see `plugin_abi::HeaderPrefix`).
#[repr(C)]
pub struct Prefix {
    magic: [u8; 8],
    abi_major: u16,
    abi_minor: u16,
    size: u32,
}

static PREFIX: Prefix = Prefix {
    magic: *b"SARENA\x00\x01",
    abi_major: 2,
    abi_minor: 0,
    size: std::mem::size_of::<Prefix>() as u32,
};

/// The ABI 2 entry point.
#[no_mangle]
pub extern "C" fn sudoku_arena_plugin_v2() -> *const Prefix {
    &PREFIX
}
