//! Cycles and forcing chains over static links, from their definition.

use super::{open_candidates, places, values, Deductions};
use crate::logic::grid::{Grid, Layout};
use crate::logic::step::Candidate;
use std::collections::{BTreeSet, VecDeque};

/// A candidate assumed true (`on`) or false.
type Potential = (Candidate, bool);

/// What `(candidate, on)` implies at once in the grid as it stands (static
/// links, which no step along a chain changes). True: its cell's other
/// candidates and its value in every cell seeing it are false. False: the
/// other candidate of its cell, when it has two, is true, and so is the
/// other place of its value in every full house holding it twice.
fn implied(layout: &Layout, grid: &Grid, (c, on): Potential) -> Vec<Potential> {
    let mut out = Vec::new();
    let others = open_candidates(grid, c.cell) & !(1 << (c.value - 1));
    if on {
        out.extend(values(others).map(|v| (Candidate::new(c.cell, v), false)));
        for &peer in &layout.peers[c.cell as usize] {
            if super::holds(grid, peer, c.value) {
                out.push((Candidate::new(peer, c.value), false));
            }
        }
    } else {
        if others.count_ones() == 1 {
            out.extend(values(others).map(|v| (Candidate::new(c.cell, v), true)));
        }
        for &g in &layout.groups_of[c.cell as usize] {
            let group = &layout.groups[g as usize];
            if let [a, b] = places(grid, group, c.value)[..] {
                if group.full {
                    let other = if a == c.cell { b } else { a };
                    out.push((Candidate::new(other, c.value), true));
                }
            }
        }
    }
    out
}

/// Everything assuming `from` implies through chains of static links,
/// `from` included.
fn closure(layout: &Layout, grid: &Grid, from: Potential) -> BTreeSet<Potential> {
    let mut seen = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        for next in implied(layout, grid, p) {
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

/// Whether assuming `from` implies `to` through a chain of static links.
fn implies(layout: &Layout, grid: &Grid, from: Potential, to: Potential) -> bool {
    closure(layout, grid, from).contains(&to)
}

/// Sudoku Explainer's "Forcing Chains & Cycles": a candidate whose truth
/// implies, through static links, its own falsehood is false (a forcing
/// chain, and every elimination a cycle makes: a candidate seeing both ends
/// of a cycle's weak link turns one end off and the cycle turns the other
/// on); a candidate whose falsehood implies its truth is true (a forcing
/// X-chain, or a discontinuous cycle's placement).
pub(crate) fn static_forcing(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for cell in 0..grid.cand.len() as u32 {
        if open_candidates(grid, cell).count_ones() < 2 {
            continue;
        }
        for v in values(open_candidates(grid, cell)) {
            let c = Candidate::new(cell, v);
            if implies(layout, grid, (c, true), (c, false)) {
                out.eliminations.insert(c);
            }
            if implies(layout, grid, (c, false), (c, true)) {
                out.placements.insert(c);
            }
        }
    }
    out
}

/// Sudoku Explainer's static "Multiple Forcing Chains": one of a cell's
/// candidates is true, so what every one of them implies through static
/// links is (cell forcing, from cells with three or more candidates: a
/// bivalue cell's two are a strong link, which the forcing chains above
/// follow); one of a value's places in a full house is, so what each
/// implies is (house forcing: as Sudoku Explainer looks for it, from the
/// house's first place when that cell has three or more candidates).
pub(crate) fn multiple_forcing(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let on = |c: u32, v: u8| closure(layout, grid, (Candidate::new(c, v), true));
    for cell in 0..grid.cand.len() as u32 {
        let cands = open_candidates(grid, cell);
        if cands.count_ones() < 3 {
            continue;
        }
        let branches: Vec<_> = values(cands).map(|v| on(cell, v)).collect();
        conclude(grid, &branches, &mut out);
        for &g in &layout.groups_of[cell as usize] {
            let group = &layout.groups[g as usize];
            for v in values(cands) {
                let spots = places(grid, group, v);
                if group.full && spots.len() >= 2 && spots[0] == cell {
                    let branches: Vec<_> = spots.iter().map(|&c| on(c, v)).collect();
                    conclude(grid, &branches, &mut out);
                }
            }
        }
    }
    out
}

/// What every one of `branches` implies, of which one holds, into `out`:
/// a candidate implied true is placed (unless it is its cell's last), one
/// implied false is removed.
fn conclude(grid: &Grid, branches: &[BTreeSet<Potential>], out: &mut Deductions) {
    let Some((first, rest)) = branches.split_first() else {
        return;
    };
    for &(c, on) in first {
        let all = rest.iter().all(|b| b.contains(&(c, on)));
        if !all || !super::holds(grid, c.cell, c.value) {
            continue;
        }
        if !on {
            out.eliminations.insert(c);
        } else if open_candidates(grid, c.cell).count_ones() > 1 {
            out.placements.insert(c);
        }
    }
}
