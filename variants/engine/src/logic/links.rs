//! Chains of strong links on one value: a strong link is a house with exactly two
//! places for the value (one of them holds it); consecutive links are joined by a
//! weak link (the end of one sees the start of the next). One end of the chain
//! holds the value, so any cell seeing both ends loses it. Two links make a
//! skyscraper, a 2-string kite or a turbot fish; three or more, an X-chain.
//! A box whose places for the value lie on one row and one column of it is a
//! grouped strong link between the two segments (an empty rectangle); a group
//! end is joined only to cells that see every cell of it.
//! Rated as Sudoku Explainer's "strong links" family.

use crate::logic::memo;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use protocol::HouseKind;

/// One strong link, oriented `from` → `to`; each end is one cell, or a segment
/// of a box for a grouped link.
#[derive(Clone, Debug)]
struct Link {
    from: Vec<u32>,
    to: Vec<u32>,
    group: u32,
    kind: HouseKind,
    grouped: bool,
}

impl Link {
    fn cells(&self) -> impl Iterator<Item = &u32> {
        self.from.iter().chain(&self.to)
    }
}

/// The easiest chain of exactly `k` strong links (fewest tenths, then most
/// eliminations).
pub(crate) fn chain(cx: &Ctx, k: usize) -> Option<Step> {
    let search = memo::STRONG_LINKS + k as u8;
    let mut best: Option<Step> = None;
    for value in 1..=cx.grid.size as u8 {
        let places = cx.value_places(value);
        if cx.known_fruitless(search, value, &places) {
            continue;
        }
        let links = strong_links(cx, value);
        let mut path: Vec<&Link> = Vec::with_capacity(k);
        // The value's own best, then the best of all (an earlier value wins a tie).
        let mut mine: Option<Step> = None;
        for first in &links {
            path.clear();
            path.push(first);
            extend(cx, value, &links, k, &mut path, &mut mine);
        }
        match mine {
            None => cx.note_fruitless(search, value, places),
            Some(step) if best.as_ref().is_none_or(|b| ranks_before(&step, b)) => {
                best = Some(step);
            }
            Some(_) => {}
        }
    }
    best
}

/// Whether `a` is easier than `b`: fewer tenths, then more eliminations.
fn ranks_before(a: &Step, b: &Step) -> bool {
    rank(a.rating, a.eliminations.len()) < rank(b.rating, b.eliminations.len())
}

/// How chains are ordered: fewer tenths, then more eliminations.
fn rank(
    rating: crate::logic::Rating,
    eliminations: usize,
) -> (crate::logic::Rating, std::cmp::Reverse<usize>) {
    (rating, std::cmp::Reverse(eliminations))
}

fn strong_links(cx: &Ctx, value: u8) -> Vec<Link> {
    let mut links = Vec::new();
    for &g in &cx.layout.full_groups {
        let group = &cx.layout.groups[g as usize];
        let spots = cx.grid.positions(group, value);
        if spots.count_ones() == 2 {
            let a = group.cells[spots.trailing_zeros() as usize];
            let b = group.cells[31 - spots.leading_zeros() as usize];
            for (from, to) in [(a, b), (b, a)] {
                links.push(Link {
                    from: vec![from],
                    to: vec![to],
                    group: g,
                    kind: group.kind,
                    grouped: false,
                });
            }
        } else if group.kind == HouseKind::Box && (3..=6).contains(&spots.count_ones()) {
            grouped_links(cx, g, spots, &mut links);
        }
    }
    links
}

/// The grouped links of box `g`: its places `spots` lie on one row and one
/// column of the box, each holding a place the other does not.
fn grouped_links(cx: &Ctx, g: u32, spots: u32, links: &mut Vec<Link>) {
    if cx.layout.lines.is_none() {
        return;
    }
    let group = &cx.layout.groups[g as usize];
    let places = group.cells_at(spots);
    let line = |k: usize, c: u32| cx.layout.line_of[k][c as usize];
    let mut rows: Vec<u8> = places.iter().map(|&c| line(0, c)).collect();
    let mut cols: Vec<u8> = places.iter().map(|&c| line(1, c)).collect();
    rows.sort_unstable();
    rows.dedup();
    cols.sort_unstable();
    cols.dedup();
    for &r in &rows {
        for &c in &cols {
            let in_row: Vec<u32> = places
                .iter()
                .copied()
                .filter(|&x| line(0, x) == r)
                .collect();
            let in_col: Vec<u32> = places
                .iter()
                .copied()
                .filter(|&x| line(1, x) == c)
                .collect();
            let covered = places
                .iter()
                .all(|x| in_row.contains(x) || in_col.contains(x));
            let row_only = in_row.iter().any(|x| !in_col.contains(x));
            let col_only = in_col.iter().any(|x| !in_row.contains(x));
            if r == u8::MAX || c == u8::MAX || !covered || !row_only || !col_only {
                continue;
            }
            for (from, to) in [(&in_row, &in_col), (&in_col, &in_row)] {
                links.push(Link {
                    from: from.clone(),
                    to: to.clone(),
                    group: g,
                    kind: HouseKind::Box,
                    grouped: true,
                });
            }
        }
    }
}

fn extend<'l>(
    cx: &Ctx,
    value: u8,
    links: &'l [Link],
    k: usize,
    path: &mut Vec<&'l Link>,
    best: &mut Option<Step>,
) {
    if path.len() == k {
        consider(cx, value, path, best);
        return;
    }
    let Some(&last) = path.last() else { return };
    for next in links {
        let used = path
            .iter()
            .any(|l| l.group == next.group || l.cells().any(|c| next.cells().any(|n| n == c)));
        let joined = last
            .to
            .iter()
            .all(|&a| next.from.iter().all(|&b| cx.layout.sees(a, b)));
        if !used && joined {
            path.push(next);
            extend(cx, value, links, k, path, best);
            path.pop();
        }
    }
}

fn consider(cx: &Ctx, value: u8, path: &[&Link], best: &mut Option<Step>) {
    let (start, end) = (&path[0].from, &path[path.len() - 1].to);
    let on_chain = |c: u32| path.iter().any(|l| l.cells().any(|&x| x == c));
    let eliminations: Vec<Candidate> = (0..cx.grid.cand.len() as u32)
        .filter(|&c| {
            cx.grid.has(c, value)
                && !on_chain(c)
                && cx.layout.sees_all(c, start)
                && cx.layout.sees_all(c, end)
        })
        .map(|c| Candidate::new(c, value))
        .collect();
    if eliminations.is_empty() {
        return;
    }
    let (technique, rating) = rate(path);
    let better = best
        .as_ref()
        .is_none_or(|b| rank(rating, eliminations.len()) < rank(b.rating, b.eliminations.len()));
    if better || cx.every.is_some() {
        let mut step = Step::new(technique, rating);
        for l in path {
            step.pattern
                .extend(l.cells().map(|&c| Candidate::new(c, value)));
            step.houses.extend(cx.layout.groups[l.group as usize].house);
        }
        step.eliminations = eliminations;
        if cx.every.is_some() {
            // HoDoKu also lists a turbot fish through a diagonal box link as an
            // empty rectangle whose box holds only two places, and any chain of
            // two strong links as a (short) X-chain.
            if technique == Technique::TurbotFish && diagonal_box_link(cx, path) {
                let mut named = step.clone();
                named.technique = Technique::EmptyRectangle;
                cx.offer(named);
            }
            if path.len() == 2 && !path.iter().any(|l| l.grouped) {
                let mut named = step.clone();
                named.technique = Technique::XChain;
                cx.offer(named);
            }
        }
        if let Some(step) = cx.offer(step) {
            *best = Some(step);
        }
    }
}

/// Whether a chain of two links joins a row or column link to a box link whose
/// two cells share neither row nor column: an empty rectangle with two places.
fn diagonal_box_link(cx: &Ctx, path: &[&Link]) -> bool {
    let line = |k: usize, c: u32| cx.layout.line_of[k][c as usize];
    let diagonal = |l: &Link| match (l.from.as_slice(), l.to.as_slice()) {
        ([a], [b]) => line(0, *a) != line(0, *b) && line(1, *a) != line(1, *b),
        _ => false,
    };
    cx.layout.lines.is_some()
        && path
            .iter()
            .any(|l| l.kind == HouseKind::Box && !l.grouped && diagonal(l))
        && path
            .iter()
            .any(|l| matches!(l.kind, HouseKind::Row | HouseKind::Column))
}

/// Sudoku Explainer's rating: 4.0 for two links, 5.4 for three, 5.8 for four;
/// +0.1 when the links mix a box with one kind of line or mix rows with columns,
/// +0.2 when they use a box and both kinds of line, +0.3 with any other house.
fn rate(path: &[&Link]) -> (Technique, u16) {
    let base = match path.len() {
        2 => 40,
        3 => 54,
        _ => 58,
    };
    let has = |k: HouseKind| path.iter().any(|l| l.kind == k);
    let boxy = has(HouseKind::Box) || has(HouseKind::Region);
    let (rows, cols) = (has(HouseKind::Row), has(HouseKind::Column));
    let other = path.iter().any(|l| {
        !matches!(
            l.kind,
            HouseKind::Row | HouseKind::Column | HouseKind::Box | HouseKind::Region
        )
    });
    let grouped = path.iter().any(|l| l.grouped);
    let extra = if other || grouped {
        3
    } else if !(boxy || rows && cols) {
        0
    } else if boxy && rows && cols {
        2
    } else {
        1
    };
    let technique = match (path.len(), boxy || other, rows && cols) {
        (2, _, _) if grouped => Technique::EmptyRectangle,
        (2, false, false) => Technique::Skyscraper,
        (2, false, true) => Technique::TwoStringKite,
        (2, true, _) => Technique::TurbotFish,
        _ => Technique::XChain,
    };
    (technique, base + extra)
}
