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

    /// The values `v` of `values` for which `target - v` lies within
    /// [`DistinctSums::without`]`(v)` — that test for every value at once: its
    /// bounds are one range for the values outside the mask, and for those
    /// inside it two ranges around its edges.
    pub(crate) fn completing(&self, values: u32, target: i32) -> u32 {
        // The values 1..=t, and those of t and above, as masks.
        let upto = |t: i64| match t {
            ..=0 => 0,
            32.. => u32::MAX,
            _ => (1u32 << t) - 1,
        };
        let from = |t: i64| !upto(t - 1);
        let target = i64::from(target);
        let values = values & upto(target);
        let count = self.mask.count_ones();
        let mut kept = 0;
        if count >= self.len {
            let (least, most) = (i64::from(self.low.0), i64::from(self.high.0));
            kept |= values & !self.mask & from(target - most) & upto(target - least);
        }
        if count > self.len {
            let (low, low_next, low_edge) = self.low;
            let (high, high_next, high_edge) = self.high;
            let (low_edge, high_edge) = (i64::from(low_edge), i64::from(high_edge));
            let at_or_below_edge = if target >= i64::from(low_next) {
                upto(low_edge)
            } else {
                0
            };
            let lower = at_or_below_edge | (!upto(low_edge) & upto(target - i64::from(low)));
            let at_or_above_edge = if target <= i64::from(high_next) {
                from(high_edge)
            } else {
                0
            };
            let upper = at_or_above_edge | (!from(high_edge) & from(target - i64::from(high)));
            kept |= values & self.mask & lower & upper;
        }
        kept
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

    /// Against the bounds of the other values worked out afresh for each
    /// value (every mask of 9 values by steps, every length and target).
    #[test]
    fn completing_keeps_the_values_the_others_can_complete() {
        for others in (0..0x200u32).step_by(7) {
            for len in 0..5 {
                let sums = DistinctSums::new(others, len);
                for values in (1..0x200u32).step_by(5) {
                    for target in -2..40i32 {
                        let expected = values_of(values)
                            .map(u32::from)
                            .filter(|&v| {
                                let need = target - v as i32;
                                need >= 0
                                    && distinct_bounds(others & !bit(v), len)
                                        .is_some_and(|(lo, hi)| (lo..=hi).contains(&(need as u32)))
                            })
                            .fold(0, |m, v| m | bit(v));
                        assert_eq!(
                            sums.completing(values, target),
                            expected,
                            "{others:#b} {len} {values:#b} {target}"
                        );
                    }
                }
            }
        }
    }
}
