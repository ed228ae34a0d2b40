//! Wings: a pivot cell and two pincers that see it. XY-Wing: pivot {x,y},
//! pincers {x,z} and {y,z}; whichever value the pivot takes, one pincer is z, so
//! a cell seeing both pincers is not z. XYZ-Wing: pivot {x,y,z}; the pivot may be
//! z too, so the cell must also see the pivot.

use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::values_of;

/// The first XY-Wing (`xyz == false`) or XYZ-Wing (`xyz == true`).
pub(crate) fn xy(cx: &Ctx, xyz: bool) -> Option<Step> {
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    let bivalue: Vec<u32> = (0..n)
        .filter(|&c| cand[c as usize].count_ones() == 2)
        .collect();
    let pivot_size = if xyz { 3 } else { 2 };
    for pivot in (0..n).filter(|&c| cand[c as usize].count_ones() == pivot_size) {
        let p = cand[pivot as usize];
        let wings: Vec<u32> = bivalue
            .iter()
            .copied()
            .filter(|&w| w != pivot && cx.layout.sees(pivot, w))
            .filter(|&w| {
                let m = cand[w as usize];
                if xyz {
                    m & p == m
                } else {
                    (m & p).count_ones() == 1
                }
            })
            .collect();
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ma, mb) = (cand[a as usize], cand[b as usize]);
                if ma == mb {
                    continue;
                }
                let z = ma & mb;
                let shape_ok = if xyz {
                    z.count_ones() == 1 && (ma | mb) == p
                } else {
                    z.count_ones() == 1 && z & p == 0 && (ma | mb) & !z == p
                };
                if !shape_ok {
                    continue;
                }
                let Some(zv) = values_of(z).next() else {
                    continue;
                };
                let mut seen = vec![a, b];
                if xyz {
                    seen.push(pivot);
                }
                let eliminations: Vec<Candidate> = (0..n)
                    .filter(|&c| cx.grid.has(c, zv) && !seen.contains(&c) && c != pivot)
                    .filter(|&c| cx.layout.sees_all(c, &seen))
                    .map(|c| Candidate::new(c, zv))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let (technique, rating) = if xyz {
                    (Technique::XyzWing, 44)
                } else {
                    (Technique::XyWing, 42)
                };
                let mut step = Step::new(technique, rating);
                for c in [pivot, a, b] {
                    step.pattern
                        .extend(values_of(cand[c as usize]).map(|v| Candidate::new(c, v)));
                }
                step.eliminations = eliminations;
                if let Some(step) = cx.offer(step) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// W-Wing (not in Sudoku Explainer, which finds it as a chain): two cells
/// holding the same two values `{x, y}` that do not see each other, and a house
/// where `x` has two places, one seeing each cell. One of those places is `x`,
/// so the cell it sees is `y`: a cell seeing both wing cells is not `y`.
pub(crate) fn w_wing(cx: &Ctx) -> Option<Step> {
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    let bivalue: Vec<u32> = (0..n)
        .filter(|&c| cand[c as usize].count_ones() == 2)
        .collect();
    for (i, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[i + 1..] {
            let pair = cand[a as usize];
            if cand[b as usize] != pair || cx.layout.sees(a, b) {
                continue;
            }
            for (x, y) in pair_orders(pair) {
                for &g in &cx.layout.full_groups {
                    let group = &cx.layout.groups[g as usize];
                    let spots = cx.grid.positions(group, x);
                    if spots.count_ones() != 2 {
                        continue;
                    }
                    let ends = group.cells_at(spots);
                    let (p, q) = (ends[0], ends[1]);
                    if [p, q].iter().any(|e| *e == a || *e == b) {
                        continue;
                    }
                    let linked = (cx.layout.sees(p, a) && cx.layout.sees(q, b))
                        || (cx.layout.sees(p, b) && cx.layout.sees(q, a));
                    if !linked {
                        continue;
                    }
                    let eliminations: Vec<Candidate> = (0..n)
                        .filter(|&c| c != a && c != b && cx.grid.has(c, y))
                        .filter(|&c| cx.layout.sees_all(c, &[a, b]))
                        .map(|c| Candidate::new(c, y))
                        .collect();
                    if eliminations.is_empty() {
                        continue;
                    }
                    let mut step = Step::new(Technique::WWing, 44);
                    for c in [a, b] {
                        step.pattern
                            .extend(values_of(pair).map(|v| Candidate::new(c, v)));
                    }
                    step.pattern.extend([p, q].map(|c| Candidate::new(c, x)));
                    step.houses.extend(group.house);
                    step.eliminations = eliminations;
                    if let Some(step) = cx.offer(step) {
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}

/// The two values of a pair mask, both ways round.
fn pair_orders(pair: u32) -> [(u8, u8); 2] {
    let mut vs = values_of(pair);
    let x = vs.next().unwrap_or(0);
    let y = vs.next().unwrap_or(0);
    [(x, y), (y, x)]
}
