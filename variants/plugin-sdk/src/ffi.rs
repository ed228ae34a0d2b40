//! The exported side of the C ABI: the header, the `call` dispatcher and the
//! buffer `free`. Nothing here may unwind into the host: every call runs inside
//! `catch_unwind`, and a caught panic's payload is forgotten rather than dropped
//! (dropping it could panic again).

use crate::ops::{handle, Failure};
use crate::Variant;
use plugin_abi::{
    flags, status, ByteBuffer, CallFn, FunctionTable, PluginHeader, ABI_MAJOR, ABI_MINOR, MAGIC,
};
use protocol::plugin::ErrorResponse;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The header a plugin exports, around its `call` function.
pub const fn header(call: CallFn) -> PluginHeader {
    let unwind = if cfg!(panic = "unwind") {
        flags::PANIC_UNWIND
    } else {
        0
    };
    PluginHeader {
        magic: MAGIC,
        abi_major: ABI_MAJOR,
        abi_minor: ABI_MINOR,
        size: std::mem::size_of::<PluginHeader>() as u32,
        flags: unwind | flags::THREAD_SAFE,
        functions: FunctionTable {
            call,
            free: free_buffer,
        },
    }
}

/// Frees a buffer this plugin returned.
///
/// # Safety
/// `buffer` must come from this plugin's `call` and be freed once.
pub unsafe extern "C" fn free_buffer(buffer: ByteBuffer) {
    if !buffer.ptr.is_null() {
        // SAFETY: built by `into_buffer` from a Vec of this length and capacity.
        drop(unsafe { Vec::from_raw_parts(buffer.ptr, buffer.len, buffer.capacity) });
    }
}

fn into_buffer(bytes: Vec<u8>) -> ByteBuffer {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    ByteBuffer {
        ptr: bytes.as_mut_ptr(),
        len: bytes.len(),
        capacity: bytes.capacity(),
    }
}

fn error_body(message: String) -> Vec<u8> {
    rmp_serde::to_vec_named(&ErrorResponse { message }).unwrap_or_default()
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-text panic payload".to_string()
    }
}

/// Runs one ABI call for the variant `get` returns.
///
/// # Safety
/// `request` must point to `request_len` readable bytes (or be null with length 0)
/// for the duration of the call; `response` must be valid for one write.
pub unsafe fn dispatch(
    get: fn() -> &'static dyn Variant,
    op: u32,
    request: *const u8,
    request_len: usize,
    deadline_ms: u64,
    response: *mut ByteBuffer,
) -> i32 {
    if response.is_null() {
        return status::BAD_REQUEST;
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let bytes: &[u8] = if request_len == 0 {
            &[]
        } else if request.is_null() {
            return Err(Failure {
                status: status::BAD_REQUEST,
                message: "null request with a non-zero length".into(),
            });
        } else {
            // SAFETY: the caller lends `request_len` bytes for this call.
            unsafe { std::slice::from_raw_parts(request, request_len) }
        };
        let deadline =
            (deadline_ms > 0).then(|| Instant::now() + Duration::from_millis(deadline_ms));
        handle(get(), op, bytes, deadline)
    }));
    let (code, body) = match outcome {
        Ok(Ok(body)) => (status::OK, body),
        Ok(Err(failure)) => (failure.status, error_body(failure.message)),
        Err(payload) => {
            let text = panic_text(payload.as_ref());
            std::mem::forget(payload);
            (
                status::PANICKED,
                error_body(format!("the plugin panicked: {text}")),
            )
        }
    };
    // SAFETY: checked non-null above; the caller provides one writable slot.
    unsafe { response.write(into_buffer(body)) };
    code
}
