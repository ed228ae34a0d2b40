//! Aligned exclusion from its definition.

use super::{each_subset, open_candidates, sees, values, Deductions};
use crate::logic::grid::{Grid, Layout};
use crate::logic::step::Candidate;

/// Aligned exclusion over `degree` cells (2: pairs, 3: triples): cells with
/// two or more candidates, none seeing a cell with one, and at least two
/// excluders — cells seeing all of them holding two to `degree` candidates.
/// A combination of their values is impossible when two cells that see each
/// other share a value, or when it holds every candidate of an excluder; a
/// candidate in no possible combination is false.
pub(crate) fn aligned_exclusion(
    degree: usize,
    layout: &Layout,
    grid: &Grid,
    _: bool,
) -> Deductions {
    let mut out = Deductions::default();
    let count = |c: u32| open_candidates(grid, c).count_ones() as usize;
    let cells = 0..grid.cand.len() as u32;
    let bases: Vec<u32> = cells
        .clone()
        .filter(|&c| count(c) >= 2 && !layout.peers[c as usize].iter().any(|&p| count(p) == 1))
        .collect();
    // The cells that may exclude for each cell: its peers holding two to
    // `degree` candidates.
    let excluding: Vec<Vec<u32>> = cells
        .clone()
        .map(|c| {
            let peers = layout.peers[c as usize].iter().copied();
            peers
                .filter(|&p| (2..=degree).contains(&count(p)))
                .collect()
        })
        .collect();
    each_subset(&bases, degree, &mut |set| {
        let excluders: Vec<u32> = excluding[set[0] as usize]
            .iter()
            .copied()
            .filter(|e| !set.contains(e))
            .filter(|e| set.iter().all(|&c| excluding[c as usize].contains(e)))
            .collect();
        if excluders.len() < 2 {
            return;
        }
        let mut allowed = vec![0u32; degree];
        let mut chosen = Vec::with_capacity(degree);
        each_combination(grid, set, &mut chosen, &mut |values| {
            let clash = (0..degree).any(|i| {
                (i + 1..degree).any(|j| values[i] == values[j] && sees(layout, set[i], set[j]))
            });
            let used = values.iter().fold(0u32, |m, &v| m | 1 << (v - 1));
            let blocked = excluders
                .iter()
                .any(|&e| open_candidates(grid, e) & !used == 0);
            if !clash && !blocked {
                for (a, &v) in allowed.iter_mut().zip(values) {
                    *a |= 1 << (v - 1);
                }
            }
        });
        for (&c, &a) in set.iter().zip(&allowed) {
            for v in values(open_candidates(grid, c) & !a) {
                out.eliminations.insert(Candidate::new(c, v));
            }
        }
    });
    out
}

/// Calls `f` with every combination of candidates of `cells` (one value
/// each, in order), built in `chosen`.
fn each_combination(grid: &Grid, cells: &[u32], chosen: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
    let Some((&first, rest)) = cells.split_first() else {
        f(chosen);
        return;
    };
    for v in values(open_candidates(grid, first)) {
        chosen.push(v);
        each_combination(grid, rest, chosen, f);
        chosen.pop();
    }
}
