//! Colouring (not in Sudoku Explainer, which finds these as X-cycles and
//! forcing chains): the cells joined by strong links on one value (houses where
//! it has two places) split into two colours, one of which holds the value in
//! every one of its cells.
//!
//! - Simple colours, trap: a cell seeing both colours of a cluster is not the
//!   value. Wrap: two cells of one colour see each other, so that colour is
//!   false everywhere.
//! - Multi-colours (two clusters): if a colour of one sees a colour of the
//!   other, one of the two opposite colours is true, so a cell seeing both of
//!   them is not the value (type 1); if a colour sees both colours of the
//!   other cluster, it is false (type 2).

use crate::logic::memo;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;

/// A cluster: its cells by colour (`[0]` and `[1]`) and the houses of its links.
struct Cluster {
    colours: [Vec<u32>; 2],
    houses: Vec<usize>,
}

/// The clusters of `value`: components of its strong-link graph.
fn clusters(cx: &Ctx, value: u8) -> Vec<Cluster> {
    let n = cx.grid.cand.len();
    let mut links: Vec<Vec<(u32, Option<usize>)>> = vec![Vec::new(); n];
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        let spots = cx.grid.positions(group, value);
        if spots.count_ones() == 2 {
            let ends = group.cells_at(spots);
            links[ends[0] as usize].push((ends[1], group.house));
            links[ends[1] as usize].push((ends[0], group.house));
        }
    }
    let mut colour = vec![u8::MAX; n];
    let mut out = Vec::new();
    for start in 0..n {
        if links[start].is_empty() || colour[start] != u8::MAX {
            continue;
        }
        let mut cluster = Cluster {
            colours: [Vec::new(), Vec::new()],
            houses: Vec::new(),
        };
        colour[start] = 0;
        let mut queue = vec![start as u32];
        while let Some(c) = queue.pop() {
            let side = colour[c as usize];
            cluster.colours[usize::from(side)].push(c);
            for &(next, house) in &links[c as usize] {
                cluster.houses.extend(house);
                if colour[next as usize] == u8::MAX {
                    colour[next as usize] = 1 - side;
                    queue.push(next);
                }
            }
        }
        cluster.houses.sort_unstable();
        cluster.houses.dedup();
        out.push(cluster);
    }
    out
}

/// Whether some cell of `a` sees some cell of `b`.
fn touches(cx: &Ctx, a: &[u32], b: &[u32]) -> bool {
    a.iter().any(|&x| b.iter().any(|&y| cx.layout.sees(x, y)))
}

/// Cells holding `value`, outside `skip`, that see a cell of `a` and one of `b`.
fn seeing_both(cx: &Ctx, value: u8, a: &[u32], b: &[u32], skip: &[&Cluster]) -> Vec<Candidate> {
    (0..cx.grid.cand.len() as u32)
        .filter(|&c| cx.grid.has(c, value))
        .filter(|c| !skip.iter().any(|k| k.colours.iter().any(|s| s.contains(c))))
        .filter(|&c| {
            a.iter().any(|&x| cx.layout.sees(c, x)) && b.iter().any(|&y| cx.layout.sees(c, y))
        })
        .map(|c| Candidate::new(c, value))
        .collect()
}

fn step(
    cx: &Ctx,
    technique: Technique,
    rating: u16,
    value: u8,
    clusters: &[&Cluster],
    eliminations: Vec<Candidate>,
) -> Option<Step> {
    let mut step = Step::new(technique, rating);
    for k in clusters {
        for side in &k.colours {
            step.pattern
                .extend(side.iter().map(|&c| Candidate::new(c, value)));
        }
        step.houses.extend(&k.houses);
    }
    step.eliminations = eliminations;
    cx.offer(step)
}

/// Simple colours: a trap (4.5) or a wrap (4.6).
pub(crate) fn simple(cx: &Ctx) -> Option<Step> {
    for value in 1..=cx.grid.size as u8 {
        let places = cx.value_places(value);
        if cx.known_fruitless(memo::COLOURS, value, &places) {
            continue;
        }
        for k in &clusters(cx, value) {
            let [a, b] = &k.colours;
            let trap = seeing_both(cx, value, a, b, &[k]);
            if !trap.is_empty() {
                let found = step(cx, Technique::ColourTrap, 45, value, &[k], trap);
                if found.is_some() {
                    return found;
                }
            }
            for side in [a, b] {
                let clash = side
                    .iter()
                    .enumerate()
                    .any(|(i, &x)| side[i + 1..].iter().any(|&y| cx.layout.sees(x, y)));
                if clash {
                    let gone = side.iter().map(|&c| Candidate::new(c, value)).collect();
                    let found = step(cx, Technique::ColourWrap, 46, value, &[k], gone);
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
        cx.note_fruitless(memo::COLOURS, value, places);
    }
    None
}

/// Multi-colours over two clusters of one value: type 1 (4.7; every contact
/// between the two clusters at once) or type 2 (4.8).
pub(crate) fn multi(cx: &Ctx) -> Option<Step> {
    for value in 1..=cx.grid.size as u8 {
        let places = cx.value_places(value);
        if cx.known_fruitless(memo::MULTI_COLOURS, value, &places) {
            continue;
        }
        let all = clusters(cx, value);
        for (i, k) in all.iter().enumerate() {
            for (j, l) in all.iter().enumerate() {
                if i == j {
                    continue;
                }
                let mut contacts = Vec::new();
                for side in 0..2 {
                    let mine = &k.colours[side];
                    let sees = [
                        touches(cx, mine, &l.colours[0]),
                        touches(cx, mine, &l.colours[1]),
                    ];
                    // Type 2: this colour sees both colours of the other cluster.
                    if sees == [true, true] {
                        let gone = mine.iter().map(|&c| Candidate::new(c, value)).collect();
                        let found = step(cx, Technique::MultiColours2, 48, value, &[k, l], gone);
                        if found.is_some() {
                            return found;
                        }
                    }
                    contacts.extend((0..2).filter(|&o| sees[o]).map(|o| (side, o)));
                }
                // Type 1, once per pair of clusters: each contact makes one of
                // the two opposite colours true.
                if i > j {
                    continue;
                }
                let mut gone: Vec<Candidate> = Vec::new();
                for (side, other) in contacts {
                    let (a, b) = (&k.colours[1 - side], &l.colours[1 - other]);
                    gone.extend(
                        seeing_both(cx, value, a, b, &[])
                            .into_iter()
                            .filter(|e| !a.contains(&e.cell) && !b.contains(&e.cell)),
                    );
                }
                gone.sort_unstable();
                gone.dedup();
                if !gone.is_empty() {
                    let found = step(cx, Technique::MultiColours1, 47, value, &[k, l], gone);
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
        cx.note_fruitless(memo::MULTI_COLOURS, value, places);
    }
    None
}
