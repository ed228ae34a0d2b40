//! Intersections (locked candidates), generalised to any two full houses that
//! share cells: when a value's places in house A all lie in house B, it cannot go
//! anywhere else in B. Pointing when B is a row or column, claiming otherwise;
//! "direct" when the eliminations leave a hidden single in another house of A's
//! kind (as Sudoku Explainer's direct pointing and claiming).

use crate::logic::singles::single_left;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;

/// A locked candidate whose eliminations leave a hidden single (pointing 1.7,
/// claiming 1.9).
pub(crate) fn direct(cx: &Ctx) -> Option<Step> {
    find(cx, true, [true, false])
}

/// A locked candidate with eliminations (pointing 2.6, claiming 2.8).
pub(crate) fn locked(cx: &Ctx) -> Option<Step> {
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
            if (gb.is_line() && !ga.is_line()) != pointing {
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
