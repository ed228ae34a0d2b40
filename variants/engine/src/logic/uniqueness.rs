//! Uniqueness techniques, sound only on classic rules for a puzzle known to have
//! one solution: a deadly pattern (cells that could swap two values without
//! breaking any rule) cannot be the outcome, so something breaks it.

use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::subsets::values_of;
use crate::logic::Ctx;
use crate::mask::bit;

/// The easiest unique rectangle (types 1, 2, 3 with a naked set, and 4).
pub(crate) fn rectangle(cx: &Ctx) -> Option<Step> {
    if !cx.layout.classic {
        return None;
    }
    let lines = cx.layout.lines.as_ref()?;
    let (rows, cols) = (&lines[0], &lines[1]);
    let cell = |r: usize, c: usize| -> Option<u32> {
        let row = &cx.layout.groups[rows[r] as usize];
        let col = &cx.layout.groups[cols[c] as usize];
        row.cells.iter().copied().find(|x| col.cells.contains(x))
    };
    let mut best: Option<Step> = None;
    for r1 in 0..rows.len() {
        for r2 in r1 + 1..rows.len() {
            for c1 in 0..cols.len() {
                for c2 in c1 + 1..cols.len() {
                    let (Some(a), Some(b), Some(c), Some(d)) =
                        (cell(r1, c1), cell(r1, c2), cell(r2, c1), cell(r2, c2))
                    else {
                        continue;
                    };
                    let corners = [a, b, c, d];
                    if !two_boxes(cx, &corners) {
                        continue;
                    }
                    let common = corners
                        .iter()
                        .fold(u32::MAX, |m, &x| m & cx.grid.cand[x as usize]);
                    if common.count_ones() < 2
                        || corners.iter().any(|&x| cx.grid.values[x as usize] != 0)
                    {
                        continue;
                    }
                    let values: Vec<u8> = values_of(common).collect();
                    for (i, &u) in values.iter().enumerate() {
                        for &v in &values[i + 1..] {
                            if let Some(step) = types(cx, corners, u, v) {
                                if best.as_ref().is_none_or(|b| step.rating < b.rating) {
                                    best = Some(step);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    best
}

/// Whether four cells lie in exactly two boxes.
fn two_boxes(cx: &Ctx, corners: &[u32; 4]) -> bool {
    let box_of = |c: u32| {
        cx.layout.groups_of[c as usize]
            .iter()
            .copied()
            .find(|&g| !cx.layout.groups[g as usize].is_line())
    };
    let mut boxes: Vec<Option<u32>> = corners.iter().map(|&c| box_of(c)).collect();
    boxes.sort();
    boxes.dedup();
    boxes.len() == 2
}

fn types(cx: &Ctx, corners: [u32; 4], u: u8, v: u8) -> Option<Step> {
    let pair = bit(u32::from(u)) | bit(u32::from(v));
    let cand = |c: u32| cx.grid.cand[c as usize];
    let extra: Vec<u32> = corners
        .iter()
        .copied()
        .filter(|&c| cand(c) != pair)
        .collect();
    let mut step = Step::new(Technique::UniqueRectangle, 45);
    step.pattern = corners
        .iter()
        .flat_map(|&c| [Candidate::new(c, u), Candidate::new(c, v)])
        .collect();
    match extra.as_slice() {
        // Type 1: the one cell with extras cannot be u or v.
        [x] => {
            step.eliminations = vec![Candidate::new(*x, u), Candidate::new(*x, v)];
            Some(step)
        }
        [x, y] => {
            let shared: Vec<u32> = cx.layout.groups_of[*x as usize]
                .iter()
                .copied()
                .filter(|g| cx.layout.groups_of[*y as usize].contains(g))
                .collect();
            if shared.is_empty() {
                return None;
            }
            let (ex, ey) = (cand(*x) & !pair, cand(*y) & !pair);
            // Type 2: both roof cells hold one same extra value: it is true in one.
            if ex == ey && ex.count_ones() == 1 {
                let w = values_of(ex).next()?;
                step.eliminations = (0..cx.grid.cand.len() as u32)
                    .filter(|&c| c != *x && c != *y && cx.grid.has(c, w))
                    .filter(|&c| cx.layout.sees(c, *x) && cx.layout.sees(c, *y))
                    .map(|c| Candidate::new(c, w))
                    .collect();
                if !step.eliminations.is_empty() {
                    return Some(step);
                }
            }
            // Type 4: one of the pair is locked to the roof in a shared house: the
            // other cannot be in the roof.
            for &g in &shared {
                let group = &cx.layout.groups[g as usize];
                for (locked, other) in [(u, v), (v, u)] {
                    if cx.grid.positions(group, locked).count_ones() == 2 {
                        step.eliminations =
                            vec![Candidate::new(*x, other), Candidate::new(*y, other)];
                        return Some(step);
                    }
                }
            }
            // Type 3: the roof's extras act as one cell in a naked set.
            type3(cx, step, *x, *y, ex | ey, &shared)
        }
        _ => None,
    }
}

fn type3(cx: &Ctx, mut step: Step, x: u32, y: u32, extras: u32, shared: &[u32]) -> Option<Step> {
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
                let set: Vec<u32> = pick.iter().map(|&i| others[i]).collect();
                let eliminations: Vec<Candidate> = others
                    .iter()
                    .filter(|c| !set.contains(c))
                    .flat_map(|&c| {
                        values_of(cx.grid.cand[c as usize] & union)
                            .map(move |w| Candidate::new(c, w))
                    })
                    .collect();
                (!eliminations.is_empty()).then_some(eliminations)
            });
            if let Some(eliminations) = found {
                step.rating = 45 + size as u16;
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    None
}

/// BUG+1: every empty cell is bivalue but one with three candidates, and every
/// value appears twice in each house but one value that appears three times in
/// that cell's houses: without it the grid would have two solutions, so it is
/// that cell's value.
pub(crate) fn bug_plus_one(cx: &Ctx) -> Option<Step> {
    if !cx.layout.classic {
        return None;
    }
    let cand = &cx.grid.cand;
    let mut triple = None;
    for (c, &m) in cand.iter().enumerate() {
        match m.count_ones() {
            0 | 2 => {}
            3 if triple.is_none() => triple = Some(c as u32),
            _ => return None,
        }
    }
    let cell = triple?;
    let mut value = None;
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        for w in 1..=cx.grid.size as u8 {
            match cx.grid.positions(group, w).count_ones() {
                0 | 2 => {}
                3 if group.cells.contains(&cell) && cx.grid.has(cell, w) => {
                    if value.is_some_and(|x| x != w) {
                        return None;
                    }
                    value = Some(w);
                }
                _ => return None,
            }
        }
    }
    let w = value?;
    let mut step = Step::new(Technique::BugPlusOne, 56);
    step.pattern = values_of(cand[cell as usize])
        .map(|v| Candidate::new(cell, v))
        .collect();
    step.placements.push(Candidate::new(cell, w));
    Some(step)
}
