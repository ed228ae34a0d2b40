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

/// The least and most `len` different values of a mask add up to with any
/// one value left out, each in O(1) (a sum's term and the other cells of
/// its set, which cannot hold its value; an X-sum's cell and the others).
#[derive(Clone, Copy, Default)]
pub(crate) struct DistinctSums {
    /// Their union of candidates.
    mask: u32,
    /// How many cells.
    len: u32,
    /// The sums of the `len` and `len + 1` smallest values, and the
    /// `len`-th smallest (0 when `len` is 0).
    low: (i32, i32, u32),
    /// The same from the largest (the edge `u32::MAX` when `len` is 0).
    high: (i32, i32, u32),
}

impl DistinctSums {
    /// The bounds of `len` different values of `mask`.
    pub(crate) fn new(mask: u32, len: usize) -> DistinctSums {
        let len = len as u32;
        let ends = |mut m: u32, next: fn(u32) -> u32, none: u32| {
            let (mut sum, mut edge) = (0i32, none);
            for _ in 0..len {
                if m == 0 {
                    break;
                }
                let b = next(m);
                sum += b as i32 + 1;
                edge = b + 1;
                m &= !(1 << b);
            }
            let beyond = if m == 0 {
                i32::MAX
            } else {
                sum + next(m) as i32 + 1
            };
            (sum, beyond, edge)
        };
        DistinctSums {
            mask,
            len,
            low: ends(mask, u32::trailing_zeros, 0),
            high: ends(mask, |m| 31 - m.leading_zeros(), u32::MAX),
        }
    }

    /// The unweighted bounds of `len` different values of the mask
    /// without `v`, `None` when there are not enough.
    pub(crate) fn without(&self, v: u32) -> Option<(i32, i32)> {
        let has = self.mask & (1 << (v - 1)) != 0;
        if self.mask.count_ones() - u32::from(has) < self.len {
            return None;
        }
        if !has {
            return Some((self.low.0, self.high.0));
        }
        let (low, low_next, low_edge) = self.low;
        let (high, high_next, high_edge) = self.high;
        let least = if v <= low_edge {
            low_next - v as i32
        } else {
            low
        };
        let most = if v >= high_edge {
            high_next - v as i32
        } else {
            high
        };
        Some((least, most))
    }
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

    #[test]
    fn a_set_without_one_value_is_bounded_in_constant_time() {
        // Two other cells of {1, 2, 5, 9}.
        let others = DistinctSums::new(bit(1) | bit(2) | bit(5) | bit(9), 2);
        assert_eq!(others.without(3), Some((3, 14)));
        assert_eq!(others.without(1), Some((7, 14)));
        assert_eq!(others.without(9), Some((3, 7)));
        assert_eq!(DistinctSums::new(bit(1) | bit(2), 2).without(2), None);
        assert_eq!(DistinctSums::new(0, 0).without(4), Some((0, 0)));
    }
}
