//! Chains of strong links on one value: a strong link is a house with exactly two
//! places for the value (one of them holds it); consecutive links are joined by a
//! weak link (the end of one sees the start of the next). One end of the chain
//! holds the value, so any cell seeing both ends loses it. Two links make a
//! skyscraper, a 2-string kite or a turbot fish; three or more, an X-chain.
//! A box whose places for the value lie on one row and one column of it is a
//! grouped strong link between the two segments (an empty rectangle), or,
//! failing that, with four places or more on two of its rows (or columns),
//! between the two lines' segments; a row or column whose places lie in two
//! of its box segments is a grouped link between them. A group end is joined
//! only to cells that see every cell of it.
//! Rated as Sudoku Explainer's "strong links" family.

use crate::logic::cells::{CellSet, CellSets};
use crate::logic::memo;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use protocol::HouseKind;

/// One strong link, oriented `from` → `to`; each end is one cell, or a group
/// of cells for a grouped link.
#[derive(Clone, Debug)]
struct Link {
    from: Vec<u32>,
    to: Vec<u32>,
    group: u32,
    kind: HouseKind,
    grouped: Grouping,
}

/// Whether a link's ends are groups, and which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grouping {
    /// Two single cells.
    None,
    /// A box's row segment and column segment (an empty rectangle).
    Cross,
    /// A line's two box segments, or a box's two row (column) segments.
    Segments,
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
        // The net depends on nothing but the value's places: one for every
        // length while they stay as they are.
        let net = cx.built_from_places(memo::STRONG_LINKS, value, &places, || Net::new(cx, value));
        let mut path: Vec<usize> = Vec::with_capacity(k);
        // The value's own best, then the best of all (an earlier value wins a tie).
        let mut mine: Option<Step> = None;
        for first in 0..net.links.len() {
            path.clear();
            path.push(first);
            extend(cx, value, &net, k, &mut path, &mut mine);
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

/// Every strong link of `value` in `layout`'s grid `grid`, each way round,
/// as its start, its end and its group: what a strong link is, for the
/// reference ladder (`reference.rs`).
pub(crate) fn strong_link_ends(
    layout: &crate::logic::grid::Layout,
    grid: &crate::logic::grid::Grid,
    value: u8,
) -> Vec<(Vec<u32>, Vec<u32>, u32)> {
    strong_links(&Ctx::ladder(layout, grid), value)
        .into_iter()
        .map(|l| (l.from, l.to, l.group))
        .collect()
}

/// Every strong link of `value`, each way round.
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
                    grouped: Grouping::None,
                });
            }
        } else if group.kind == HouseKind::Box && (3..=6).contains(&spots.count_ones()) {
            let before = links.len();
            grouped_links(cx, g, spots, &mut links);
            if links.len() == before && spots.count_ones() >= 4 {
                two_line_links(cx, g, spots, &mut links);
            }
        } else if (group.is_line() || group.kind == HouseKind::Diagonal)
            && (3..=6).contains(&spots.count_ones())
        {
            segment_links(cx, g, spots, &mut links);
        }
    }
    links
}

/// Both orientations of a grouped strong link of kind `grouping` in group
/// `g` between its places `a` and `b` (slot masks of the group).
fn push_grouped(cx: &Ctx, g: u32, (a, b): (u32, u32), grouping: Grouping, links: &mut Vec<Link>) {
    let group = &cx.layout.groups[g as usize];
    let (a, b) = (group.cells_at(a), group.cells_at(b));
    for (from, to) in [(&a, &b), (&b, &a)] {
        links.push(Link {
            from: from.clone(),
            to: to.clone(),
            group: g,
            kind: group.kind,
            grouped: grouping,
        });
    }
}

/// The places `spots` of group `g` split by the groups of `kind` crossing
/// it, when they fall into exactly two of them.
fn two_parts(cx: &Ctx, g: u32, spots: u32, kind: HouseKind) -> Option<(u32, u32)> {
    let parts: Vec<u32> = cx
        .layout
        .crossings
        .iter()
        .filter(|x| x.a == g && cx.layout.groups[x.b as usize].kind == kind)
        .map(|x| x.a_in_b & spots)
        .filter(|&part| part != 0)
        .collect();
    match parts[..] {
        [a, b] if a | b == spots && a & b == 0 => Some((a, b)),
        _ => None,
    }
}

/// The places `spots` of a row, column or diagonal (three to six) that lie in
/// exactly two of its box segments: a grouped strong link between the
/// segments (one of them holds the value). Sudoku Explainer's grouped line
/// links (its variant mode's for diagonals).
fn segment_links(cx: &Ctx, g: u32, spots: u32, links: &mut Vec<Link>) {
    if let Some(parts) = two_parts(cx, g, spots, HouseKind::Box) {
        push_grouped(cx, g, parts, Grouping::Segments, links);
    }
}

/// The places `spots` of box `g` (four to six, and no row-and-column
/// grouping: [`grouped_links`]) that lie on exactly two of its rows, or
/// else two of its columns: a grouped strong link between the two lines'
/// segments. Sudoku Explainer's two-line box links (rows tried first).
fn two_line_links(cx: &Ctx, g: u32, spots: u32, links: &mut Vec<Link>) {
    let parts = two_parts(cx, g, spots, HouseKind::Row)
        .or_else(|| two_parts(cx, g, spots, HouseKind::Column));
    if let Some(parts) = parts {
        push_grouped(cx, g, parts, Grouping::Segments, links);
    }
}

/// The grouped links of box `g`: its places `spots` (three to six) lie on
/// one row and one column of the box, each holding a place the other does
/// not.
fn grouped_links(cx: &Ctx, g: u32, spots: u32, links: &mut Vec<Link>) {
    if cx.layout.lines.is_none() {
        return;
    }
    let group = &cx.layout.groups[g as usize];
    // The places' slots on each line of kind `k` (rows, columns) through
    // the box, by line, in the lines' order.
    let on_lines = |k: usize| {
        const MOST: usize = 6;
        let mut lines = [(u8::MAX, 0u32); MOST];
        let mut count = 0;
        let mut rest = spots;
        while rest != 0 {
            let slot = rest.trailing_zeros();
            rest &= rest - 1;
            let line = cx.layout.line_of[k][group.cells[slot as usize] as usize];
            match lines[..count].iter_mut().find(|(l, _)| *l == line) {
                Some((_, slots)) => *slots |= 1 << slot,
                None if count < MOST => {
                    lines[count] = (line, 1 << slot);
                    count += 1;
                }
                None => {}
            }
        }
        lines[..count].sort_unstable_by_key(|&(line, _)| line);
        (lines, count)
    };
    let ((rows, row_count), (cols, col_count)) = (on_lines(0), on_lines(1));
    for &(r, in_row) in &rows[..row_count] {
        for &(c, in_col) in &cols[..col_count] {
            let covered = in_row | in_col == spots;
            let row_only = in_row & !in_col != 0;
            let col_only = in_col & !in_row != 0;
            if r == u8::MAX || c == u8::MAX || !covered || !row_only || !col_only {
                continue;
            }
            push_grouped(cx, g, (in_row, in_col), Grouping::Cross, links);
        }
    }
}

/// A value's strong links with what chains of them need: each link's cells
/// and the cells that see every cell of each end, and which links may follow
/// which.
struct Net {
    /// Its strong links.
    links: Vec<Link>,
    /// The cells holding the value.
    places: CellSet,
    /// By link: its cells.
    cells: CellSets,
    /// By link: the cells seeing all of its start, and all of its end.
    seen_from: CellSets,
    seen_to: CellSets,
    /// By link: the full houses holding all of its start, and all of its end.
    from_houses: Vec<Vec<u32>>,
    to_houses: Vec<Vec<u32>>,
    /// By link `i`: the links whose start every cell of its end sees, in
    /// order, at `next[next_starts[i]..next_starts[i + 1]]`.
    next: Vec<u32>,
    next_starts: Vec<u32>,
}

impl Net {
    fn new(cx: &Ctx, value: u8) -> Net {
        let layout = cx.layout;
        let links = strong_links(cx, value);
        let mut cells = CellSets::with_capacity(layout, links.len());
        let mut starts = CellSets::with_capacity(layout, links.len());
        let mut seen_from = CellSets::with_capacity(layout, links.len());
        let mut seen_to = CellSets::with_capacity(layout, links.len());
        for l in &links {
            cells.push_of(l.cells().copied());
            starts.push_of(l.from.iter().copied());
            seen_from.push_seeing_all(layout, &l.from);
            seen_to.push_seeing_all(layout, &l.to);
        }
        let net = Net {
            places: CellSet::holding(layout, cx.grid, value),
            from_houses: links.iter().map(|l| houses_holding(cx, &l.from)).collect(),
            to_houses: links.iter().map(|l| houses_holding(cx, &l.to)).collect(),
            links,
            cells,
            seen_from,
            seen_to,
            next: Vec::new(),
            next_starts: vec![0],
        };
        // A link follows another when its start and the other's end lie in
        // one house (Sudoku Explainer's weak link: a different-pair, such
        // as an anti-knight move, is not one), every cell of the start
        // seeing the whole end.
        let (mut next, mut next_starts) = (Vec::new(), vec![0]);
        for i in 0..net.links.len() {
            let end = net.seen_to.get(i);
            next.extend(
                (0..net.links.len() as u32)
                    .filter(|&j| starts.within(j as usize, end) && net.joined(i, j as usize)),
            );
            next_starts.push(next.len() as u32);
        }
        Net {
            next,
            next_starts,
            ..net
        }
    }

    /// Whether the end of link `i` and the start of link `j` lie in one
    /// full house.
    fn joined(&self, i: usize, j: usize) -> bool {
        self.to_houses[i]
            .iter()
            .any(|g| self.from_houses[j].contains(g))
    }

    /// The links that may follow link `i`, in order.
    fn next(&self, i: usize) -> &[u32] {
        &self.next[self.next_starts[i] as usize..self.next_starts[i + 1] as usize]
    }
}

/// Every chain of `k` links that `path` (link indices) starts, each weighed
/// by [`consider`].
fn extend(
    cx: &Ctx,
    value: u8,
    net: &Net,
    k: usize,
    path: &mut Vec<usize>,
    best: &mut Option<Step>,
) {
    if path.len() == k {
        consider(cx, value, net, path, best);
        return;
    }
    let Some(&last) = path.last() else { return };
    for &next in net.next(last) {
        let next = next as usize;
        let group = net.links[next].group;
        let used = path
            .iter()
            .any(|&l| net.links[l].group == group || net.cells.meet(l, next));
        if !used {
            path.push(next);
            extend(cx, value, net, k, path, best);
            path.pop();
        }
    }
}

/// Keeps the chain of links `indices` in `best` when it eliminates anything
/// and ranks before it.
fn consider(cx: &Ctx, value: u8, net: &Net, indices: &[usize], best: &mut Option<Step>) {
    let (first, last) = (indices[0], indices[indices.len() - 1]);
    // The places outside the chain that see every cell of both its ends.
    let mut targets = net.places.clone();
    targets.keep(net.seen_from.get(first));
    targets.keep(net.seen_to.get(last));
    // A loop: the ends share a house, so the value alternates all round it
    // and each weak link is a strong one too: every cell seeing both sides
    // of one loses the value (Sudoku Explainer's X-Loop).
    let path: Vec<&Link> = indices.iter().map(|&i| &net.links[i]).collect();
    let path = path.as_slice();
    let ring = net.joined(last, first);
    if ring {
        for pair in indices.windows(2) {
            let mut across = net.places.clone();
            across.keep(net.seen_to.get(pair[0]));
            across.keep(net.seen_from.get(pair[1]));
            targets.add(&across);
        }
    }
    for &l in indices {
        targets.remove_words(net.cells.get(l));
    }
    if targets.is_empty() {
        return;
    }
    let eliminations: Vec<Candidate> = targets.iter().map(|c| Candidate::new(c, value)).collect();
    let (mut technique, rating) = rate(path);
    if ring {
        technique = if path.len() == 2 {
            Technique::XLoop
        } else {
            Technique::LongXLoop
        };
    } else if technique == Technique::GroupedSkyscraper && finned_x_wing(cx, path) {
        technique = Technique::FinnedXWing;
    }
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
            if path.len() == 2 && path.iter().all(|l| l.grouped == Grouping::None) {
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

/// The full houses holding every cell of `cells`.
fn houses_holding(cx: &Ctx, cells: &[u32]) -> Vec<u32> {
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    cx.layout.groups_of[first as usize]
        .iter()
        .copied()
        .filter(|&g| {
            let group = &cx.layout.groups[g as usize];
            group.full && cells.iter().all(|c| group.cells.contains(c))
        })
        .collect()
}

/// Whether a grouped skyscraper (two parallel lines, one of them linking a
/// cell to a box segment) is a finned X-Wing: the segment's end holds a cell
/// on the same crossing line as the other end, the rest of it being the fin.
/// The name players know; the rating stays the grouped link's.
fn finned_x_wing(cx: &Ctx, path: &[&Link]) -> bool {
    let [first, last] = path else { return false };
    let (plain_end, group_end, kind) = match (first.grouped, last.grouped) {
        (Grouping::None, Grouping::Segments) => (&first.from, &last.to, first.kind),
        (Grouping::Segments, Grouping::None) => (&last.to, &first.from, last.kind),
        _ => return false,
    };
    let crossing = match kind {
        HouseKind::Row => 1,
        HouseKind::Column => 0,
        _ => return false,
    };
    let line = |c: u32| cx.layout.line_of[crossing][c as usize];
    match plain_end.as_slice() {
        [end] => group_end.len() > 1 && group_end.iter().any(|&c| line(c) == line(*end)),
        _ => false,
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
            .any(|l| l.kind == HouseKind::Box && l.grouped == Grouping::None && diagonal(l))
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
    let grouped = path.iter().any(|l| l.grouped != Grouping::None);
    let cross = path.iter().any(|l| l.grouped == Grouping::Cross);
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
        (2, _, _) if cross => Technique::EmptyRectangle,
        (2, false, false) if grouped => Technique::GroupedSkyscraper,
        (2, false, true) if grouped => Technique::GroupedTwoStringKite,
        (2, true, _) if grouped => Technique::GroupedTurbotFish,
        (2, false, false) => Technique::Skyscraper,
        (2, false, true) => Technique::TwoStringKite,
        (2, true, _) => Technique::TurbotFish,
        _ => Technique::XChain,
    };
    (technique, base + extra)
}

#[cfg(test)]
mod tests {
    use super::chain;
    use crate::logic::tests::{memo_changes_no_result, HARD_PUZZLES};

    /// Chains of every length with a memo (fruitless values skipped, one net
    /// per value's places shared by the lengths, as along the ladder) find
    /// what they find without one.
    #[test]
    fn the_memo_changes_no_result() {
        let (found, positions) = memo_changes_no_result(&HARD_PUZZLES, &[2, 3, 4], chain);
        // One memo for the three lengths, asked in the ladder's order.
        let (climbed, _) = memo_changes_no_result(&HARD_PUZZLES, &[0], |cx, _| {
            (2..=4).find_map(|k| chain(cx, k))
        });
        assert!(
            found > 20 && climbed > 10 && positions > 50,
            "found {found}, climbed {climbed} at {positions} positions"
        );
    }
}
