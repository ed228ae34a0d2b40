//! The bitboard solver's hidden-single scan with AVX-512: four value boards (one
//! 512-bit register) tested against a house at once, with a per-lane popcount.
//!
//! Used when the CPU has AVX-512F and VPOPCNTDQ (checked once per model at run
//! time) and the model has at most [`MAX_VALUES`] values; otherwise the scalar scan
//! in `bits.rs` runs. Both reach the same fixpoint (singles are confluent), so the
//! search is the same either way (a test in `bits.rs` compares them).

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_broadcast_i32x4, _mm512_cmpeq_epi64_mask,
    _mm512_maskz_loadu_epi64, _mm512_popcnt_epi64, _mm512_set1_epi64, _mm512_shuffle_epi32,
    _mm512_test_epi64_mask, _mm_loadu_si128, _MM_PERM_BADC,
};

/// Values one scan handles: three registers of four 128-bit boards.
pub(crate) const MAX_VALUES: usize = 12;

/// Whether this CPU can run [`hidden_singles`].
pub(crate) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
}

/// The boards of values `4k..4k + 4` (lanes past `n` values read as empty).
#[inline]
#[target_feature(enable = "avx512f")]
fn load(b: &[u128], n: usize, k: usize) -> __m512i {
    let values = n.saturating_sub(4 * k).min(4);
    let lanes = ((1u32 << (2 * values)) - 1) as u8;
    // SAFETY: only the lanes in `lanes` are read, and they are the 2 * `values`
    // u64 halves of b[4k..4k + values], all inside `b` (values <= n - 4k).
    unsafe { _mm512_maskz_loadu_epi64(lanes, b.as_ptr().add(4 * k).cast::<i64>()) }
}

/// A 128-bit mask repeated in the four 128-bit lanes.
#[inline]
#[target_feature(enable = "avx512f")]
fn broadcast(mask: &u128) -> __m512i {
    // SAFETY: reads the 16 bytes of `mask`.
    _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(std::ptr::from_ref(mask).cast()) })
}

/// Finds hidden singles in every full house and places them, as the scalar scan
/// does; `Ok(true)` if any was placed, `Err` on a value with no place in a house.
/// (Singles are confluent: whichever order they are placed in, propagation
/// reaches the same fixpoint, so the search sees the same states.)
///
/// `b` is a search level (`n` value boards, then the placed cells) of a model
/// with at most [`MAX_VALUES`] values and these full `houses`; `assign(b, cell,
/// value)` places a single (the bitboard solver's own placement).
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
pub(crate) fn hidden_singles(
    n: usize,
    houses: &[u128],
    b: &mut [u128],
    mut assign: impl FnMut(&mut [u128], usize, usize),
) -> Result<bool, ()> {
    // The low lane of each board that exists (registers of four boards, eight
    // 64-bit lanes, 24 lanes in all; board `v` is lanes 2v and 2v + 1).
    let boards_present = 0x55_5555u32 & ((1u32 << (2 * n)) - 1);
    let one = _mm512_set1_epi64(1);
    let mut boards = [load(b, n, 0), load(b, n, 1), load(b, n, 2)];
    let mut open = broadcast(&!b[n]);
    let mut progress = false;
    for house in houses {
        let whole = broadcast(house);
        let unplaced = _mm512_and_si512(whole, open);
        let (mut empty, mut single) = (0u32, 0u32);
        for (k, &board) in boards.iter().enumerate() {
            // Lanes with a cell of the house: a board has none when neither of
            // its two lanes has.
            let some = u32::from(_mm512_test_epi64_mask(board, whole));
            empty |= (!(some | some >> 1) & 0xFF) << (8 * k);
            // Unplaced cells of the house per board: the two lanes' counts summed
            // into each lane, then "exactly one".
            let counts = _mm512_popcnt_epi64(_mm512_and_si512(board, unplaced));
            let counts = _mm512_add_epi64(counts, _mm512_shuffle_epi32::<_MM_PERM_BADC>(counts));
            single |= u32::from(_mm512_cmpeq_epi64_mask(counts, one)) << (8 * k);
        }
        let (empty, mut single) = (empty & boards_present, single & boards_present);
        if (empty | single) == 0 {
            continue;
        }
        if empty != 0 {
            return Err(());
        }
        while single != 0 {
            let v = single.trailing_zeros() as usize / 2;
            single &= single - 1;
            // An earlier placement in this pass may have changed the board.
            let x = b[v] & house;
            if x == 0 {
                return Err(());
            }
            if x & (x - 1) == 0 && x & b[n] == 0 {
                assign(b, x.trailing_zeros() as usize, v);
                progress = true;
            }
        }
        boards = [load(b, n, 0), load(b, n, 1), load(b, n, 2)];
        open = broadcast(&!b[n]);
    }
    Ok(progress)
}
