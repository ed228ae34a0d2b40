//! Intersections (locked candidates), generalised to any two full houses that
//! share cells: when a value's places in house A all lie in house B, it cannot go
//! anywhere else in B. Pointing when B is a row or column, claiming otherwise;
//! "direct" when the eliminations leave a hidden single in another house of A's
//! kind (as Sudoku Explainer's direct pointing and claiming). As in Sudoku
//! Explainer, these join rows, columns, boxes and regions (and cages); a
//! variant's houses and different-pairs meet in generalized intersections: a
//! value's places in a house all see a cell, which loses it (2.9).

use crate::logic::grid::{is_locking_kind, Group};
use crate::logic::singles::single_left;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use protocol::HouseKind;

/// A locked candidate whose eliminations leave a hidden single (pointing 1.7,
/// claiming 1.9).
pub(crate) fn direct(cx: &Ctx) -> Option<Step> {
    find(cx, true, [true, false])
}

/// A locked candidate with eliminations (pointing 2.6, claiming 2.8). Not on
/// models with variant rules, where, as in Sudoku Explainer's variant mode,
/// generalized intersections (2.9) find every one.
pub(crate) fn locked(cx: &Ctx) -> Option<Step> {
    if cx.layout.variant_rules {
        return None;
    }
    any_locked(cx)
}

/// Pointing or claiming on any model: the rule dynamic forcing chains apply
/// inside their search (as Sudoku Explainer's chaining does, variant or not).
pub(crate) fn any_locked(cx: &Ctx) -> Option<Step> {
    find(cx, false, [true, false])
}

/// The first claiming (a line's value confined to another house), even where a
/// pointing exists.
pub(crate) fn claiming(cx: &Ctx) -> Option<Step> {
    find(cx, false, [false])
}

fn find<const N: usize>(cx: &Ctx, direct: bool, kinds: [bool; N]) -> Option<Step> {
    let groups = &cx.layout.groups;
    for pointing in kinds {
        for crossing in &cx.layout.crossings {
            let (a, b) = (crossing.a, crossing.b);
            let (ga, gb) = (&groups[a as usize], &groups[b as usize]);
            if (gb.is_line() && !ga.is_line()) != pointing
                || cx.layout.variant_rules
                    && !(is_locking_kind(ga.kind) && is_locking_kind(gb.kind))
            {
                continue;
            }
            for value in 1..=cx.grid.size as u8 {
                let spots = cx.grid.positions(ga, value);
                if spots.count_ones() < 2 || spots & !crossing.a_in_b != 0 {
                    continue;
                }
                let elsewhere = cx.grid.positions(gb, value) & !crossing.b_in_a;
                if elsewhere == 0 {
                    continue;
                }
                let inside = ga.cells_at(spots);
                let removed = gb.cells_at(elsewhere);
                let single = if direct {
                    let found = cx.layout.full_groups.iter().find_map(|&h| {
                        let gh = &groups[h as usize];
                        if h == a
                            || gh.kind != ga.kind
                            || !removed.iter().any(|c| gh.cells.contains(c))
                        {
                            return None;
                        }
                        single_left(cx, gh, value, |c| removed.contains(&c)).map(|c| (c, gh))
                    });
                    match found {
                        Some(found) => Some(found),
                        None => continue,
                    }
                } else {
                    None
                };
                let (technique, rating) = match (direct, pointing) {
                    (true, true) => (Technique::DirectPointing, 17),
                    (true, false) => (Technique::DirectClaiming, 19),
                    (false, true) => (Technique::Pointing, 26),
                    (false, false) => (Technique::Claiming, 28),
                };
                let mut step = Step::new(technique, rating);
                step.pattern = inside.iter().map(|&c| Candidate::new(c, value)).collect();
                step.eliminations = removed.iter().map(|&c| Candidate::new(c, value)).collect();
                step.houses.extend(ga.house);
                step.houses.extend(gb.house);
                if let Some((cell, gh)) = single {
                    step.placements.push(Candidate::new(cell, value));
                    step.houses.extend(gh.house);
                }
                if let Some(step) = cx.offer(step) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// Sudoku Explainer's generalized intersection (2.9): a value's two to six
/// places in a full house all see a cell outside them — through any house
/// or different-pair — so that cell cannot hold it. Only on models with
/// variant rules ([`Layout::variant_rules`](crate::logic::grid::Layout)):
/// on rows, columns and boxes alone, pointing and claiming find all of it.
pub(crate) fn generalized(cx: &Ctx) -> Option<Step> {
    if !cx.layout.variant_rules {
        return None;
    }
    // Sudoku Explainer's order: house kind by kind (boxes and regions, rows,
    // columns, windows, diagonals, then the rest), each value, each house.
    let rank = |kind: HouseKind| match kind {
        HouseKind::Box | HouseKind::Region => 0,
        HouseKind::Row => 1,
        HouseKind::Column => 2,
        HouseKind::Window => 3,
        HouseKind::Diagonal => 4,
        _ => 5,
    };
    for kind_rank in 0..=5 {
        for value in 1..=cx.grid.size as u8 {
            if let Some(step) = generalized_in(cx, value, |g| rank(g.kind) == kind_rank) {
                return Some(step);
            }
        }
    }
    None
}

/// The first generalized intersection of `value` in the full groups `take`
/// accepts, in the layout's order.
fn generalized_in(cx: &Ctx, value: u8, take: impl Fn(&Group) -> bool) -> Option<Step> {
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        if !take(group) {
            continue;
        }
        let spots = cx.grid.positions(group, value);
        if !(2..=6).contains(&spots.count_ones()) {
            continue;
        }
        let places = group.cells_at(spots);
        let eliminations: Vec<Candidate> = (0..cx.grid.cand.len() as u32)
            .filter(|&c| cx.grid.has(c, value) && !places.contains(&c))
            .filter(|&c| cx.layout.sees_all(c, &places))
            .map(|c| Candidate::new(c, value))
            .collect();
        if eliminations.is_empty() {
            continue;
        }
        let mut step = Step::new(Technique::GeneralizedIntersection, 29);
        step.pattern = places.iter().map(|&c| Candidate::new(c, value)).collect();
        step.eliminations = eliminations;
        step.houses.extend(group.house);
        if let Some(step) = cx.offer(step) {
            return Some(step);
        }
    }
    None
}
