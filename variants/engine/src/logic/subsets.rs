//! Subsets: naked and hidden pairs, triples and quads, and the "direct" hidden
//! pair and triple whose eliminations leave a hidden single.

use crate::logic::combinations::first_combination;
use crate::logic::grid::Group;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};

/// `k` cells of one group holding `k` candidates between them: those values go
/// nowhere else the cells all see (in the group, and in any other group they
/// share, as a locked pair or triple).
pub(crate) fn naked(cx: &Ctx, k: usize) -> Option<Step> {
    for group in &cx.layout.groups {
        let cells: Vec<u32> = cx
            .grid
            .empty_cells(group)
            .filter(|&c| (2..=k as u32).contains(&cx.grid.cand[c as usize].count_ones()))
            .collect();
        let empty = cx.grid.empty_cells(group).count();
        if cells.len() < k || (cx.se_limits && empty < 2 * k) || empty <= k {
            continue;
        }
        let found = first_combination(cells.len(), k, |pick| {
            let union = pick
                .iter()
                .fold(0, |m, &i| m | cx.grid.cand[cells[i] as usize]);
            if union.count_ones() as usize != k {
                return None;
            }
            let set: Vec<u32> = pick.iter().map(|&i| cells[i]).collect();
            let eliminations = eliminations_seeing(cx, &set, union);
            if eliminations.is_empty() {
                return None;
            }
            let (technique, rating) = match k {
                2 => (Technique::NakedPair, 30),
                3 => (Technique::NakedTriple, 36),
                _ => (Technique::NakedQuad, 50),
            };
            let mut step = Step::new(technique, rating);
            step.pattern = candidates_of(cx, &set, union);
            step.eliminations = eliminations;
            step.houses.extend(group.house);
            cx.offer(step)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Candidates among `values` of every cell outside `set` that sees all of `set`.
fn eliminations_seeing(cx: &Ctx, set: &[u32], values: u32) -> Vec<Candidate> {
    let mut out = Vec::new();
    for c in 0..cx.grid.cand.len() as u32 {
        let common = cx.grid.cand[c as usize] & values;
        if common != 0 && !set.contains(&c) && cx.layout.sees_all(c, set) {
            out.extend(values_of(common).map(|v| Candidate::new(c, v)));
        }
    }
    out
}

/// `k` values of a full group confined to `k` cells: those cells hold nothing
/// else. With `direct`, only when that leaves another value a single place.
pub(crate) fn hidden(cx: &Ctx, k: usize, direct: bool) -> Option<Step> {
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        let empty = cx.grid.empty_cells(group).count();
        if empty <= if direct || !cx.se_limits { k } else { 2 * k } {
            continue;
        }
        let values: Vec<u8> = (1..=cx.grid.size as u8)
            .filter(|&v| (2..=k as u32).contains(&cx.grid.positions(group, v).count_ones()))
            .collect();
        if values.len() < k {
            continue;
        }
        let found = first_combination(values.len(), k, |pick| {
            let spots = pick
                .iter()
                .fold(0, |m, &i| m | cx.grid.positions(group, values[i]));
            if spots.count_ones() as usize != k {
                return None;
            }
            let kept = pick.iter().fold(0, |m, &i| m | bit(u32::from(values[i])));
            let cells = group.cells_at(spots);
            let eliminations: Vec<Candidate> = cells
                .iter()
                .flat_map(|&c| {
                    values_of(cx.grid.cand[c as usize] & !kept).map(move |v| Candidate::new(c, v))
                })
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let single = if direct {
                Some(following_single(cx, group, kept, spots)?)
            } else {
                None
            };
            let (technique, rating) = match (k, direct) {
                (2, true) => (Technique::DirectHiddenPair, 20),
                (_, true) => (Technique::DirectHiddenTriple, 25),
                (2, false) => (Technique::HiddenPair, 34),
                (3, false) => (Technique::HiddenTriple, 40),
                _ => (Technique::HiddenQuad, 54),
            };
            let mut step = Step::new(technique, rating);
            step.pattern = candidates_of(cx, &cells, kept);
            step.eliminations = eliminations;
            step.placements.extend(single);
            step.houses.extend(group.house);
            cx.offer(step)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A value outside `kept` whose only place in `group`, once the set cells
/// `spots` hold only `kept`, is one cell.
fn following_single(cx: &Ctx, group: &Group, kept: u32, spots: u32) -> Option<Candidate> {
    (1..=cx.grid.size as u8)
        .filter(|&v| kept & bit(u32::from(v)) == 0)
        .find_map(|v| {
            let all = cx.grid.positions(group, v);
            let rest = all & !spots;
            (all.count_ones() > 1 && rest.count_ones() == 1)
                .then(|| Candidate::new(group.cells[rest.trailing_zeros() as usize], v))
        })
}

/// The candidates of `cells` among `values`.
fn candidates_of(cx: &Ctx, cells: &[u32], values: u32) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|&c| {
            values_of(cx.grid.cand[c as usize] & values).map(move |v| Candidate::new(c, v))
        })
        .collect()
}
