//! A weighted sum of cells equal to a total, digits free to repeat unless
//! the cells share a house (arrows, little killers, zipper and region-sum
//! lines): bounds propagation, exact once every cell is single.
//!
//! The terms of one coefficient are bounded together, through covers: ways
//! to split them into sets of cells that all see each other (by the
//! layout's rows, by its columns, by its regions, greedily by any house). A
//! set of `k` cells holds `k` different digits, so it adds up to at least
//! the `k` smallest it may hold; and a digit appears at most once per set,
//! so at most as often as the sets that may hold it in the cover allowing
//! the fewest (its cap). A long arrow needs both to be narrowed at all: a
//! 32-cell arrow through eight boxes adds up to at least the sum of each
//! box's smallest digits, and holds each digit at most eight times.

use crate::mask::{is_single, placed_digits, upto, values_of, DistinctSums};

/// `Σ coefficient × value = total` over distinct cells.
#[derive(Clone, Debug)]
pub(crate) struct LinearSum {
    /// The cells.
    pub cells: Vec<u32>,
    /// What the weighted values add up to.
    total: i32,
    /// The terms by coefficient; every term is in one class.
    classes: Vec<TermClass>,
    /// How many sets, covers and capped classes [`Work`] holds.
    work_sizes: (usize, usize, usize),
    /// Sets bounded with their placed cells apart and each open cell's own
    /// bounds ([`SetView::of`]); off for the search ([`LinearSum::for_search`]),
    /// which bounds a set by its union alone: cheaper per narrowing, and
    /// measured faster over the corpus's counts.
    placed_apart: bool,
}

/// The terms of one coefficient and the covers that bound them.
#[derive(Clone, Debug)]
struct TermClass {
    coefficient: i32,
    /// Term indices.
    terms: Vec<usize>,
    /// Partitions of the terms into sets of cells that see each other; at
    /// least one.
    covers: Vec<Cover>,
    /// With digit caps (more than a few terms): its slot in
    /// [`Work::rest`].
    capped: Option<usize>,
    /// Its slot in [`Work::classes`].
    slot: usize,
}

/// One partition of a class's terms.
#[derive(Clone, Debug)]
struct Cover {
    sets: Vec<Vec<usize>>,
    /// The set of each term of the sum (by term index; unused for terms of
    /// other classes).
    set_of: Vec<usize>,
    /// Where its sets' bounds start in [`Work::sets`].
    first_set: usize,
    /// Its slot in [`Work::covers`].
    slot: usize,
}

/// What one pass of [`LinearSum::narrow`] knows, in slots the sum assigns
/// once (so a pass allocates nothing).
struct Work {
    /// Each set's weighted bounds.
    sets: Vec<(i32, i32)>,
    /// Each set's view, when the sum takes placed cells apart.
    views: Vec<SetView>,
    /// Each cover's weighted bounds (its sets added up).
    covers: Vec<(i32, i32)>,
    /// Each class's bounds: the tightest of its covers and caps.
    classes: Vec<(i32, i32)>,
    /// For each capped class and value (bit): the weighted bounds of the
    /// class's other terms when one term holds it (empty when they cannot).
    rest: Vec<[(i32, i32); 32]>,
}

impl Work {
    /// Room for `(sets, covers, capped classes)` and `classes`.
    fn fit(&mut self, (sets, covers, capped): (usize, usize, usize), classes: usize) {
        self.sets.resize(sets, (0, 0));
        self.views.resize(sets, SetView::default());
        self.covers.resize(covers, (0, 0));
        self.classes.resize(classes, (0, 0));
        self.rest.resize(capped, [EMPTY; 32]);
    }
}

thread_local! {
    /// Each thread's slots for narrowing sums (searches narrow them at
    /// every node: no allocation there).
    static WORK: std::cell::RefCell<Work> = const {
        std::cell::RefCell::new(Work {
            sets: Vec::new(),
            views: Vec::new(),
            covers: Vec::new(),
            classes: Vec::new(),
            rest: Vec::new(),
        })
    };
}

/// An interval nothing is in.
const EMPTY: (i32, i32) = (i32::MAX, i32::MIN);

/// Classes with at least this many terms are bounded by digit caps too.
const CAPPED_TERMS: usize = 4;

/// How many times each value (bit) may appear, by bit.
type Caps = [u32; 32];

/// The least and most `coefficient × (sum of k different values of m)`,
/// `None` when `m` has fewer than `k` values.
fn bounds(coefficient: i32, m: u32, k: usize) -> Option<(i32, i32)> {
    if (m.count_ones() as usize) < k {
        return None;
    }
    // The k lowest and the k highest set bits, without listing them.
    let (mut low, mut high) = (m, m);
    let (mut least, mut most) = (0i32, 0i32);
    for _ in 0..k {
        least += low.trailing_zeros() as i32 + 1;
        low &= low - 1;
        let top = 31 - high.leading_zeros();
        most += top as i32 + 1;
        high &= !(1 << top);
    }
    Some(weighted(coefficient, (least, most)))
}

/// `coefficient × [low, high]`, ordered.
fn weighted(coefficient: i32, (low, high): (i32, i32)) -> (i32, i32) {
    let (a, b) = (coefficient * low, coefficient * high);
    (a.min(b), a.max(b))
}

/// The `n` smallest (or largest) values the caps allow, each value `v` used
/// at most `caps[v - 1]` times: their sum and the `n`-th of them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fill {
    sum: i32,
    nth: i32,
    /// Filled from the largest.
    from_top: bool,
}

impl Fill {
    /// The sum of the `n - 1` values filled the same way once one `v` (that
    /// the caps allow) is taken out: `v` leaves the fill if it is in it (at
    /// or before the `n`-th), else the `n`-th does.
    fn without(&self, v: i32) -> i32 {
        let inside = if self.from_top {
            v >= self.nth
        } else {
            v <= self.nth
        };
        self.sum - if inside { v } else { self.nth }
    }
}

/// The fills of `n ≥ 1` values from the smallest and from the largest (none
/// above `values`); `None` when the caps do not reach `n`.
fn capped_fills(caps: &Caps, values: usize, n: usize) -> Option<(Fill, Fill)> {
    let fill = |order: &mut dyn Iterator<Item = usize>, from_top: bool| {
        let (mut left, mut sum, mut nth) = (n as u32, 0i32, 0i32);
        for b in order {
            if left == 0 {
                break;
            }
            let take = caps[b].min(left);
            sum += (take * (b as u32 + 1)) as i32;
            left -= take;
            if take > 0 {
                nth = b as i32 + 1;
            }
        }
        (left == 0 && n > 0).then_some(Fill { sum, nth, from_top })
    };
    Some((
        fill(&mut (0..values), false)?,
        fill(&mut (0..values).rev(), true)?,
    ))
}

/// Cells that all see each other, as a sum bounds them: the placed ones
/// add a known amount and take their digits from the others; the open ones
/// hold different digits of what is left (bounded by their union), each
/// within its own least and largest (bounded cell by cell) — the tighter of
/// the two, so a set of a placed 3 and a cell of 4-9 adds up to 7-12, not
/// the 7-17 of two different digits of 3-9.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SetView {
    /// The placed cells' digits: their sum and their mask.
    placed_sum: i32,
    placed: u32,
    /// The open cells' union of candidates, without the placed digits.
    open: u32,
    /// How many open cells.
    open_len: usize,
    /// The open cells' least and largest candidates, added up.
    per_cell: (i32, i32),
}

impl SetView {
    /// The view of `terms` on `local`; `None` when two placed cells repeat
    /// a digit. (An open cell's own bounds count the placed digits it still
    /// shows: a little looser, one pass.)
    fn of(local: &[u32], terms: &[usize]) -> Option<SetView> {
        let (placed, placed_sum) = placed_digits(terms.iter().map(|&t| local[t]))?;
        let mut view = SetView {
            placed,
            placed_sum: placed_sum as i32,
            ..SetView::default()
        };
        for m in terms.iter().map(|&t| local[t]).filter(|&m| !is_single(m)) {
            view.open |= m & !placed;
            view.open_len += 1;
            view.per_cell.0 += m.trailing_zeros() as i32 + 1;
            view.per_cell.1 += 32 - m.leading_zeros() as i32;
        }
        Some(view)
    }

    /// The view of the set's cells but an open one holding `own`, the
    /// others' candidates being `others` (a union; the placed digits are
    /// taken out here).
    fn without(&self, own: u32, others: u32) -> SetView {
        SetView {
            open: others & !self.placed,
            open_len: self.open_len - 1,
            per_cell: (
                self.per_cell.0 - (own.trailing_zeros() as i32 + 1),
                self.per_cell.1 - (32 - own.leading_zeros() as i32),
            ),
            ..*self
        }
    }

    /// The least and most the set adds up to, times `coefficient`.
    fn bounds(&self, coefficient: i32) -> Option<(i32, i32)> {
        let distinct = bounds(1, self.open, self.open_len)?;
        let (low, high) = tighter(distinct, self.per_cell);
        (low <= high)
            .then(|| weighted(coefficient, (low + self.placed_sum, high + self.placed_sum)))
    }
}

/// The tighter of two bounds.
fn tighter(a: (i32, i32), b: (i32, i32)) -> (i32, i32) {
    (a.0.max(b.0), a.1.min(b.1))
}

/// The union of the masks of `terms`.
fn union(local: &[u32], terms: &[usize]) -> u32 {
    terms.iter().fold(0, |m, &t| m | local[t])
}

/// At most this many covers per class (the greedy one, rows, columns and
/// regions).
const MAX_COVERS: usize = 4;

impl TermClass {
    /// How often each value may appear among the terms, from `local`.
    fn caps(&self, local: &[u32]) -> Caps {
        let mut caps = [u32::MAX; 32];
        for cover in &self.covers {
            let mut count = [0u32; 32];
            for set in &cover.sets {
                let mut m = union(local, set);
                while m != 0 {
                    count[m.trailing_zeros() as usize] += 1;
                    m &= m - 1;
                }
            }
            for (cap, n) in caps.iter_mut().zip(count) {
                *cap = (*cap).min(n);
            }
        }
        caps
    }

    /// Bounds the class on `local` into `work`; `Err` when it cannot be
    /// filled. Sets are viewed with their placed cells apart when `placed_apart`
    /// (see [`LinearSum`]).
    fn bound(&self, local: &[u32], work: &mut Work, placed_apart: bool) -> Result<(), ()> {
        let k = self.coefficient;
        let mut class_bounds = (i32::MIN, i32::MAX);
        for cover in &self.covers {
            let mut total = (0, 0);
            for (i, set) in cover.sets.iter().enumerate() {
                let b = if placed_apart {
                    let view = SetView::of(local, set).ok_or(())?;
                    work.views[cover.first_set + i] = view;
                    view.bounds(k)
                } else {
                    bounds(k, union(local, set), set.len())
                }
                .ok_or(())?;
                work.sets[cover.first_set + i] = b;
                total = (total.0 + b.0, total.1 + b.1);
            }
            work.covers[cover.slot] = total;
            class_bounds = tighter(class_bounds, total);
        }
        if let Some(slot) = self.capped {
            let caps = self.caps(local);
            let n = self.terms.len();
            let values = 32 - union(local, &self.terms).leading_zeros() as usize;
            let (low, high) = capped_fills(&caps, values, n).ok_or(())?;
            class_bounds = tighter(class_bounds, weighted(k, (low.sum, high.sum)));
            // The other terms' bounds when one term holds each value.
            let rest = &mut work.rest[slot];
            for (b, r) in rest.iter_mut().enumerate().take(values) {
                let v = b as i32 + 1;
                *r = match caps[b] {
                    0 => EMPTY,
                    _ => weighted(k, (low.without(v), high.without(v))),
                };
            }
        }
        if class_bounds.0 > class_bounds.1 {
            return Err(());
        }
        work.classes[self.slot] = class_bounds;
        Ok(())
    }

    /// The values of term `t` for which the class's other terms can make
    /// up what the total needs, the rest of the sum being within `outside`
    /// (of those `by_caps` allows). With coefficient `k`, `v` stays when in
    /// every cover `outside + the other sets + k × (t's set's others without
    /// v) ∋ total − k × v`: bounds on the others' least and largest sums
    /// plus `v`, which [`DistinctSums::fitting`] tests for every value at once
    /// (the others viewed as [`TermClass::bound`] viewed their set).
    fn kept(
        &self,
        t: usize,
        local: &[u32],
        work: &Work,
        (outside, total): ((i32, i32), i32),
        placed_apart: bool,
    ) -> u32 {
        let k = i64::from(self.coefficient);
        let (outside, total) = (
            (i64::from(outside.0), i64::from(outside.1)),
            i64::from(total),
        );
        let mut kept = local[t];
        for cover in &self.covers {
            let s = cover.set_of[t];
            let set = &cover.sets[s];
            let m = set
                .iter()
                .filter(|&&o| o != t)
                .fold(0, |m, &o| m | local[o]);
            let (c, b) = (work.covers[cover.slot], work.sets[cover.first_set + s]);
            // The cover's bounds without t's set.
            let rest = (i64::from(c.0 - b.0), i64::from(c.1 - b.1));
            // k > 0: k(least + v) <= total - outside.0 - rest.0 and
            // k(most + v) >= total - outside.1 - rest.1; k < 0 turns both;
            // k = 0 keeps every value or none.
            let (most_low, least_high) = if k == 0 {
                let holds = (outside.0 + rest.0..=outside.1 + rest.1).contains(&total);
                let (all, none) = (i64::MAX / 4, i64::MIN / 4);
                if holds {
                    (all, none)
                } else {
                    (none, all)
                }
            } else if k > 0 {
                (
                    floor_div(total - outside.0 - rest.0, k),
                    ceil_div(total - outside.1 - rest.1, k),
                )
            } else {
                (
                    floor_div(outside.1 + rest.1 - total, -k),
                    ceil_div(outside.0 + rest.0 - total, -k),
                )
            };
            kept = if placed_apart {
                // The others: the placed add their sum; the open ones,
                // different digits other than v (by masks) within their
                // cells' own bounds (one range for every v).
                let others = work.views[cover.first_set + s].without(local[t], m);
                let placed_sum = i64::from(others.placed_sum);
                let (most_low, least_high) = (most_low - placed_sum, least_high - placed_sum);
                let (least, most) = (i64::from(others.per_cell.0), i64::from(others.per_cell.1));
                let kept =
                    kept & !others.placed & upto(most_low - least) & !upto(least_high - most - 1);
                DistinctSums::new(others.open, others.open_len).fitting(kept, most_low, least_high)
            } else {
                DistinctSums::new(m, set.len() - 1).fitting(kept, most_low, least_high)
            };
            if kept == 0 {
                break;
            }
        }
        kept
    }

    /// The values the digit caps leave the class's terms: those `v` for
    /// which the other terms' capped bounds (`work.rest`) and `outside` can
    /// still make `total - k × v`; every value when the class has no caps.
    /// `values` holds every value its terms may take.
    fn by_caps(&self, values: u32, work: &Work, outside: (i32, i32), total: i32) -> u32 {
        let Some(slot) = self.capped else {
            return u32::MAX;
        };
        let rest = &work.rest[slot];
        values_of(values)
            .filter(|&v| {
                let r = rest[usize::from(v) - 1];
                let need = total - self.coefficient * i32::from(v);
                let lo = outside.0.saturating_add(r.0);
                let hi = outside.1.saturating_add(r.1);
                (lo..=hi).contains(&need)
            })
            .fold(0u32, |acc, v| acc | 1 << (v - 1))
    }
}

/// `a / b` rounded down, for `b > 0` (most coefficients are 1: no division).
fn floor_div(a: i64, b: i64) -> i64 {
    if b == 1 {
        a
    } else {
        a.div_euclid(b)
    }
}

/// `a / b` rounded up, for `b > 0`.
fn ceil_div(a: i64, b: i64) -> i64 {
    -floor_div(-a, b)
}

impl LinearSum {
    /// The sum of `coefficients × cells` equal to `total`. Each of
    /// `partitions` splits the terms (indices) into sets of cells that all
    /// see each other; a term a partition leaves out is alone in it.
    pub fn new(
        cells: Vec<u32>,
        coefficients: Vec<i32>,
        total: i32,
        partitions: &[Vec<Vec<usize>>],
    ) -> LinearSum {
        let mut order: Vec<i32> = Vec::new();
        for &k in &coefficients {
            if !order.contains(&k) {
                order.push(k);
            }
        }
        let (mut sets, mut cover_slots, mut capped) = (0, 0, 0);
        let mut classes = Vec::new();
        for (slot, k) in order.into_iter().enumerate() {
            let terms: Vec<usize> = (0..cells.len()).filter(|&t| coefficients[t] == k).collect();
            let class_covers = covers(&terms, partitions, cells.len(), &mut sets, &mut cover_slots);
            let is_capped = terms.len() >= CAPPED_TERMS;
            classes.push(TermClass {
                coefficient: k,
                capped: is_capped.then(|| {
                    capped += 1;
                    capped - 1
                }),
                slot,
                terms,
                covers: class_covers,
            });
        }
        let work_sizes = (sets, cover_slots, capped);
        LinearSum {
            cells,
            total,
            classes,
            work_sizes,
            placed_apart: true,
        }
    }

    /// The same sum as the search narrows it: each set bounded by the union
    /// of its cells' candidates alone.
    pub fn for_search(&self) -> LinearSum {
        LinearSum {
            placed_apart: false,
            ..self.clone()
        }
    }

    /// Keeps each cell's values for which the other cells' bounds can still
    /// make up the total, to a fixpoint.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        WORK.with(|work| {
            let mut work = work.borrow_mut();
            work.fit(self.work_sizes, self.classes.len());
            self.narrow_with(local, &mut work)
        })
    }

    /// [`LinearSum::narrow`] with slots to work in.
    fn narrow_with(&self, local: &mut [u32], work: &mut Work) -> Result<bool, ()> {
        let mut changed = false;
        loop {
            if local.contains(&0) {
                return Err(());
            }
            for class in &self.classes {
                class.bound(local, work, self.placed_apart)?;
            }
            let low: i32 = work.classes.iter().map(|b| b.0).sum();
            let high: i32 = work.classes.iter().map(|b| b.1).sum();
            if self.total < low || self.total > high {
                return Err(());
            }
            let mut pass = false;
            for class in &self.classes {
                let own = work.classes[class.slot];
                let outside = (low - own.0, high - own.1);
                let by_caps = class.by_caps(union(local, &class.terms), work, outside, self.total);
                for &t in &class.terms {
                    // A placed digit stays: the bounds above are exact once
                    // every cell is placed, and fail it if it is wrong.
                    if is_single(local[t]) {
                        continue;
                    }
                    let kept = class.kept(t, local, work, (outside, self.total), self.placed_apart)
                        & by_caps;
                    if kept == 0 {
                        return Err(());
                    }
                    if kept != local[t] {
                        local[t] = kept;
                        pass = true;
                    }
                }
            }
            if !pass {
                return Ok(changed);
            }
            changed = true;
        }
    }
}

/// The covers of a class's `terms` (of `len` in the sum): the first of
/// `partitions` (or each term alone), then each that merges some terms, none
/// twice, at most [`MAX_COVERS`]. `sets` and `covers` count the slots
/// given so far.
fn covers(
    terms: &[usize],
    partitions: &[Vec<Vec<usize>>],
    len: usize,
    sets: &mut usize,
    covers: &mut usize,
) -> Vec<Cover> {
    let singletons = vec![terms.iter().map(|&t| vec![t]).collect::<Vec<_>>()];
    let mut out: Vec<Cover> = Vec::new();
    for partition in partitions.iter().chain(&singletons) {
        let split = split(partition, terms);
        let merges = split.len() < terms.len();
        if out.len() == MAX_COVERS
            || (!out.is_empty() && !merges)
            || out.iter().any(|c| c.sets == split)
        {
            continue;
        }
        let mut set_of = vec![0; len];
        for (i, s) in split.iter().enumerate() {
            for &t in s {
                set_of[t] = i;
            }
        }
        out.push(Cover {
            first_set: *sets,
            slot: *covers,
            sets: split,
            set_of,
        });
        *sets += out[out.len() - 1].sets.len();
        *covers += 1;
    }
    out
}

/// `partition`'s sets restricted to `terms`, with every term of `terms` it
/// leaves out alone in a set.
fn split(partition: &[Vec<usize>], terms: &[usize]) -> Vec<Vec<usize>> {
    let mut sets: Vec<Vec<usize>> = partition
        .iter()
        .map(|s| {
            s.iter()
                .copied()
                .filter(|t| terms.contains(t))
                .collect::<Vec<usize>>()
        })
        .filter(|s| !s.is_empty())
        .collect();
    for &t in terms {
        if !sets.iter().any(|s| s.contains(&t)) {
            sets.push(vec![t]);
        }
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::bit;

    #[test]
    fn an_arrow_bounds_its_circle() {
        // circle = a + b, written a + b - circle = 0.
        let arrow = LinearSum::new(
            vec![0, 1, 2],
            vec![1, 1, -1],
            0,
            &[vec![vec![0], vec![1], vec![2]]],
        );
        let mut local = [bit(1) | bit(2), bit(1) | bit(2), 0x1FF];
        assert_eq!(arrow.narrow(&mut local), Ok(true));
        assert_eq!(local[2], bit(2) | bit(3) | bit(4));
        let mut broken = [bit(5), bit(5), bit(9)];
        assert_eq!(arrow.narrow(&mut broken), Err(()));
    }

    #[test]
    fn cells_seeing_each_other_add_up_to_more() {
        // Three cells of one house add up to a circle: at least 1 + 2 + 3.
        let arrow = LinearSum::new(
            vec![0, 1, 2, 3],
            vec![1, 1, 1, -1],
            0,
            &[vec![vec![0, 1, 2], vec![3]]],
        );
        let mut local = [0x1FF; 4];
        assert_eq!(arrow.narrow(&mut local), Ok(true));
        assert_eq!(local[3], bit(6) | bit(7) | bit(8) | bit(9));
    }

    #[test]
    fn a_second_cover_bounds_what_the_greedy_one_leaves_alone() {
        // Six cells in two rows add up to 12: each row at least 1 + 2 + 3,
        // so every cell is 1, 2 or 3.
        let sum = LinearSum::new(
            (0..6).collect(),
            vec![1; 6],
            12,
            &[
                (0..6).map(|t| vec![t]).collect(),
                vec![vec![0, 1, 2], vec![3, 4, 5]],
            ],
        );
        let mut local = [0x1FF; 6];
        assert_eq!(sum.narrow(&mut local), Ok(true));
        assert_eq!(local, [0b111; 6]);
        // A cell's value is not one its set's other cells may take: with
        // its neighbours 1 or 2, the middle cell is 3.
        let mut pair = [bit(1) | bit(2), 0x1FF, bit(1) | bit(2), 0x1FF, 0x1FF, 0x1FF];
        assert_eq!(sum.narrow(&mut pair), Ok(true));
        assert_eq!(pair[1], bit(3));
    }

    #[test]
    fn caps_fill_the_smallest_and_largest_values_they_allow() {
        let mut caps = [0u32; 32];
        caps[..3].copy_from_slice(&[2, 1, 2]);
        let (low, high) = capped_fills(&caps, 9, 4).expect("five values allowed");
        assert_eq!((low.sum, low.nth), (1 + 1 + 2 + 3, 3));
        assert_eq!((high.sum, high.nth), (3 + 3 + 2 + 1, 1));
        assert_eq!(capped_fills(&caps, 9, 6), None);
    }

    /// A fill without one value equals the fill of one fewer with that
    /// value's cap lowered, for every cap pattern of five values.
    #[test]
    fn a_fill_without_a_value_is_the_fill_of_the_caps_without_it() {
        for pattern in 0..3u32.pow(5) {
            let mut caps = [0u32; 32];
            for (b, cap) in caps.iter_mut().take(5).enumerate() {
                *cap = pattern / 3u32.pow(b as u32) % 3;
            }
            for n in 2..8 {
                let Some((low, high)) = capped_fills(&caps, 5, n) else {
                    continue;
                };
                for b in (0..5).filter(|&b| caps[b] > 0) {
                    let mut less = caps;
                    less[b] -= 1;
                    let (l, h) = capped_fills(&less, 5, n - 1).expect("one fewer fits");
                    let v = b as i32 + 1;
                    assert_eq!(
                        (low.without(v), high.without(v)),
                        (l.sum, h.sum),
                        "{caps:?} {n} {v}"
                    );
                }
            }
        }
    }

    /// A little killer of 20 through three cells of one box, the first a
    /// placed 3: the other two make 17, so 8 and 9 (the set's union alone,
    /// 3-9, bounds them only to 4-9). The search's view keeps the looser
    /// bounds.
    #[test]
    fn a_placed_cell_takes_its_digit_out_of_its_set() {
        let sum = LinearSum::new(vec![0, 1, 2], vec![1; 3], 20, &[vec![vec![0, 1, 2]]]);
        let mut local = [bit(3), 0x1F8, 0x1F8];
        assert_eq!(sum.narrow(&mut local), Ok(true));
        assert_eq!(local, [bit(3), bit(8) | bit(9), bit(8) | bit(9)]);
        let mut local = [bit(3), 0x1F8, 0x1F8];
        assert_eq!(sum.for_search().narrow(&mut local), Ok(false));
    }

    /// Both views keep every value some assignment uses (sets of cells
    /// seeing each other holding different digits), on random sums of up to
    /// five cells in up to three sets, with coefficients -2..=2; and fail
    /// only sums no assignment makes.
    #[test]
    fn both_views_keep_every_value_an_assignment_uses() {
        use rand::Rng;
        let mut rng = crate::seed::rng_for("sum views");
        for _ in 0..3_000 {
            let n = rng.gen_range(1..=5);
            let masks: Vec<u32> = (0..n)
                .map(|_| match rng.gen_range(0..3) {
                    0 => bit(rng.gen_range(1..=9)),
                    _ => rng.gen_range(1..0x200u32),
                })
                .collect();
            let coefficients: Vec<i32> = (0..n)
                .map(|_| [-2, -1, 1, 1, 1, 2][rng.gen_range(0..6)])
                .collect();
            let set_of: Vec<usize> = (0..n).map(|_| rng.gen_range(0..3)).collect();
            let sets: Vec<Vec<usize>> = (0..3)
                .map(|s| (0..n).filter(|&t| set_of[t] == s).collect::<Vec<_>>())
                .filter(|s| !s.is_empty())
                .collect();
            // Every assignment: its total, and the values it uses.
            let mut supported: std::collections::HashMap<i32, Vec<u32>> = Default::default();
            let mut values = vec![0u8; n];
            let mut stack = vec![(0usize, 0u32)];
            while let Some((t, from)) = stack.pop() {
                if t == n {
                    let total: i32 = (0..n).map(|i| coefficients[i] * i32::from(values[i])).sum();
                    let entry = supported.entry(total).or_insert_with(|| vec![0; n]);
                    for (e, &v) in entry.iter_mut().zip(&values) {
                        *e |= bit(v.into());
                    }
                    continue;
                }
                let Some(v) = values_of(masks[t]).find(|&v| u32::from(v) > from) else {
                    continue;
                };
                stack.push((t, u32::from(v)));
                values[t] = v;
                let repeats = (0..t).any(|o| set_of[o] == set_of[t] && values[o] == v);
                if !repeats {
                    stack.push((t + 1, 0));
                }
            }
            let total = rng.gen_range(-30..=60);
            let sum = LinearSum::new(
                (0..n as u32).collect(),
                coefficients.clone(),
                total,
                &[sets],
            );
            for view in [sum.clone(), sum.for_search()] {
                let mut local = masks.clone();
                let result = view.narrow(&mut local);
                match supported.get(&total) {
                    Some(used) => {
                        assert!(
                            result.is_ok(),
                            "{masks:?} {coefficients:?} {set_of:?} {total}"
                        );
                        for (kept, used) in local.iter().zip(used) {
                            assert_eq!(
                                kept & used,
                                *used,
                                "{masks:?} {coefficients:?} {set_of:?} {total}"
                            );
                        }
                    }
                    // Exact once every cell is placed.
                    None if masks.iter().all(|&m| is_single(m)) => {
                        assert_eq!(
                            result,
                            Err(()),
                            "{masks:?} {coefficients:?} {set_of:?} {total}"
                        )
                    }
                    None => {}
                }
            }
        }
    }
}
