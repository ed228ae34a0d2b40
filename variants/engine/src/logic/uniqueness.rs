//! Uniqueness techniques, sound only on classic rules for a puzzle known to have
//! one solution: a deadly pattern (cells that could swap two values without
//! breaking any rule) cannot be the outcome, so something breaks it.

use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};
use protocol::HouseKind;

/// The easiest unique rectangle or loop (types 1-4; type 3 with a naked set):
/// a loop of cells holding the same two values, each house it visits holding
/// two of its cells, would let the values swap.
pub(crate) fn rectangle(cx: &Ctx) -> Option<Step> {
    if !cx.layout.classic {
        return None;
    }
    let cand = &cx.grid.cand;
    let mut best: Option<Step> = None;
    for start in 0..cand.len() as u32 {
        if cand[start as usize].count_ones() != 2 {
            continue;
        }
        let mut values = values_of(cand[start as usize]);
        let (Some(u), Some(v)) = (values.next(), values.next()) else {
            continue;
        };
        let mut path = vec![start];
        let mut loops = Vec::new();
        let mut in_group = vec![0u8; cx.layout.groups.len()];
        for &g in &cx.layout.groups_of[start as usize] {
            in_group[g as usize] += 1;
        }
        let mut walker = Walker {
            cx,
            u,
            v,
            path: &mut path,
            in_group: &mut in_group,
            loops: &mut loops,
        };
        walker.walk(2, 0, None);
        for cells in loops {
            if !valid_loop(cx, &cells) {
                continue;
            }
            for step in types(cx, &cells, u, v) {
                if let Some(step) = cx.offer(step) {
                    if best.as_ref().is_none_or(|b| step.rating < b.rating) {
                        best = Some(step);
                    }
                }
            }
        }
    }
    best
}

/// The longest loop searched.
const MAX_LOOP: usize = 14;

/// A depth-first search for loops through cells holding both values `u` and `v`.
struct Walker<'a, 'c> {
    cx: &'a Ctx<'c>,
    /// The two values.
    u: u8,
    v: u8,
    path: &'a mut Vec<u32>,
    /// How many path cells each group holds (a loop puts 0 or 2 in each).
    in_group: &'a mut Vec<u8>,
    loops: &'a mut Vec<Vec<u32>>,
}

impl Walker<'_, '_> {
    /// Extends the path along a house of another kind than the last step's,
    /// recording every loop back to the start. At most `extras_allowed` cells
    /// may hold other values, unless they all hold the same one other value
    /// (type 2).
    fn walk(&mut self, extras_allowed: usize, extra_values: u32, last: Option<HouseKind>) {
        let cx = self.cx;
        let Some(&cell) = self.path.last() else {
            return;
        };
        let pair = bit(u32::from(self.u)) | bit(u32::from(self.v));
        for &g in &cx.layout.groups_of[cell as usize] {
            let group = &cx.layout.groups[g as usize];
            if Some(group.kind) == last {
                continue;
            }
            // The group's cells that can be on a loop: holding both values
            // (or, looking for missing candidates too, either).
            let (a, b) = (
                cx.grid.positions(group, self.u),
                cx.grid.positions(group, self.v),
            );
            let slots = if cx.se_limits { a & b } else { a | b };
            for next in group.cells_in(slots) {
                if next == self.path[0] {
                    if self.path.len() >= 4 && self.path.len().is_multiple_of(2) {
                        self.loops.push(self.path.clone());
                    }
                    continue;
                }
                let m = cx.grid.cand[next as usize];
                // A cell with other values may miss one of the pair (HoDoKu's
                // "missing candidates"): the swap that makes the pattern
                // deadly needs only the givens. Sudoku Explainer does not
                // look for these.
                let missing_ok = !cx.se_limits && m & pair != 0 && m & !pair != 0;
                if (m & pair != pair && !missing_ok)
                    || self.path.len() >= MAX_LOOP
                    || self.path.contains(&next)
                {
                    continue;
                }
                // No house of a loop holds more than two of its cells.
                let houses = &cx.layout.groups_of[next as usize];
                if houses.iter().any(|&h| self.in_group[h as usize] >= 2) {
                    continue;
                }
                let extras = extra_values | (m & !pair);
                let has_extra = m != pair;
                if has_extra && extras.count_ones() != 1 && extras_allowed == 0 {
                    continue;
                }
                self.path.push(next);
                for &h in houses {
                    self.in_group[h as usize] += 1;
                }
                let allowed = extras_allowed - usize::from(has_extra && extras_allowed > 0);
                self.walk(allowed, extras, Some(group.kind));
                for &h in houses {
                    self.in_group[h as usize] -= 1;
                }
                self.path.pop();
            }
        }
    }
}

/// Sudoku Explainer's loop test: the cells at odd and at even positions visit
/// the same houses, each once.
fn valid_loop(cx: &Ctx, cells: &[u32]) -> bool {
    let mut odd = Vec::new();
    let mut even = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        let side = if i % 2 == 1 { &mut odd } else { &mut even };
        for &g in &cx.layout.groups_of[c as usize] {
            if side.contains(&g) {
                return false;
            }
            side.push(g);
        }
    }
    odd.sort_unstable();
    even.sort_unstable();
    odd == even
}

/// The deductions a loop allows, by the cells holding values beyond the pair,
/// in the order Sudoku Explainer prefers them: only the first unless every
/// instance is wanted.
fn types(cx: &Ctx, cells: &[u32], u: u8, v: u8) -> Vec<Step> {
    let pair = bit(u32::from(u)) | bit(u32::from(v));
    let cand = |c: u32| cx.grid.cand[c as usize];
    let extra: Vec<u32> = cells.iter().copied().filter(|&c| cand(c) != pair).collect();
    let (technique, size_tenths) = match cells.len() {
        4 => (Technique::UniqueRectangle, 0),
        6 => (Technique::UniqueLoop, 1),
        8 => (Technique::UniqueLoop, 2),
        _ => (Technique::UniqueLoop, 5),
    };
    let mut step = Step::new(technique, 45 + size_tenths);
    step.pattern = cells
        .iter()
        .flat_map(|&c| [Candidate::new(c, u), Candidate::new(c, v)])
        .filter(|p| cx.grid.has(p.cell, p.value))
        .collect();
    let extra_values = extra.iter().fold(0, |m, &c| m | (cand(c) & !pair));
    let mut out = Vec::new();
    let every = cx.every.is_some();
    if extra.len() > 2 {
        out.extend(type2(cx, step, &extra, extra_values));
        return out;
    }
    match extra.as_slice() {
        // Type 1: the one cell with extras cannot be u or v.
        [x] => {
            step.eliminations = [u, v]
                .into_iter()
                .filter(|&w| cx.grid.has(*x, w))
                .map(|w| Candidate::new(*x, w))
                .collect();
            out.push(step);
        }
        [x, y] => {
            if extra_values.count_ones() == 1 {
                out.extend(type2(cx, step.clone(), &extra, extra_values));
                if !every && !out.is_empty() {
                    return out;
                }
            }
            let shared: Vec<u32> = cx.layout.groups_of[*x as usize]
                .iter()
                .copied()
                .filter(|g| cx.layout.groups_of[*y as usize].contains(g))
                .collect();
            // Type 4: one of the pair is locked to the two cells in a shared
            // house: the other value cannot be in either.
            for &g in &shared {
                let group = &cx.layout.groups[g as usize];
                for (locked, other) in [(u, v), (v, u)] {
                    let both = cx.grid.has(*x, locked) && cx.grid.has(*y, locked);
                    if both && cx.grid.positions(group, locked).count_ones() == 2 {
                        let mut step = step.clone();
                        step.eliminations = [*x, *y]
                            .into_iter()
                            .filter(|&c| cx.grid.has(c, other))
                            .map(|c| Candidate::new(c, other))
                            .collect();
                        if step.eliminations.is_empty() {
                            continue;
                        }
                        out.push(step);
                        if !every {
                            return out;
                        }
                    }
                }
            }
            // Type 3: the two cells' extras act as one cell in a naked set.
            type3(cx, &step, *x, *y, extra_values, &shared, &mut out);
        }
        _ => {}
    }
    out
}

/// Type 2: every cell with extras holds the same one extra value `w`: one of
/// them is `w`, so no cell seeing them all is.
fn type2(cx: &Ctx, mut step: Step, extra: &[u32], w: u32) -> Option<Step> {
    let w = values_of(w).next()?;
    step.eliminations = (0..cx.grid.cand.len() as u32)
        .filter(|&c| !extra.contains(&c) && cx.grid.has(c, w) && cx.layout.sees_all(c, extra))
        .map(|c| Candidate::new(c, w))
        .collect();
    (!step.eliminations.is_empty()).then_some(step)
}

/// Type 3: the extras of cells `x` and `y` with `size` other cells of a shared
/// house form a naked set; each one found goes to `out` (only the first
/// unless every instance is wanted).
fn type3(cx: &Ctx, step: &Step, x: u32, y: u32, extras: u32, shared: &[u32], out: &mut Vec<Step>) {
    let every = cx.every.is_some();
    for &g in shared {
        let group = &cx.layout.groups[g as usize];
        let others: Vec<u32> = cx
            .grid
            .empty_cells(group)
            .filter(|&c| c != x && c != y)
            .collect();
        for size in 1..=3usize {
            let found = crate::logic::combinations::first_combination(others.len(), size, |pick| {
                let union = pick
                    .iter()
                    .fold(extras, |m, &i| m | cx.grid.cand[others[i] as usize]);
                if union.count_ones() as usize != size + 1 {
                    return None;
                }
                // The set with both extra cells is locked in every house they
                // all share: no cell seeing them all keeps its values.
                let mut set: Vec<u32> = pick.iter().map(|&i| others[i]).collect();
                set.extend([x, y]);
                let eliminations: Vec<Candidate> = (0..cx.grid.cand.len() as u32)
                    .filter(|c| !set.contains(c) && cx.layout.sees_all(*c, &set))
                    .flat_map(|c| {
                        values_of(cx.grid.cand[c as usize] & union)
                            .map(move |w| Candidate::new(c, w))
                    })
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let mut found = step.clone();
                found.rating += size as u16;
                found.eliminations = eliminations;
                out.push(found);
                (!every).then_some(())
            });
            if found.is_some() {
                return;
            }
        }
    }
}

/// Bivalue universal grave: remove the "BUG values" (the extra candidates that
/// make a value appear three times in a house) and every empty cell would be
/// bivalue with every value twice per house, a grid with two solutions. So some
/// BUG value is true. Type 1: one BUG cell, which takes its BUG value (5.6).
/// Type 2: one BUG value in several cells; no cell seeing them all holds it
/// (5.7). Type 3: the BUG values act as one cell of a naked set in a house all
/// BUG cells share (5.7 plus 0.1 per extra cell of the set).
pub(crate) fn bug(cx: &Ctx) -> Option<Step> {
    if !cx.layout.classic {
        return None;
    }
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    let mut rest = cand.clone();
    let mut bug_cells: Vec<u32> = Vec::new();
    let mut all_values = 0u32;
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        for v in 1..=cx.grid.size as u8 {
            let spots = cx.grid.positions(group, v);
            if spots.count_ones() == 0 || spots.count_ones() == 2 {
                continue;
            }
            let wide: Vec<u32> = group
                .cells_at(spots)
                .into_iter()
                .filter(|&c| cand[c as usize].count_ones() >= 3)
                .collect();
            match wide.as_slice() {
                [] => return None,
                [cell] => {
                    if !bug_cells.contains(cell) {
                        bug_cells.push(*cell);
                    }
                    all_values |= bit(u32::from(v));
                    rest[*cell as usize] &= !bit(u32::from(v));
                }
                _ => {}
            }
        }
    }
    // Without the BUG values the grid must be a true BUG.
    if bug_cells.is_empty()
        || (0..n).any(|c| cx.grid.values[c as usize] == 0 && rest[c as usize].count_ones() != 2)
    {
        return None;
    }
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        for v in 1..=cx.grid.size as u8 {
            let b = bit(u32::from(v));
            let count = group
                .cells
                .iter()
                .filter(|&&c| rest[c as usize] & b != 0)
                .count();
            if count != 0 && count != 2 {
                return None;
            }
        }
    }
    let mut step = Step::new(Technique::BugPlusOne, 56);
    for &c in &bug_cells {
        step.pattern
            .extend(values_of(cand[c as usize] & !rest[c as usize]).map(|v| Candidate::new(c, v)));
    }
    if let [cell] = bug_cells.as_slice() {
        let keep = cand[*cell as usize] & !rest[*cell as usize];
        step.eliminations = values_of(cand[*cell as usize] & !keep)
            .map(|v| Candidate::new(*cell, v))
            .collect();
        if keep.count_ones() == 1 {
            step.placements = values_of(keep).map(|v| Candidate::new(*cell, v)).collect();
        }
        return (!step.eliminations.is_empty()).then_some(step);
    }
    let outside = |c: u32| !bug_cells.contains(&c) && cx.layout.sees_all(c, &bug_cells);
    if all_values.count_ones() == 1 {
        let w = values_of(all_values).next()?;
        step.technique = Technique::BugType2;
        step.rating = 57;
        step.eliminations = (0..n)
            .filter(|&c| cx.grid.has(c, w) && outside(c))
            .map(|c| Candidate::new(c, w))
            .collect();
        return (!step.eliminations.is_empty()).then_some(step);
    }
    // Type 3: a house holding every BUG cell.
    let shared: Vec<u32> = cx.layout.groups_of[bug_cells[0] as usize]
        .iter()
        .copied()
        .filter(|g| {
            bug_cells
                .iter()
                .all(|&c| cx.layout.groups_of[c as usize].contains(g))
        })
        .collect();
    for degree in 2..=4usize {
        for &g in &shared {
            let group = &cx.layout.groups[g as usize];
            let others: Vec<u32> = cx
                .grid
                .empty_cells(group)
                .filter(|&c| outside(c) && cand[c as usize].count_ones() >= 2)
                .collect();
            let found =
                crate::logic::combinations::first_combination(others.len(), degree - 1, |pick| {
                    let union = pick
                        .iter()
                        .fold(all_values, |m, &i| m | cand[others[i] as usize]);
                    if union.count_ones() as usize != degree {
                        return None;
                    }
                    let set: Vec<u32> = pick.iter().map(|&i| others[i]).collect();
                    let eliminations: Vec<Candidate> = cx
                        .grid
                        .empty_cells(group)
                        .filter(|c| !set.contains(c) && !bug_cells.contains(c))
                        .flat_map(|c| {
                            values_of(cand[c as usize] & union).map(move |w| Candidate::new(c, w))
                        })
                        .collect();
                    (!eliminations.is_empty()).then_some(eliminations)
                });
            if let Some(eliminations) = found {
                step.technique = Technique::BugType3;
                step.rating = 57 + degree as u16 - 1;
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    None
}
