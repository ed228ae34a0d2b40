//! Value sets as bitmasks: value `v` (1..=32) is bit `v - 1` of a `u32`.

/// The mask holding every value 1..=`size`.
#[inline]
pub fn full_mask(size: u32) -> u32 {
    if size >= 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    }
}

/// The mask of one value.
#[inline]
pub fn bit(value: u32) -> u32 {
    1u32 << (value - 1)
}

/// Whether a mask holds exactly one value.
#[inline]
pub fn is_single(mask: u32) -> bool {
    mask != 0 && mask & (mask - 1) == 0
}

/// The value of a single-value mask (its lowest value for any other non-empty mask).
#[inline]
pub fn value_of(mask: u32) -> u32 {
    mask.trailing_zeros() + 1
}

/// The values in a mask, smallest first.
pub fn values_of(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let v = mask.trailing_zeros() as u8 + 1;
        mask &= mask - 1;
        Some(v)
    })
}

/// The least and most `k` different values of `m` add up to, `None` when it
/// has fewer than `k`.
pub(crate) fn distinct_bounds(m: u32, k: usize) -> Option<(u32, u32)> {
    if (m.count_ones() as usize) < k {
        return None;
    }
    let (mut low, mut high, mut least, mut most) = (m, m, 0, 0);
    for _ in 0..k {
        least += low.trailing_zeros() + 1;
        low &= low - 1;
        let top = 31 - high.leading_zeros();
        most += top + 1;
        high &= !(1 << top);
    }
    Some((least, most))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(full_mask(9), 0x1FF);
        assert_eq!(full_mask(32), u32::MAX);
        assert!(is_single(bit(5)) && !is_single(0) && !is_single(3));
        assert_eq!(value_of(bit(7)), 7);
    }
}
