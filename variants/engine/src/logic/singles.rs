//! Singles: a full house, a hidden single, a naked single.

use crate::logic::grid::Group;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{full_mask, is_single, value_of};
use protocol::HouseKind;

/// The last empty cell of a full house takes the value the house is missing.
pub(crate) fn full_house(cx: &Ctx) -> Option<Step> {
    full_houses(cx, false).into_iter().next()
}

/// Every full house (`all`) or the first.
fn full_houses(cx: &Ctx, all: bool) -> Vec<Step> {
    let mut out = Vec::new();
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        let mut empty = cx.grid.empty_cells(group);
        let (Some(cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let missing = full_mask(cx.grid.size) & !cx.grid.placed(&group.cells);
        if is_single(missing) && cx.grid.cand[cell as usize] & missing != 0 {
            let value = value_of(missing) as u8;
            out.push(placement(Technique::FullHouse, 10, cell, value, group));
            if !all {
                break;
            }
        }
    }
    out
}

/// A value with one place left in a full house: boxes (and jigsaw regions) first,
/// as they are the easiest to scan, then every other house.
pub(crate) fn hidden_single(cx: &Ctx) -> Option<Step> {
    hidden_singles(cx, None).into_iter().next()
}

/// The hidden singles of boxes (`Some(true)`), of other houses (`Some(false)`),
/// or (`None`) the first found, boxes first.
fn hidden_singles(cx: &Ctx, only: Option<bool>) -> Vec<Step> {
    let boxy = |g: &Group| matches!(g.kind, HouseKind::Box | HouseKind::Region);
    let mut out = Vec::new();
    for pass_boxes in [true, false] {
        if only.is_some_and(|b| b != pass_boxes) {
            continue;
        }
        for &g in &cx.layout.full_groups {
            let group = &cx.layout.groups[g as usize];
            if boxy(group) != pass_boxes {
                continue;
            }
            for value in 1..=cx.grid.size as u8 {
                let spots = cx.grid.positions(group, value);
                if is_single(spots) {
                    let cell = group.cells[spots.trailing_zeros() as usize];
                    let rating = if pass_boxes { 12 } else { 15 };
                    out.push(placement(
                        Technique::HiddenSingle,
                        rating,
                        cell,
                        value,
                        group,
                    ));
                    if only.is_none() {
                        return out;
                    }
                }
            }
        }
    }
    out
}

/// A cell with one candidate left.
pub(crate) fn naked_single(cx: &Ctx) -> Option<Step> {
    naked_singles(cx, false).into_iter().next()
}

/// Every naked single (`all`) or the first.
fn naked_singles(cx: &Ctx, all: bool) -> Vec<Step> {
    let mut out = Vec::new();
    for cell in 0..cx.grid.cand.len() {
        if !is_single(cx.grid.cand[cell]) {
            continue;
        }
        let value = value_of(cx.grid.cand[cell]) as u8;
        let mut step = Step::new(Technique::NakedSingle, 23);
        step.pattern.push(Candidate::new(cell as u32, value));
        step.placements.push(Candidate::new(cell as u32, value));
        out.push(step);
        if !all {
            break;
        }
    }
    out
}

/// Every single of `technique` (full house, hidden single in any house, naked
/// single) in the position.
pub(crate) fn all(cx: &Ctx, technique: Technique) -> Vec<Step> {
    match technique {
        Technique::HiddenSingle => {
            let mut out = hidden_singles(cx, Some(true));
            out.extend(hidden_singles(cx, Some(false)));
            out
        }
        Technique::FullHouse => full_houses(cx, true),
        Technique::NakedSingle => naked_singles(cx, true),
        _ => Vec::new(),
    }
}

/// Every single of the same kind and rating as `step` in the same position.
/// Singles stay true as other values are placed, and taking them together does
/// not change the hardest step (they share its rating), so the solver applies
/// them as one batch instead of rescanning the ladder after each.
pub(crate) fn batch(cx: &Ctx, step: &Step) -> Vec<Step> {
    match step.technique {
        Technique::FullHouse => full_houses(cx, true),
        Technique::HiddenSingle => hidden_singles(cx, Some(step.rating == 12)),
        Technique::NakedSingle => naked_singles(cx, true),
        _ => vec![step.clone()],
    }
}

/// A single placed by reasoning over one group.
fn placement(technique: Technique, rating: u16, cell: u32, value: u8, group: &Group) -> Step {
    let mut step = Step::new(technique, rating);
    step.pattern.push(Candidate::new(cell, value));
    step.placements.push(Candidate::new(cell, value));
    step.houses.extend(group.house);
    step
}

/// The cell of `group` that is the only place left for `value` once `removed`
/// cells lose it, if removing them creates that single (it had more than one
/// place before).
pub(crate) fn single_left(
    cx: &Ctx,
    group: &Group,
    value: u8,
    removed: impl Fn(u32) -> bool,
) -> Option<u32> {
    let spots = cx.grid.positions(group, value);
    if spots.count_ones() < 2 {
        return None;
    }
    let mut left = group
        .cells
        .iter()
        .enumerate()
        .filter(|&(i, &c)| spots >> i & 1 == 1 && !removed(c))
        .map(|(_, &c)| c);
    match (left.next(), left.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}
