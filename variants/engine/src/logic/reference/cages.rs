//! The cage families from their definitions: cage combinations, cage
//! pointing and the 45 rule.

use super::{each_subset, eliminate_seeing, places, values, Deductions};
use crate::logic::grid::{Grid, Layout};
use crate::logic::step::Candidate;

/// What a cage's cells may hold: a placed value's bit, else the candidates.
fn cage_masks(grid: &Grid, cells: &[u32]) -> Vec<u32> {
    cells
        .iter()
        .map(|&c| match grid.values[c as usize] {
            0 => grid.cand[c as usize],
            v => 1 << (v - 1),
        })
        .collect()
}

/// Every digit set of `count` different values of 1..=`size` adding up to
/// `sum`, as masks.
fn digit_sets(count: usize, sum: u32, size: u32) -> Vec<u32> {
    let all: Vec<u8> = (1..=size as u8).collect();
    let mut out = Vec::new();
    each_subset(&all, count, &mut |set| {
        if set.iter().map(|&v| u32::from(v)).sum::<u32>() == sum {
            out.push(set.iter().fold(0, |m, &v| m | 1 << (v - 1)));
        }
    });
    out
}

/// The digit sets of a cage that still fit its cells' masks `local`: inside
/// what they allow, touching every cell, and (`with_singles`) holding every
/// cell's value where it has only one.
fn fitting(sets: &[u32], local: &[u32], with_singles: bool) -> Vec<u32> {
    let union = local.iter().fold(0, |m, &l| m | l);
    let singles = local
        .iter()
        .filter(|l| l.count_ones() == 1)
        .fold(0, |m, &l| m | l);
    sets.iter()
        .copied()
        .filter(|&d| d & !union == 0 && local.iter().all(|&l| l & d != 0))
        .filter(|&d| !with_singles || singles & !d == 0)
        .collect()
}

/// The masks a cage of `cells` adding up to `sum` leaves its cells: the
/// values of its digit sets that still fit them, and a value every fitting
/// set holds, with one cell left for it, alone there. `None` when no set fits.
fn narrowed(grid: &Grid, cells: &[u32], sum: u32) -> Option<Vec<u32>> {
    let mut local = cage_masks(grid, cells);
    let sets = fitting(&digit_sets(cells.len(), sum, grid.size), &local, true);
    let allowed = sets.iter().fold(0, |m, &d| m | d);
    let required = sets.iter().fold(u32::MAX, |m, &d| m & d);
    if allowed == 0 || local.iter().any(|&l| l & allowed == 0) {
        return None;
    }
    for l in &mut local {
        *l &= allowed;
    }
    let singles = local
        .iter()
        .filter(|l| l.count_ones() == 1)
        .fold(0, |m, &l| m | l);
    for v in values(required & !singles) {
        let spots: Vec<usize> = (0..local.len())
            .filter(|&i| local[i] >> (v - 1) & 1 == 1)
            .collect();
        if let [i] = spots[..] {
            local[i] = 1 << (v - 1);
        }
    }
    Some(local)
}

/// Removes from the empty cells of `cells` every candidate outside its mask
/// in `keep`.
fn drop_outside(grid: &Grid, cells: &[u32], keep: &[u32], out: &mut Deductions) {
    for (&c, &keep) in cells.iter().zip(keep) {
        if grid.values[c as usize] == 0 {
            for v in values(grid.cand[c as usize] & !keep) {
                out.eliminations.insert(Candidate::new(c, v));
            }
        }
    }
}

/// Cage combinations: a cage's cells keep only the values of the digit sets
/// (its size of different values adding up to its sum) that still fit them,
/// and a value every fitting set holds, with one cell left for it, goes there.
pub(crate) fn cage_combinations(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for cage in layout.groups.iter().filter(|g| g.table.is_some()) {
        let Some(sum) = cage.sum else { continue };
        let cells = &cage.cells;
        let Some(local) = narrowed(grid, cells, sum) else {
            continue;
        };
        drop_outside(grid, cells, &local, &mut out);
    }
    out
}

/// Cage pointing: a value every digit set still possible for a cage holds
/// (inside what its cells allow, touching each) is in the cage, so it
/// leaves every cell outside seeing all the cage cells that may hold it.
pub(crate) fn cage_pointing(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for cage in layout.groups.iter().filter(|g| g.table.is_some()) {
        let Some(sum) = cage.sum else { continue };
        let cells = &cage.cells;
        let local = cage_masks(grid, cells);
        let sets = fitting(&digit_sets(cells.len(), sum, grid.size), &local, false);
        if sets.is_empty() {
            continue;
        }
        let required = sets.iter().fold(u32::MAX, |m, &d| m & d);
        let placed = cells
            .iter()
            .filter(|&&c| grid.values[c as usize] != 0)
            .fold(0, |m, &c| m | 1 << (grid.values[c as usize] - 1));
        for v in values(required & !placed) {
            let holders = places(grid, cage, v);
            if !holders.is_empty() {
                eliminate_seeing(layout, grid, v, &holders, cells, &mut out);
            }
        }
    }
    out
}

/// The largest virtual cage the 45 rule reads (Sudoku Explainer-like: the
/// innies or outies a player counts).
const MAX_VIRTUAL: usize = 6;

/// The 45 rule over single houses (`several` false) or over runs of two and
/// three adjacent rows or columns: a region of `k` full houses adds up to
/// `k` times the values' total. The cells not in a cage lying wholly inside
/// it (innies) add up to that less those cages' sums; when every cell of the
/// region is in a cage, the cells outside it of the cages reaching into it
/// (outies) add up to those cages' sums less the region's total. Up to six such cells form a virtual cage: one cell takes
/// the sum; more keep the values of some assignment adding up to it (as a
/// cage's digit sets when they all see each other, else values may repeat
/// between cells that do not).
pub(crate) fn rule_45(several: bool, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let cages: Vec<_> = layout.groups.iter().filter(|g| g.sum.is_some()).collect();
    if cages.is_empty() {
        return out;
    }
    let total = layout.size * (layout.size + 1) / 2;
    for (region, houses) in regions(layout, several) {
        let region_total = total * houses;
        let inside = |c: &u32| region.contains(c);
        let (mut inner_sum, mut touching_sum) = (0, 0);
        let (mut covered, mut outies) = (Vec::new(), Vec::new());
        // Outies need every region cell in some cage.
        let all_caged = region
            .iter()
            .all(|c| cages.iter().any(|cage| cage.cells.contains(c)));
        for cage in &cages {
            let sum = cage.sum.unwrap_or(0);
            let within = cage.cells.iter().filter(|c| inside(c)).count();
            if within == cage.cells.len() {
                inner_sum += sum;
                covered.extend(&cage.cells);
            } else if within > 0 {
                touching_sum += sum;
                outies.extend(cage.cells.iter().filter(|c| !inside(c)));
            }
        }
        let innies: Vec<u32> = region
            .iter()
            .copied()
            .filter(|c| !covered.contains(c))
            .collect();
        let derived = [
            (innies, region_total.checked_sub(inner_sum)),
            (
                if all_caged { outies } else { Vec::new() },
                (inner_sum + touching_sum).checked_sub(region_total),
            ),
        ];
        for (cells, sum) in derived {
            if let Some(sum) = sum.filter(|_| (1..=MAX_VIRTUAL).contains(&cells.len())) {
                virtual_cage(layout, grid, &cells, sum, &mut out);
            }
        }
    }
    out
}

/// The regions the 45 rule reads: each full house that is not a cage, or
/// (`several`) each run of two or three adjacent rows or columns; with the
/// number of houses making each.
fn regions(layout: &Layout, several: bool) -> Vec<(Vec<u32>, u32)> {
    if !several {
        return layout
            .groups
            .iter()
            .filter(|g| g.full && g.sum.is_none())
            .map(|g| (g.cells.clone(), 1))
            .collect();
    }
    let mut out = Vec::new();
    for kind in layout.lines.iter().flatten() {
        for width in 2..=3 {
            for run in kind.windows(width) {
                let cells = run
                    .iter()
                    .flat_map(|&g| layout.groups[g as usize].cells.iter().copied())
                    .collect();
                out.push((cells, width as u32));
            }
        }
    }
    out
}

/// What a virtual cage of `cells` adding up to `sum` deduces, into `out`.
fn virtual_cage(layout: &Layout, grid: &Grid, cells: &[u32], sum: u32, out: &mut Deductions) {
    if cells.iter().all(|&c| grid.values[c as usize] != 0) {
        return;
    }
    if let [cell] = cells {
        if let Ok(value) = u8::try_from(sum) {
            if super::holds(grid, *cell, value) {
                out.placements.insert(Candidate::new(*cell, value));
            }
        }
        return;
    }
    let distinct = cells
        .iter()
        .enumerate()
        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| super::sees(layout, a, b)));
    let keep = if distinct {
        narrowed(grid, cells, sum)
    } else {
        Some(assignable(layout, grid, cells, sum))
    };
    if let Some(keep) = keep {
        drop_outside(grid, cells, &keep, out);
    }
}

/// For each of `cells`, the values it takes in some assignment of them
/// adding up to `sum` where cells that see each other differ.
fn assignable(layout: &Layout, grid: &Grid, cells: &[u32], sum: u32) -> Vec<u32> {
    /// The assignment being built and what every complete one used.
    struct Search<'a> {
        layout: &'a Layout,
        cells: &'a [u32],
        masks: Vec<u32>,
        chosen: Vec<u8>,
        used: Vec<u32>,
    }
    impl Search<'_> {
        fn assign(&mut self, i: usize, left: u32) {
            if i == self.cells.len() {
                if left == 0 {
                    for (u, &v) in self.used.iter_mut().zip(&self.chosen) {
                        *u |= 1 << (v - 1);
                    }
                }
                return;
            }
            for v in values(self.masks[i]) {
                let clash = (0..i).any(|j| {
                    self.chosen[j] == v && super::sees(self.layout, self.cells[i], self.cells[j])
                });
                if u32::from(v) <= left && !clash {
                    self.chosen[i] = v;
                    self.assign(i + 1, left - u32::from(v));
                }
            }
        }
    }
    let mut search = Search {
        layout,
        cells,
        masks: cage_masks(grid, cells),
        chosen: vec![0; cells.len()],
        used: vec![0; cells.len()],
    };
    search.assign(0, sum);
    search.used
}
