//! Chains of implications between candidates, as Sudoku Explainer builds them.
//!
//! A *potential* is "value v in cell c is true (on) / false (off)". From an on
//! potential, every peer's v and every other value of the cell turn off; from an
//! off potential, the other value of a bivalue cell and the other place of a
//! value with two places in a house turn on. Following these from one assumption
//! gives:
//! - cycles: an alternating loop back to the start (X-cycles on one value,
//!   Y-cycles through bivalue cells, XY-cycles with both); every candidate that
//!   sees an on and an off potential of its value in the loop is false;
//! - forcing chains: an assumption that implies its own negation (these two
//!   follow the real grid's links only: `static_chains`);
//! - multiple forcing chains: every value of a cell (or every place of a value in
//!   a house) implies the same thing; both states of a candidate imply the same
//!   thing (double forcing), or one state implies a contradiction. A branch
//!   that reaches a contradiction counts with what it implied up to it, as in
//!   Sudoku Explainer: its assumption is false, so any conclusion of the other
//!   branches stands, and the chains are as long as Sudoku Explainer's;
//! - dynamic chains: as multiple, but each "off" is written into a scratch copy
//!   of the grid, so later implications see it; at level 1, when nothing else
//!   follows, intersections, pairs and X-Wings on the scratch grid add more.
//!
//! Ratings follow Sudoku Explainer: a base for the kind of chain plus 0.1 per
//! step of its length scale (4, 6, 8, 12, 16, 24, ... potentials).

use crate::logic::chain_parts::{
    cell_offs, conjugates, keep, length_tenths, peer_offs, Found, Links,
};
use crate::logic::forcing_scan::{Agreements, Scan};
use crate::logic::grid::{candidate_key as key, Grid};
use crate::logic::stamps::Stamps;
use crate::logic::step::{Candidate, Rating, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};
use std::rc::Rc;

const NONE: u32 = u32::MAX;

thread_local! {
    /// The scratch of [`Search::ancestors`], shared by every search of the
    /// thread (one walk at a time) rather than allocated with each.
    static ANCESTORS: std::cell::RefCell<Stamps> = std::cell::RefCell::new(Stamps::new(0));

    /// The storage of finished searches, emptied, for the next
    /// [`Search::new`]: a forcing-chain search runs a branch per candidate,
    /// and allocating their storage was a fifth of its time.
    static SPARE: std::cell::RefCell<Vec<Storage>> = const { std::cell::RefCell::new(Vec::new()) };

    /// The scratch grid of [`propagate`], kept between branches.
    static SCRATCH: std::cell::Cell<Option<Grid>> = const { std::cell::Cell::new(None) };
}

/// Spare storages kept at most (a 9x9 search's arrays take 6 KB, a
/// Samurai's 26 KB).
const SPARE_CAP: usize = 128;

/// What a search stores: its potentials and which are known.
#[derive(Default)]
struct Storage {
    nodes: Vec<Node>,
    /// By key: the id of the potential known on, or `NONE`.
    on: Vec<u32>,
    /// By key: the id of the potential known off, or `NONE`.
    off: Vec<u32>,
    /// Keys set in `on` or `off`, to reset them.
    touched: Vec<usize>,
    /// The hidden parents of dynamic chains' nodes, a run per node
    /// ([`Parents::more`]).
    hidden: Vec<u32>,
}

impl Storage {
    /// Empty storage for `keys` candidates, a spare one if one fits.
    fn take(keys: usize) -> Storage {
        SPARE
            .with(|spare| {
                let mut spare = spare.borrow_mut();
                if spare.last().is_some_and(|s| s.on.len() != keys) {
                    spare.clear();
                }
                spare.pop()
            })
            .unwrap_or_else(|| Storage {
                on: vec![NONE; keys],
                off: vec![NONE; keys],
                ..Storage::default()
            })
    }

    /// Forgets every potential, keeping the allocations.
    fn clear(&mut self) {
        for &k in &self.touched {
            self.on[k] = NONE;
            self.off[k] = NONE;
        }
        self.touched.clear();
        self.nodes.clear();
        self.hidden.clear();
    }

    /// Empties this storage and keeps it for the next search.
    fn give_back(mut self) {
        self.clear();
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARE_CAP {
                spare.push(self);
            }
        });
    }
}

/// One potential in a search, with the potentials that imply it.
#[derive(Clone, Copy, Debug)]
struct Node {
    cell: u32,
    value: u8,
    on: bool,
    parents: Parents,
}

/// The potentials that imply a node: nearly always one; dynamic chains' hidden
/// parents (candidates the chain turned off on the way) follow as a run of
/// the search's [`Storage::hidden`].
#[derive(Clone, Copy, Debug)]
struct Parents {
    /// The one parent (`NONE`: the start, or a node whose parents are all
    /// hidden, as an elimination `advanced` finds).
    first: u32,
    /// Where the hidden parents start and end in [`Storage::hidden`].
    more: (u32, u32),
}

impl Parents {
    fn none() -> Parents {
        Parents::one(NONE)
    }
    fn one(p: u32) -> Parents {
        Parents {
            first: p,
            more: (0, 0),
        }
    }
    /// The parents, in order, given the search's hidden parents.
    fn iter<'h>(&self, hidden: &'h [u32]) -> impl Iterator<Item = u32> + 'h {
        let first = (self.first != NONE).then_some(self.first);
        let (start, end) = (self.more.0 as usize, self.more.1 as usize);
        first.into_iter().chain(hidden[start..end].iter().copied())
    }
}

/// The arena of potentials one search builds, and which potentials are known
/// on and off.
struct Search<'a> {
    cx: &'a Ctx<'a>,
    size: u32,
    store: Storage,
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        std::mem::take(&mut self.store).give_back();
    }
}

impl<'a> Search<'a> {
    fn new(cx: &'a Ctx<'a>) -> Search<'a> {
        let size = cx.grid.size;
        let keys = cx.grid.cand.len() * size as usize;
        Search {
            cx,
            size,
            store: Storage::take(keys),
        }
    }

    fn key(&self, cell: u32, value: u8) -> usize {
        key(self.size, cell, value)
    }

    fn add(&mut self, cell: u32, value: u8, on: bool, parents: Parents) -> u32 {
        self.store.nodes.push(Node {
            cell,
            value,
            on,
            parents,
        });
        (self.store.nodes.len() - 1) as u32
    }

    /// The ids known on (or off), by key.
    fn known_ids(&self, on: bool) -> &[u32] {
        if on {
            &self.store.on
        } else {
            &self.store.off
        }
    }

    /// Records `id` as the potential known for key `k` in state `on`.
    fn set_known(&mut self, k: usize, on: bool, id: u32) {
        let ids = if on {
            &mut self.store.on
        } else {
            &mut self.store.off
        };
        ids[k] = id;
        self.store.touched.push(k);
    }

    /// The id known for (cell, value, on), if any.
    fn known(&self, cell: u32, value: u8, on: bool) -> u32 {
        self.known_ids(on)[self.key(cell, value)]
    }

    fn mark(&mut self, id: u32) {
        let n = &self.store.nodes[id as usize];
        let (k, on) = (self.key(n.cell, n.value), n.on);
        self.set_known(k, on, id);
    }

    /// What turns off when `id` is on, given candidates `cand`.
    fn on_to_off(&self, cand: &[u32], id: u32, links: Links, out: &mut Vec<(u32, u8)>) {
        let n = &self.store.nodes[id as usize];
        out.clear();
        if links.y {
            out.extend(cell_offs(cand, n.cell, n.value));
        }
        out.extend(peer_offs(self.cx.layout, cand, n.cell, n.value));
    }

    /// What turns on when `id` is off, given the scratch grid `now` of a
    /// dynamic chain (`None`: the real grid). For dynamic chains the candidates
    /// turned off on the way are hidden parents.
    fn off_to_on(&mut self, now: Option<&Grid>, id: u32, links: Links, out: &mut Vec<Node>) {
        let n = self.store.nodes[id as usize];
        out.clear();
        let cx = self.cx;
        let start = cx.grid;
        let current = now.unwrap_or(start);
        if links.y && current.cand[n.cell as usize].count_ones() == 2 {
            let other = current.cand[n.cell as usize] & !bit(u32::from(n.value));
            if let Some(v) = values_of(other).next() {
                let mut parents = Parents::one(id);
                if now.is_some() {
                    let gone = start.cand[n.cell as usize] & !current.cand[n.cell as usize];
                    parents.more = self.hide(values_of(gone).map(|value| (n.cell, value)));
                }
                out.push(Node {
                    cell: n.cell,
                    value: v,
                    on: true,
                    parents,
                });
            }
        }
        if links.x {
            for (group, other) in conjugates(cx.layout, current, n.cell, n.value) {
                let mut parents = Parents::one(id);
                if now.is_some() {
                    let gone = start.positions(group, n.value) & !current.positions(group, n.value);
                    parents.more = self.hide(group.cells_in(gone).map(|c| (c, n.value)));
                }
                out.push(Node {
                    cell: other,
                    value: n.value,
                    on: true,
                    parents,
                });
            }
        }
    }

    /// Records the potentials known off among `candidates` as a run of
    /// hidden parents; where it starts and ends.
    fn hide(&mut self, candidates: impl Iterator<Item = (u32, u8)>) -> (u32, u32) {
        let start = self.store.hidden.len() as u32;
        for (cell, value) in candidates {
            if let Some(id) = self.found_off(cell, value) {
                self.store.hidden.push(id);
            }
        }
        (start, self.store.hidden.len() as u32)
    }

    fn found_off(&self, cell: u32, value: u8) -> Option<u32> {
        let id = self.known(cell, value, false);
        (id != NONE).then_some(id)
    }

    /// The number of distinct potentials `id` rests on, itself included.
    fn ancestors(&self, id: u32) -> usize {
        ANCESTORS.with(|seen| self.count_ancestors(id, &mut seen.borrow_mut()))
    }

    /// [`Search::ancestors`] with the scratch `seen`.
    fn count_ancestors(&self, id: u32, seen: &mut Stamps) -> usize {
        if seen.marks.len() < 2 * self.store.on.len() {
            *seen = Stamps::new(2 * self.store.on.len());
        }
        seen.clear();
        let mut count = 0;
        let mut todo = vec![id];
        while let Some(i) = todo.pop() {
            let n = &self.store.nodes[i as usize];
            if seen.mark(2 * self.key(n.cell, n.value) + usize::from(n.on)) {
                count += 1;
                todo.extend(n.parents.iter(&self.store.hidden));
            }
        }
        count
    }

    /// The candidates along `id`'s chain.
    fn pattern(&self, ids: &[u32]) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = Vec::new();
        let mut todo = ids.to_vec();
        let mut seen = std::collections::HashSet::new();
        while let Some(i) = todo.pop() {
            let n = &self.store.nodes[i as usize];
            if seen.insert(i) {
                out.push(Candidate::new(n.cell, n.value));
                todo.extend(n.parents.iter(&self.store.hidden));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// How a multiple-chain search propagates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Nishio: dynamic, house links only, contradictions only (7.5).
    Nishio,
    /// Multiple forcing chains: cell and house forcing (8.0).
    Multiple,
    /// Dynamic forcing chains (8.5).
    Dynamic,
    /// Dynamic forcing chains with intersections, pairs and X-Wings (9.0).
    DynamicPlus,
    /// Dynamic forcing chains helped also by forcing chains and cycles inside
    /// (9.5: Sudoku Explainer's nested level 2).
    Nested,
    /// ... and by multiple forcing chains inside (10.0: level 3).
    NestedMultiple,
    /// ... and by dynamic forcing chains inside (10.5: level 4).
    NestedDynamic,
}

impl Mode {
    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }
    /// Sudoku Explainer's nesting level: 1 for dynamic plus (rules inside
    /// the chains), 2 to 4 for nested chains (chains inside), 0 otherwise.
    fn nesting(self) -> u8 {
        match self {
            Mode::Nishio | Mode::Multiple | Mode::Dynamic => 0,
            Mode::DynamicPlus => 1,
            Mode::Nested => 2,
            Mode::NestedMultiple => 3,
            Mode::NestedDynamic => 4,
        }
    }
    /// Whether its chains follow the puzzle's constraints (thermometers,
    /// arrows, dots, …) as they follow houses: dynamic chains do, on the
    /// scratch grid; Nishio (house links of one value) and the static
    /// multiple chains do not.
    fn follows_constraints(self) -> bool {
        self.dynamic() && self != Mode::Nishio
    }
    /// Whether other rules help inside its chains.
    fn helped(self) -> bool {
        self.nesting() > 0
    }
    /// Whether a search of this mode starts from a cell with `count`
    /// candidates: static chains need three (a bivalue cell's two values are
    /// already one strong link), dynamic ones two.
    fn searches(self, count: u32) -> bool {
        count > 2 || (count > 1 && self.dynamic())
    }
    fn base(self) -> Rating {
        match self {
            Mode::Nishio => 75,
            Mode::Multiple => 80,
            Mode::Dynamic => 85,
            Mode::DynamicPlus => 90,
            Mode::Nested => 95,
            Mode::NestedMultiple => 100,
            Mode::NestedDynamic => 105,
        }
    }
    fn technique(self) -> Technique {
        match self {
            Mode::Nishio => Technique::NishioForcingChain,
            Mode::Multiple => Technique::MultipleForcingChain,
            Mode::Dynamic => Technique::DynamicForcingChain,
            Mode::DynamicPlus => Technique::DynamicForcingChainPlus,
            Mode::Nested | Mode::NestedMultiple | Mode::NestedDynamic => {
                Technique::NestedForcingChain
            }
        }
    }
}

/// Everything that follows from some assumptions: the on and off potentials
/// (ids into the search), or the contradiction reached.
struct Outcome {
    on: Vec<u32>,
    off: Vec<u32>,
    contradiction: Option<(u32, u32)>,
}

/// Propagates from the potentials in `start` (already added and marked).
fn propagate(s: &mut Search, start: &[u32], mode: Mode) -> Outcome {
    // The scratch grid dynamic chains write their eliminations into.
    let mut now = SCRATCH.take().unwrap_or_else(|| s.cx.grid.clone());
    now.copy_from(s.cx.grid);
    let outcome = propagate_on(s, start, mode, &mut now);
    SCRATCH.set(Some(now));
    outcome
}

/// [`propagate`] with the scratch grid `now`, a copy of the search's grid.
fn propagate_on(s: &mut Search, start: &[u32], mode: Mode, now: &mut Grid) -> Outcome {
    let links = Links {
        y: mode != Mode::Nishio,
        x: true,
    };
    let mut on: Vec<u32> = start
        .iter()
        .copied()
        .filter(|&i| s.store.nodes[i as usize].on)
        .collect();
    let mut off: Vec<u32> = start
        .iter()
        .copied()
        .filter(|&i| !s.store.nodes[i as usize].on)
        .collect();
    let (mut next_on, mut next_off) = (0, 0);
    let mut made_off = Vec::new();
    let mut made_on = Vec::new();
    loop {
        if next_on < on.len() {
            let p = on[next_on];
            next_on += 1;
            s.on_to_off(&now.cand, p, links, &mut made_off);
            for &(c, v) in &made_off {
                let conj = s.known(c, v, true);
                if conj != NONE {
                    let id = s.add(c, v, false, Parents::one(p));
                    return Outcome {
                        on,
                        off,
                        contradiction: Some((conj, id)),
                    };
                }
                if s.known(c, v, false) == NONE {
                    let id = s.add(c, v, false, Parents::one(p));
                    s.mark(id);
                    off.push(id);
                }
            }
            continue;
        }
        if next_off < off.len() {
            let p = off[next_off];
            next_off += 1;
            if mode.dynamic() {
                s.off_to_on(Some(now), p, links, &mut made_on);
                let n = &s.store.nodes[p as usize];
                let gone = Candidate::new(n.cell, n.value);
                now.eliminate(s.cx.layout, gone);
            } else {
                s.off_to_on(None, p, links, &mut made_on);
            }
            for node in made_on.drain(..) {
                let (c, v) = (node.cell, node.value);
                let conj = s.known(c, v, false);
                if conj != NONE {
                    let id = s.add(c, v, true, node.parents);
                    return Outcome {
                        on,
                        off,
                        contradiction: Some((id, conj)),
                    };
                }
                if s.known(c, v, true) == NONE {
                    let id = s.add(c, v, true, node.parents);
                    s.mark(id);
                    on.push(id);
                }
            }
            continue;
        }
        // Nothing follows by links: what the constraints (dynamic chains),
        // then other rules (helped ones) rule out on the scratch grid.
        let mut more = Vec::new();
        if mode.follows_constraints() && !s.cx.layout.primitives.is_empty() {
            more = constraint_offs(s, now);
        }
        if more.is_empty() && mode.helped() {
            more = advanced(s, now, mode);
        }
        if !more.is_empty() {
            for (c, v, parents) in more {
                if s.known(c, v, false) == NONE {
                    let id = s.add(c, v, false, parents);
                    s.mark(id);
                    off.push(id);
                }
            }
            continue;
        }
        return Outcome {
            on,
            off,
            contradiction: None,
        };
    }
}

/// The rules dynamic forcing chains (+) apply inside their propagation, on
/// the scratch grid: intersections, hidden and naked pairs, X-Wings.
const RULES_INSIDE: [fn(&Ctx) -> Option<Step>; 4] = [
    crate::logic::intersections::any_locked,
    |cx| crate::logic::subsets::hidden(cx, 2, false),
    |cx| crate::logic::subsets::naked(cx, 2),
    |cx| crate::logic::fish::basic(cx, 2),
];

/// The chains nested forcing chains apply inside theirs after those rules,
/// one more per nesting level: forcing chains and cycles, multiple forcing
/// chains, dynamic forcing chains.
const CHAINS_INSIDE: [fn(&Ctx) -> Option<Step>; 3] = [
    crate::logic::static_chains::cycles_and_forcing,
    |cx| multiple(cx, Mode::Multiple),
    |cx| multiple(cx, Mode::Dynamic),
];

/// What the rules (and, nested, the chains) of `mode` find on the scratch
/// grid `now` but not on the real one: each elimination — and each other
/// candidate of a placed cell — becomes an "off". A rule's parents are the
/// scratch eliminations inside its pattern's houses; a chain inside may rest
/// on any scratch elimination.
fn advanced(s: &mut Search, scratch: &Grid, mode: Mode) -> Vec<(u32, u8, Parents)> {
    for rule in RULES_INSIDE {
        if let Some(offs) = rule_offs(s, scratch, rule) {
            return offs;
        }
    }
    let real = s.cx;
    let (initial, now) = (&real.grid.cand, &scratch.cand);
    let cx = Ctx {
        first: true,
        until: real.until,
        ..Ctx::ladder(real.layout, scratch)
    };
    let gone = |c: u32, values: u32| values_of(initial[c as usize] & !now[c as usize] & values);
    let levels = usize::from(mode.nesting().saturating_sub(1));
    for chain in CHAINS_INSIDE.iter().take(levels) {
        let Some(step) = chain(&cx) else { continue };
        let more =
            s.hide((0..now.len() as u32).flat_map(|c| gone(c, u32::MAX).map(move |v| (c, v))));
        if let Some(offs) = offs_of(&step, more, now) {
            return offs;
        }
    }
    Vec::new()
}

/// What the puzzle's constraints rule out on the scratch grid `scratch`,
/// in one pass over them: each constraint with a scratch elimination among
/// its cells is narrowed (on the real grid none narrows: the constraint rungs
/// run before any chain), and what it rules out becomes "offs" whose
/// parents are those eliminations.
fn constraint_offs(s: &mut Search, scratch: &Grid) -> Vec<(u32, u8, Parents)> {
    let real = s.cx;
    let mut offs = Vec::new();
    for (primitive, _) in real.layout.primitives.iter() {
        let cells = primitive.cells();
        let touched = cells
            .iter()
            .any(|&c| real.grid.cand[c as usize] != scratch.cand[c as usize]);
        if !touched {
            continue;
        }
        let before = scratch.masks(cells);
        let mut after = before.clone();
        // A broken constraint is a contradiction the singles will meet.
        if !matches!(primitive.narrow(&mut after), Ok(true)) {
            continue;
        }
        let gone = cells.iter().flat_map(|&c| {
            let lost = real.grid.cand[c as usize] & !scratch.cand[c as usize];
            values_of(lost).map(move |v| (c, v))
        });
        let more = s.hide(gone);
        let parents = Parents { first: NONE, more };
        for ((&c, &was), &is) in cells.iter().zip(&before).zip(&after) {
            if scratch.values[c as usize] == 0 {
                offs.extend(values_of(was & !is).map(|v| (c, v, parents)));
            }
        }
    }
    offs
}

/// What `rule` finds on the scratch grid `scratch` but not on the real
/// one, as "offs" whose parents are the scratch eliminations inside its
/// pattern's cells and houses (`None`: nothing, or nothing resting on the
/// assumption).
fn rule_offs(
    s: &mut Search,
    scratch: &Grid,
    rule: fn(&Ctx) -> Option<Step>,
) -> Option<Vec<(u32, u8, Parents)>> {
    let real = s.cx;
    let layout = real.layout;
    let (initial, now) = (&real.grid.cand, &scratch.cand);
    // Any deduction will do inside a chain: the first a search meets.
    let cx = Ctx {
        first: true,
        ..Ctx::ladder(layout, scratch)
    };
    let gone = |c: u32, values: u32| values_of(initial[c as usize] & !now[c as usize] & values);
    let step = rule(&cx)?;
    let values: u32 = step
        .pattern
        .iter()
        .fold(0, |m, c| m | bit(u32::from(c.value)));
    let mut cells: Vec<u32> = step.pattern.iter().map(|c| c.cell).collect();
    for &h in &step.houses {
        if let Some(g) = layout.groups.iter().find(|g| g.house == Some(h)) {
            cells.extend(g.cells.iter().copied());
        }
    }
    cells.sort_unstable();
    cells.dedup();
    let more = s.hide(
        cells
            .iter()
            .flat_map(|&c| gone(c, values).map(move |v| (c, v))),
    );
    offs_of(&step, more, now)
}

/// A step found inside a chain as "offs" resting on the hidden parents
/// `more`: its eliminations, and the other candidates of the cells it
/// places (`now`: the scratch candidates). `None` when it rests on nothing
/// the assumption did, or rules nothing out.
fn offs_of(step: &Step, more: (u32, u32), now: &[u32]) -> Option<Vec<(u32, u8, Parents)>> {
    if more.0 == more.1 {
        return None;
    }
    let parents = Parents { first: NONE, more };
    let placed = step.placements.iter().flat_map(|p| {
        values_of(now[p.cell as usize] & !bit(u32::from(p.value))).map(move |v| (p.cell, v))
    });
    let offs: Vec<(u32, u8, Parents)> = step
        .eliminations
        .iter()
        .map(|e| (e.cell, e.value))
        .chain(placed)
        .map(|(c, v)| (c, v, parents))
        .collect();
    (!offs.is_empty()).then_some(offs)
}

/// The easiest multiple or dynamic forcing chain of `mode`.
pub(crate) fn multiple(cx: &Ctx, mode: Mode) -> Option<Step> {
    let cand = &cx.grid.cand;
    let mut best: Option<Found> = None;
    let mut assumed = OnBranches::new(cx, mode);
    // Nishio and multiple chains search only from cells the scan finds
    // something at (see forcing_scan); dynamic ones from every cell.
    let mut scan = matches!(mode, Mode::Nishio | Mode::Multiple).then(|| Scan::new(cx));
    for cell in 0..cand.len() as u32 {
        if cx.first && best.is_some() {
            break;
        }
        if cx.expired() {
            // The solve is given up: whatever was found goes with it.
            return None;
        }
        if !mode.searches(cand[cell as usize].count_ones()) {
            continue;
        }
        // Multiple chains: only the forcings whose branches agree.
        let agreements = match (&mut scan, mode) {
            (Some(scan), Mode::Nishio) => {
                if !scan.nishio_at(cell) {
                    continue;
                }
                None
            }
            (Some(scan), _) => Some(scan.multiple_at(cell)),
            (None, _) => None,
        };
        if agreements.as_ref().is_some_and(|a| !a.any()) {
            continue;
        }
        multiple_for_cell(cx, cell, mode, agreements.as_ref(), &mut assumed, &mut best);
    }
    best.map(Found::into_step)
}

/// The "on" branch of every candidate, each run once per search: a cell's
/// forcing and the house forcings of its values ask for the same branches
/// (a candidate is a place in three or more houses).
struct OnBranches<'a> {
    cx: &'a Ctx<'a>,
    mode: Mode,
    /// By `cell * size + value - 1`.
    runs: Vec<Option<Rc<Branch<'a>>>>,
}

impl<'a> OnBranches<'a> {
    fn new(cx: &'a Ctx<'a>, mode: Mode) -> OnBranches<'a> {
        let keys = cx.grid.cand.len() * cx.grid.size as usize;
        OnBranches {
            cx,
            mode,
            runs: vec![None; keys],
        }
    }

    /// What assuming `value` in `cell` implies.
    fn get(&mut self, cell: u32, value: u8) -> Rc<Branch<'a>> {
        let (cx, mode) = (self.cx, self.mode);
        self.runs[key(cx.grid.size, cell, value)]
            .get_or_insert_with(|| Rc::new(Branch::run(cx, cell, value, true, mode)))
            .clone()
    }
}

/// What one assumption implies, kept with its search so chains can be measured.
struct Branch<'a> {
    search: Search<'a>,
    outcome: Outcome,
}

impl Branch<'_> {
    fn run<'a>(cx: &'a Ctx<'a>, cell: u32, value: u8, on: bool, mode: Mode) -> Branch<'a> {
        let mut search = Search::new(cx);
        let id = search.add(cell, value, on, Parents::none());
        search.mark(id);
        let outcome = propagate(&mut search, &[id], mode);
        Branch { search, outcome }
    }

    fn has(&self, cell: u32, value: u8, on: bool) -> Option<u32> {
        let id = self.search.known(cell, value, on);
        (id != NONE).then_some(id)
    }
}

/// The forcing chains of `mode` from `cell` (only those `agreements` allows,
/// when given), kept in `best` when easier.
fn multiple_for_cell<'a>(
    cx: &'a Ctx<'a>,
    cell: u32,
    mode: Mode,
    agreements: Option<&Agreements>,
    assumed: &mut OnBranches<'a>,
    best: &mut Option<Found>,
) {
    let cand = &cx.grid.cand;
    let count = cand[cell as usize].count_ones();
    let cell_forcing = agreements.is_none_or(|a| a.cell);
    let mut branches: Vec<(u8, Rc<Branch>)> = Vec::new();
    for value in values_of(cand[cell as usize]) {
        if cx.first && best.is_some() {
            return;
        }
        let houses = |g: u32| agreements.is_none_or(|a| a.house(value, g));
        let any_house = cx.layout.groups_of[cell as usize]
            .iter()
            .any(|&g| houses(g));
        if !cell_forcing && !any_house {
            continue;
        }
        let on = assumed.get(cell, value);
        if mode.dynamic() {
            let off = Branch::run(cx, cell, value, false, mode);
            // Contradictions: the assumption is impossible.
            for (branch, assumed_on) in [(&*on, true), (&off, false)] {
                if let Some((a, b)) = branch.outcome.contradiction {
                    let complexity = branch.search.ancestors(a) + branch.search.ancestors(b);
                    let c = Candidate::new(cell, value);
                    let (eliminations, placements) = if assumed_on {
                        (vec![c], Vec::new())
                    } else {
                        (Vec::new(), vec![c])
                    };
                    let found = found(mode, complexity, 7, eliminations, placements);
                    keep(best, found, || branch.search.pattern(&[a, b]));
                }
            }
            // Double forcing: both states imply the same.
            if count >= 3 && mode != Mode::Nishio {
                for (ids, on_state) in [(&on.outcome.on, true), (&on.outcome.off, false)] {
                    for &a in ids {
                        let n = &on.search.store.nodes[a as usize];
                        if let Some(b) = off.has(n.cell, n.value, on_state) {
                            let complexity = on.search.ancestors(a) + off.search.ancestors(b);
                            let found =
                                conclusion(cx, mode, complexity, 1, n.cell, n.value, on_state);
                            keep(best, found, || on.search.pattern(&[a]));
                        }
                    }
                }
            }
        }
        if mode != Mode::Nishio && any_house {
            house_forcing(cx, cell, value, &on, houses, assumed, best);
        }
        branches.push((value, on));
    }
    // Cell forcing: every value of the cell implies the same.
    if mode == Mode::Nishio || !cell_forcing {
        return;
    }
    let Some((_, first)) = branches.first() else {
        return;
    };
    let rest: Vec<&Branch> = branches[1..].iter().map(|(_, b)| &**b).collect();
    agreed(cx, mode, 5, first, &rest, best);
}

/// Keeps every conclusion that `lead` and all of `rest` reach (one of the
/// branches must hold, so what they all imply is true). `sort_key` orders
/// equally rated kinds as Sudoku Explainer does.
fn agreed(
    cx: &Ctx,
    mode: Mode,
    sort_key: u8,
    lead: &Branch,
    rest: &[&Branch],
    best: &mut Option<Found>,
) {
    for (ids, on_state) in [(&lead.outcome.on, true), (&lead.outcome.off, false)] {
        for &a in ids {
            let n = &lead.search.store.nodes[a as usize];
            let (c, v) = (n.cell, n.value);
            // Measured only once every branch is known to reach it.
            if rest.iter().all(|b| b.has(c, v, on_state).is_some()) {
                let complexity = lead.search.ancestors(a)
                    + rest
                        .iter()
                        .filter_map(|b| Some(b.search.ancestors(b.has(c, v, on_state)?)))
                        .sum::<usize>();
                let found = conclusion(cx, mode, complexity, sort_key, c, v, on_state);
                keep(best, found, || lead.search.pattern(&[a]));
            }
        }
    }
}

/// House forcing: every place of `value` in a house of `cell` (the first place
/// being `cell`, the group one `houses` allows) implies the same.
fn house_forcing<'a>(
    cx: &'a Ctx<'a>,
    cell: u32,
    value: u8,
    on: &Branch,
    houses: impl Fn(u32) -> bool,
    assumed: &mut OnBranches<'a>,
    best: &mut Option<Found>,
) {
    let mode = assumed.mode;
    for &g in &cx.layout.groups_of[cell as usize] {
        let group = &cx.layout.groups[g as usize];
        if !group.full || !houses(g) || (cx.first && best.is_some()) {
            continue;
        }
        let spots = group.cells_at(cx.grid.positions(group, value));
        if spots.len() < 2 || spots[0] != cell {
            continue;
        }
        let others: Vec<Rc<Branch>> = spots[1..].iter().map(|&c| assumed.get(c, value)).collect();
        let rest: Vec<&Branch> = others.iter().map(|b| &**b).collect();
        agreed(cx, mode, 6, on, &rest, best);
    }
}

/// A conclusion "value in cell is on/off" reached by several chains.
fn conclusion(
    cx: &Ctx,
    mode: Mode,
    complexity: usize,
    sort_key: u8,
    cell: u32,
    value: u8,
    on: bool,
) -> Found {
    let c = Candidate::new(cell, value);
    let (eliminations, placements) = if on {
        if cx.grid.values[cell as usize] != 0
            || cx.grid.cand[cell as usize] == bit(u32::from(value))
        {
            (Vec::new(), Vec::new())
        } else {
            (Vec::new(), vec![c])
        }
    } else if cx.grid.has(cell, value) {
        (vec![c], Vec::new())
    } else {
        (Vec::new(), Vec::new())
    };
    found(mode, complexity, sort_key, eliminations, placements)
}

fn found(
    mode: Mode,
    complexity: usize,
    sort_key: u8,
    eliminations: Vec<Candidate>,
    placements: Vec<Candidate>,
) -> Found {
    Found {
        technique: mode.technique(),
        rating: mode.base() + length_tenths(complexity),
        complexity,
        sort_key,
        eliminations,
        placements,
        pattern: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;
    use crate::logic::{grade, Options};
    use crate::text::parse_line;

    /// Searches every cell of `grid` with the Nishio and multiple forcing
    /// chains and asks the scan about it: the scan must pass every cell the
    /// search finds something at, and a multiple chain search held to the
    /// forcings the scan finds agreeing must find what the whole search
    /// finds. The cells found and the cells passed over.
    fn scan_against_search(layout: &crate::logic::grid::Layout, grid: &Grid) -> (usize, usize) {
        let cx = Ctx::ladder(layout, grid);
        let mut scan = Scan::new(&cx);
        let (mut found, mut passed) = (0, 0);
        let shown = |f: &Option<Found>| {
            f.as_ref()
                .map(|f| (f.key(), f.eliminations.clone(), f.placements.clone()))
        };
        for mode in [Mode::Nishio, Mode::Multiple] {
            let mut assumed = OnBranches::new(&cx, mode);
            for cell in 0..grid.cand.len() as u32 {
                if !mode.searches(grid.cand[cell as usize].count_ones()) {
                    continue;
                }
                let mut best = None;
                multiple_for_cell(&cx, cell, mode, None, &mut assumed, &mut best);
                let promising = match mode {
                    Mode::Nishio => scan.nishio_at(cell),
                    _ => {
                        let agreements = scan.multiple_at(cell);
                        let mut held = None;
                        multiple_for_cell(
                            &cx,
                            cell,
                            mode,
                            Some(&agreements),
                            &mut assumed,
                            &mut held,
                        );
                        assert_eq!(shown(&held), shown(&best), "{mode:?} at cell {cell}");
                        agreements.any()
                    }
                };
                if best.is_some() {
                    assert!(
                        promising,
                        "{mode:?} finds something at cell {cell}, the scan passed it"
                    );
                    found += 1;
                } else if !promising {
                    passed += 1;
                }
            }
        }
        (found, passed)
    }

    /// The scan ahead of Nishio and multiple forcing chains never passes over
    /// a cell the full search finds something at: every fourth position along
    /// the solutions of hard classic puzzles and of a killer.
    #[test]
    fn the_forcing_scan_passes_no_cell_the_search_finds_something_at() {
        let classic9 = classic(3, 3).expect("9x9");
        let solution =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let digits: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        // A killer: each row cut into cages of 2, 3, 2 and 2 cells.
        let killer = [0u32..2, 2..5, 5..7, 7..9]
            .iter()
            .flat_map(|span| (0..9u32).map(move |r| (r, span.clone())))
            .fold(
                crate::geometry::classic_builder(3, 3).expect("9x9"),
                |b, (r, span)| {
                    let sum = span
                        .clone()
                        .map(|c| u32::from(digits[(r * 9 + c) as usize]))
                        .sum();
                    b.cage(span.map(|c| [r, c]).collect(), sum)
                },
            )
            .build()
            .expect("killer");
        let mut puzzles = vec![(&killer, vec![0u8; 81])];
        for line in [
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
            "600008940900006100070040000200610000000000200089002000000060005000000030800001600",
            "100007090030020008009600500005300900010080002600004000300000010040000007007000300",
        ] {
            let givens = parse_line(line).expect("line").expect("puzzle").to_vec();
            puzzles.push((&classic9, givens));
        }
        let (mut found, mut passed) = (0, 0);
        for (model, givens) in puzzles {
            let layout = model.logic_layout();
            let mut grid = Grid::new(model.logic_layout(), &givens);
            let g = grade(model, &givens, Options::default());
            for (i, step) in g.steps.iter().enumerate() {
                if i % 4 == 0 {
                    let (f, p) = scan_against_search(layout, &grid);
                    found += f;
                    passed += p;
                }
                crate::logic::apply(model, &mut grid, step);
            }
            let (f, p) = scan_against_search(layout, &grid);
            found += f;
            passed += p;
        }
        eprintln!("found at {found} cells, passed over {passed}");
        assert!(
            found > 20 && passed > 100,
            "found at {found} cells, passed over {passed}"
        );
    }

    /// A forcing-chain search stops once the solve's deadline has passed,
    /// finding nothing (a nested one can take many seconds, and the ladder
    /// looks at the deadline only between rungs): on a hardest puzzle's
    /// start, where it finds a chain when there is time.
    #[test]
    fn a_forcing_chain_search_past_the_deadline_finds_nothing() {
        let model = classic(3, 3).expect("9x9");
        let line =
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
        let givens = parse_line(line).expect("line").expect("puzzle").to_vec();
        let grid = Grid::new(model.logic_layout(), &givens);
        let later = std::time::Instant::now() + std::time::Duration::from_secs(600);
        for (until, finds) in [
            (None, true),
            (Some(later), true),
            (Some(std::time::Instant::now()), false),
        ] {
            let cx = Ctx {
                first: true,
                until,
                ..Ctx::ladder(model.logic_layout(), &grid)
            };
            assert_eq!(multiple(&cx, Mode::Nested).is_some(), finds, "{until:?}");
        }
    }

    /// A static chain is rated by its length: at least as many potentials as
    /// the candidates it shows. A forcing chain's search once ran on through
    /// the start's negation, and a 20-link chain came back rated 7.0 (as 2
    /// potentials) on the first of these puzzles (rated 6.3-7.3 by Sudoku
    /// Explainer).
    #[test]
    fn a_static_chain_is_rated_no_shorter_than_it_shows() {
        let model = classic(3, 3).expect("9x9");
        let mut chains = 0;
        for line in [
            "006000700900000008070406020200704006600802004000000000003591400400000001009308500",
            "020016000000709001005200700370000180200000003098000026007001800800607000000980030",
            "050060000060500042002007900006908070800000001070402600003800700640003080000020050",
            "300915004005007000000200030130000402500000006806000073010009000000600200400582001",
            "015070860706000409980000057300080001000000000000492000000506000604000708003000600",
            "008007040200006900030050002320804000001070200000203051900040060002600009040700300",
        ] {
            let givens = parse_line(line).expect("line").expect("puzzle").to_vec();
            let g = grade(&model, &givens, Options { uniqueness: true });
            for step in &g.steps {
                let base = match step.technique {
                    Technique::XCycle | Technique::XyCycle => 65,
                    Technique::ForcingXChain => 66,
                    Technique::AicLoop | Technique::ForcingChain => 70,
                    _ => continue,
                };
                chains += 1;
                assert!(
                    step.rating >= base + length_tenths(step.pattern.len()),
                    "{line}: {step:?} rated {} for {} candidates",
                    step.rating,
                    step.pattern.len()
                );
            }
        }
        assert!(chains > 10, "only {chains} static chains in the solutions");
    }

    #[test]
    fn length_scale_matches_sudoku_explainer() {
        // Thresholds on (complexity - 2): 4, 6, 8, 12, 16, 24, ...
        assert_eq!(length_tenths(6), 0);
        assert_eq!(length_tenths(7), 1);
        assert_eq!(length_tenths(8), 1);
        assert_eq!(length_tenths(9), 2);
        assert_eq!(length_tenths(10), 2);
        assert_eq!(length_tenths(11), 3);
        assert_eq!(length_tenths(14), 3);
        assert_eq!(length_tenths(15), 4);
    }
}
