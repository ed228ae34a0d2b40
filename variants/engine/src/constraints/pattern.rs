//! Rules over a line of cells that no table or sum states compactly
//! (sandwich, X-sum, skyscraper, renban, between line). Sandwiches, X-sums
//! and between lines are narrowed exactly by reasoning of their own (the
//! places of the sandwich's ends, the X-sum's first cell, and the bounds of
//! the different digits the sum takes; the pairs a between line's ends can
//! hold), and so are skyscrapers over different digits (by the sets of
//! digits a line's start can hold). The others are first narrowed so
//! (renban windows, skyscraper states), then by listing the assignments their cells'
//! candidates still allow: every value used by some assignment stays. A
//! listing that would pass [`NODE_BUDGET`] steps narrows nothing (the search
//! narrows the cells first); one over single cells always runs, so a
//! finished grid is checked exactly.

use super::store;
use crate::mask::{distinct_bounds, is_single, placed_digits, values_of, DistinctSums};

/// The most assignment steps one narrowing lists before it gives up.
const NODE_BUDGET: usize = 2_000;

/// The longest line narrowed on the stack (a 25x25 grid's row fits).
const LINE_MAX: usize = 32;

/// Which rule a [`Pattern`] states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PatternKind {
    /// The digits strictly between the line's `low` and `high` add up to `sum`.
    Sandwich { sum: u32, low: u8, high: u8 },
    /// The first cell holds X; the first X cells add up to `sum`.
    XSum { sum: u32 },
    /// `count` cells are higher than every cell before them.
    Skyscraper { count: u32 },
    /// The digits are a consecutive set (in any order).
    Renban,
    /// Every cell but the two ends lies strictly between the ends' digits.
    Between,
}

/// A line of cells and its rule.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    /// The cells, in the line's order.
    pub cells: Vec<u32>,
    /// The rule.
    pub kind: PatternKind,
    /// Whether the cells hold different digits (the row or column they
    /// fill, or the rule itself, says so).
    pub distinct: bool,
    /// At most this many open cells for a skyscraper's exact narrowing
    /// (`usize::MAX`: always exact; the search's copy waits, see
    /// [`Pattern::for_search`]).
    pub exact_open: usize,
}

impl Pattern {
    /// The same rule as the search narrows it: a skyscraper over different
    /// digits exact only once [`SKYSCRAPER_EXACT_OPEN`] cells or fewer are
    /// open. (The grader's copy stays exact: a step it takes is one a
    /// person could.)
    pub fn for_search(&self) -> Pattern {
        Pattern {
            exact_open: SKYSCRAPER_EXACT_OPEN,
            ..self.clone()
        }
    }

    /// Keeps each cell's values that some assignment allowed by the rule uses.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        let changed = match self.kind {
            PatternKind::Renban => {
                let changed = narrow_renban(local)?;
                if local.iter().any(|m| m.count_ones() != 1) {
                    return Ok(changed);
                }
                changed
            }
            PatternKind::Sandwich { sum, low, high } => {
                // Exact on its own once every cell is single: no listing.
                return narrow_sandwich(local, sum, low, high);
            }
            PatternKind::Skyscraper { count } => {
                let changed = narrow_skyscraper(local, count, self.distinct)?;
                if self.distinct {
                    let open = local.iter().filter(|&&m| !is_single(m)).count();
                    if open > self.exact_open {
                        return Ok(changed);
                    }
                    // Exact on its own while the digits' sets fit a table.
                    if let Some(narrowed) = narrow_distinct_skyscraper(local, count) {
                        return narrowed.map(|more| more || changed);
                    }
                }
                changed
            }
            PatternKind::XSum { sum } => {
                // Exact on its own once every cell is single: no listing.
                return narrow_x_sum(local, sum);
            }
            PatternKind::Between => return narrow_between(local),
        };
        let mut listing = Listing {
            pattern: self,
            local,
            values: vec![0; local.len()],
            kept: vec![0; local.len()],
            nodes: 0,
        };
        if !listing.assign(0) {
            return Ok(changed);
        }
        let kept = listing.kept;
        Ok(store(local, &kept)? || changed)
    }

    /// Whether the values so far (0: not yet assigned) can still be part of
    /// an assignment the rule allows; with every value assigned, whether
    /// they are one.
    fn may_hold(&self, values: &[u8], complete: bool) -> bool {
        match self.kind {
            // Narrowed exactly by `narrow_sandwich`, never listed.
            PatternKind::Sandwich { .. } => true,
            // Narrowed exactly by `narrow_x_sum`, never listed.
            PatternKind::XSum { .. } => true,
            PatternKind::Skyscraper { count } => {
                // The cells seen so far: counted while the line is assigned
                // from its start (the listing's order).
                let (mut seen, mut highest, mut open) = (0u32, 0u8, 0u32);
                for &v in values {
                    if v == 0 {
                        open += 1;
                    } else if v > highest {
                        seen += 1;
                        highest = v;
                    }
                }
                if complete {
                    seen == count
                } else {
                    seen <= count && seen + open >= count
                }
            }
            PatternKind::Renban => {
                let placed = values.iter().filter(|&&v| v != 0);
                let (lo, hi) = placed.fold((u8::MAX, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)));
                hi < lo || usize::from(hi - lo) < values.len()
            }
            // Narrowed exactly by `narrow_between`, never listed.
            PatternKind::Between => true,
        }
    }
}

/// The digits every run of `local.len()` digits a renban's cells can still
/// hold contains (each cell holding one of the run, the cells together all
/// of it; see [`narrow_renban`]): each of them is somewhere on the line. 0
/// when no run fits.
pub(crate) fn renban_required(local: &[u32]) -> u32 {
    let (_, required) = renban_runs(local);
    required
}

/// The union and the intersection of the runs a renban's cells can still
/// hold (both 0 when none fits).
fn renban_runs(local: &[u32]) -> (u32, u32) {
    let len = local.len() as u32;
    let union = local.iter().fold(0u32, |m, &l| m | l);
    let highest = 32 - union.leading_zeros();
    let (mut allowed, mut required) = (0u32, u32::MAX);
    for start in 1..=highest.saturating_sub(len.saturating_sub(1)) {
        let run = ((1u32 << len) - 1) << (start - 1);
        if union & run == run && local.iter().all(|&m| m & run != 0) {
            allowed |= run;
            required &= run;
        }
    }
    if allowed == 0 {
        (0, 0)
    } else {
        (allowed, required)
    }
}

/// A renban's digits are the run `s..s + len` for some start `s`: each
/// cell keeps the values of the starts every cell can still fit (holding a
/// value of the run, the cells together holding all of it); a value every
/// such run holds, with one cell left for it, goes there; a single cell's
/// value leaves the others. Fails when no start fits.
fn narrow_renban(local: &mut [u32]) -> Result<bool, ()> {
    let before = local.to_vec();
    let (allowed, required) = renban_runs(local);
    if allowed == 0 {
        return Err(());
    }
    for m in local.iter_mut() {
        *m &= allowed;
    }
    for v in values_of(required) {
        let b = 1u32 << (v - 1);
        let mut holders = local.iter_mut().filter(|m| **m & b != 0);
        match (holders.next(), holders.next()) {
            (None, _) => return Err(()),
            (Some(only), None) => *only = b,
            _ => {}
        }
    }
    let singles = local
        .iter()
        .filter(|m| m.count_ones() == 1)
        .fold(0u32, |acc, &m| acc | m);
    for m in local.iter_mut().filter(|m| m.count_ones() != 1) {
        *m &= !singles;
    }
    if local.contains(&0) {
        return Err(());
    }
    Ok(local != &before[..])
}

/// A between line: for each pair of values its ends may hold, the cells
/// between take digits strictly between the two (nothing else ties them:
/// the line's cells need not differ, its houses keep them apart). An end
/// keeps its values of the pairs that leave every middle cell a digit, a
/// middle cell the digits of those pairs' ranges. Exact: with the ends
/// fixed, the middle cells are free of one another.
fn narrow_between(local: &mut [u32]) -> Result<bool, ()> {
    let n = local.len();
    if n < 3 {
        // Compiled lines have a middle; two cells alone say nothing.
        return Ok(false);
    }
    let (first, last) = (local[0], local[n - 1]);
    let (mut keep_first, mut keep_last, mut between) = (0u32, 0u32, 0u32);
    for a in values_of(first).map(u32::from) {
        for b in values_of(last).map(u32::from) {
            let (lo, hi) = (a.min(b), a.max(b));
            if hi <= lo + 1 {
                continue;
            }
            // The digits lo + 1 ..= hi - 1 (digit v is bit v - 1).
            let range = (1u32 << (hi - 1)) - (1u32 << lo);
            if local[1..n - 1].iter().all(|&m| m & range != 0) {
                keep_first |= 1 << (a - 1);
                keep_last |= 1 << (b - 1);
                between |= range;
            }
        }
    }
    if keep_first == 0 {
        return Err(());
    }
    // A pair fits, so every middle cell keeps a digit.
    let mut changed = (keep_first, keep_last) != (first, last);
    (local[0], local[n - 1]) = (keep_first, keep_last);
    for m in &mut local[1..n - 1] {
        changed |= *m & !between != 0;
        *m &= between;
    }
    Ok(changed)
}

/// A sandwich over a whole row or column (every digit once): for each place
/// of `low` and of `high` the cells may hold, the cells strictly between
/// take digits between the two whose bounds can make `sum`, the cells
/// outside anything but the two. Each cell keeps what some such placement
/// gives it: between cells, the values the others' bounds can complete to
/// `sum`. Exact once every cell is single.
fn narrow_sandwich(local: &mut [u32], sum: u32, low: u8, high: u8) -> Result<bool, ()> {
    let n = local.len();
    if n > LINE_MAX {
        // Longer than any grid's row: left to the other rules.
        return Ok(false);
    }
    let (lb, hb) = (1u32 << (low - 1), 1u32 << (high - 1));
    let inner = (hb - 1) & !((lb << 1) - 1);
    let mut kept = [0u32; LINE_MAX];
    // Per placement: the between cells' digits, and the unions of those
    // before and after each (so each cell's "others" costs nothing).
    let (mut between, mut before, mut after) =
        ([0u32; LINE_MAX], [0u32; LINE_MAX], [0u32; LINE_MAX]);
    // Cells that can hold nothing but the two ends must lie between them.
    let ends_only = |k: &usize| local[*k] & !(lb | hb) == 0;
    let first_end_only = (0..n).find(ends_only).unwrap_or(n);
    let last_end_only = (0..n).rev().find(ends_only).unwrap_or(0);
    // Each span once, whichever end holds which of the two.
    for first in 0..n {
        for last in first + 1..n {
            let low_first = local[first] & lb != 0 && local[last] & hb != 0;
            let high_first = local[first] & hb != 0 && local[last] & lb != 0;
            if !(low_first || high_first) {
                continue;
            }
            if first_end_only < first || (first_end_only < n && last_end_only > last) {
                continue;
            }
            let len = last - first - 1;
            for (j, m) in local[first + 1..last].iter().enumerate() {
                between[j] = m & inner;
            }
            let between = &between[..len];
            if between.contains(&0) {
                continue;
            }
            // The placed cells between add a known amount and take their
            // digits from the open ones.
            let Some((placed, placed_sum)) = placed_digits(between.iter().copied()) else {
                continue;
            };
            let Some(rest) = sum.checked_sub(placed_sum) else {
                continue;
            };
            let open = |m: u32| if is_single(m) { 0 } else { m & !placed };
            let open_len = between.iter().filter(|m| !is_single(**m)).count();
            let mut union = 0;
            for (j, &m) in between.iter().enumerate() {
                before[j] = union;
                union |= open(m);
            }
            let Some((least, most)) = distinct_bounds(union, open_len) else {
                continue;
            };
            if !(least..=most).contains(&rest) {
                continue;
            }
            let mut tail = 0;
            for (j, &m) in between.iter().enumerate().rev() {
                after[j] = tail;
                tail |= open(m);
            }
            if low_first {
                kept[first] |= lb;
                kept[last] |= hb;
            }
            if high_first {
                kept[first] |= hb;
                kept[last] |= lb;
            }
            for k in (0..first).chain(last + 1..n) {
                kept[k] |= local[k] & !(lb | hb);
            }
            for (j, &m) in between.iter().enumerate() {
                let cell = &mut kept[first + 1 + j];
                if is_single(m) {
                    *cell |= m;
                    continue;
                }
                // Values some other span already keeps need no second look.
                let unseen = open(m) & !*cell;
                if unseen != 0 {
                    *cell |= DistinctSums::new(before[j] | after[j], open_len - 1)
                        .completing(unseen, rest as i32);
                }
            }
        }
    }
    store(local, &kept[..n])
}

/// A skyscraper's digits, seen from the clue, as states (count seen so far,
/// tallest so far), kept as one mask of tallest digits per count and cell: a
/// value stays where some state the line's start reaches leads, through it,
/// to one from which the rest can still show exactly `count`, ending at the
/// line's highest digit (a whole row or column holds every digit). Digits
/// are not otherwise kept apart here, but on a line of different digits
/// (`distinct`) a hidden digit is strictly below the tallest. Never removes
/// a value some assignment uses; a few word operations per cell and count.
fn narrow_skyscraper(local: &mut [u32], count: u32, distinct: bool) -> Result<bool, ()> {
    const SIDE: usize = crate::MAX_SIZE as usize;
    // The states' tables sized for the line: a 9x9 row's fit in 720 bytes.
    match local.len() {
        0..=9 => skyscraper_states::<9, 10>(local, count, distinct),
        n if n <= SIDE => skyscraper_states::<SIDE, { SIDE + 1 }>(local, count, distinct),
        // Longer than any grid's row: left to the other rules.
        _ => Ok(false),
    }
}

/// [`narrow_skyscraper`] on a line of at most `SIDE` cells (`COUNTS`: `SIDE + 1`).
fn skyscraper_states<const SIDE: usize, const COUNTS: usize>(
    local: &mut [u32],
    count: u32,
    distinct: bool,
) -> Result<bool, ()> {
    let n = local.len();
    let count = count as usize;
    if n == 0 {
        return Ok(false);
    }
    if count == 0 || count > n {
        return Err(());
    }
    // Masks of digits above the lowest / below the highest of a mask.
    let above_lowest = |m: u32| {
        if m == 0 {
            0
        } else {
            !((m & m.wrapping_neg()) * 2 - 1)
        }
    };
    let below_highest = |m: u32| {
        if m == 0 {
            0
        } else {
            (1u32 << (31 - m.leading_zeros())) - 1
        }
    };
    // The tallest digits a cell holding one of `m` can hide behind, and the
    // digits of a cell hidden behind one of the tallest `m`.
    let hides_behind = |m: u32| {
        let lowest = m & m.wrapping_neg();
        if distinct {
            above_lowest(m)
        } else if m == 0 {
            0
        } else {
            !(lowest - 1)
        }
    };
    let hidden_below = |m: u32| {
        if distinct || m == 0 {
            below_highest(m)
        } else {
            below_highest(m) | (1u32 << (31 - m.leading_zeros()))
        }
    };
    // reached[i][s]: the tallest digits after cell i with s seen.
    let mut reached = [[0u32; COUNTS]; SIDE];
    reached[0][1] = local[0];
    for i in 1..n {
        let v = local[i];
        let behind = hides_behind(v);
        for s in 1..=count.min(i + 1) {
            reached[i][s] =
                (reached[i - 1][s] & behind) | (v & above_lowest(reached[i - 1][s - 1]));
        }
    }
    // ends[i][s]: of those, the ones from which the rest shows `count`.
    let mut ends = [[0u32; COUNTS]; SIDE];
    ends[n - 1][count] = reached[n - 1][count] & 1 << (n - 1);
    let mut kept = [0u32; SIDE];
    for i in (1..n).rev() {
        let v = local[i];
        for s in 1..=count.min(i + 1) {
            let after = ends[i][s];
            if after == 0 {
                continue;
            }
            // Hidden: the tallest stays, above something of this cell's.
            let stay = reached[i - 1][s] & after & hides_behind(v);
            if stay != 0 {
                ends[i - 1][s] |= stay;
                kept[i] |= v & hidden_below(stay);
            }
            // Seen: this cell is the new tallest, above an earlier tallest.
            let seen = after & v & above_lowest(reached[i - 1][s - 1]);
            if seen != 0 {
                kept[i] |= seen;
                ends[i - 1][s - 1] |= reached[i - 1][s - 1] & below_highest(seen);
            }
        }
    }
    kept[0] = local[0] & ends[0][1];
    store(local, &kept[..n])
}

/// A skyscraper over different digits is narrowed exactly
/// ([`narrow_distinct_skyscraper`]) once at most this many of its cells are
/// open, by its states alone ([`narrow_skyscraper`]) before: the exact walk
/// visits up to 2^open sets of digits and early in a search mostly confirms
/// what the states found. On "Skyscraper - all 5", with the search placing
/// each line's tallest first, 7 counted fastest over all eight orientations
/// (6 and 8 slower, every line exact 2.3x slower; docs/benchmarks.md).
const SKYSCRAPER_EXACT_OPEN: usize = 7;

/// Digits up to this many are narrowed exactly by [`narrow_distinct_skyscraper`]
/// (a table of 2^n sets of digits).
const SKYSCRAPER_SET_DIGITS: u32 = 12;

/// The sets of digits [`skyline`] can hold: every subset of `1..=`[`SKYSCRAPER_SET_DIGITS`].
const SKYLINE_SETS: usize = 1 << SKYSCRAPER_SET_DIGITS;

/// What [`narrow_distinct_skyscraper`] works in, kept between narrowings (a
/// search narrows thousands of times): each set's reached and ending counts
/// (zero outside a narrowing) and the sets reached, in fixed arrays indexed
/// by a set's bits (no bounds to check in the loops).
struct SkylineScratch {
    reached: Box<[u16; SKYLINE_SETS]>,
    ends: Box<[u16; SKYLINE_SETS]>,
    order: Box<[u16; SKYLINE_SETS]>,
}

impl Default for SkylineScratch {
    fn default() -> SkylineScratch {
        SkylineScratch {
            reached: Box::new([0; SKYLINE_SETS]),
            ends: Box::new([0; SKYLINE_SETS]),
            order: Box::new([0; SKYLINE_SETS]),
        }
    }
}

thread_local! {
    static SKYLINE: std::cell::RefCell<SkylineScratch> =
        std::cell::RefCell::new(SkylineScratch::default());
}

/// A skyscraper over a line of different digits, narrowed exactly: the first
/// `i` cells hold some set of `i` digits, the tallest of them its highest, so
/// a set and the count seen so far are the whole state. Which states the
/// line's start reaches (its cells' candidates allowing), which of those can
/// still end at `count` (from the full line back), and each cell keeps the
/// digits that lead from one such state to another. `None` when the digits
/// are too many for the table.
fn narrow_distinct_skyscraper(local: &mut [u32], count: u32) -> Option<Result<bool, ()>> {
    let n = local.len();
    let top = 32 - local.iter().fold(0u32, |m, &l| m | l).leading_zeros();
    if top > SKYSCRAPER_SET_DIGITS || n >= 16 || n as u32 > top {
        return None;
    }
    let kept = SKYLINE.with_borrow_mut(|scratch| skyline(local, count, scratch));
    Some(store(local, &kept[..n]))
}

/// The digits each cell keeps (see [`narrow_distinct_skyscraper`]), worked
/// out in `scratch`, whose counts are zero on entry and left so.
fn skyline(local: &[u32], count: u32, scratch: &mut SkylineScratch) -> [u32; 16] {
    let n = local.len();
    let SkylineScratch {
        reached,
        ends,
        order,
    } = scratch;
    let (reached, ends, order) = (&mut **reached, &mut **ends, &mut **order);
    let at = |set: usize| set & (SKYLINE_SETS - 1);
    let tallest = |set: usize| usize::BITS - set.leading_zeros();
    // The next state's counts seen, from this one's, placing `v` after `set`.
    let seen_after = |set: usize, seen: u16, v: u32| {
        if v > tallest(set) {
            seen << 1
        } else {
            seen
        }
    };
    // reached[set]: bit s set when the line's start reaches the state (set, s);
    // `order[..len]`: the reached sets, breadth first — so by size, every set
    // after all its predecessors and before all its successors; the sets of
    // size `p` are `order[level[p]..level[p + 1]]` (no bit count needed).
    order[0] = 0;
    let mut len = 1;
    reached[0] = 1;
    let mut level = [0usize; 18];
    for placed in 0..n {
        level[placed + 1] = len;
        for k in level[placed]..level[placed + 1] {
            let set = usize::from(order[at(k)]);
            let seen = reached[at(set)];
            let mut open = local[placed] & !(set as u32);
            while open != 0 {
                let v = open.trailing_zeros() + 1;
                open &= open - 1;
                let next = at(set | 1 << (v - 1));
                if reached[next] == 0 {
                    order[at(len)] = next as u16;
                    len += 1;
                }
                reached[next] |= seen_after(set, seen, v);
            }
        }
    }
    level[n + 1] = len;
    // ends[set]: of the reached counts, those from which the rest of the line
    // can end having seen `count` (successors first). A cell keeps a digit
    // that steps from a reached count to one that ends: that count then
    // ends too, so one pass finds both.
    let mut kept = [0u32; 16];
    let seen_all = if (count as usize) <= n { 1 << count } else { 0 };
    for k in level[n]..level[n + 1] {
        let set = at(usize::from(order[at(k)]));
        ends[set] = seen_all & reached[set];
    }
    for placed in (0..n).rev() {
        for k in (level[placed]..level[placed + 1]).rev() {
            let set = usize::from(order[at(k)]);
            let seen = reached[at(set)];
            let mut can = 0u16;
            let mut open = local[placed] & !(set as u32);
            while open != 0 {
                let v = open.trailing_zeros() + 1;
                open &= open - 1;
                let after = ends[at(set | 1 << (v - 1))];
                if seen_after(set, seen, v) & after != 0 {
                    kept[placed] |= 1 << (v - 1);
                }
                can |= seen_before(after, v > tallest(set));
            }
            ends[at(set)] = can & seen;
        }
    }
    // Every set reached back to zero for the next narrowing.
    for k in 0..len {
        let set = at(usize::from(order[at(k)]));
        (reached[set], ends[set]) = (0, 0);
    }
    kept
}

/// The counts seen before a step, from those after it (`taller`: the step
/// was seen).
fn seen_before(after: u16, taller: bool) -> u16 {
    if taller {
        after >> 1
    } else {
        after
    }
}

/// An X-sum: for each X the first cell may hold, the next X - 1 cells take
/// different digits other than X adding up to `sum - X` — the placed ones
/// a known amount, the open ones bounded by the fewest and most such digits
/// their candidates allow (the placed digits out). A first digit no bound
/// allows goes; each open cell of the X keeps the digits some allowed X
/// leaves it (cells past every allowed X keep all).
fn narrow_x_sum(local: &mut [u32], sum: u32) -> Result<bool, ()> {
    let n = local.len();
    // A line has at most MAX_SIZE cells: everything fits on the stack.
    const LINE: usize = crate::MAX_SIZE as usize;
    if n > LINE {
        return Ok(false);
    }
    let mut kept = [0u32; LINE];
    // from[i]: the union of the open cells i..k of the X being tried.
    let mut from = [0u32; LINE + 1];
    for x in values_of(local[0]) {
        let (x32, k) = (u32::from(x), usize::from(x));
        if k > n || x32 > sum {
            continue;
        }
        let x_bit = 1u32 << (x - 1);
        // The placed cells of the X: their digits (X's among them) and sum.
        let Some((placed, placed_sum)) = placed_digits(local[1..k].iter().copied()) else {
            continue;
        };
        if placed & x_bit != 0 {
            continue;
        }
        let placed = placed | x_bit;
        let Some(rest) = sum.checked_sub(x32 + placed_sum) else {
            continue;
        };
        let open_len = local[1..k].iter().filter(|&&m| !is_single(m)).count();
        from[k] = 0;
        for i in (1..k).rev() {
            let open = if is_single(local[i]) { 0 } else { local[i] };
            from[i] = from[i + 1] | open;
        }
        if !distinct_bounds(from[1] & !placed, open_len)
            .is_some_and(|(lo, hi)| (lo..=hi).contains(&rest))
        {
            continue;
        }
        kept[0] |= x_bit;
        let mut before = 0u32;
        // The other cells' digits are often those of the previous cell's
        // others: their bounds are then worked out once.
        let mut others = (u32::MAX, DistinctSums::default());
        for i in 1..k {
            if is_single(local[i]) {
                kept[i] |= local[i];
                continue;
            }
            // The other open cells: different digits, none placed.
            let union = (before | from[i + 1]) & !placed;
            if others.0 != union {
                others = (union, DistinctSums::new(union, open_len - 1));
            }
            let others = &others.1;
            before |= local[i];
            kept[i] |= others.completing(local[i] & !placed, rest as i32);
        }
        for i in k..n {
            kept[i] |= local[i] & !x_bit;
        }
    }
    store(local, &kept[..n])
}

/// One listing of a pattern's assignments.
struct Listing<'a> {
    pattern: &'a Pattern,
    local: &'a [u32],
    /// The assignment being built (0: not yet).
    values: Vec<u8>,
    /// The values each cell takes in some allowed assignment.
    kept: Vec<u32>,
    nodes: usize,
}

impl Listing<'_> {
    /// Assigns the cells from the `i`-th on; `false` when the budget ran
    /// out (nothing may then be narrowed).
    fn assign(&mut self, i: usize) -> bool {
        let Some(&cell) = self.local.get(i) else {
            if self.pattern.may_hold(&self.values, true) {
                for (k, &v) in self.kept.iter_mut().zip(&self.values) {
                    *k |= 1 << (v - 1);
                }
            }
            return true;
        };
        for v in values_of(cell) {
            self.nodes += 1;
            if self.nodes > NODE_BUDGET && !self.local.iter().all(|m| m.count_ones() == 1) {
                return false;
            }
            if self.pattern.distinct && self.values.contains(&v) {
                continue;
            }
            self.values[i] = v;
            if self.pattern.may_hold(&self.values, false) && !self.assign(i + 1) {
                return false;
            }
            self.values[i] = 0;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::bit;

    fn singles(values: &[u8]) -> Vec<u32> {
        values.iter().map(|&v| bit(u32::from(v))).collect()
    }

    #[test]
    fn a_finished_sandwich_is_checked_exactly() {
        let sandwich = Pattern {
            cells: (0..9).collect(),
            kind: PatternKind::Sandwich {
                sum: 10,
                low: 1,
                high: 9,
            },
            distinct: true,
            exact_open: usize::MAX,
        };
        let mut good = singles(&[2, 1, 3, 7, 9, 4, 5, 6, 8]);
        assert_eq!(sandwich.narrow(&mut good), Ok(false));
        let mut bad = singles(&[2, 1, 3, 6, 9, 4, 5, 7, 8]);
        assert_eq!(sandwich.narrow(&mut bad), Err(()));
    }

    #[test]
    fn a_skyscraper_of_one_puts_the_highest_first() {
        let mut local = vec![0x1FF; 9];
        assert_eq!(narrow_skyscraper(&mut local, 1, true), Ok(true));
        assert_eq!(local[0], bit(9));
        let mut all = vec![0x1FF; 9];
        assert_eq!(narrow_skyscraper(&mut all, 9, true), Ok(true));
        assert_eq!(all[0], bit(1));
    }

    /// Every sequence of `len` digits from 1..=`digits`.
    fn sequences(len: u32, digits: usize) -> impl Iterator<Item = Vec<u32>> {
        (0..digits.pow(len)).map(move |code| {
            (0..len)
                .map(|i| (code / digits.pow(i) % digits + 1) as u32)
                .collect()
        })
    }

    /// Whether each digit of `seq` is among its cell's candidates.
    fn fits(seq: &[u32], cands: &[u32]) -> bool {
        seq.iter().zip(cands).all(|(&v, &c)| c & bit(v) != 0)
    }

    /// Each of `len` cells' digits over `seqs` (as candidate masks).
    fn values_used(len: usize, seqs: impl Iterator<Item = Vec<u32>>) -> Vec<u32> {
        let mut used = vec![0; len];
        for seq in seqs {
            for (u, &v) in used.iter_mut().zip(&seq) {
                *u |= bit(v);
            }
        }
        used
    }

    /// A between line keeps exactly the values some assignment of its
    /// cells uses (ends any digits, the middle strictly between them, no
    /// two cells kept apart): checked against listing every assignment of
    /// a 4-cell line, for several sets of candidates.
    #[test]
    fn a_between_line_keeps_what_some_assignment_uses() {
        let lines = [
            [0x1FF, 0x1FF, 0x1FF, 0x1FF],
            [bit(1) | bit(5), 0b1_1100, 0x1FF, bit(4) | bit(9)],
            [bit(3) | bit(7), bit(5), bit(5) | bit(6), 0x1FF],
            [bit(4), 0x1FF, bit(1) | bit(9), bit(5)],
        ];
        for cands in lines {
            let expected = values_used(
                4,
                sequences(4, 9).filter(|v| {
                    let (lo, hi) = (v[0].min(v[3]), v[0].max(v[3]));
                    fits(v, &cands) && v[1..3].iter().all(|&x| lo < x && x < hi)
                }),
            );
            let mut local = cands.to_vec();
            let narrowed = narrow_between(&mut local);
            if expected.contains(&0) {
                assert_eq!(narrowed, Err(()), "{cands:?}");
            } else {
                assert_eq!(local, expected, "{cands:?}");
                assert_eq!(narrowed, Ok(local != cands), "{cands:?}");
            }
        }
    }

    /// The states keep exactly the values of the sequences (digits may
    /// repeat) that fit the candidates, end at the tallest digit and show
    /// `count` — a hidden digit at most the tallest before it, or (the
    /// line's digits different) below it: checked against listing every
    /// sequence of a 5-cell line.
    #[test]
    fn a_skyscrapers_states_keep_what_some_sequence_uses() {
        let cands = [0b11111, 0b10110, 0b01011, 0b11101, 0b00111];
        for distinct in [false, true] {
            for count in 1..=5 {
                let expected = values_used(
                    5,
                    sequences(5, 5).filter(|seq| {
                        let (mut tallest, mut seen, mut hides_equal) = (0, 0, false);
                        for &v in seq {
                            hides_equal |= v == tallest;
                            seen += u32::from(v > tallest);
                            tallest = tallest.max(v);
                        }
                        fits(seq, &cands)
                            && !(distinct && hides_equal)
                            && seen == count
                            && tallest == 5
                    }),
                );
                let mut local = cands.to_vec();
                let narrowed = narrow_skyscraper(&mut local, count, distinct);
                if expected.contains(&0) {
                    assert_eq!(narrowed, Err(()), "count {count}");
                } else {
                    assert_eq!(local, expected, "count {count}, distinct {distinct}");
                }
            }
        }
    }

    #[test]
    fn a_skyscraper_of_different_digits_is_narrowed_exactly() {
        let mut one = vec![0x1FF; 9];
        assert_eq!(narrow_distinct_skyscraper(&mut one, 1), Some(Ok(true)));
        assert_eq!(one[0], bit(9));
        // Seeing all nine: 1..=9 in order, nothing else.
        let mut all = vec![0x1FF; 9];
        assert_eq!(narrow_distinct_skyscraper(&mut all, 9), Some(Ok(true)));
        assert_eq!(all, (1..=9).map(bit).collect::<Vec<_>>());
        // Seeing 8 of 4 digits is impossible.
        let mut four = vec![0xF; 4];
        assert_eq!(narrow_distinct_skyscraper(&mut four, 8), Some(Err(())));
        // Every value some permutation allows stays, and only those: checked
        // against listing every permutation of a 5-cell line.
        let cands = [0b11111, 0b10110, 0b01011, 0b11101, 0b00111];
        for count in 1..=5 {
            let mut expected = [0u32; 5];
            let mut perm = [1u8, 2, 3, 4, 5];
            permutations(&mut perm, 0, &mut |p| {
                let fits = p
                    .iter()
                    .zip(&cands)
                    .all(|(&v, &c)| c & bit(u32::from(v)) != 0);
                let mut tallest = 0;
                let seen = p.iter().filter(|&&v| {
                    let taller = v > tallest;
                    tallest = tallest.max(v);
                    taller
                });
                if fits && seen.count() == count as usize {
                    for (k, &v) in expected.iter_mut().zip(p.iter()) {
                        *k |= bit(u32::from(v));
                    }
                }
            });
            let mut local = cands.to_vec();
            let narrowed = narrow_distinct_skyscraper(&mut local, count);
            if expected.contains(&0) {
                assert_eq!(narrowed, Some(Err(())), "count {count}");
            } else {
                assert_eq!(local, expected, "count {count}");
            }
        }
    }

    /// Calls `f` with every permutation of `values[from..]` after `values[..from]`.
    fn permutations(values: &mut [u8; 5], from: usize, f: &mut impl FnMut(&[u8; 5])) {
        if from == values.len() {
            return f(values);
        }
        for i in from..values.len() {
            values.swap(from, i);
            permutations(values, from + 1, f);
            values.swap(from, i);
        }
    }

    #[test]
    fn an_x_sum_bounds_its_first_cell() {
        // X = 1 needs the sum 1; 2 + (1 or 3..9) ranges over 3..=11; so 10
        // rules out 1, and X = 2 needs an 8 beside it.
        let mut local = vec![bit(1) | bit(2), 0x1FF, 0x1FF];
        assert_eq!(narrow_x_sum(&mut local, 10), Ok(true));
        assert_eq!(local[0], bit(2));
        assert_eq!(local[1], bit(8));
    }

    /// The X-sum's narrowing, written out plainly: the placed cells of
    /// each X apart, every other open cell's union and bounds worked out
    /// again for each value.
    fn x_sum_plainly(local: &[u32], sum: u32) -> Vec<u32> {
        let n = local.len();
        let fits = |mask: u32, k: usize, target: i64| {
            distinct_bounds(mask, k)
                .is_some_and(|(lo, hi)| (i64::from(lo)..=i64::from(hi)).contains(&target))
        };
        let mut kept = vec![0u32; n];
        for x in values_of(local[0]) {
            let (x32, k, xb) = (u32::from(x), usize::from(x), bit(u32::from(x)));
            if k > n || x32 > sum {
                continue;
            }
            let singles: Vec<u32> = (1..k).map(|i| local[i]).filter(|m| is_single(*m)).collect();
            let placed = singles.iter().fold(xb, |m, &s| m | s);
            if placed.count_ones() as usize != singles.len() + 1 {
                continue;
            }
            let rest = i64::from(sum)
                - i64::from(x32)
                - singles
                    .iter()
                    .map(|s| i64::from(s.trailing_zeros() + 1))
                    .sum::<i64>();
            let open: Vec<usize> = (1..k).filter(|&i| !is_single(local[i])).collect();
            let union_but = |skip: usize| {
                open.iter()
                    .filter(|&&j| j != skip)
                    .fold(0, |m, &j| m | local[j])
                    & !placed
            };
            if !fits(union_but(usize::MAX), open.len(), rest) {
                continue;
            }
            kept[0] |= xb;
            for i in 1..k {
                if is_single(local[i]) {
                    kept[i] |= local[i];
                    continue;
                }
                for v in values_of(local[i] & !placed) {
                    let v32 = u32::from(v);
                    if fits(
                        union_but(i) & !bit(v32),
                        open.len() - 1,
                        rest - i64::from(v32),
                    ) {
                        kept[i] |= bit(v32);
                    }
                }
            }
            for i in k..n {
                kept[i] |= local[i] & !xb;
            }
        }
        kept
    }

    /// The values each cell of a line of different digits takes in some
    /// assignment `accept`s.
    fn used_by_assignments(local: &[u32], accept: &dyn Fn(&[u32]) -> bool) -> Vec<u32> {
        fn walk(
            local: &[u32],
            accept: &dyn Fn(&[u32]) -> bool,
            values: &mut Vec<u32>,
            kept: &mut [u32],
        ) {
            if values.len() == local.len() {
                if accept(values) {
                    for (k, &v) in kept.iter_mut().zip(values.iter()) {
                        *k |= bit(v);
                    }
                }
                return;
            }
            for v in values_of(local[values.len()]).map(u32::from) {
                if !values.contains(&v) {
                    values.push(v);
                    walk(local, accept, values, kept);
                    values.pop();
                }
            }
        }
        let mut kept = vec![0u32; local.len()];
        walk(local, accept, &mut Vec::new(), &mut kept);
        kept
    }

    /// A line of 9 cells, a few candidates each, some placed.
    fn sparse_line(rng: &mut impl rand::Rng) -> Vec<u32> {
        (0..9)
            .map(|_| match rng.gen_range(0..4) {
                0 => bit(rng.gen_range(1..=9)),
                _ => (1..=3).fold(0, |m, _| m | bit(rng.gen_range(1..=9))),
            })
            .collect()
    }

    /// A line rule's narrowing with its clue.
    type LineNarrowing = dyn Fn(&mut [u32], u32) -> Result<bool, ()>;

    /// `narrow` keeps every value some assignment `accept`s uses, takes
    /// nothing new, and fails only when none is accepted; on 400 sparse
    /// lines. Returns how many it narrowed.
    fn keeps_what_assignments_use(
        seed: &str,
        sums: std::ops::Range<u32>,
        narrow: &LineNarrowing,
        accept: &dyn Fn(&[u32], u32) -> bool,
    ) -> usize {
        use rand::Rng;
        let mut rng = crate::seed::rng_for(seed);
        let mut narrowed_some = 0;
        for _ in 0..400 {
            let local = sparse_line(&mut rng);
            let sum = rng.gen_range(sums.clone());
            let used = used_by_assignments(&local, &|values| accept(values, sum));
            let mut narrowed = local.clone();
            match narrow(&mut narrowed, sum) {
                Err(()) => assert!(used.iter().all(|&u| u == 0), "{local:?} {sum}"),
                Ok(_) => {
                    for ((n, u), l) in narrowed.iter().zip(&used).zip(&local) {
                        assert_eq!(n & u, *u, "{local:?} {sum}");
                        assert_eq!(n & !l, 0, "{local:?} {sum}");
                    }
                    narrowed_some += usize::from(narrowed != local);
                }
            }
        }
        narrowed_some
    }

    /// A sandwich keeps every value an assignment uses.
    #[test]
    fn a_sandwich_keeps_every_value_an_assignment_uses() {
        let between = |values: &[u32], sum: u32| {
            let at = |d: u32| values.iter().position(|&v| v == d).unwrap_or(0);
            let (a, b) = (at(1).min(at(9)), at(1).max(at(9)));
            values[a + 1..b].iter().sum::<u32>() == sum
        };
        let narrowed = keeps_what_assignments_use(
            "sandwich assignments",
            0..36,
            &|local, sum| narrow_sandwich(local, sum, 1, 9),
            &between,
        );
        assert!(narrowed > 50, "only {narrowed} lines narrowed");
    }

    /// An X-sum keeps every value an assignment uses.
    #[test]
    fn an_x_sum_keeps_every_value_an_assignment_uses() {
        let first_x = |values: &[u32], sum: u32| {
            let x = values[0] as usize;
            values[..x].iter().sum::<u32>() == sum
        };
        let narrowed =
            keeps_what_assignments_use("x-sum assignments", 1..46, &narrow_x_sum, &first_x);
        assert!(narrowed > 50, "only {narrowed} lines narrowed");
    }

    #[test]
    fn an_x_sum_narrows_as_written_out_plainly() {
        use rand::Rng;
        let (mut rng, mut kept) = (crate::seed::rng_for("x-sum"), 0);
        for _ in 0..3000 {
            let local: Vec<u32> = (0..9)
                .map(
                    |_| match rng.gen_range(1..0x200u32) & rng.gen_range(1..0x200u32) {
                        0 => 0x1FF,
                        m => m,
                    },
                )
                .collect();
            let sum = rng.gen_range(1..46);
            let expected = x_sum_plainly(&local, sum);
            let mut narrowed = local.clone();
            match narrow_x_sum(&mut narrowed, sum) {
                Err(()) => assert!(expected.contains(&0), "{local:?} {sum}"),
                Ok(_) => {
                    assert_eq!(narrowed, expected, "{local:?} {sum}");
                    kept += 1;
                }
            }
        }
        assert!(kept > 300, "only {kept} of the lines could be narrowed");
    }

    #[test]
    fn a_renban_keeps_runs() {
        let renban = Pattern {
            cells: vec![0, 1, 2],
            kind: PatternKind::Renban,
            distinct: true,
            exact_open: usize::MAX,
        };
        let mut local = vec![bit(1), bit(3), 0x1FF];
        assert_eq!(renban.narrow(&mut local), Ok(true));
        assert_eq!(local[2], bit(2));
    }
}
