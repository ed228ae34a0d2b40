//! The exported side of the C ABI: the header, the `call` dispatcher and the
//! buffer `free`. Nothing here may unwind into the host: every call runs inside
//! `catch_unwind`, and a caught panic's payload is forgotten rather than dropped
//! (dropping it could panic again).

use crate::ops::{handle, Failure};
use crate::Plugin;
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

/// Runs one ABI call for the plugin `get` returns (building it on first use,
/// inside the call's `catch_unwind`).
///
/// # Safety
/// `request` must point to `request_len` readable bytes (or be null with length 0)
/// for the duration of the call; `response` must be valid for one write.
pub unsafe fn dispatch(
    get: fn() -> &'static Plugin,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use plugin_abi::op;
    use protocol::plugin::{GenerateRequest, GenerateResponse, Manifest, Params};

    /// A variant whose model panics, and one that works.
    struct Exploding;
    struct Tiny;

    fn manifest(id: &str) -> Manifest {
        Manifest {
            id: id.into(),
            name: id.into(),
            rules: String::new(),
            params: vec![],
            difficulties: crate::standard_difficulties(),
            clues: Vec::new(),
        }
    }

    impl Variant for Exploding {
        fn manifest(&self) -> Manifest {
            // Declared clues: the manifest itself never needs the model.
            Manifest {
                clues: crate::standard_clues(
                    &Params::new(),
                    16,
                    4,
                    &crate::standard_difficulties(),
                ),
                ..manifest("exploding")
            }
        }
        fn model(&self, _: &Params) -> Result<engine::Model, engine::PuzzleError> {
            panic!("boom in model")
        }
    }

    impl Variant for Tiny {
        fn manifest(&self) -> Manifest {
            manifest("tiny")
        }
        fn model(&self, _: &Params) -> Result<engine::Model, engine::PuzzleError> {
            engine::geometry::classic(2, 2)
        }
    }

    fn exploding() -> &'static Plugin {
        static PLUGIN: std::sync::OnceLock<Plugin> = std::sync::OnceLock::new();
        PLUGIN.get_or_init(|| Plugin::new(Box::new(Exploding)))
    }

    fn tiny() -> &'static Plugin {
        static PLUGIN: std::sync::OnceLock<Plugin> = std::sync::OnceLock::new();
        PLUGIN.get_or_init(|| Plugin::new(Box::new(Tiny)))
    }

    /// Calls through `dispatch` like the host does; returns status and body.
    fn call(get: fn() -> &'static Plugin, op_code: u32, request: &[u8]) -> (i32, Vec<u8>) {
        let mut out = ByteBuffer::EMPTY;
        // SAFETY: request and out are valid for the call.
        let code = unsafe {
            dispatch(
                get,
                op_code,
                request.as_ptr(),
                request.len(),
                1000,
                &mut out,
            )
        };
        // SAFETY: `out` was just written by `dispatch`.
        let body = unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec();
        // SAFETY: the buffer came from this crate and is freed once.
        unsafe { free_buffer(out) };
        (code, body)
    }

    fn generate_request() -> Vec<u8> {
        rmp_serde::to_vec_named(&GenerateRequest {
            minimal: false,
            params: Params::new(),
            difficulty: "easy".into(),
            seed: "s".into(),
        })
        .expect("encode")
    }

    #[test]
    fn a_panic_becomes_a_panicked_answer() {
        let (code, body) = call(exploding, op::GENERATE, &generate_request());
        assert_eq!(code, status::PANICKED);
        let e: ErrorResponse = rmp_serde::from_slice(&body).expect("error body");
        assert!(e.message.contains("boom in model"), "{}", e.message);
        // The same plugin still answers other calls.
        let (code, _) = call(exploding, op::MANIFEST, &[]);
        assert_eq!(code, status::OK);
    }

    #[test]
    fn generate_manifest_and_bad_input() {
        let (code, body) = call(tiny, op::GENERATE, &generate_request());
        assert_eq!(code, status::OK);
        let g: GenerateResponse = rmp_serde::from_slice(&body).expect("answer");
        assert_eq!(g.puzzle.variant.as_deref(), Some("tiny"));
        assert_eq!(g.puzzle.size, 4);
        let (code, _) = call(tiny, op::GENERATE, &[0xc1]);
        assert_eq!(code, status::BAD_REQUEST);
        let (code, _) = call(tiny, 42, &[]);
        assert_eq!(code, status::UNSUPPORTED);
        // A null request with a length is refused, not dereferenced.
        let mut out = ByteBuffer::EMPTY;
        // SAFETY: the null pointer is the point of the test; `out` is valid.
        let code = unsafe { dispatch(tiny, op::GENERATE, std::ptr::null(), 5, 0, &mut out) };
        assert_eq!(code, status::BAD_REQUEST);
        // SAFETY: freed once.
        unsafe { free_buffer(out) };
        // A null answer slot is refused outright.
        // SAFETY: nothing is written through the null pointer.
        let code = unsafe {
            dispatch(
                tiny,
                op::MANIFEST,
                std::ptr::null(),
                0,
                0,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(code, status::BAD_REQUEST);
    }

    #[test]
    fn header_declares_unwind_and_thread_safety() {
        unsafe extern "C" fn noop(
            _: u32,
            _: *const u8,
            _: usize,
            _: u64,
            _: *mut ByteBuffer,
        ) -> i32 {
            0
        }
        let h = header(noop);
        assert_eq!(h.magic, MAGIC);
        assert_eq!(h.flags & flags::PANIC_UNWIND, flags::PANIC_UNWIND);
        assert_eq!(h.flags & flags::THREAD_SAFE, flags::THREAD_SAFE);
    }
}
