//! Killer steps: a cage's candidates are only the values of digit sets of its
//! size and sum that its cells still allow (cage combinations); a value every
//! such set holds is in the cage (cage pointing); and the 45 rule: the cells of
//! a region outside the cages lying wholly inside it (innies), or the cells
//! outside it of the cages reaching into it (outies), have a known sum, a
//! "virtual" cage that narrows the same way. Sudoku Explainer rates no killer step; these sit
//! between a naked single and an intersection (2.4 and 2.7), as a person
//! spots a cage's combinations about as early as a naked single.

use crate::cage::CageTable;
use crate::logic::cells::CellSet;
use crate::logic::grid::{Group, Layout};
use crate::logic::memo::GroupSearch;
use crate::logic::step::{CageFacts, Candidate, Step, Technique};
use crate::logic::virtual_cage::VirtualCage;
use crate::logic::Ctx;
use crate::mask::{bit, values_of};

/// The first cage whose sum rules out some of its cells' candidates.
pub(crate) fn combinations(cx: &Ctx) -> Option<Step> {
    cx.layout
        .groups
        .iter()
        .enumerate()
        .find_map(|(index, group)| {
            let table = group.table.as_ref()?;
            cx.group_step(GroupSearch::Combinations, index, &group.cells, || {
                let eliminations = narrowed(cx, &group.cells, table);
                if eliminations.is_empty() {
                    return None;
                }
                let mut step = Step::new(Technique::CageCombination, 24);
                step.pattern = pattern(cx, &group.cells);
                step.eliminations = eliminations;
                step.cage = Some(facts(cx, &group.cells, group.sum.unwrap_or(0), Some(table)));
                cx.offer(step)
            })
        })
}

/// A value every possible digit set of a cage holds must be in the cage, so no
/// cell seeing all the cage cells that may hold it can (cage pointing, 2.6).
pub(crate) fn required_values(cx: &Ctx) -> Option<Step> {
    cx.layout
        .groups
        .iter()
        .enumerate()
        .find_map(|(index, group)| {
            let combos = group.table.as_ref()?.combos.as_deref()?;
            cx.group_step(GroupSearch::Pointing, index, &group.cells, || {
                pointing(cx, group, combos)
            })
        })
}

/// The first cage pointing of the cage `group`, whose digit sets are `combos`.
fn pointing(cx: &Ctx, group: &Group, combos: &[u32]) -> Option<Step> {
    let local = cx.grid.masks(&group.cells);
    let required = crate::cage::required_by_combos(combos, &local)?;
    for v in values_of(required & !cx.grid.placed(&group.cells)) {
        let holders = group.cells_at(cx.grid.positions(group, v));
        let eliminations = outside_seeing_all(cx, &group.cells, &holders, v);
        if !eliminations.is_empty() {
            let mut step = Step::new(Technique::CagePointing, 26);
            step.pattern = holders.iter().map(|&c| Candidate::new(c, v)).collect();
            step.eliminations = eliminations;
            step.cage = Some(facts(
                cx,
                &group.cells,
                group.sum.unwrap_or(0),
                group.table.as_ref(),
            ));
            if let Some(step) = cx.offer(step) {
                return Some(step);
            }
        }
    }
    None
}

/// The candidates `v` of the cells outside `inside` that see every one of
/// `holders` (the places of `v` among `inside`; none: nothing): a value
/// `inside` must hold leaves them.
pub(crate) fn outside_seeing_all(
    cx: &Ctx,
    inside: &[u32],
    holders: &[u32],
    v: u8,
) -> Vec<Candidate> {
    let Some(&first) = holders.first() else {
        return Vec::new();
    };
    cx.layout.peers[first as usize]
        .iter()
        .copied()
        .filter(|&c| !inside.contains(&c) && cx.grid.has(c, v))
        .filter(|&c| cx.layout.sees_all(c, holders))
        .map(|c| Candidate::new(c, v))
        .collect()
}

/// The virtual cages of a layout, in the order the 45 rule reads them: per
/// region (each full house, then runs of two and three adjacent rows and
/// columns), the innies, then the outies. Only those of one to
/// [`MAX_VIRTUAL`] cells.
fn virtual_cages(layout: &Layout) -> Vec<VirtualCage> {
    let total = layout.size * (layout.size + 1) / 2;
    let cages: Vec<&Group> = layout.groups.iter().filter(|c| c.sum.is_some()).collect();
    if cages.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // The region's cells, and the cells of the cages wholly inside it.
    let (mut inside, mut covered) = (CellSet::empty(layout), CellSet::empty(layout));
    for (region, houses) in regions(layout) {
        let region_total = total * houses.len() as u32;
        inside.clear();
        covered.clear();
        for &c in &region {
            inside.insert(c);
        }
        let (mut inner_sum, mut touching_sum) = (0, 0);
        let mut outies: Vec<u32> = Vec::new();
        // Region cells in some cage: outies need every one (a killer whose
        // cages leave cells free, as variant puzzles do, has none).
        let mut caged = 0;
        for cage in &cages {
            let sum = cage.sum.unwrap_or(0);
            let within = cage.cells.iter().filter(|&&c| inside.contains(c)).count();
            caged += within;
            if within == cage.cells.len() {
                inner_sum += sum;
                for &c in &cage.cells {
                    covered.insert(c);
                }
            } else if within > 0 {
                touching_sum += sum;
                outies.extend(cage.cells.iter().copied().filter(|&c| !inside.contains(c)));
            }
        }
        if caged < region.len() {
            outies.clear();
        }
        let innies: Vec<u32> = region
            .iter()
            .copied()
            .filter(|&c| !covered.contains(c))
            .collect();
        let derived = [
            (innies, region_total.checked_sub(inner_sum)),
            (outies, (inner_sum + touching_sum).checked_sub(region_total)),
        ];
        for (cells, sum) in derived {
            let Some(sum) = sum else { continue };
            if cells.is_empty() || cells.len() > MAX_VIRTUAL {
                continue;
            }
            let distinct = cells
                .iter()
                .enumerate()
                .all(|(i, &a)| cells[i + 1..].iter().all(|&b| layout.sees(a, b)));
            let table = distinct.then(|| CageTable::new(&cells, sum, layout.size));
            out.push(VirtualCage {
                cells,
                sum,
                houses: houses.clone(),
                table,
            });
        }
    }
    out
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
    cx.layout
        .virtual_cages
        .get_or_init(|| virtual_cages(cx.layout))
        .iter()
        .enumerate()
        .filter(|(_, v)| (v.houses.len() > 1) == several)
        .find_map(|(index, v)| {
            cx.group_step(GroupSearch::Rule45, index, &v.cells, || {
                virtual_cage(cx, v).and_then(|step| cx.offer(step))
            })
        })
}

/// The regions the 45 rule reads, with their houses: each full house that is
/// not a cage, then runs of two and three adjacent rows and columns.
fn regions(layout: &Layout) -> Vec<(Vec<u32>, Vec<usize>)> {
    let mut out: Vec<(Vec<u32>, Vec<usize>)> = layout
        .full_groups
        .iter()
        .map(|&g| &layout.groups[g as usize])
        .filter(|g| g.sum.is_none())
        .map(|g| (g.cells.clone(), g.house.into_iter().collect()))
        .collect();
    if let Some(lines) = &layout.lines {
        for kind in lines {
            for width in 2..=3 {
                for run in kind.windows(width) {
                    let groups: Vec<_> = run.iter().map(|&g| &layout.groups[g as usize]).collect();
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

/// The step a virtual cage gives now: one cell takes the sum; more cells
/// narrow like a cage, repeating a value only where two cells do not see each
/// other (so the sum's minimum and maximum count too).
fn virtual_cage(cx: &Ctx, v: &VirtualCage) -> Option<Step> {
    let cells = &v.cells[..];
    if cells.iter().all(|&c| cx.grid.values[c as usize] != 0) {
        return None;
    }
    let mut step = if v.houses.len() > 1 {
        Step::new(Technique::Rule45Lines, 33)
    } else {
        Step::new(Technique::Rule45, 27)
    };
    if let [cell] = cells {
        let value = u8::try_from(v.sum).ok()?;
        if v.sum == 0 || v.sum > cx.grid.size || !cx.grid.has(*cell, value) {
            return None;
        }
        step.placements.push(Candidate::new(*cell, value));
    } else {
        step.eliminations = match &v.table {
            Some(table) => narrowed(cx, cells, table),
            None => narrowed_with_repeats(cx, cells, v.sum, &cx.grid.masks(cells)),
        };
        if step.eliminations.is_empty() {
            return None;
        }
    }
    step.pattern = pattern(cx, cells);
    step.houses.extend(&v.houses);
    step.cage = Some(facts(cx, cells, v.sum, v.table.as_ref()));
    Some(step)
}

/// What an explanation says of a cage: its cells, sum, and the digit sets
/// that still fit it (none listed where values may repeat).
fn facts(cx: &Ctx, cells: &[u32], sum: u32, table: Option<&CageTable>) -> CageFacts {
    CageFacts {
        cells: cells.to_vec(),
        sum,
        sets: table.map_or_else(Vec::new, |t| t.fitting(&cx.grid.masks(cells))),
    }
}

/// The largest virtual cage the 45 rule narrows.
const MAX_VIRTUAL: usize = 6;

/// The candidates of `cells` (now `masks`) that no assignment summing to `sum`
/// uses, where two cells may share a value unless they see each other. Each
/// candidate not yet seen in an assignment asks for one assignment holding it,
/// and every assignment found marks all its values as used.
fn narrowed_with_repeats(cx: &Ctx, cells: &[u32], sum: u32, masks: &[u32]) -> Vec<Candidate> {
    let mut used = vec![0u32; cells.len()];
    let mut chosen = vec![0u8; cells.len()];
    let mut fixed = masks.to_vec();
    // Bit `j` of `seen_before[i]`: cell `j < i` sees cell `i`.
    let seen_before: Vec<u32> = (0..cells.len())
        .map(|i| {
            (0..i)
                .filter(|&j| cx.layout.sees(cells[i], cells[j]))
                .fold(0, |m, j| m | 1 << j)
        })
        .collect();
    for i in 0..cells.len() {
        for v in values_of(masks[i] & !used[i]) {
            if used[i] & bit(u32::from(v)) != 0 {
                continue;
            }
            fixed[i] = bit(u32::from(v));
            let search = RepeatSearch::new(&seen_before, &fixed);
            if search.witness(0, sum, &mut chosen) {
                for (u, &c) in used.iter_mut().zip(&chosen) {
                    *u |= bit(u32::from(c));
                }
            }
            fixed[i] = masks[i];
        }
    }
    dropped(cx, cells, &used)
}

/// A depth-first search for one assignment of a virtual cage whose cells need
/// not all differ, pruned by the least and most the cells still to fill add.
struct RepeatSearch<'a> {
    /// Bit `j` of `seen_before[i]`: cell `j < i` sees cell `i` (may not
    /// share its value).
    seen_before: &'a [u32],
    masks: &'a [u32],
    /// `least[i]`: the smallest candidates of cells `i..` added up.
    least: Vec<u32>,
    /// `most[i]`: the largest candidates of cells `i..` added up.
    most: Vec<u32>,
}

impl<'a> RepeatSearch<'a> {
    fn new(seen_before: &'a [u32], masks: &'a [u32]) -> Self {
        let n = masks.len();
        let (mut least, mut most) = (vec![0; n + 1], vec![0; n + 1]);
        for i in (0..n).rev() {
            least[i] = least[i + 1] + masks[i].trailing_zeros() + 1;
            most[i] = most[i + 1] + 32 - masks[i].leading_zeros();
        }
        RepeatSearch {
            seen_before,
            masks,
            least,
            most,
        }
    }

    /// Assigns cells from `i` on with `left` still to add; whether some
    /// assignment works (then `chosen` holds it).
    fn witness(&self, i: usize, left: u32, chosen: &mut [u8]) -> bool {
        if i == self.masks.len() {
            return left == 0;
        }
        if left < self.least[i] || left > self.most[i] {
            return false;
        }
        let mut seeing = self.seen_before[i];
        let mut taken = 0;
        while seeing != 0 {
            taken |= bit(u32::from(chosen[seeing.trailing_zeros() as usize]));
            seeing &= seeing - 1;
        }
        for v in values_of(self.masks[i] & !taken) {
            let value = u32::from(v);
            if value + self.least[i + 1] > left {
                break;
            }
            if value + self.most[i + 1] < left {
                continue;
            }
            chosen[i] = v;
            if self.witness(i + 1, left - value, chosen) {
                return true;
            }
        }
        false
    }
}

/// The candidates of `cells` (distinct values, digit sets in `table`) that no
/// digit set allows, given what the cells hold now.
fn narrowed(cx: &Ctx, cells: &[u32], table: &CageTable) -> Vec<Candidate> {
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
