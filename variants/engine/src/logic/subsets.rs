//! Subsets: naked and hidden pairs, triples and quads, and the "direct" hidden
//! pair and triple whose eliminations leave a hidden single.

use crate::logic::combinations::first_combination;
use crate::logic::grid::Group;
use crate::logic::memo::GroupSearch;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};

/// `k` cells of one group holding `k` candidates between them: those values go
/// nowhere else the cells all see (in the group, and in any other group they
/// share, as a locked pair or triple).
///
/// What a group gives depends only on its cells (the cells it eliminates
/// from only lose candidates), so, in a solve, a group that gave nothing is
/// not searched again while its cells stay as they were.
pub(crate) fn naked(cx: &Ctx, k: usize) -> Option<Step> {
    let search = match k {
        2 => GroupSearch::NakedPair,
        3 => GroupSearch::NakedTriple,
        _ => GroupSearch::NakedQuad,
    };
    for (index, group) in cx.layout.groups.iter().enumerate() {
        let found = cx.group_step(search, index, &group.cells, || naked_in(cx, k, group));
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The first naked set of `k` cells in `group`.
fn naked_in(cx: &Ctx, k: usize, group: &Group) -> Option<Step> {
    let cells: Vec<u32> = cx
        .grid
        .empty_cells(group)
        .filter(|&c| (2..=k as u32).contains(&cx.grid.cand[c as usize].count_ones()))
        .collect();
    let empty = cx.grid.empty_cells(group).count();
    if cells.len() < k || (cx.se_limits && empty < 2 * k) || empty <= k {
        return None;
    }
    first_combination(cells.len(), k, |pick| {
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
    })
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
/// Remembered by group, as [`naked`] is (a group's hidden sets depend only
/// on its cells).
pub(crate) fn hidden(cx: &Ctx, k: usize, direct: bool) -> Option<Step> {
    let search = match (k, direct) {
        (2, true) => GroupSearch::DirectHiddenPair,
        (_, true) => GroupSearch::DirectHiddenTriple,
        (2, false) => GroupSearch::HiddenPair,
        (3, false) => GroupSearch::HiddenTriple,
        _ => GroupSearch::HiddenQuad,
    };
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        let found = cx.group_step(search, g as usize, &group.cells, || {
            hidden_in(cx, k, direct, group)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The first hidden set of `k` values in the full group `group`.
fn hidden_in(cx: &Ctx, k: usize, direct: bool, group: &Group) -> Option<Step> {
    let empty = cx.grid.empty_cells(group).count();
    if empty <= if direct || !cx.se_limits { k } else { 2 * k } {
        return None;
    }
    let values: Vec<u8> = (1..=cx.grid.size as u8)
        .filter(|&v| (2..=k as u32).contains(&cx.grid.positions(group, v).count_ones()))
        .collect();
    if values.len() < k {
        return None;
    }
    first_combination(values.len(), k, |pick| {
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
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::tests::{memo_changes_no_result, HARD_PUZZLES};

    /// With a memo kept along a solve, naked and hidden sets (direct or not)
    /// of each size give at every position what a search without one gives.
    #[test]
    fn the_memo_changes_no_result() {
        let (naked_found, positions) = memo_changes_no_result(&HARD_PUZZLES, &[2, 3, 4], naked);
        let (hidden_found, _) =
            memo_changes_no_result(&HARD_PUZZLES, &[2, 3, 4], |cx, k| hidden(cx, k, false));
        let (direct_found, _) =
            memo_changes_no_result(&HARD_PUZZLES, &[2, 3], |cx, k| hidden(cx, k, true));
        assert!(
            naked_found >= 20 && hidden_found >= 20 && direct_found >= 5 && positions > 30,
            "{naked_found} naked, {hidden_found} hidden, {direct_found} direct, {positions} positions"
        );
    }
}
