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

/// The digits (as a mask) and the sum of the placed (single) masks among
/// `masks`, which must all differ; `None` when two repeat a digit.
pub(crate) fn placed_digits(masks: impl IntoIterator<Item = u32>) -> Option<(u32, u32)> {
    let (mut placed, mut sum) = (0u32, 0u32);
    for m in masks.into_iter().filter(|&m| is_single(m)) {
        if placed & m != 0 {
            return None;
        }
        placed |= m;
        sum += m.trailing_zeros() + 1;
    }
    Some((placed, sum))
}

/// The values 1..=`t` as a mask (bit `v - 1` for `v`).
pub(crate) fn upto(t: i64) -> u32 {
    match t {
        ..=0 => 0,
        32.. => u32::MAX,
        _ => (1u32 << t) - 1,
    }
}

/// The least and most `len` different values of a mask add up to with any
/// one value left out, tested for every value at once by masks (a sum's
/// term and the other cells of its set, which cannot hold its value; an
/// X-sum's or a sandwich's cell and the others).
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

    /// The values `v` of `values` for which `target - v` lies within the
    /// bounds of `len` different values of the mask other than `v` (so is
    /// at least 0: those bounds are).
    pub(crate) fn completing(&self, values: u32, target: i32) -> u32 {
        let target = i64::from(target);
        self.fitting(values, target, target)
    }

    /// The values `v` of `values` for which `len` different values of the
    /// mask other than `v` exist whose least sum is at most `most_low - v`
    /// and whose largest sum is at least `least_high - v` — for every value
    /// at once: those bounds are one pair for the values outside the mask,
    /// and for those inside it change only at its `len` lowest (the next
    /// one stands in) and its `len` highest.
    pub(crate) fn fitting(&self, values: u32, most_low: i64, least_high: i64) -> u32 {
        let from = |t: i64| !upto(t - 1);
        let count = self.mask.count_ones();
        let mut kept = 0;
        if count >= self.len {
            let (least, most) = (i64::from(self.low.0), i64::from(self.high.0));
            kept |= values & !self.mask & from(least_high - most) & upto(most_low - least);
        }
        if count > self.len {
            let (low, low_next, low_edge) = self.low;
            let (high, high_next, high_edge) = self.high;
            let (low_edge, high_edge) = (i64::from(low_edge), i64::from(high_edge));
            // At or below the low edge, the least sum with v is
            // `low_next - v`; above it, `low`.
            let at_or_below_edge = if most_low >= i64::from(low_next) {
                upto(low_edge)
            } else {
                0
            };
            let lower = at_or_below_edge | (!upto(low_edge) & upto(most_low - i64::from(low)));
            let at_or_above_edge = if least_high <= i64::from(high_next) {
                from(high_edge)
            } else {
                0
            };
            let upper = at_or_above_edge | (!from(high_edge) & from(least_high - i64::from(high)));
            kept |= values & self.mask & lower & upper;
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_digits_add_up_the_single_masks_and_refuse_repeats() {
        assert_eq!(
            placed_digits([bit(3), 0b110, bit(5)]),
            Some((bit(3) | bit(5), 8))
        );
        assert_eq!(placed_digits([0b11, 0x1FF]), Some((0, 0)));
        assert_eq!(placed_digits([bit(4), 0b11, bit(4)]), None);
    }

    #[test]
    fn masks() {
        assert_eq!(full_mask(9), 0x1FF);
        assert_eq!(full_mask(32), u32::MAX);
        assert!(is_single(bit(5)) && !is_single(0) && !is_single(3));
        assert_eq!(value_of(bit(7)), 7);
    }

    #[test]
    fn a_set_without_one_value_is_bounded_in_constant_time() {
        // Two other cells of {1, 2, 5, 9}: without 3 they make 3..=14,
        // without 1 7..=14, without 9 3..=7.
        let others = DistinctSums::new(bit(1) | bit(2) | bit(5) | bit(9), 2);
        let fits = |v: u32, most_low: i64, least_high: i64| {
            others.fitting(bit(v), most_low + i64::from(v), least_high + i64::from(v)) != 0
        };
        assert!(fits(3, 3, 14) && !fits(3, 2, 14) && !fits(3, 3, 15));
        assert!(fits(1, 7, 14) && !fits(1, 6, 14));
        assert!(fits(9, 3, 7) && !fits(9, 3, 8));
        assert_eq!(
            DistinctSums::new(bit(1) | bit(2), 2).completing(bit(2), 5),
            0
        );
        assert_eq!(DistinctSums::new(0, 0).completing(bit(4), 4), bit(4));
    }

    /// `fitting` against the bounds worked out afresh for each value, with
    /// the least and largest sums held to different limits (and to one, as
    /// `completing` holds them).
    #[test]
    fn fitting_holds_each_bound_to_its_own_limit() {
        for others in (0..0x200u32).step_by(11) {
            for len in 0..5 {
                let sums = DistinctSums::new(others, len);
                for values in (1..0x200u32).step_by(13) {
                    for most_low in -2..40i64 {
                        for least_high in (-2..40i64).step_by(3) {
                            let expected = values_of(values)
                                .map(u32::from)
                                .filter(|&v| {
                                    distinct_bounds(others & !bit(v), len).is_some_and(
                                        |(lo, hi)| {
                                            i64::from(lo + v) <= most_low
                                                && i64::from(hi + v) >= least_high
                                        },
                                    )
                                })
                                .fold(0, |m, v| m | bit(v));
                            assert_eq!(
                                sums.fitting(values, most_low, least_high),
                                expected,
                                "{others:#b} {len} {values:#b} {most_low} {least_high}"
                            );
                            if most_low == least_high {
                                // One target: what `completing` keeps.
                                let target = most_low as i32;
                                assert_eq!(sums.completing(values, target), expected);
                            }
                        }
                    }
                }
            }
        }
    }
}
