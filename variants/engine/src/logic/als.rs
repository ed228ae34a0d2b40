//! An almost locked set (k cells that all see each other, holding k + 1 values)
//! with a bivalue cell {x, z}: when every ALS cell holding x sees the bivalue
//! cell, x cannot be in both, so z is in one of them, and any cell seeing the
//! bivalue cell and every ALS cell holding z is not z. With both values linked
//! that way the whole pattern is locked. Sudoku Explainer's WXYZ-Wing (k = 3),
//! VWXYZ-Wing (4), UVWXYZ-Wing (5) and TUVWXYZ-Wing (6).

use crate::logic::cells::CellSet;
use crate::logic::memo;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};

/// The easiest ALS-wing whose ALS has `k` cells.
///
/// A wing's eliminations depend only on the candidates of its cells (those
/// of the cells it eliminates from only shrink), so, in a solve, a wing none
/// of whose cells changed since the search last found nothing eliminates
/// nothing still, and is not looked at.
pub(crate) fn wing(cx: &Ctx, k: usize) -> Option<Step> {
    cx.grid_step(memo::ALS_WING + k as u8, |changed| {
        wings_reading(cx, k, changed)
    })
}

/// [`wing`], looking only at wings with a cell of `changed` (`None`: at
/// every wing).
fn wings_reading(cx: &Ctx, k: usize, changed: Option<&CellSet>) -> Option<Step> {
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    let usable: Vec<u32> = (0..n)
        .filter(|&c| (2..=k as u32 + 1).contains(&cand[c as usize].count_ones()))
        .collect();
    let bivalue: Vec<u32> = (0..n)
        .filter(|&c| cand[c as usize].count_ones() == 2)
        .collect();
    let changed_bivalue = changed.is_none_or(|d| bivalue.iter().any(|&c| d.contains(c)));
    let mut search = Search {
        k,
        changed,
        changed_bivalue,
        bivalue,
        places: (1..=cx.grid.size as u8)
            .map(|v| CellSet::holding(cx.layout, cx.grid, v))
            .collect(),
        set: Vec::with_capacity(k),
        rests: vec![Vec::new(); k],
        seeing_holders: vec![CellSet::empty(cx.layout); cx.grid.size as usize],
        best: None,
    };
    let mut rest = Vec::with_capacity(usable.len());
    for (i, &first) in usable.iter().enumerate() {
        search.set.clear();
        search.set.push(first);
        // Every other cell of the set sees the first (order kept).
        rest.clear();
        rest.extend(
            usable[i + 1..]
                .iter()
                .copied()
                .filter(|&c| cx.layout.sees(c, first)),
        );
        let changed = search.is_changed(first);
        grow(cx, &mut search, &rest, cand[first as usize], changed);
    }
    search.best
}

/// One ALS-wing search: the sets being grown and what they are checked
/// against.
struct Search<'c> {
    /// The ALS size.
    k: usize,
    /// The cells changed since the search last found nothing (`None`: look
    /// at every wing).
    changed: Option<&'c CellSet>,
    /// Whether a bivalue cell is among them.
    changed_bivalue: bool,
    /// The bivalue cells.
    bivalue: Vec<u32>,
    /// By value - 1: the cells holding it.
    places: Vec<CellSet>,
    /// The cells of the set so far.
    set: Vec<u32>,
    /// By depth: the cells a set of depth + 1 cells may take next (later
    /// than its last cell, seeing all of its cells), reused.
    rests: Vec<Vec<u32>>,
    /// By value - 1: the cells seeing every cell of the full set holding it.
    seeing_holders: Vec<CellSet>,
    best: Option<Step>,
}

impl Search<'_> {
    /// Whether a wing with cell `c` must be looked at.
    fn is_changed(&self, c: u32) -> bool {
        self.changed.is_none_or(|d| d.contains(c))
    }
}

/// Grows the set with cells of `rest` (each seeing every cell of the set)
/// while it holds at most `k + 1` values; `union` is its values so far,
/// `changed` whether a cell of it changed.
fn grow(cx: &Ctx, s: &mut Search, rest: &[u32], union: u32, changed: bool) {
    let depth = s.set.len();
    if depth == s.k {
        if union.count_ones() as usize == s.k + 1 {
            with_bivalue(cx, s, union, changed);
        }
        return;
    }
    // With no changed cell yet, nor a changed bivalue cell, the set must
    // take one: none past the last of `rest`.
    let needed = !changed && !s.changed_bivalue;
    let last_changed = if needed {
        rest.iter().rposition(|&c| s.is_changed(c))
    } else {
        None
    };
    for (i, &c) in rest.iter().enumerate() {
        // Too few cells left to fill the set.
        if rest.len() - i < s.k - depth {
            break;
        }
        if needed && last_changed.is_none_or(|last| i > last) {
            break;
        }
        let u = union | cx.grid.cand[c as usize];
        if u.count_ones() as usize <= s.k + 1 {
            s.set.push(c);
            // The cells after `c` that see it too (none needed for a full set).
            let mut next = std::mem::take(&mut s.rests[depth]);
            next.clear();
            if depth + 1 < s.k {
                next.extend(
                    rest[i + 1..]
                        .iter()
                        .copied()
                        .filter(|&o| cx.layout.sees(o, c)),
                );
            }
            let changed = changed || s.is_changed(c);
            grow(cx, s, &next, u, changed);
            s.rests[depth] = next;
            s.set.pop();
        }
    }
}

/// Every wing of the full set `s.set` (holding the values `union`; with a
/// changed cell when `changed`) with a bivalue cell, kept in `s.best` when
/// easier.
fn with_bivalue(cx: &Ctx, s: &mut Search, union: u32, changed: bool) {
    let cand = &cx.grid.cand;
    let mut prepared = false;
    for &yz in &s.bivalue {
        if !changed && !s.is_changed(yz) {
            continue;
        }
        let m = cand[yz as usize];
        let als = &s.set;
        if m & union != m || als.contains(&yz) || !als.iter().any(|&c| cx.layout.sees(c, yz)) {
            continue;
        }
        if !prepared {
            // By value: the cells seeing every cell of the set holding it.
            for v in values_of(union) {
                let seeing = &mut s.seeing_holders[usize::from(v) - 1];
                seeing.fill();
                for &c in als
                    .iter()
                    .filter(|&&c| cand[c as usize] & bit(u32::from(v)) != 0)
                {
                    seeing.keep(cx.layout.seen_by(c));
                }
            }
            prepared = true;
        }
        let seeing = |v: u8| &s.seeing_holders[usize::from(v) - 1];
        let values = [values_of(m).next(), values_of(m).nth(1)].map(|v| v.unwrap_or(0));
        // A value is linked when every cell of the set holding it sees yz.
        let linked = values.map(|v| seeing(v).contains(yz));
        if !linked[0] && !linked[1] {
            continue;
        }
        let mut eliminations = Vec::new();
        // Candidates of `v` that see every cell of the set holding it, and
        // yz too when `with_yz` (none of the pattern's cells: a cell does not
        // see itself, the set's other cells do not hold `v`, and yz holds
        // `v` only where it is seen).
        let mut eliminate = |v: u8, with_yz: bool| {
            let mut targets = seeing(v).clone();
            if with_yz {
                targets.keep(cx.layout.seen_by(yz));
            }
            targets.keep_set(&s.places[usize::from(v) - 1]);
            eliminations.extend(targets.iter().map(|c| Candidate::new(c, v)));
        };
        for i in 0..2 {
            if linked[i] {
                eliminate(values[1 - i], true);
            }
        }
        if linked[0] && linked[1] {
            // Doubly linked: every other ALS value is locked in the ALS.
            for v in values_of(union & !m) {
                eliminate(v, false);
            }
            for &x in &values {
                eliminate(x, true);
            }
        }
        eliminations.sort();
        eliminations.dedup();
        if eliminations.is_empty() {
            continue;
        }
        let (als, best) = (&s.set, &mut s.best);
        let (technique, rating) = rate(als, cand);
        if cx.every.is_none()
            && best.as_ref().is_some_and(|b| {
                (b.rating, std::cmp::Reverse(b.eliminations.len()))
                    <= (rating, std::cmp::Reverse(eliminations.len()))
            })
        {
            continue;
        }
        let mut step = Step::new(technique, rating);
        for &c in als.iter().chain([yz].iter()) {
            step.pattern
                .extend(values_of(cand[c as usize]).map(|v| Candidate::new(c, v)));
        }
        step.eliminations = eliminations;
        if let Some(step) = cx.offer(step) {
            *best = Some(step);
        }
    }
}

/// SE's ratings: WXYZ 5.5-5.6, VWXYZ 6.2-6.4 (middle-sized cells are harder to
/// spot than very small or very large ones), UVWXYZ 6.6, TUVWXYZ 7.5.
fn rate(als: &[u32], cand: &[u32]) -> (Technique, u16) {
    let biggest = als
        .iter()
        .map(|&c| cand[c as usize].count_ones() as i32)
        .max()
        .unwrap_or(2);
    let shape = |base: i32, spread: i32| (base + (spread - (3 - biggest).abs()).max(0)) as u16;
    match als.len() {
        3 => (Technique::WxyzWing, shape(55, 1)),
        4 => (Technique::AlsWing, shape(62, 2)),
        5 => (Technique::AlsWing, 66),
        _ => (Technique::AlsWing, 75),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::tests::memo_changes_no_result;

    /// With a memo kept along a solve, each ALS size gives at every position
    /// what a search without one gives: the wings it passes over have no
    /// changed cell. Puzzles whose rated solutions use ALS-wings.
    #[test]
    fn the_memo_changes_no_result() {
        let lines = [
            "200016000400000502007050060730002000900030005000900034040020300102000006000860009",
            "037509140000040000500703009080000020070401090005070400000000000026000950900806003",
            "015070860706000409980000057300080001000000000000492000000506000604000708003000600",
        ];
        let (found, positions) = memo_changes_no_result(&lines, &[3, 4, 5, 6], wing);
        assert!(
            found >= 20 && positions > 30,
            "{found} found, {positions} positions without a single"
        );
    }
}
