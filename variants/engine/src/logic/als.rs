//! An almost locked set (k cells that all see each other, holding k + 1 values)
//! with a bivalue cell {x, z}: when every ALS cell holding x sees the bivalue
//! cell, x cannot be in both, so z is in one of them, and any cell seeing the
//! bivalue cell and every ALS cell holding z is not z. With both values linked
//! that way the whole pattern is locked. Sudoku Explainer's WXYZ-Wing (k = 3),
//! VWXYZ-Wing (4), UVWXYZ-Wing (5) and TUVWXYZ-Wing (6).

use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};

/// The easiest ALS-wing whose ALS has `k` cells.
pub(crate) fn wing(cx: &Ctx, k: usize) -> Option<Step> {
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    let usable: Vec<u32> = (0..n)
        .filter(|&c| (2..=k as u32 + 1).contains(&cand[c as usize].count_ones()))
        .collect();
    let bivalue: Vec<u32> = (0..n)
        .filter(|&c| cand[c as usize].count_ones() == 2)
        .collect();
    let mut best: Option<Step> = None;
    let mut set = Vec::with_capacity(k);
    let mut rest = Vec::with_capacity(usable.len());
    for (i, &first) in usable.iter().enumerate() {
        set.clear();
        set.push(first);
        // Every other cell of the set sees the first (order kept).
        rest.clear();
        rest.extend(
            usable[i + 1..]
                .iter()
                .copied()
                .filter(|&c| cx.layout.sees(c, first)),
        );
        grow(
            cx,
            k,
            &rest,
            &mut set,
            cand[first as usize],
            &bivalue,
            &mut best,
        );
    }
    best
}

fn grow(
    cx: &Ctx,
    k: usize,
    rest: &[u32],
    set: &mut Vec<u32>,
    union: u32,
    bivalue: &[u32],
    best: &mut Option<Step>,
) {
    if set.len() == k {
        if union.count_ones() as usize == k + 1 {
            with_bivalue(cx, set, union, bivalue, best);
        }
        return;
    }
    for (i, &c) in rest.iter().enumerate() {
        let u = union | cx.grid.cand[c as usize];
        if u.count_ones() as usize <= k + 1 && cx.layout.sees_all(c, set) {
            set.push(c);
            grow(cx, k, &rest[i + 1..], set, u, bivalue, best);
            set.pop();
        }
    }
}

fn with_bivalue(cx: &Ctx, als: &[u32], union: u32, bivalue: &[u32], best: &mut Option<Step>) {
    let cand = &cx.grid.cand;
    let holding = |v: u8| -> Vec<u32> {
        als.iter()
            .copied()
            .filter(|&c| cand[c as usize] & bit(u32::from(v)) != 0)
            .collect()
    };
    for &yz in bivalue {
        let m = cand[yz as usize];
        if m & union != m || als.contains(&yz) || !als.iter().any(|&c| cx.layout.sees(c, yz)) {
            continue;
        }
        let values: Vec<u8> = values_of(m).collect();
        let linked: Vec<bool> = values
            .iter()
            .map(|&v| holding(v).iter().all(|&c| cx.layout.sees(c, yz)))
            .collect();
        let mut eliminations = Vec::new();
        let outside = |c: u32| !als.contains(&c) && c != yz;
        for i in 0..values.len() {
            if !linked[i] {
                continue;
            }
            let z = values[1 - i];
            let mut seen = holding(z);
            seen.push(yz);
            eliminate(cx, z, &seen, &outside, &mut eliminations);
        }
        if linked.iter().all(|&l| l) {
            // Doubly linked: every other ALS value is locked in the ALS.
            for v in values_of(union & !m) {
                eliminate(cx, v, &holding(v), &outside, &mut eliminations);
            }
            for &x in &values {
                let mut seen = holding(x);
                seen.push(yz);
                eliminate(cx, x, &seen, &outside, &mut eliminations);
            }
        }
        eliminations.sort();
        eliminations.dedup();
        if eliminations.is_empty() {
            continue;
        }
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

/// Candidates of `v` in cells passing `outside` that see every cell of `seen`.
fn eliminate(
    cx: &Ctx,
    v: u8,
    seen: &[u32],
    outside: &impl Fn(u32) -> bool,
    out: &mut Vec<Candidate>,
) {
    if seen.is_empty() {
        return;
    }
    for c in 0..cx.grid.cand.len() as u32 {
        if cx.grid.has(c, v) && outside(c) && cx.layout.sees_all(c, seen) {
            out.push(Candidate::new(c, v));
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
