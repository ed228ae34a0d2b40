//! A deliberately broken plugin for the host's tests, written against the raw ABI
//! (no SDK). Its manifest is valid; then:
//! - `generate` panics (caught here, so it answers `PANICKED`);
//! - `count` sleeps past any test deadline, then answers;
//! - `solve` answers `OK` with bytes that are not MessagePack;
//! - `check` answers `OK` with a 20 MiB buffer (over the host's cap);
//! - `hint` answers `OK` with valid MessagePack of the wrong shape;
//! - anything else is `UNSUPPORTED`.
//!
//! Difficulty `slow-hints` is the exception that lets a server test play it: its
//! `generate` answers one fixed, valid 4x4 puzzle, and `hint` on that puzzle
//! takes [`SLOW_HINT`] before it answers a correct step.
//!
//! The fault difficulties ([`FAULTS`]) do what a plugin that takes its host down
//! does, for the isolation tests: `generate` of `crash-segfault`, `crash-abort`,
//! `crash-stack` (overflow), `crash-alloc` (6 GiB, past a host's memory
//! limit), `hang` (sleeps past its deadline), `spin` (burns CPU past it) and
//! `garbage` does that; `hint-*` difficulties generate the
//! fixed 4x4 puzzle (labelled so), and `hint` on it does the fault named after
//! `hint-`, or `big` (a 40 KB answer). Never load this plugin in process for
//! these: it is meant to kill its host.
//!
//! `ARENA_TEST_HEADER` makes the entry point return a broken header instead (see
//! [`sudoku_arena_plugin_v1`]). It is not a default workspace member: `make test`
//! builds it for the tests only, and its header is flagged `TEST_ONLY`, so a host
//! loads it only when told to (`arena --test-plugins`), never for players.

use plugin_abi::{
    flags, op, status, ByteBuffer, FunctionTable, PluginHeader, ABI_MAJOR, ABI_MINOR, MAGIC,
};
use protocol::plugin::{
    ErrorResponse, GenerateRequest, GenerateResponse, GridRequest, Hint, HintKind, HintResponse,
    Manifest,
};
use protocol::{House, HouseKind, Layout, PuzzleV1, PUZZLE_FORMAT_V1};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// Bytes that are not MessagePack (0xc1 is never used).
const GARBAGE: [u8; 4] = [0xc1, 0xff, 0x00, 0x13];

/// How long `count` hangs.
const HANG: Duration = Duration::from_secs(3);

/// The difficulty whose puzzles play, with slow hints.
const SLOW_HINTS: &str = "slow-hints";

/// How long a hint on a `slow-hints` puzzle takes.
const SLOW_HINT: Duration = Duration::from_secs(2);

/// The faults a difficulty can ask for, in `generate` and, prefixed `hint-`,
/// in `hint`.
const FAULTS: [&str; 7] = [
    "crash-segfault",
    "crash-abort",
    "crash-stack",
    "crash-alloc",
    "hang",
    "spin",
    "garbage",
];

/// Does the fault `name` says; returns the answer of those that answer.
fn fault(name: &str, out: *mut ByteBuffer) -> i32 {
    match name {
        "crash-segfault" => {
            // SAFETY: none: this is the fault under test (a NULL dereference).
            unsafe { std::ptr::read_volatile(std::ptr::null::<u64>()) };
        }
        "crash-abort" => std::process::abort(),
        "crash-stack" => {
            overflow(std::hint::black_box(1));
        }
        "crash-alloc" => {
            // 6 GiB, zeroed (so nothing is touched): more than a host's default
            // 4 GiB address space, less than the machine would refuse on its
            // own — without the host's limit this succeeds and answers garbage.
            let huge: Vec<u8> = vec![0; std::hint::black_box(6 << 30)];
            std::hint::black_box(&huge);
        }
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        "spin" => loop {
            std::hint::black_box(std::time::Instant::now());
        },
        "big" => {
            let hint = HintResponse {
                hint: Some(Hint {
                    kind: HintKind::Reveal,
                    cell: [0, 0],
                    value: Some(1),
                    explanation: "x".repeat(40 << 10),
                    technique: String::new(),
                    clue: String::new(),
                    cells: vec![[0, 0]],
                    eliminations: Vec::new(),
                }),
            };
            answer(rmp_serde::to_vec_named(&hint).unwrap_or_default(), out);
            return status::OK;
        }
        _ => {}
    }
    answer(GARBAGE.to_vec(), out);
    status::OK
}

/// Recurses until the stack runs out.
#[allow(unconditional_recursion)]
fn overflow(n: u64) -> u64 {
    let frame = std::hint::black_box([n; 512]);
    overflow(frame[7] + 1) + frame[3]
}

/// The one `slow-hints` puzzle: classic 4x4, the diagonal empty.
fn slow_hints_puzzle() -> PuzzleV1 {
    let solution = vec![
        vec![1, 2, 3, 4],
        vec![3, 4, 1, 2],
        vec![2, 1, 4, 3],
        vec![4, 3, 2, 1],
    ];
    let mut grid = solution.clone();
    for (i, row) in grid.iter_mut().enumerate() {
        row[i] = 0;
    }
    let house = |kind: HouseKind, cells: Vec<[u32; 2]>| House { kind, cells };
    let mut houses = Vec::new();
    for i in 0..4u32 {
        houses.push(house(HouseKind::Row, (0..4).map(|c| [i, c]).collect()));
        houses.push(house(HouseKind::Column, (0..4).map(|r| [r, i]).collect()));
        let (r0, c0) = (i / 2 * 2, i % 2 * 2);
        let cells = (0..4).map(|k| [r0 + k / 2, c0 + k % 2]).collect();
        houses.push(house(HouseKind::Box, cells));
    }
    PuzzleV1 {
        format: PUZZLE_FORMAT_V1.into(),
        variant: Some("test-misbehave".into()),
        params: Default::default(),
        difficulty: Some(SLOW_HINTS.into()),
        seed: None,
        date: None,
        title: None,
        author: None,
        rules: None,
        size: 4,
        symbols: None,
        layout: Layout { rows: 4, cols: 4 },
        cells: None,
        houses,
        cages: Vec::new(),
        different: Vec::new(),
        constraints: Vec::new(),
        drawings: Vec::new(),
        rule_notes: Vec::new(),
        decorations: Vec::new(),
        grid,
        clue_count: Some(12),
        solution: Some(solution),
        grade: None,
    }
}

/// The slow hint: after [`SLOW_HINT`], the first empty cell's value.
fn slow_hint(request: &GridRequest) -> HintResponse {
    std::thread::sleep(SLOW_HINT);
    let solution = request.puzzle.solution.clone().unwrap_or_default();
    let empty = (0..4u32)
        .flat_map(|r| (0..4u32).map(move |c| [r, c]))
        .find(|&[r, c]| request.grid[r as usize][c as usize] == 0);
    HintResponse {
        hint: empty.map(|cell| Hint {
            kind: HintKind::Reveal,
            cell,
            value: Some(solution[cell[0] as usize][cell[1] as usize]),
            explanation: "a slow test hint".into(),
            technique: String::new(),
            clue: "a slow test clue".into(),
            cells: vec![cell],
            eliminations: Vec::new(),
        }),
    }
}

fn answer(bytes: Vec<u8>, out: *mut ByteBuffer) {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    let buffer = ByteBuffer {
        ptr: bytes.as_mut_ptr(),
        len: bytes.len(),
        capacity: bytes.capacity(),
    };
    // SAFETY: the host passes a valid slot for one write.
    unsafe { out.write(buffer) };
}

fn manifest() -> Vec<u8> {
    rmp_serde::to_vec_named(&Manifest {
        id: "test-misbehave".into(),
        name: "Test plugin that misbehaves on purpose".into(),
        rules: "Not a game.".into(),
        params: vec![],
        difficulties: ["easy", SLOW_HINTS]
            .into_iter()
            .map(String::from)
            .chain(FAULTS.iter().map(|f| f.to_string()))
            .chain(
                [
                    "hint-crash-segfault",
                    "hint-hang",
                    "hint-big",
                    "hint-garbage",
                ]
                .map(String::from),
            )
            .collect(),
        clues: Vec::new(),
    })
    .unwrap_or_default()
}

unsafe extern "C" fn call(
    op_code: u32,
    request: *const u8,
    request_len: usize,
    _deadline_ms: u64,
    out: *mut ByteBuffer,
) -> i32 {
    if out.is_null() {
        return status::BAD_REQUEST;
    }
    let bytes = if request.is_null() {
        &[][..]
    } else {
        // SAFETY: the host passes `request_len` readable bytes at `request`.
        unsafe { std::slice::from_raw_parts(request, request_len) }
    };
    let generating = match op_code {
        op::GENERATE => rmp_serde::from_slice::<GenerateRequest>(bytes)
            .map(|r| r.difficulty)
            .unwrap_or_default(),
        _ => String::new(),
    };
    if FAULTS.contains(&generating.as_str()) {
        return fault(&generating, out);
    }
    match op_code {
        op::GENERATE if generating == SLOW_HINTS || generating.starts_with("hint-") => {
            let mut puzzle = slow_hints_puzzle();
            puzzle.difficulty = Some(generating);
            let generated = GenerateResponse { puzzle };
            answer(rmp_serde::to_vec_named(&generated).unwrap_or_default(), out);
            status::OK
        }
        op::HINT => match rmp_serde::from_slice::<GridRequest>(bytes) {
            Ok(r)
                if r.puzzle
                    .difficulty
                    .as_deref()
                    .is_some_and(|d| d.starts_with("hint-")) =>
            {
                let difficulty = r.puzzle.difficulty.unwrap_or_default();
                fault(difficulty.trim_start_matches("hint-"), out)
            }
            Ok(r) if r.puzzle.difficulty.as_deref() == Some(SLOW_HINTS) => {
                answer(
                    rmp_serde::to_vec_named(&slow_hint(&r)).unwrap_or_default(),
                    out,
                );
                status::OK
            }
            _ => {
                answer(
                    rmp_serde::to_vec_named("not a hint").unwrap_or_default(),
                    out,
                );
                status::OK
            }
        },
        op::MANIFEST => {
            answer(manifest(), out);
            status::OK
        }
        op::GENERATE => {
            let caught = catch_unwind(AssertUnwindSafe(|| -> Vec<u8> {
                panic!("misbehave: generate always panics")
            }));
            let message = match caught {
                Ok(_) => "unreachable".to_string(),
                Err(payload) => {
                    let text = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .unwrap_or_default();
                    std::mem::forget(payload);
                    text
                }
            };
            answer(
                rmp_serde::to_vec_named(&ErrorResponse { message }).unwrap_or_default(),
                out,
            );
            status::PANICKED
        }
        op::COUNT => {
            std::thread::sleep(HANG);
            answer(Vec::new(), out);
            status::OK
        }
        op::SOLVE => {
            answer(GARBAGE.to_vec(), out);
            status::OK
        }
        op::CHECK => {
            answer(vec![0x90; 20 << 20], out);
            status::OK
        }
        _ => {
            answer(Vec::new(), out);
            status::UNSUPPORTED
        }
    }
}

unsafe extern "C" fn free(buffer: ByteBuffer) {
    if !buffer.ptr.is_null() {
        // SAFETY: built by `answer` from a Vec of this length and capacity.
        drop(unsafe { Vec::from_raw_parts(buffer.ptr, buffer.len, buffer.capacity) });
    }
}

const fn header(magic: [u8; 8], abi_major: u16, header_flags: u32) -> PluginHeader {
    sized_header(
        magic,
        abi_major,
        header_flags,
        std::mem::size_of::<PluginHeader>(),
    )
}

const fn sized_header(
    magic: [u8; 8],
    abi_major: u16,
    header_flags: u32,
    size: usize,
) -> PluginHeader {
    PluginHeader {
        magic,
        abi_major,
        abi_minor: ABI_MINOR,
        size: size as u32,
        flags: header_flags,
        functions: FunctionTable { call, free },
    }
}

static HEADER: PluginHeader = header(
    MAGIC,
    ABI_MAJOR,
    flags::PANIC_UNWIND | flags::THREAD_SAFE | flags::TEST_ONLY,
);
static BAD_MAGIC: PluginHeader = header(
    *b"NOTARENA",
    ABI_MAJOR,
    flags::PANIC_UNWIND | flags::THREAD_SAFE,
);
static ABI_2: PluginHeader = header(
    MAGIC,
    ABI_MAJOR + 1,
    flags::PANIC_UNWIND | flags::THREAD_SAFE,
);
static PANIC_ABORT: PluginHeader = header(MAGIC, ABI_MAJOR, flags::THREAD_SAFE);
/// Claims to end after the prefix: smaller than any v1 header.
static SHORT: PluginHeader = sized_header(
    MAGIC,
    ABI_MAJOR,
    flags::PANIC_UNWIND | flags::THREAD_SAFE,
    std::mem::size_of::<plugin_abi::HeaderPrefix>(),
);

/// The plugin entry point. The environment variable `ARENA_TEST_HEADER` swaps in a
/// broken header (`bad-magic`, `abi-2`, `panic-abort`, `short`, `null`) so the host's
/// header checks can be tested with a real library.
#[no_mangle]
pub extern "C" fn sudoku_arena_plugin_v1() -> *const PluginHeader {
    match std::env::var("ARENA_TEST_HEADER").as_deref() {
        Ok("bad-magic") => &BAD_MAGIC,
        Ok("abi-2") => &ABI_2,
        Ok("panic-abort") => &PANIC_ABORT,
        Ok("short") => &SHORT,
        Ok("null") => std::ptr::null(),
        _ => &HEADER,
    }
}
