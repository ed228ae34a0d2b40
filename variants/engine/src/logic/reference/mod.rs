//! The reference ladder: one plain finder per technique family, written from
//! the technique's definition — every instance tried, no memo, no
//! precomputed masks, no pruning — beside the accelerated finders the
//! ladder climbs. Each gives the union of what every instance of its family
//! deduces in a position ([`Deductions`]); `super::differential` checks the
//! accelerated finders against them along whole solve paths.
//!
//! The definitions keep the limits that are part of what a technique means
//! for the rating (Sudoku Explainer's: a naked set in a group with at least
//! twice its size of empty cells, a hidden one with more than that), so a
//! finder and its reference must agree exactly: what one finds the other
//! finds, and never the other way round.

mod aligned;
mod cages;
mod forcing;
mod uniqueness;

pub(crate) use aligned::aligned_exclusion;
pub(crate) use cages::{cage_combinations, cage_pointing, rule_45};
pub(crate) use forcing::{multiple_forcing, static_forcing};
pub(crate) use uniqueness::{bug, unique_loops};

use crate::logic::combinations::first_combination;
use crate::logic::grid::{Grid, Group, Layout};
use crate::logic::step::{Candidate, Step};
use std::collections::BTreeSet;

/// Everything every instance of a family deduces in one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Deductions {
    /// Values placed.
    pub placements: BTreeSet<Candidate>,
    /// Candidates removed.
    pub eliminations: BTreeSet<Candidate>,
}

impl Deductions {
    /// Whether no instance deduces anything.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// What `step` deduces that no instance of the family does: empty when
    /// the step is one of them.
    pub fn beyond(&self, step: &Step) -> Vec<Candidate> {
        let placements = step
            .placements
            .iter()
            .filter(|p| !self.placements.contains(p));
        let eliminations = step
            .eliminations
            .iter()
            .filter(|e| !self.eliminations.contains(e));
        placements.chain(eliminations).copied().collect()
    }
}

/// A reference finder: the grid, and whether Sudoku Explainer's limits hold.
pub(crate) type Reference = fn(&Layout, &Grid, bool) -> Deductions;

/// Whether `a` and `b` see each other: `b` is among `a`'s peers.
fn sees(layout: &Layout, a: u32, b: u32) -> bool {
    layout.peers[a as usize].contains(&b)
}

/// The candidates of `cell` when it is empty (none when placed).
fn open_candidates(grid: &Grid, cell: u32) -> u32 {
    if grid.values[cell as usize] == 0 {
        grid.cand[cell as usize]
    } else {
        0
    }
}

/// Whether `value` is a candidate of `cell`.
fn holds(grid: &Grid, cell: u32, value: u8) -> bool {
    open_candidates(grid, cell) >> (value - 1) & 1 == 1
}

/// The empty cells of `group`.
fn empty_cells(grid: &Grid, group: &Group) -> Vec<u32> {
    group
        .cells
        .iter()
        .copied()
        .filter(|&c| grid.values[c as usize] == 0)
        .collect()
}

/// The cells of `group` where `value` is a candidate.
fn places(grid: &Grid, group: &Group, value: u8) -> Vec<u32> {
    group
        .cells
        .iter()
        .copied()
        .filter(|&c| holds(grid, c, value))
        .collect()
}

/// The full groups (houses every value is in once).
fn full_groups(layout: &Layout) -> impl Iterator<Item = &Group> {
    layout.groups.iter().filter(|g| g.full)
}

/// Calls `f` with every almost locked set of `k` cells among `usable` (cells
/// that all see each other, holding `k + 1` values in all), and its values:
/// sets grown a cell at a time, each new cell seeing the ones before, while
/// they hold at most `k + 1` values.
fn each_als(
    layout: &Layout,
    grid: &Grid,
    usable: &[u32],
    k: usize,
    f: &mut dyn FnMut(&[u32], u32),
) {
    /// One growing set: where it may grow from, its cells and values.
    struct Growth<'g> {
        layout: &'g Layout,
        usable: &'g [u32],
        grid: &'g Grid,
        k: usize,
        set: Vec<u32>,
    }
    impl Growth<'_> {
        fn grow(&mut self, from: usize, union: u32, f: &mut dyn FnMut(&[u32], u32)) {
            if self.set.len() == self.k {
                if union.count_ones() as usize == self.k + 1 {
                    f(&self.set, union);
                }
                return;
            }
            for i in from..self.usable.len() {
                let c = self.usable[i];
                let u = union | open_candidates(self.grid, c);
                let sees_set = self.set.iter().all(|&s| sees(self.layout, s, c));
                if u.count_ones() as usize <= self.k + 1 && sees_set {
                    self.set.push(c);
                    self.grow(i + 1, u, f);
                    self.set.pop();
                }
            }
        }
    }
    let mut growth = Growth {
        layout,
        usable,
        grid,
        k,
        set: Vec::with_capacity(k),
    };
    growth.grow(0, 0, f);
}

/// Calls `f` with every `k`-element subset of `items` (in order).
fn each_subset<T: Copy>(items: &[T], k: usize, f: &mut dyn FnMut(&[T])) {
    let mut pick = Vec::with_capacity(k);
    first_combination::<()>(items.len(), k, |indices| {
        pick.clear();
        pick.extend(indices.iter().map(|&i| items[i]));
        f(&pick);
        None
    });
}

/// The values of a candidate mask.
fn values(mask: u32) -> impl Iterator<Item = u8> {
    (1..=32u8).filter(move |&v| mask >> (v - 1) & 1 == 1)
}

/// Removes `value` from every cell that holds it, is not in `pattern` and
/// sees every cell of `seen`.
fn eliminate_seeing(
    layout: &Layout,
    grid: &Grid,
    value: u8,
    seen: &[u32],
    pattern: &[u32],
    out: &mut Deductions,
) {
    for c in 0..grid.cand.len() as u32 {
        if holds(grid, c, value)
            && !pattern.contains(&c)
            && seen.iter().all(|&s| sees(layout, c, s))
        {
            out.eliminations.insert(Candidate::new(c, value));
        }
    }
}

/// A full house's last empty cell takes the value the house is missing.
pub(crate) fn full_house(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for group in full_groups(layout) {
        let empty = empty_cells(grid, group);
        let [cell] = empty[..] else { continue };
        let missing: Vec<u8> = (1..=grid.size as u8)
            .filter(|&v| !group.cells.iter().any(|&c| grid.values[c as usize] == v))
            .collect();
        if let [value] = missing[..] {
            if holds(grid, cell, value) {
                out.placements.insert(Candidate::new(cell, value));
            }
        }
    }
    out
}

/// A value with one place left in a full house goes there.
pub(crate) fn hidden_single(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for group in full_groups(layout) {
        for value in 1..=grid.size as u8 {
            if let [cell] = places(grid, group, value)[..] {
                out.placements.insert(Candidate::new(cell, value));
            }
        }
    }
    out
}

/// A cell with one candidate left takes it.
pub(crate) fn naked_single(_: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for c in 0..grid.cand.len() as u32 {
        if grid.values[c as usize] == 0 && grid.cand[c as usize].count_ones() == 1 {
            let value = grid.cand[c as usize].trailing_zeros() as u8 + 1;
            out.placements.insert(Candidate::new(c, value));
        }
    }
    out
}

/// Locked candidates: a value's two or more places in full group A all lie
/// in full group B (sharing at least two cells with A), so it leaves B's
/// other cells. None on models with variant rules (generalized
/// intersections find them there).
pub(crate) fn locked(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    if !layout.variant_rules {
        each_locked(layout, grid, &|_| true, &mut |_, value, removed| {
            out.eliminations
                .extend(removed.iter().map(|&c| Candidate::new(c, value)));
        });
    }
    out
}

/// Calls `f` with every locked candidate between two full groups `take`
/// accepts: a value's two or more places in group A all in group B (sharing
/// at least two cells with A), with A, the value and B's places outside A.
fn each_locked(
    layout: &Layout,
    grid: &Grid,
    take: &dyn Fn(&Group) -> bool,
    f: &mut dyn FnMut(&Group, u8, &[u32]),
) {
    for a in full_groups(layout).filter(|g| take(g)) {
        for b in full_groups(layout).filter(|g| take(g)) {
            let shared = a.cells.iter().filter(|c| b.cells.contains(c)).count();
            if std::ptr::eq(a, b) || shared < 2 {
                continue;
            }
            for value in 1..=grid.size as u8 {
                let inside = places(grid, a, value);
                if inside.len() < 2 || !inside.iter().all(|c| b.cells.contains(c)) {
                    continue;
                }
                let removed: Vec<u32> = places(grid, b, value)
                    .into_iter()
                    .filter(|c| !a.cells.contains(c))
                    .collect();
                f(a, value, &removed);
            }
        }
    }
}

/// Generalized intersections (models with variant rules only): a value's
/// two to six places in a full house all see a cell outside them, which
/// loses it.
pub(crate) fn generalized(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    if !layout.variant_rules {
        return out;
    }
    for group in full_groups(layout) {
        for value in 1..=grid.size as u8 {
            let inside = places(grid, group, value);
            if (2..=6).contains(&inside.len()) {
                eliminate_seeing(layout, grid, value, &inside, &inside, &mut out);
            }
        }
    }
    out
}

/// Naked sets of `k`: `k` empty cells of a group (house or cage) whose
/// candidates together are `k` values; those values leave every other cell
/// seeing all `k`. Only in a group with more than `k` empty cells (at least
/// `2k` under Sudoku Explainer's limits).
pub(crate) fn naked(k: usize, layout: &Layout, grid: &Grid, se_limits: bool) -> Deductions {
    let mut out = Deductions::default();
    for group in &layout.groups {
        let empty = empty_cells(grid, group);
        if empty.len() <= k || se_limits && empty.len() < 2 * k {
            continue;
        }
        each_subset(&empty, k, &mut |set| {
            let union = set.iter().fold(0, |m, &c| m | grid.cand[c as usize]);
            if union.count_ones() as usize == k {
                for value in values(union) {
                    eliminate_seeing(layout, grid, value, set, set, &mut out);
                }
            }
        });
    }
    out
}

/// What [`each_hidden_set`] hands each set to: its house, cells and values.
type HiddenSetVisit<'v> = &'v mut dyn FnMut(&Group, &[u32], &[u8]);

/// Calls `f` with every hidden set of `k` in a full house with more than
/// `fewest` empty cells: the house, the set's `k` cells and its `k` values
/// (whose places in the house lie in those cells).
fn each_hidden_set(k: usize, layout: &Layout, grid: &Grid, fewest: usize, f: HiddenSetVisit) {
    for group in full_groups(layout) {
        if empty_cells(grid, group).len() <= fewest {
            continue;
        }
        let open: Vec<u8> = (1..=grid.size as u8)
            .filter(|&v| !places(grid, group, v).is_empty())
            .collect();
        each_subset(&open, k, &mut |set| {
            let mut cells: Vec<u32> = set.iter().flat_map(|&v| places(grid, group, v)).collect();
            cells.sort_unstable();
            cells.dedup();
            if cells.len() == k {
                f(group, &cells, set);
            }
        });
    }
}

/// The candidates of `cells` outside the values `set`: what a hidden set
/// removes.
fn others_in(grid: &Grid, cells: &[u32], set: &[u8]) -> Vec<Candidate> {
    cells
        .iter()
        .flat_map(|&c| values(grid.cand[c as usize]).map(move |v| Candidate::new(c, v)))
        .filter(|e| !set.contains(&e.value))
        .collect()
}

/// Hidden sets of `k`: `k` values whose places in a full house lie in `k`
/// cells; those cells lose every other candidate. Only in a house with more
/// than `k` empty cells (more than `2k` under Sudoku Explainer's limits).
pub(crate) fn hidden(k: usize, layout: &Layout, grid: &Grid, se_limits: bool) -> Deductions {
    let mut out = Deductions::default();
    let fewest = if se_limits { 2 * k } else { k };
    each_hidden_set(k, layout, grid, fewest, &mut |_, cells, set| {
        out.eliminations.extend(others_in(grid, cells, set));
    });
    out
}

/// Direct hidden sets of `k`: a hidden set (in a house with more than `k`
/// empty cells) whose removals leave another value of the house one place
/// outside the set's cells, which it takes.
pub(crate) fn direct_hidden(k: usize, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    each_hidden_set(k, layout, grid, k, &mut |group, cells, set| {
        let removed = others_in(grid, cells, set);
        if removed.is_empty() {
            return;
        }
        for value in (1..=grid.size as u8).filter(|v| !set.contains(v)) {
            let all = places(grid, group, value);
            let rest: Vec<u32> = all.iter().copied().filter(|c| !cells.contains(c)).collect();
            if all.len() > 1 && rest.len() == 1 {
                out.placements.insert(Candidate::new(rest[0], value));
                out.eliminations.extend(removed.iter().copied());
            }
        }
    });
    out
}

/// A fish's frame: a value, `k` base lines of one orientation each holding
/// it twice or more, its places in them, and the cross lines through those
/// places (the span), when every place has one.
struct FishFrame<'f> {
    value: u8,
    bases: &'f [u32],
    inside: &'f [u32],
    span: &'f [u32],
}

impl FishFrame<'_> {
    /// The value's places on the cross lines `covers` outside the base lines
    /// that see every cell of `fins`: what the fish removes.
    fn removes(
        &self,
        layout: &Layout,
        grid: &Grid,
        covers: &[u32],
        fins: &[u32],
        out: &mut Deductions,
    ) {
        let line = |g: u32| &layout.groups[g as usize];
        for &g in covers {
            for c in places(grid, line(g), self.value) {
                let in_bases = self.bases.iter().any(|&b| line(b).cells.contains(&c));
                if !in_bases && fins.iter().all(|&f| sees(layout, c, f)) {
                    out.eliminations.insert(Candidate::new(c, self.value));
                }
            }
        }
    }
}

/// Calls `f` with every fish frame of `k` base lines.
fn each_fish_frame(k: usize, layout: &Layout, grid: &Grid, f: &mut dyn FnMut(&FishFrame)) {
    let Some(lines) = layout.lines.as_ref() else {
        return;
    };
    let line = |g: u32| &layout.groups[g as usize];
    for value in 1..=grid.size as u8 {
        for base in 0..2 {
            let cross = &lines[1 - base];
            let usable: Vec<u32> = lines[base]
                .iter()
                .copied()
                .filter(|&g| places(grid, line(g), value).len() >= 2)
                .collect();
            each_subset(&usable, k, &mut |bases| {
                let inside: Vec<u32> = bases
                    .iter()
                    .flat_map(|&g| places(grid, line(g), value))
                    .collect();
                let span: Vec<u32> = cross
                    .iter()
                    .copied()
                    .filter(|&g| inside.iter().any(|c| line(g).cells.contains(c)))
                    .collect();
                let spanned = inside
                    .iter()
                    .all(|c| span.iter().any(|&g| line(g).cells.contains(c)));
                if spanned {
                    f(&FishFrame {
                        value,
                        bases,
                        inside: &inside,
                        span: &span,
                    });
                }
            });
        }
    }
}

/// Basic fish of `k` lines: a value whose places in `k` rows (or columns),
/// each holding it twice or more, lie in `k` columns (rows) leaves those
/// columns' other cells.
pub(crate) fn fish(k: usize, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    each_fish_frame(k, layout, grid, &mut |frame| {
        if frame.span.len() == k {
            frame.removes(layout, grid, frame.span, &[], &mut out);
        }
    });
    out
}

/// XY-Wing (`xyz` false): a pivot {x,y} seeing pincers {x,z} and {y,z}; a
/// cell seeing both pincers is not z. XYZ-Wing: a pivot {x,y,z} seeing
/// pincers {x,z} and {y,z}; a cell seeing the pivot and both pincers is not z.
pub(crate) fn wing(xyz: bool, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let n = grid.cand.len() as u32;
    let cand = |c: u32| open_candidates(grid, c);
    for pivot in (0..n).filter(|&c| cand(c).count_ones() == if xyz { 3 } else { 2 }) {
        let p = cand(pivot);
        let pincers: Vec<u32> = (0..n)
            .filter(|&w| w != pivot && cand(w).count_ones() == 2 && sees(layout, pivot, w))
            .collect();
        each_subset(&pincers, 2, &mut |pair| {
            let (a, b) = (cand(pair[0]), cand(pair[1]));
            let z = a & b;
            let shape = if xyz {
                a != b && z.count_ones() == 1 && a | b == p
            } else {
                z.count_ones() == 1 && z & p == 0 && (a | b) & !z == p
            };
            if !shape {
                return;
            }
            let mut seen = pair.to_vec();
            if xyz {
                seen.push(pivot);
            }
            let pattern = [pair[0], pair[1], pivot];
            for value in values(z) {
                eliminate_seeing(layout, grid, value, &seen, &pattern, &mut out);
            }
        });
    }
    out
}

/// ALS-wings with an almost locked set of `k` cells (`k` cells that all see
/// each other, each holding two to `k + 1` values, `k + 1` values in all)
/// and a bivalue cell {x,z} outside it holding ALS values: when every ALS
/// cell holding x sees the bivalue cell, z is in the ALS or the bivalue
/// cell, and leaves every cell seeing all of those. When z is linked the
/// same way, both are, and the ALS's other values are locked in it.
pub(crate) fn als(k: usize, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let n = grid.cand.len() as u32;
    let cand = |c: u32| open_candidates(grid, c);
    let usable: Vec<u32> = (0..n)
        .filter(|&c| (2..=k as u32 + 1).contains(&cand(c).count_ones()))
        .collect();
    each_als(layout, grid, &usable, k, &mut |set, union| {
        let holders = |v: u8| -> Vec<u32> {
            set.iter()
                .copied()
                .filter(|&c| cand(c) >> (v - 1) & 1 == 1)
                .collect()
        };
        for yz in (0..n).filter(|&c| cand(c).count_ones() == 2) {
            let m = cand(yz);
            if m & union != m || set.contains(&yz) || !set.iter().any(|&c| sees(layout, c, yz)) {
                continue;
            }
            let pair: Vec<u8> = values(m).collect();
            let linked: Vec<bool> = pair
                .iter()
                .map(|&v| holders(v).iter().all(|&c| sees(layout, c, yz)))
                .collect();
            let mut pattern = set.to_vec();
            pattern.push(yz);
            let mut eliminate = |v: u8, with_yz: bool| {
                let mut seen = holders(v);
                if with_yz {
                    seen.push(yz);
                }
                eliminate_seeing(layout, grid, v, &seen, &pattern, &mut out);
            };
            for i in 0..2 {
                if linked[i] {
                    eliminate(pair[1 - i], true);
                }
            }
            if linked[0] && linked[1] {
                for v in values(union & !m) {
                    eliminate(v, false);
                }
                for &x in &pair {
                    eliminate(x, true);
                }
            }
        }
    });
    out
}

/// Finned and sashimi fish of `k` lines: a value's places in `k` base lines
/// (each holding it twice or more) lie on `k + 1` to `k + 3` cross lines;
/// `k` of those, each meeting every base line's places, are the cover
/// lines, and the places off them are fins. A cell of a cover line outside
/// the base lines that sees every fin loses the value.
pub(crate) fn finned_fish(k: usize, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let line = |g: u32| &layout.groups[g as usize];
    each_fish_frame(k, layout, grid, &mut |frame| {
        if frame.span.len() <= k || frame.span.len() > k + 3 {
            return;
        }
        each_subset(frame.span, k, &mut |covers| {
            let covered = |c: &u32| covers.iter().any(|&g| line(g).cells.contains(c));
            let every_base_met = frame
                .bases
                .iter()
                .all(|&b| places(grid, line(b), frame.value).iter().any(covered));
            if every_base_met {
                let fins: Vec<u32> = frame
                    .inside
                    .iter()
                    .copied()
                    .filter(|c| !covered(c))
                    .collect();
                frame.removes(layout, grid, covers, &fins, &mut out);
            }
        });
    });
    out
}

/// Extends `path` by every follower of its last link that `allowed`
/// accepts, to `k` links, handing each whole chain to `done`.
fn walk(
    path: &mut Vec<usize>,
    k: usize,
    followers: &[Vec<usize>],
    allowed: &dyn Fn(&[usize], usize) -> bool,
    done: &mut dyn FnMut(&[usize]),
) {
    if path.len() == k {
        done(path);
        return;
    }
    let Some(&last) = path.last() else { return };
    for &next in &followers[last] {
        if allowed(path, next) {
            path.push(next);
            walk(path, k, followers, allowed, done);
            path.pop();
        }
    }
}

/// Chains of `k` strong links on one value (`links::strong_link_ends` says
/// what a strong link is: a house with two places, or a box's or a line's
/// grouped ends), each in a house of its own and sharing no cell with
/// another, each start in one house with the link before's end:
/// one end of the chain holds the value, so a cell seeing every cell of
/// both ends loses it. When the ends share a full house the chain is a
/// loop, and a cell seeing both sides of any weak link loses it too.
pub(crate) fn strong_link_chain(k: usize, layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for value in 1..=grid.size as u8 {
        let links = crate::logic::links::strong_link_ends(layout, grid, value);
        let cells = |i: usize| links[i].0.iter().chain(&links[i].1);
        // Which link may follow which: its start in one house with the
        // other's end (worked out once per value, as the walk asks often).
        let one_house =
            |cells: &[u32]| full_groups(layout).any(|g| cells.iter().all(|c| g.cells.contains(c)));
        let followers: Vec<Vec<usize>> = (0..links.len())
            .map(|a| {
                (0..links.len())
                    .filter(|&b| {
                        let joined: Vec<u32> =
                            links[a].1.iter().chain(&links[b].0).copied().collect();
                        one_house(&joined)
                    })
                    .collect()
            })
            .collect();
        let mut path: Vec<usize> = Vec::with_capacity(k);
        // Each link in a house of its own, no cell shared.
        let allowed = |path: &[usize], next: usize| {
            path.iter().all(|&l| {
                links[l].2 != links[next].2 && !cells(l).any(|c| cells(next).any(|d| c == d))
            })
        };
        let mut done = |path: &[usize]| {
            let (first, last) = (&links[path[0]], &links[path[k - 1]]);
            let mut seen: Vec<u32> = first.0.clone();
            seen.extend(&last.1);
            let pattern: Vec<u32> = path.iter().flat_map(|&l| cells(l).copied()).collect();
            eliminate_seeing(layout, grid, value, &seen, &pattern, &mut out);
            // A loop (the ends share a full house): each weak link is strong.
            let ring = one_house(&seen);
            if ring {
                for pair in path.windows(2) {
                    let mut across = links[pair[0]].1.clone();
                    across.extend(&links[pair[1]].0);
                    eliminate_seeing(layout, grid, value, &across, &pattern, &mut out);
                }
            }
        };
        for first in 0..links.len() {
            path.clear();
            path.push(first);
            walk(&mut path, k, &followers, &allowed, &mut done);
        }
    }
    out
}

/// W-Wing: two cells holding the same two values {x,y}, not seeing each
/// other, and a house where x has two places, one seeing each cell (neither
/// of them a wing cell): a cell seeing both wing cells is not y.
pub(crate) fn w_wing(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let n = grid.cand.len() as u32;
    let cand = |c: u32| open_candidates(grid, c);
    let bivalue: Vec<u32> = (0..n).filter(|&c| cand(c).count_ones() == 2).collect();
    each_subset(&bivalue, 2, &mut |pair| {
        let (a, b) = (pair[0], pair[1]);
        if cand(a) != cand(b) || sees(layout, a, b) {
            return;
        }
        let both: Vec<u8> = values(cand(a)).collect();
        for (x, y) in [(both[0], both[1]), (both[1], both[0])] {
            for group in full_groups(layout) {
                let [p, q] = places(grid, group, x)[..] else {
                    continue;
                };
                let clear = ![p, q].iter().any(|&e| e == a || e == b);
                let linked = sees(layout, p, a) && sees(layout, q, b)
                    || sees(layout, p, b) && sees(layout, q, a);
                if clear && linked {
                    eliminate_seeing(layout, grid, y, &[a, b], &[a, b], &mut out);
                }
            }
        }
    });
    out
}

/// The clusters of `value`'s strong links (full houses with two places):
/// each as its two colours, cells alternating along the links.
fn colour_clusters(layout: &Layout, grid: &Grid, value: u8) -> Vec<[Vec<u32>; 2]> {
    let links: Vec<(u32, u32)> = full_groups(layout)
        .filter_map(|g| match places(grid, g, value)[..] {
            [p, q] => Some((p, q)),
            _ => None,
        })
        .collect();
    let mut colour: std::collections::BTreeMap<u32, (usize, u8)> = Default::default();
    let mut clusters: Vec<[Vec<u32>; 2]> = Vec::new();
    for &(start, _) in &links {
        if colour.contains_key(&start) {
            continue;
        }
        let id = clusters.len();
        clusters.push([Vec::new(), Vec::new()]);
        let mut todo = vec![(start, 0u8)];
        while let Some((cell, side)) = todo.pop() {
            if colour.contains_key(&cell) {
                continue;
            }
            colour.insert(cell, (id, side));
            clusters[id][usize::from(side)].push(cell);
            for &(p, q) in &links {
                if p == cell {
                    todo.push((q, 1 - side));
                } else if q == cell {
                    todo.push((p, 1 - side));
                }
            }
        }
    }
    clusters
}

/// Simple colours: a cell outside a cluster seeing both of its colours is
/// not the value (trap); a colour two of whose cells see each other is
/// false (wrap).
pub(crate) fn simple_colours(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    for value in 1..=grid.size as u8 {
        for [a, b] in colour_clusters(layout, grid, value) {
            let cluster: Vec<u32> = a.iter().chain(&b).copied().collect();
            for c in 0..grid.cand.len() as u32 {
                let sees_any = |side: &[u32]| side.iter().any(|&s| sees(layout, c, s));
                if holds(grid, c, value) && !cluster.contains(&c) && sees_any(&a) && sees_any(&b) {
                    out.eliminations.insert(Candidate::new(c, value));
                }
            }
            for side in [&a, &b] {
                let clash = side
                    .iter()
                    .any(|&x| side.iter().any(|&y| x != y && sees(layout, x, y)));
                if clash {
                    out.eliminations
                        .extend(side.iter().map(|&c| Candidate::new(c, value)));
                }
            }
        }
    }
    out
}

/// Multi-colours over two clusters of one value: a colour of one seeing
/// both colours of the other is false (type 2); where a colour of one sees
/// a colour of the other, one of the two opposite colours is true, so a
/// cell seeing both of those is not the value (type 1).
pub(crate) fn multi_colours(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let touches = |a: &[u32], b: &[u32]| a.iter().any(|&x| b.iter().any(|&y| sees(layout, x, y)));
    for value in 1..=grid.size as u8 {
        let clusters = colour_clusters(layout, grid, value);
        for (i, k) in clusters.iter().enumerate() {
            for (j, l) in clusters.iter().enumerate() {
                if i == j {
                    continue;
                }
                for side in 0..2 {
                    let mine = &k[side];
                    if touches(mine, &l[0]) && touches(mine, &l[1]) {
                        out.eliminations
                            .extend(mine.iter().map(|&c| Candidate::new(c, value)));
                    }
                    for other in (0..2).filter(|&o| touches(mine, &l[o])) {
                        let (a, b) = (&k[1 - side], &l[1 - other]);
                        for c in 0..grid.cand.len() as u32 {
                            let sees_any = |s: &[u32]| s.iter().any(|&x| sees(layout, c, x));
                            let outside = !a.contains(&c) && !b.contains(&c);
                            if holds(grid, c, value) && outside && sees_any(a) && sees_any(b) {
                                out.eliminations.insert(Candidate::new(c, value));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Direct pointing and claiming: a locked candidate (a value's two or more
/// places in full house A all in full house B) whose removals from B leave
/// the value one place in another full house of A's kind, which it takes.
/// On models with variant rules only houses that lock (rows, columns,
/// boxes, regions, windows) take part.
pub(crate) fn direct_locked(layout: &Layout, grid: &Grid, _: bool) -> Deductions {
    let mut out = Deductions::default();
    let locks = |g: &Group| !layout.variant_rules || crate::logic::grid::is_locking_kind(g.kind);
    each_locked(layout, grid, &locks, &mut |a, value, removed| {
        for h in full_groups(layout).filter(|h| !std::ptr::eq(*h, a) && h.kind == a.kind) {
            let before = places(grid, h, value);
            let left: Vec<u32> = before
                .iter()
                .copied()
                .filter(|c| !removed.contains(c))
                .collect();
            if before.len() >= 2 && left.len() == 1 {
                out.placements.insert(Candidate::new(left[0], value));
                out.eliminations
                    .extend(removed.iter().map(|&c| Candidate::new(c, value)));
            }
        }
    });
    out
}
