//! The uniqueness families from their definitions: unique rectangles and
//! loops, and the bivalue universal grave. Both rest on a deadly pattern —
//! candidates that could swap without breaking a rule — which a puzzle with
//! one solution cannot end in. Classic rules only.

use super::{each_subset, open_candidates, sees, values, Deductions};
use crate::logic::grid::{Grid, Layout};
use crate::logic::step::Candidate;

/// The longest loop Sudoku Explainer looks for.
const MAX_LOOP: usize = 14;

/// Unique rectangles and loops (types 1-4): an even loop of four to
/// fourteen cells, starting at a cell holding exactly two values u and v,
/// through cells holding both (or, without Sudoku Explainer's limits, one of
/// them beside other values), each two in a row sharing a house, where the
/// cells at odd and at even places visit the same houses, each once — so u
/// and v could swap. At most two cells hold other values (extras), or all
/// their extras are one value. One extra cell: it is neither u nor v
/// (type 1). One extra value w: w is in an extra cell, so no cell seeing
/// them all is w (type 2). Two extra cells sharing a house where u (or v)
/// has no other place: the other value leaves both (type 4); where their
/// extras with one to three other cells of the house are as many values as
/// cells: a naked set, whose values leave every cell seeing all of it
/// (type 3).
pub(crate) fn unique_loops(layout: &Layout, grid: &Grid, se_limits: bool) -> Deductions {
    let mut out = Deductions::default();
    if !layout.classic {
        return out;
    }
    for start in 0..grid.cand.len() as u32 {
        let pair = open_candidates(grid, start);
        if pair.count_ones() != 2 {
            continue;
        }
        let mut search = LoopSearch {
            layout,
            grid,
            pair,
            se_limits,
            path: vec![start],
            loops: Vec::new(),
        };
        search.extend();
        for cells in search.loops {
            if valid_loop(layout, &cells) {
                loop_types(layout, grid, &cells, pair, &mut out);
            }
        }
    }
    out
}

/// A depth-first search for the loops through one start cell.
struct LoopSearch<'a> {
    layout: &'a Layout,
    grid: &'a Grid,
    /// The start's two values.
    pair: u32,
    se_limits: bool,
    path: Vec<u32>,
    loops: Vec<Vec<u32>>,
}

impl LoopSearch<'_> {
    /// Whether `cell` may be on a loop of the pair.
    fn fits(&self, cell: u32) -> bool {
        let m = open_candidates(self.grid, cell);
        m & self.pair == self.pair || (!self.se_limits && m & self.pair != 0 && m & !self.pair != 0)
    }

    /// Whether no house holds more than two path cells, and at most two
    /// path cells hold extras unless the extras are one value.
    fn may_grow(&self) -> bool {
        let houses = self.layout.groups.iter();
        let crowded = houses
            .into_iter()
            .any(|g| g.cells.iter().filter(|c| self.path.contains(c)).count() > 2);
        let extras: Vec<u32> = self
            .path
            .iter()
            .map(|&c| open_candidates(self.grid, c) & !self.pair)
            .filter(|&m| m != 0)
            .collect();
        let union = extras.iter().fold(0, |m, &e| m | e);
        !crowded && (extras.len() <= 2 || union.count_ones() == 1)
    }

    /// Every loop extending the path, recorded.
    fn extend(&mut self) {
        let Some(&last) = self.path.last() else {
            return;
        };
        for next in 0..self.grid.cand.len() as u32 {
            if !shares_house(self.layout, last, next) {
                continue;
            }
            if next == self.path[0] {
                if self.path.len() >= 4 && self.path.len().is_multiple_of(2) {
                    self.loops.push(self.path.clone());
                }
                continue;
            }
            if self.path.len() >= MAX_LOOP || self.path.contains(&next) || !self.fits(next) {
                continue;
            }
            self.path.push(next);
            if self.may_grow() {
                self.extend();
            }
            self.path.pop();
        }
    }
}

/// Whether two different cells share a house.
fn shares_house(layout: &Layout, a: u32, b: u32) -> bool {
    a != b
        && layout
            .groups
            .iter()
            .any(|g| g.cells.contains(&a) && g.cells.contains(&b))
}

/// The houses holding `cell`.
fn houses_of(layout: &Layout, cell: u32) -> Vec<usize> {
    (0..layout.groups.len())
        .filter(|&g| layout.groups[g].cells.contains(&cell))
        .collect()
}

/// Whether the cells at odd and at even places visit the same houses, each
/// once.
fn valid_loop(layout: &Layout, cells: &[u32]) -> bool {
    let mut sides = [Vec::new(), Vec::new()];
    for (i, &c) in cells.iter().enumerate() {
        for h in houses_of(layout, c) {
            if sides[i % 2].contains(&h) {
                return false;
            }
            sides[i % 2].push(h);
        }
    }
    let [mut odd, mut even] = sides;
    odd.sort_unstable();
    even.sort_unstable();
    odd == even
}

/// What the loop `cells` of the values `pair` deduces, into `out`.
fn loop_types(layout: &Layout, grid: &Grid, cells: &[u32], pair: u32, out: &mut Deductions) {
    let cand = |c: u32| open_candidates(grid, c);
    let extra: Vec<u32> = cells.iter().copied().filter(|&c| cand(c) != pair).collect();
    let extra_values = extra.iter().fold(0, |m, &c| m | (cand(c) & !pair));
    if extra.len() >= 2 && extra_values.count_ones() == 1 {
        eliminate_seeing_all(layout, grid, extra_values, &extra, out);
    }
    match extra[..] {
        [x] => {
            for v in values(cand(x) & pair) {
                out.eliminations.insert(Candidate::new(x, v));
            }
        }
        [x, y] => {
            let cells_of = |g: usize| &layout.groups[g].cells;
            let shared: Vec<usize> = houses_of(layout, x)
                .into_iter()
                .filter(|&g| cells_of(g).contains(&y))
                .collect();
            for &g in &shared {
                let places = |v: u8| super::places(grid, &layout.groups[g], v);
                let values: Vec<u8> = values(pair).collect();
                for (locked, other) in [(values[0], values[1]), (values[1], values[0])] {
                    if places(locked) == [x, y] || places(locked) == [y, x] {
                        for c in [x, y].into_iter().filter(|&c| super::holds(grid, c, other)) {
                            out.eliminations.insert(Candidate::new(c, other));
                        }
                    }
                }
                let others: Vec<u32> = cells_of(g)
                    .iter()
                    .copied()
                    .filter(|&c| c != x && c != y && grid.values[c as usize] == 0)
                    .collect();
                for size in 1..=3 {
                    each_subset(&others, size, &mut |pick| {
                        let union = pick.iter().fold(extra_values, |m, &c| m | cand(c));
                        if union.count_ones() as usize == size + 1 {
                            let mut set = pick.to_vec();
                            set.extend([x, y]);
                            eliminate_seeing_all(layout, grid, union, &set, out);
                        }
                    });
                }
            }
        }
        _ => {}
    }
}

/// Removes the values of `mask` from every cell outside `set` seeing all of
/// it.
fn eliminate_seeing_all(
    layout: &Layout,
    grid: &Grid,
    mask: u32,
    set: &[u32],
    out: &mut Deductions,
) {
    for c in 0..grid.cand.len() as u32 {
        if !set.contains(&c) && set.iter().all(|&s| sees(layout, c, s)) {
            for v in values(open_candidates(grid, c) & mask) {
                out.eliminations.insert(Candidate::new(c, v));
            }
        }
    }
}

/// The bivalue universal grave: if removing some candidates of the cells
/// holding three or more (the BUG cells; what they lose, their BUG values)
/// would leave every empty cell two candidates and every value missing
/// from a full house twice in it, that grid would have two solutions, so some
/// BUG value is true. Every such removal counts. One BUG cell: it takes a
/// BUG value, so loses its other candidates (type 1). Every BUG value one
/// value w: no cell seeing all BUG cells is w (type 2). Otherwise, in a
/// house holding every BUG cell, the BUG values as one more cell with one
/// to three other cells seeing them all form a naked set, whose values
/// leave the house's other cells (type 3).
pub(crate) fn bug(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    if !layout.classic {
        return out;
    }
    let cells = 0..grid.cand.len() as u32;
    let count = |c: u32| open_candidates(grid, c).count_ones();
    if cells.clone().any(|c| count(c) == 1) {
        return out;
    }
    let wide: Vec<u32> = cells.clone().filter(|&c| count(c) >= 3).collect();
    if wide.is_empty() {
        return out;
    }
    let mut kept = vec![0u32; wide.len()];
    let mut removals = Vec::new();
    each_bug(layout, grid, &wide, &mut kept, &mut removals);
    for kept in removals {
        let removed: Vec<u32> = wide
            .iter()
            .zip(&kept)
            .map(|(&c, &k)| open_candidates(grid, c) & !k)
            .collect();
        let all = removed.iter().fold(0, |m, &r| m | r);
        if let ([cell], [keep]) = (&wide[..], &kept[..]) {
            for v in values(*keep) {
                out.eliminations.insert(Candidate::new(*cell, v));
            }
            if all.count_ones() == 1 {
                out.placements
                    .extend(values(all).map(|v| Candidate::new(*cell, v)));
            }
        } else if all.count_ones() == 1 {
            eliminate_seeing_all(layout, grid, all, &wide, &mut out);
        } else {
            bug_type3(layout, grid, &wide, all, &mut out);
        }
    }
    out
}

/// Type 3 of [`bug`]: the BUG values `all` of the BUG cells `wide`.
fn bug_type3(layout: &Layout, grid: &Grid, wide: &[u32], all: u32, out: &mut Deductions) {
    for group in &layout.groups {
        if !wide.iter().all(|c| group.cells.contains(c)) {
            continue;
        }
        let outside = |c: u32| !wide.contains(&c) && wide.iter().all(|&w| sees(layout, c, w));
        let empty: Vec<u32> = group
            .cells
            .iter()
            .copied()
            .filter(|&c| grid.values[c as usize] == 0)
            .collect();
        let others: Vec<u32> = empty.iter().copied().filter(|&c| outside(c)).collect();
        for size in 1..=3 {
            each_subset(&others, size, &mut |pick| {
                let union = pick.iter().fold(all, |m, &c| m | open_candidates(grid, c));
                if union.count_ones() as usize != size + 1 {
                    return;
                }
                for &c in empty
                    .iter()
                    .filter(|c| !pick.contains(c) && !wide.contains(c))
                {
                    for v in values(open_candidates(grid, c) & union) {
                        out.eliminations.insert(Candidate::new(c, v));
                    }
                }
            });
        }
    }
}

/// Calls on every way to keep two candidates in each of the cells `wide`
/// (their masks into `kept`, from index `kept`'s filled part on) that
/// leaves every value missing from a full house twice in it, pushing each
/// to `found`.
fn each_bug(
    layout: &Layout,
    grid: &Grid,
    wide: &[u32],
    kept: &mut [u32],
    found: &mut Vec<Vec<u32>>,
) {
    fn choose(
        layout: &Layout,
        grid: &Grid,
        wide: &[u32],
        i: usize,
        kept: &mut [u32],
        found: &mut Vec<Vec<u32>>,
    ) {
        // Only the houses of the cell decided last can have changed.
        let last = i.checked_sub(1).map(|j| wide[j]);
        if !may_be_bug(layout, grid, wide, &kept[..i], last) {
            return;
        }
        let Some(&cell) = wide.get(i) else {
            found.push(kept.to_vec());
            return;
        };
        let options: Vec<u8> = values(open_candidates(grid, cell)).collect();
        each_subset(&options, 2, &mut |two| {
            kept[i] = two.iter().fold(0, |m, &v| m | 1 << (v - 1));
            choose(layout, grid, wide, i + 1, kept, found);
        });
    }
    choose(layout, grid, wide, 0, kept, found);
}

/// Whether, with the first of the cells `wide` keeping `decided`, every
/// value may still end twice in each full house where it has a place (the
/// others may still drop any of theirs). Twice, not none: a house's empty
/// cells keep two candidates each, twice as many as the values it misses.
/// Only the houses holding `near` are checked, if given.
fn may_be_bug(
    layout: &Layout,
    grid: &Grid,
    wide: &[u32],
    decided: &[u32],
    near: Option<u32>,
) -> bool {
    let mask = |c: u32| match wide.iter().position(|&w| w == c) {
        Some(i) if i < decided.len() => (decided[i], 0),
        Some(_) => (0, open_candidates(grid, c)),
        None => (open_candidates(grid, c), 0),
    };
    let houses = layout.groups.iter().filter(|g| g.full);
    let mut houses = houses.filter(|g| near.is_none_or(|c| g.cells.contains(&c)));
    houses.all(|g| {
        (1..=grid.size as u8).all(|v| {
            let b = 1 << (v - 1);
            let (mut least, mut most) = (0, 0);
            for &c in &g.cells {
                let (sure, maybe) = mask(c);
                least += usize::from(sure & b != 0);
                most += usize::from((sure | maybe) & b != 0);
            }
            most == 0 || (least <= 2 && most >= 2)
        })
    })
}
