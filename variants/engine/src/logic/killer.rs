//! Killer steps: a cage's candidates are only the values of digit sets of its
//! size and sum that its cells still allow (cage combinations); a value every
//! such set holds is in the cage (cage pointing); and the 45 rule: the cells of
//! a region outside the cages lying wholly inside it (innies), or the cells
//! outside it of the cages reaching into it (outies), have a known sum, a
//! "virtual" cage that narrows the same way. Sudoku Explainer rates no killer step; these sit
//! between a naked single and an intersection (2.4 and 2.7), as a person
//! spots a cage's combinations about as early as a naked single.

use crate::cage::CageTable;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::values_of;

/// The first cage whose sum rules out some of its cells' candidates.
pub(crate) fn combinations(cx: &Ctx) -> Option<Step> {
    for group in &cx.layout.groups {
        let Some(sum) = group.sum else { continue };
        let eliminations = narrowed(cx, &group.cells, sum);
        if !eliminations.is_empty() {
            let mut step = Step::new(Technique::CageCombination, 24);
            step.pattern = pattern(cx, &group.cells);
            step.eliminations = eliminations;
            if let Some(step) = cx.offer(step) {
                return Some(step);
            }
        }
    }
    None
}

/// A value every possible digit set of a cage holds must be in the cage, so no
/// cell seeing all the cage cells that may hold it can (cage pointing, 2.6).
pub(crate) fn required_values(cx: &Ctx) -> Option<Step> {
    for group in &cx.layout.groups {
        let Some(sum) = group.sum else { continue };
        let local = cx.grid.masks(&group.cells);
        let Some(required) = required_of(&local, sum, cx.grid.size) else {
            continue;
        };
        for v in values_of(required & !cx.grid.placed(&group.cells)) {
            let holders = group.cells_at(cx.grid.positions(group, v));
            let eliminations: Vec<Candidate> = (0..cx.grid.cand.len() as u32)
                .filter(|&c| !group.cells.contains(&c) && cx.grid.has(c, v))
                .filter(|&c| cx.layout.sees_all(c, &holders))
                .map(|c| Candidate::new(c, v))
                .collect();
            if !eliminations.is_empty() {
                let mut step = Step::new(Technique::CagePointing, 26);
                step.pattern = holders.iter().map(|&c| Candidate::new(c, v)).collect();
                step.eliminations = eliminations;
                if let Some(step) = cx.offer(step) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// The values every digit set a cage can still use holds (`None` when the
/// sets are too many to list).
fn required_of(local: &[u32], sum: u32, size: u32) -> Option<u32> {
    let combos = crate::cage::combinations(local.len() as u32, sum, size, 4096)?;
    let union = local.iter().fold(0, |m, &l| m | l);
    let mut required = u32::MAX;
    let mut any = false;
    for combo in combos {
        if combo & !union != 0 || local.iter().any(|&l| l & combo == 0) {
            continue;
        }
        required &= combo;
        any = true;
    }
    any.then_some(required)
}

/// The first region where the 45 rule narrows something: a full house, or two
/// or three adjacent rows or columns (over several houses only when the cells
/// it narrows see each other, or there is one cell). Innies: the region's cells
/// outside the cages wholly inside it. Outies: the cells outside the region of
/// the cages that reach into it.
pub(crate) fn rule_45(cx: &Ctx) -> Option<Step> {
    rule_45_over(cx, false)
}

/// The 45 rule over two or three adjacent rows or columns (3.3, tier hard).
pub(crate) fn rule_45_lines(cx: &Ctx) -> Option<Step> {
    rule_45_over(cx, true)
}

fn rule_45_over(cx: &Ctx, several: bool) -> Option<Step> {
    let size = cx.grid.size;
    let total = size * (size + 1) / 2;
    let cages: Vec<&crate::logic::grid::Group> = cx
        .layout
        .groups
        .iter()
        .filter(|c| c.sum.is_some())
        .collect();
    if cages.is_empty() {
        return None;
    }
    for (region, houses) in regions(cx, several) {
        let region_total = total * houses.len() as u32;
        let inside = |c: &u32| region.contains(c);
        let (mut inner_sum, mut touching_sum) = (0, 0);
        let mut covered: Vec<u32> = Vec::new();
        let mut outies: Vec<u32> = Vec::new();
        for cage in &cages {
            let sum = cage.sum.unwrap_or(0);
            if cage.cells.iter().all(inside) {
                inner_sum += sum;
                covered.extend(&cage.cells);
            } else if cage.cells.iter().any(inside) {
                touching_sum += sum;
                outies.extend(cage.cells.iter().copied().filter(|c| !inside(c)));
            }
        }
        let innies: Vec<u32> = region
            .iter()
            .copied()
            .filter(|c| !covered.contains(c))
            .collect();
        let candidates = [
            (innies, region_total.checked_sub(inner_sum)),
            (outies, (inner_sum + touching_sum).checked_sub(region_total)),
        ];
        for (cells, sum) in candidates {
            let Some(sum) = sum else { continue };
            if let Some(step) = virtual_cage(cx, &cells, sum, &houses) {
                if let Some(step) = cx.offer(step) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// The regions the 45 rule reads, with their houses: each full house, or
/// (`several`) runs of two and three adjacent rows and columns.
fn regions(cx: &Ctx, several: bool) -> Vec<(Vec<u32>, Vec<usize>)> {
    if !several {
        return cx
            .layout
            .full_groups
            .iter()
            .map(|&g| &cx.layout.groups[g as usize])
            .filter(|g| g.sum.is_none())
            .map(|g| (g.cells.clone(), g.house.into_iter().collect()))
            .collect();
    }
    let mut out = Vec::new();
    if let Some(lines) = &cx.layout.lines {
        for kind in lines {
            for width in 2..=3 {
                for run in kind.windows(width) {
                    let groups: Vec<_> =
                        run.iter().map(|&g| &cx.layout.groups[g as usize]).collect();
                    let cells = groups
                        .iter()
                        .flat_map(|g| g.cells.iter().copied())
                        .collect();
                    out.push((cells, groups.iter().filter_map(|g| g.house).collect()));
                }
            }
        }
    }
    out
}

/// A virtual cage of `cells` summing to `sum`: one cell takes the sum; up to
/// six cells narrow like a cage, repeating a value only where two cells do not
/// see each other (so the sum's minimum and maximum count too).
fn virtual_cage(cx: &Ctx, cells: &[u32], sum: u32, houses: &[usize]) -> Option<Step> {
    let open: Vec<u32> = cells
        .iter()
        .copied()
        .filter(|&c| cx.grid.values[c as usize] == 0)
        .collect();
    if open.is_empty() || cells.len() > MAX_VIRTUAL {
        return None;
    }
    let mut step = if houses.len() > 1 {
        Step::new(Technique::Rule45Lines, 33)
    } else {
        Step::new(Technique::Rule45, 27)
    };
    step.pattern = pattern(cx, cells);
    step.houses.extend(houses);
    if let [cell] = cells {
        let v = u8::try_from(sum).ok()?;
        if sum == 0 || sum > cx.grid.size || !cx.grid.has(*cell, v) {
            return None;
        }
        step.placements.push(Candidate::new(*cell, v));
        return Some(step);
    }
    let distinct = cells
        .iter()
        .enumerate()
        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| cx.layout.sees(a, b)));
    step.eliminations = if distinct {
        narrowed(cx, cells, sum)
    } else {
        narrowed_with_repeats(cx, cells, sum)
    };
    (!step.eliminations.is_empty()).then_some(step)
}

/// The largest virtual cage the 45 rule narrows.
const MAX_VIRTUAL: usize = 6;

/// The candidates of `cells` that no assignment summing to `sum` uses, where
/// two cells may share a value unless they see each other.
fn narrowed_with_repeats(cx: &Ctx, cells: &[u32], sum: u32) -> Vec<Candidate> {
    let masks = cx.grid.masks(cells);
    let mut used = vec![0u32; cells.len()];
    let mut chosen = vec![0u8; cells.len()];
    let search = RepeatSearch {
        cx,
        cells,
        masks: &masks,
    };
    search.assign(0, sum, &mut chosen, &mut used);
    dropped(cx, cells, &used)
}

/// A depth-first search over the values of a virtual cage whose cells need
/// not all differ.
struct RepeatSearch<'a, 'c> {
    cx: &'a Ctx<'c>,
    cells: &'a [u32],
    masks: &'a [u32],
}

impl RepeatSearch<'_, '_> {
    /// Assigns cells from `i` on with `left` still to sum; marks in `used`
    /// every value of a complete assignment. Whether one was found.
    fn assign(&self, i: usize, left: u32, chosen: &mut [u8], used: &mut [u32]) -> bool {
        if i == self.cells.len() {
            if left != 0 {
                return false;
            }
            for (u, &v) in used.iter_mut().zip(chosen.iter()) {
                *u |= crate::mask::bit(u32::from(v));
            }
            return true;
        }
        // The remaining cells add at least their smallest candidates.
        let rest_min: u32 = self.masks[i + 1..]
            .iter()
            .map(|&m| m.trailing_zeros() + 1)
            .sum();
        let mut any = false;
        for v in values_of(self.masks[i]) {
            let value = u32::from(v);
            if value + rest_min > left {
                break;
            }
            let clash =
                (0..i).any(|j| chosen[j] == v && self.cx.layout.sees(self.cells[i], self.cells[j]));
            if clash {
                continue;
            }
            chosen[i] = v;
            any |= self.assign(i + 1, left - value, chosen, used);
        }
        any
    }
}

/// The candidates of `cells` (distinct values summing to `sum`) that no digit
/// set allows, given what the cells hold now.
fn narrowed(cx: &Ctx, cells: &[u32], sum: u32) -> Vec<Candidate> {
    let table = CageTable::new(cells, sum, cx.grid.size);
    let mut local = cx.grid.masks(cells);
    if table.narrow(&mut local).is_err() {
        return Vec::new();
    }
    dropped(cx, cells, &local)
}

/// The candidates of the empty cells among `cells` outside their `kept` masks.
fn dropped(cx: &Ctx, cells: &[u32], kept: &[u32]) -> Vec<Candidate> {
    cells
        .iter()
        .zip(kept)
        .filter(|(&c, _)| cx.grid.values[c as usize] == 0)
        .flat_map(|(&c, &keep)| {
            values_of(cx.grid.cand[c as usize] & !keep).map(move |v| Candidate::new(c, v))
        })
        .collect()
}

/// The candidates of the empty cells among `cells`.
fn pattern(cx: &Ctx, cells: &[u32]) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|&c| values_of(cx.grid.cand[c as usize]).map(move |v| Candidate::new(c, v)))
        .collect()
}
