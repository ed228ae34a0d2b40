//! Cycles and forcing chains over static links (Sudoku Explainer's "Forcing
//! Chains & Cycles", 6.5 to about 7.5): from each candidate, a breadth-first
//! search over the links of the real grid, which no step along the way
//! changes. Each potential has one parent, so a search stores three small
//! words a potential (key, state, parent) rather than a dynamic chain's
//! node; a classic grade runs thousands of these short searches a step.

use crate::logic::chain_parts::{
    cell_offs, conjugates, keep, length_tenths, peer_offs, Found, Links,
};
use crate::logic::grid::candidate_key as key;
use crate::logic::memo;
use crate::logic::reach;
use crate::logic::stamps::Stamps;
use crate::logic::step::{Candidate, Rating, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};
use std::cell::OnceCell;
use std::rc::Rc;

/// No parent: the start of a search.
const NONE: u32 = u32::MAX;

/// The index of potential (candidate key `k`, `on`) in per-potential arrays:
/// `2 * k + on`.
fn potential((k, on): (usize, bool)) -> usize {
    2 * k + usize::from(on)
}

/// The rating base of the cycles a pass over `links` finds: X- and
/// Y-cycles 6.5, AIC loops 7.0.
fn cycle_base(links: Links) -> Rating {
    if links.x && links.y {
        LAST_PASS_BASE
    } else {
        65
    }
}

/// The rating base of the forcing chains a pass over `links` finds: forcing
/// X-chains 6.6, forcing chains 7.0.
fn forcing_base(links: Links) -> Rating {
    if links.y {
        LAST_PASS_BASE
    } else {
        66
    }
}

/// The rating base of the last pass's chains (both kinds of links).
const LAST_PASS_BASE: Rating = 70;

/// Every candidate's links in the real grid, as candidate keys (`cell *
/// size + value - 1`), read by key: the static chains of
/// [`cycles_and_forcing`] follow the same links thousands of times, so they
/// are found once per position ([`GridLinks`]). Each list is in the order a dynamic search's
/// `on_to_off` and `off_to_on` give it, and the links of either kind, or of
/// both, are one slice.
pub(super) struct StaticLinks {
    /// By key, three bounds in `offs`: its cell's other values ("Y" offs)
    /// from the first to the second, the peers holding its value ("X" offs)
    /// from the second to the third.
    off_bounds: Vec<[u32; 3]>,
    offs: Vec<u32>,
    /// By key, three bounds in `ons`: the other value of its cell when the
    /// cell has two ("Y" on) from the first to the second, the other place
    /// of its value in each full group with two places ("X" ons) from the
    /// second to the third.
    on_bounds: Vec<[u32; 3]>,
    ons: Vec<u32>,
}

/// The part of a list with bounds `b` (see [`StaticLinks`]) that `links`
/// follow.
fn of_kinds(b: [u32; 3], links: Links) -> std::ops::Range<usize> {
    let start = if links.y { b[0] } else { b[1] };
    let end = if links.x { b[2] } else { b[1] };
    start as usize..end as usize
}

impl StaticLinks {
    /// Every candidate's links in the grid `cx` sees.
    pub(super) fn new(cx: &Ctx) -> StaticLinks {
        let size = cx.grid.size;
        let keys = cx.grid.cand.len() * size as usize;
        let mut t = StaticLinks {
            off_bounds: vec![[0; 3]; keys],
            offs: Vec::new(),
            on_bounds: vec![[0; 3]; keys],
            ons: Vec::new(),
        };
        let cand = &cx.grid.cand;
        let pot = |(cell, value): (u32, u8)| key(size, cell, value) as u32;
        for cell in 0..cand.len() as u32 {
            for value in values_of(cand[cell as usize]) {
                let k = key(size, cell, value);
                let start = t.offs.len() as u32;
                t.offs.extend(cell_offs(cand, cell, value).map(pot));
                let middle = t.offs.len() as u32;
                t.offs
                    .extend(peer_offs(cx.layout, cand, cell, value).map(pot));
                t.off_bounds[k] = [start, middle, t.offs.len() as u32];
                let start = t.ons.len() as u32;
                if cand[cell as usize].count_ones() == 2 {
                    t.ons.extend(cell_offs(cand, cell, value).map(pot));
                }
                let middle = t.ons.len() as u32;
                t.ons.extend(
                    conjugates(cx.layout, cx.grid, cell, value)
                        .map(|(_, other)| pot((other, value))),
                );
                t.on_bounds[k] = [start, middle, t.ons.len() as u32];
            }
        }
        t
    }

    /// What turns off when the candidate of key `k` is on, over `links`
    /// (a dynamic search's `on_to_off` on the real grid): house links are
    /// always followed from an on potential.
    fn on_to_off(&self, k: usize, links: Links) -> &[u32] {
        &self.offs[of_kinds(self.off_bounds[k], links.with_x())]
    }

    /// What turns on when the candidate of key `k` is off, over `links`
    /// (a dynamic search's `off_to_on` on the real grid).
    fn off_to_on(&self, k: usize, links: Links) -> &[u32] {
        &self.ons[of_kinds(self.on_bounds[k], links)]
    }

    /// What potential `(k, on)` implies over `links`: [`StaticLinks::on_to_off`]
    /// or [`StaticLinks::off_to_on`] by its state.
    fn from(&self, (k, on): (usize, bool), links: Links) -> &[u32] {
        if on {
            self.on_to_off(k, links)
        } else {
            self.off_to_on(k, links)
        }
    }

    /// Whether the candidate of key `k` has a strong link of `links`: the
    /// other value of its bivalue cell, or the other place of its value in a
    /// house.
    fn has_strong_link(&self, k: usize, links: Links) -> bool {
        !self.off_to_on(k, links).is_empty()
    }
}

/// Which potentials of the real grid reach which over the links of a
/// forcing chain search ([`reach::Reach`] over the potentials of the grid's
/// candidates).
pub(super) struct Potentials {
    /// By candidate key: its place among the grid's candidates.
    place: Vec<u32>,
    /// By place: the candidate key.
    keys: Vec<usize>,
    reach: reach::Reach,
}

impl Potentials {
    /// The reachability over `links` (house links always followed both
    /// ways, as a forcing chain search does).
    pub(super) fn new(cx: &Ctx, t: &StaticLinks, links: Links) -> Potentials {
        let size = cx.grid.size;
        let cand = &cx.grid.cand;
        let mut keys = Vec::new();
        for cell in 0..cand.len() as u32 {
            keys.extend(values_of(cand[cell as usize]).map(|v| key(size, cell, v)));
        }
        let mut place = vec![u32::MAX; cand.len() * size as usize];
        for (i, &k) in keys.iter().enumerate() {
            place[k] = i as u32;
        }
        // Node `2 * place + on` ([`Potentials::node`]).
        let node = |k: u32, on: bool| potential((place[k as usize] as usize, on)) as u32;
        let mut starts = vec![0u32];
        let mut targets = Vec::new();
        for &k in &keys {
            targets.extend(
                t.off_to_on(k, links.with_x())
                    .iter()
                    .map(|&o| node(o, true)),
            );
            starts.push(targets.len() as u32);
            targets.extend(t.on_to_off(k, links).iter().map(|&o| node(o, false)));
            starts.push(targets.len() as u32);
        }
        let reach = reach::Reach::new(&starts, &targets);
        Potentials { place, keys, reach }
    }

    /// Every potential (candidate key, on) that potential `from` implies,
    /// itself included.
    pub(super) fn reached(&self, from: (usize, bool)) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.reach
            .reached(self.node(from))
            .map(|n| (self.keys[n as usize / 2], n % 2 == 1))
    }

    /// Whether potentials `a` and `b` (candidate key, on) imply each other.
    fn together(&self, a: (usize, bool), b: (usize, bool)) -> bool {
        self.reach.same_component(self.node(a), self.node(b))
    }

    /// Whether potential `from` (candidate key, on) reaches potential `to`.
    fn reaches(&self, from: (usize, bool), to: (usize, bool)) -> bool {
        self.reach.reaches(self.node(from), self.node(to))
    }

    /// The graph node of potential (candidate key, on): its candidate's
    /// place, doubled, plus its state.
    fn node(&self, (k, on): (usize, bool)) -> usize {
        potential((self.place[k] as usize, on))
    }
}

/// The real grid's links, and which potentials reach which over both kinds
/// (built when first asked): what the cycle and forcing chain search and the
/// forcing scan of one position share.
pub(super) struct GridLinks {
    /// Every candidate's links.
    pub links: StaticLinks,
    /// Which potentials reach which over house and bivalue links.
    both: OnceCell<Potentials>,
}

impl GridLinks {
    /// Those of the position `cx` sees, built once per position in a solve.
    pub(super) fn of(cx: &Ctx) -> Rc<GridLinks> {
        cx.built_for_grid(memo::GRID_LINKS, || GridLinks {
            links: StaticLinks::new(cx),
            both: OnceCell::new(),
        })
    }

    /// Which potentials reach which over house and bivalue links.
    pub(super) fn both(&self, cx: &Ctx) -> &Potentials {
        self.both
            .get_or_init(|| Potentials::new(cx, &self.links, BOTH))
    }
}

/// House and bivalue links.
const BOTH: Links = Links { y: true, x: true };

/// The easiest cycle or forcing chain (Sudoku Explainer's "Forcing Chains &
/// Cycles", 6.5 and up).
pub(crate) fn cycles_and_forcing(cx: &Ctx) -> Option<Step> {
    let mut best = None;
    let cand = &cx.grid.cand;
    let grid_links = GridLinks::of(cx);
    let t = &grid_links.links;
    let mut w = Walk::new(cx.grid.cand.len() * cx.grid.size as usize, cx.grid.size);
    let mut buffers = Buffers::default();
    let mut ball = Ball::new(cx.grid.cand.len() * cx.grid.size as usize);
    // Which potentials reach which over house links, and over both kinds
    // (for Y-cycles too: they follow fewer links), each built when first
    // needed.
    let house_only = OnceCell::new();
    for links in [
        Links { y: false, x: true },
        Links { y: true, x: false },
        BOTH,
    ] {
        let reach = if links.y {
            LazyPotentials::Both(&grid_links)
        } else {
            LazyPotentials::HouseLinks(&house_only)
        };
        for cell in 0..cand.len() as u32 {
            if cx.first && best.is_some() {
                break;
            }
            if cand[cell as usize].count_ones() < 2 {
                continue;
            }
            if !links.x && cand[cell as usize].count_ones() > 2 {
                continue;
            }
            for value in values_of(cand[cell as usize]) {
                unary(
                    cx,
                    (&mut w, t, &mut buffers, &mut ball),
                    (cell, value),
                    links,
                    reach,
                    &mut best,
                );
            }
        }
    }
    best.map(Found::into_step)
}

/// One potential of a static search.
#[derive(Clone, Copy)]
struct Node {
    /// Its candidate's key.
    key: u32,
    on: bool,
    /// The node that implies it (`NONE` for the start).
    parent: u32,
}

/// Node `id` of `nodes` and the nodes that imply it, back to the start.
fn path(nodes: &[Node], id: u32) -> impl Iterator<Item = u32> + '_ {
    std::iter::successors(Some(id), |&i| {
        let p = nodes[i as usize].parent;
        (p != NONE).then_some(p)
    })
}

/// The potentials one static search builds, and which candidates are known
/// on and off.
struct Walk {
    size: u32,
    nodes: Vec<Node>,
    known_on: Stamps,
    known_off: Stamps,
    /// The off potentials on one node's path, by key (see [`Walk::mark_path`]).
    on_path: Stamps,
    /// Scratch for [`Walk::ancestors`]: potentials counted, by key and state.
    seen: Stamps,
    /// By key and state (`2 * key + on`): the potential's distance from the
    /// start, where known ([`shortest_forcing`]).
    distance: Vec<u16>,
    /// Scratch for [`Walk::cycle_eliminations`], as cell bit sets: a
    /// cycle's cells, and by value and state the cells seeing a potential of
    /// it (emptied after each use).
    cycle_cells: Vec<u64>,
    seeing: Vec<u64>,
}

impl Walk {
    /// An empty search over `keys` candidate keys of a grid of `size` values.
    fn new(keys: usize, size: u32) -> Walk {
        Walk {
            size,
            nodes: Vec::new(),
            known_on: Stamps::new(keys),
            known_off: Stamps::new(keys),
            on_path: Stamps::new(keys),
            seen: Stamps::new(2 * keys),
            distance: vec![0; 2 * keys],
            cycle_cells: Vec::new(),
            seeing: Vec::new(),
        }
    }

    /// Forgets every potential, keeping the allocations.
    fn reset(&mut self) {
        self.nodes.clear();
        self.known_on.clear();
        self.known_off.clear();
    }

    /// Adds the potential of key `k` in state `on`, implied by `parent`; its id.
    fn add(&mut self, k: usize, on: bool, parent: u32) -> u32 {
        self.nodes.push(Node {
            key: k as u32,
            on,
            parent,
        });
        (self.nodes.len() - 1) as u32
    }

    /// [`Walk::add`], marking the candidate known in that state.
    fn add_known(&mut self, k: usize, on: bool, parent: u32) -> u32 {
        if on {
            self.known_on.mark(k);
        } else {
            self.known_off.mark(k);
        }
        self.add(k, on, parent)
    }

    /// Whether the candidate of key `k` is known in state `on`.
    fn is_known(&self, k: usize, on: bool) -> bool {
        if on {
            self.known_on.is_marked(k)
        } else {
            self.known_off.is_marked(k)
        }
    }

    /// The key of node `id`'s candidate.
    fn key_of(&self, id: u32) -> usize {
        self.nodes[id as usize].key as usize
    }

    /// Node `n`'s candidate.
    fn candidate(&self, n: &Node) -> Candidate {
        Candidate::new(n.key / self.size, (n.key % self.size + 1) as u8)
    }

    /// `id` and the nodes that imply it, back to the start.
    fn path(&self, id: u32) -> impl Iterator<Item = &Node> + '_ {
        path(&self.nodes, id).map(|i| &self.nodes[i as usize])
    }

    /// Marks the off potentials among `id` and its ancestors in `on_path`,
    /// by key (one walk for all of a node's links).
    fn mark_path(&mut self, id: u32) {
        self.on_path.clear();
        for i in path(&self.nodes, id) {
            let n = &self.nodes[i as usize];
            if !n.on {
                self.on_path.mark(n.key as usize);
            }
        }
    }

    /// The number of distinct potentials `id` rests on, itself included.
    fn ancestors(&mut self, id: u32) -> usize {
        self.seen.clear();
        path(&self.nodes, id)
            .filter(|&i| {
                let n = &self.nodes[i as usize];
                self.seen.mark(potential((n.key as usize, n.on)))
            })
            .count()
    }

    /// What the cycle closing at `id` eliminates: each candidate off the
    /// cycle's cells that sees an on and an off potential of its value on
    /// the cycle, in order.
    fn cycle_eliminations(&mut self, cx: &Ctx, id: u32) -> Vec<Candidate> {
        let words = cx.layout.set_words();
        let size = self.size as usize;
        if self.seeing.len() != 2 * size * words {
            self.seeing = vec![0; 2 * size * words];
            self.cycle_cells = vec![0; words];
        }
        // By value and state: the cells seeing a potential of the cycle.
        let mut values = 0u32;
        self.cycle_cells.fill(0);
        for i in path(&self.nodes, id) {
            let n = self.nodes[i as usize];
            let c = self.candidate(&n);
            let at = (2 * (usize::from(c.value) - 1) + usize::from(n.on)) * words;
            for (s, o) in self.seeing[at..at + words]
                .iter_mut()
                .zip(cx.layout.seen_by(c.cell))
            {
                *s |= o;
            }
            self.cycle_cells[c.cell as usize / 64] |= 1 << (c.cell % 64);
            values |= bit(u32::from(c.value));
        }
        let mut out = Vec::new();
        for v in values_of(values) {
            let at = 2 * (usize::from(v) - 1) * words;
            let (off, on) = self.seeing[at..at + 2 * words].split_at_mut(words);
            for w in 0..words {
                let mut cells = off[w] & on[w] & !self.cycle_cells[w];
                while cells != 0 {
                    let c = (w * 64) as u32 + cells.trailing_zeros();
                    cells &= cells - 1;
                    if cx.grid.has(c, v) {
                        out.push(Candidate::new(c, v));
                    }
                }
            }
            off.fill(0);
            on.fill(0);
        }
        out.sort_unstable();
        out
    }

    /// The candidates along `id`'s chain, in order, each once.
    fn pattern(&self, id: u32) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = self.path(id).map(|n| self.candidate(n)).collect();
        out.sort();
        out.dedup();
        out
    }
}

/// Reusable buffers for one breadth-first search: the potentials of the
/// level being followed and of the next.
#[derive(Default)]
struct Buffers {
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    level: Vec<u32>,
}

impl Buffers {
    /// Moves the pending potentials of one state (`on`) into `level`, for
    /// following while the next level gathers in the pending list.
    fn next_level(&mut self, on: bool) {
        let pending = if on {
            &mut self.pending_on
        } else {
            &mut self.pending_off
        };
        self.level.clear();
        std::mem::swap(&mut self.level, pending);
    }

    /// The potentials of state `on` pending for the next level.
    fn pending(&mut self, on: bool) -> &mut Vec<u32> {
        if on {
            &mut self.pending_on
        } else {
            &mut self.pending_off
        }
    }

    /// Drops every pending potential (a search cut short).
    fn clear(&mut self) {
        self.pending_on.clear();
        self.pending_off.clear();
    }

    /// Whether no potential is pending: the search is over.
    fn is_empty(&self) -> bool {
        self.pending_on.is_empty() && self.pending_off.is_empty()
    }
}

/// Whether a chain with rating base `base` and more than `length` potentials
/// cannot beat `best` (chains only grow as a breadth-first search goes
/// deeper), or need not: when any deduction will do ([`Ctx::first`]), one
/// found is enough. A chain beats `best` only with a lower rating, or the
/// same rating and fewer potentials ([`Found::key`]; ties keep the first).
fn hopeless(cx: &Ctx, best: &Option<Found>, base: Rating, length: usize) -> bool {
    best.as_ref().is_some_and(|b| {
        let rating = base + length_tenths(length);
        cx.first || rating > b.rating || (rating == b.rating && length >= b.complexity)
    })
}

/// The reachability a pass of [`cycles_and_forcing`] reads, built when
/// first needed: over a forcing chain's links (which a cycle's are, or
/// fewer).
#[derive(Clone, Copy)]
enum LazyPotentials<'r> {
    /// Over house and bivalue links: the position's, [`GridLinks::both`].
    Both(&'r GridLinks),
    /// Over house links only.
    HouseLinks(&'r OnceCell<Potentials>),
}

impl<'r> LazyPotentials<'r> {
    /// The reachability, if built.
    fn built(&self) -> Option<&'r Potentials> {
        match *self {
            LazyPotentials::Both(grid_links) => grid_links.both.get(),
            LazyPotentials::HouseLinks(cell) => cell.get(),
        }
    }

    /// The reachability, built now if not yet.
    fn get(&self, cx: &Ctx, t: &StaticLinks) -> &'r Potentials {
        match *self {
            LazyPotentials::Both(grid_links) => grid_links.both(cx),
            LazyPotentials::HouseLinks(cell) => {
                cell.get_or_init(|| Potentials::new(cx, t, Links { y: false, x: true }))
            }
        }
    }
}

/// Cycles and forcing chains from `(cell, value)` over `links`, kept in
/// `best` when easier; `b` holds no potentials before and after.
fn unary(
    cx: &Ctx,
    (w, t, b, ball): (&mut Walk, &StaticLinks, &mut Buffers, &mut Ball),
    (cell, value): (u32, u8),
    links: Links,
    reach: LazyPotentials,
    best: &mut Option<Found>,
) {
    let (cycle_base, forcing_base) = (cycle_base(links), forcing_base(links));
    let start_key = key(cx.grid.size, cell, value);
    // Cycles, from "on": a cycle comes back to the start through a strong
    // link, so a start with none has none.
    w.reset();
    let start = w.add_known(start_key, true, NONE);
    // A cycle's potentials all imply each other, and it leaves the start
    // through two of its links (it comes back through one to another
    // potential than the first it meets, which it meets once). Which imply
    // which is worth finding once chains of the last pass (rated 7.0 and
    // up) could still beat the best: they will need it.
    let potentials = reach
        .built()
        .or_else(|| (!hopeless(cx, best, LAST_PASS_BASE, 0)).then(|| reach.get(cx, t)));
    let cycles_possible = t.has_strong_link(start_key, links)
        && !hopeless(cx, best, cycle_base, 0)
        && potentials.is_none_or(|potentials| {
            t.on_to_off(start_key, links)
                .iter()
                .filter(|&&a| potentials.together((a as usize, false), (start_key, true)))
                .nth(1)
                .is_some()
        });
    if cycles_possible {
        b.pending_on.push(start);
    }
    // Nor does a cycle pass a potential the start does not imply back (the
    // potentials on the way to one that does imply it back as well: leaving
    // the others out changes nothing the search finds).
    let on_cycle = |pot: (usize, bool)| {
        potentials.is_none_or(|potentials| potentials.together(pot, (start_key, true)))
    };
    // A potential `u` reached after `length` links closes a cycle no sooner
    // than after `length` plus the links from `u` back to the start, which
    // (links go both ways negated) are those from the start's negation to
    // `u`'s: with a best to beat, the search leaves out potentials that
    // cannot close a cycle beating it, by the distances from the negation
    // up to half the longest such cycle ([`Ball`]).
    let longest = best
        .as_ref()
        .filter(|_| !cx.first && !b.is_empty())
        .and_then(|_| {
            (1..)
                .take_while(|&l| chain_beats(best, cycle_base, l))
                .last()
        });
    let ball = longest.map(|longest| {
        ball.spread(t, (start_key, false), links, longest / 2);
        &*ball
    });
    let mut length = 0;
    while !b.is_empty() {
        if hopeless(cx, best, cycle_base, length) {
            b.clear();
            break;
        }
        length += 1;
        b.next_level(true);
        for &p in &b.level {
            w.mark_path(p);
            for &pot in t.on_to_off(w.key_of(p), links) {
                if !w.on_path.is_marked(pot as usize)
                    && on_cycle((pot as usize, false))
                    && can_close(best, cycle_base, length, ball, (pot as usize, true))
                {
                    let id = w.add_known(pot as usize, false, p);
                    b.pending_off.push(id);
                }
            }
        }
        length += 1;
        b.next_level(false);
        for &p in &b.level {
            for &pot in t.off_to_on(w.key_of(p), links) {
                if length >= 4 && pot as usize == start_key {
                    let id = w.add(start_key, true, p);
                    if let Some(found) = cycle(cx, w, id, links, best) {
                        keep(best, found, || w.pattern(id));
                    }
                    continue;
                }
                if !w.is_known(pot as usize, true)
                    && on_cycle((pot as usize, true))
                    && can_close(best, cycle_base, length, ball, (pot as usize, false))
                {
                    let id = w.add_known(pot as usize, true, p);
                    b.pending_on.push(id);
                }
            }
        }
    }
    if !links.x {
        return;
    }
    // Forcing chains: "on" implying "off" of itself, "off" implying "on".
    // The search below runs only when the start reaches its negation at all,
    // and one that goes half as deep shows it will find a chain that beats
    // `best` (or, when any deduction will do, some chain).
    for assume_on in [true, false] {
        // A chain of `length` links rests on one potential more.
        let beats = |length: usize| {
            best.is_none() || (!cx.first && chain_beats(best, forcing_base, length + 1))
        };
        // No chain is shorter than one link.
        if !beats(1) {
            continue;
        }
        let reach = reach.get(cx, t);
        if !reach.reaches((start_key, assume_on), (start_key, !assume_on)) {
            continue;
        }
        let start = (start_key, assume_on);
        if shortest_forcing(w, t, b, start, links, beats).is_none() {
            continue;
        }
        w.reset();
        let mut depth = 0;
        let start = w.add_known(start_key, assume_on, NONE);
        b.pending(assume_on).push(start);
        while !b.is_empty() {
            if hopeless(cx, best, forcing_base, depth) {
                b.clear();
                break;
            }
            depth += 2;
            // The pending "on" potentials, then the "off" ones.
            for on in [true, false] {
                b.next_level(on);
                for i in 0..b.level.len() {
                    let p = b.level[i];
                    for &pot in t.from((w.key_of(p), on), links.with_x()) {
                        let pot = pot as usize;
                        if on == assume_on && pot == start_key {
                            let id = w.add(start_key, !on, p);
                            let found = forcing(w, id, links);
                            keep(best, found, || w.pattern(id));
                            // The chain ends here: one running on through the
                            // start's negation would count only its last links.
                            continue;
                        }
                        if !w.is_known(pot, !on) {
                            let id = w.add_known(pot, !on, p);
                            b.pending(!on).push(id);
                        }
                    }
                }
            }
        }
    }
}

/// Whether a chain of rating base `base` resting on `potentials` potentials
/// (a cycle of as many links) beats `best`.
fn chain_beats(best: &Option<Found>, base: Rating, potentials: usize) -> bool {
    let key = (base + length_tenths(potentials), potentials, 0);
    best.as_ref().is_none_or(|b| key < b.key())
}

/// Whether a potential reached after `length` links, whose negation is
/// `negation`, may still close a cycle that beats `best` (always without a
/// `ball` to tell).
fn can_close(
    best: &Option<Found>,
    base: Rating,
    length: usize,
    ball: Option<&Ball>,
    negation: (usize, bool),
) -> bool {
    ball.is_none_or(|ball| chain_beats(best, base, length + ball.at_least(negation)))
}

/// The distances from one potential to the others, up to a radius, over
/// the static links of a cycle search (a plain breadth-first search: every
/// potential once).
struct Ball {
    /// By node (`2 * key + on`): reached, and how far.
    seen: Stamps,
    distance: Vec<u16>,
    /// The nodes of the level being followed and of the next.
    level: Vec<u32>,
    next: Vec<u32>,
    radius: usize,
}

impl Ball {
    /// An empty ball over `keys` candidate keys.
    fn new(keys: usize) -> Ball {
        Ball {
            seen: Stamps::new(2 * keys),
            distance: vec![0; 2 * keys],
            level: Vec::new(),
            next: Vec::new(),
            radius: 0,
        }
    }

    /// Finds the distances from potential `from` (key, on) over `links`, up
    /// to `radius` links.
    fn spread(&mut self, t: &StaticLinks, from: (usize, bool), links: Links, radius: usize) {
        self.seen.clear();
        self.radius = radius;
        let node = potential(from);
        self.seen.mark(node);
        self.distance[node] = 0;
        self.level.clear();
        self.level.push(node as u32);
        for d in 1..=radius {
            self.next.clear();
            for &n in &self.level {
                let (k, on) = (n as usize / 2, n % 2 == 1);
                for &o in t.from((k, on), links) {
                    let m = potential((o as usize, !on));
                    if self.seen.mark(m) {
                        self.distance[m] = d as u16;
                        self.next.push(m as u32);
                    }
                }
            }
            std::mem::swap(&mut self.level, &mut self.next);
            if self.level.is_empty() {
                break;
            }
        }
    }

    /// The distance to potential `to` (key, on), or one more than the radius
    /// when it is farther (a lower bound).
    fn at_least(&self, to: (usize, bool)) -> usize {
        let node = potential(to);
        if self.seen.is_marked(node) {
            usize::from(self.distance[node])
        } else {
            self.radius + 1
        }
    }
}

/// The number of links of the shortest forcing chain from the candidate of
/// key `start.0` in state `start.1` to its negation, if `fits` that length
/// (`fits` holds up to some length, and not beyond). Links go both ways
/// negated (a implies not-b exactly when b implies not-a; not-a implies b
/// exactly when not-b implies a), so the tail of a chain from `v` to the
/// start's negation is, reversed and negated, a chain from the start to
/// `v`'s negation: one breadth-first search from the start, to half a
/// chain's length, finds both halves. A chain of length `L` shows when the
/// search follows the links from distance `ceil((L - 1) / 2)`, and every
/// shorter one sooner. `b` holds no potentials before and after.
fn shortest_forcing(
    w: &mut Walk,
    t: &StaticLinks,
    b: &mut Buffers,
    (start_key, start_on): (usize, bool),
    links: Links,
    fits: impl Fn(usize) -> bool,
) -> Option<usize> {
    w.reset();
    let start = w.add_known(start_key, start_on, NONE);
    w.distance[potential((start_key, start_on))] = 0;
    b.level.clear();
    b.level.push(start);
    let mut shortest: Option<usize> = None;
    let mut next = std::mem::take(&mut b.pending_on);
    for from in 0usize.. {
        // Every chain of up to `2 * from - 1` links has shown.
        if b.level.is_empty() || !fits(2 * from) {
            break;
        }
        let on = w.nodes[b.level[0] as usize].on;
        for &u in &b.level {
            for &v in t.from((w.key_of(u), on), links.with_x()) {
                let v = v as usize;
                // A chain through `u`, then `v`, then the mirror of the
                // path to `v`'s negation.
                if w.is_known(v, on) {
                    let back = usize::from(w.distance[potential((v, on))]);
                    let length = from + 1 + back;
                    shortest = Some(shortest.map_or(length, |s| s.min(length)));
                }
                if !w.is_known(v, !on) {
                    let id = w.add_known(v, !on, u);
                    w.distance[potential((v, !on))] = (from + 1) as u16;
                    next.push(id);
                }
            }
        }
        if shortest.is_some() {
            break;
        }
        std::mem::swap(&mut b.level, &mut next);
        next.clear();
    }
    next.clear();
    b.pending_on = next;
    b.level.clear();
    shortest.filter(|&length| fits(length))
}

/// The hint for a cycle closing at `id` (the start, reached again), if it
/// eliminates anything and would beat `best` (what it eliminates is looked
/// for only then).
fn cycle(cx: &Ctx, w: &mut Walk, id: u32, links: Links, best: &Option<Found>) -> Option<Found> {
    let complexity = w.ancestors(id);
    if !chain_beats(best, cycle_base(links), complexity) {
        return None;
    }
    let rating = cycle_base(links) + length_tenths(complexity);
    let eliminations = w.cycle_eliminations(cx, id);
    if eliminations.is_empty() {
        return None;
    }
    let technique = if links.x && links.y {
        Technique::AicLoop
    } else if links.x {
        Technique::XCycle
    } else {
        Technique::XyCycle
    };
    Some(Found {
        technique,
        rating,
        complexity,
        sort_key: 0,
        eliminations,
        placements: Vec::new(),
        pattern: Vec::new(),
    })
}

/// The hint for a forcing chain ending at `id`, the start's own conjugate.
fn forcing(w: &mut Walk, id: u32, links: Links) -> Found {
    let complexity = w.ancestors(id);
    let node = &w.nodes[id as usize];
    let n = w.candidate(node);
    let (eliminations, placements) = if node.on {
        (Vec::new(), vec![n])
    } else {
        (vec![n], Vec::new())
    };
    Found {
        technique: if links.y {
            Technique::ForcingChain
        } else {
            Technique::ForcingXChain
        },
        rating: forcing_base(links) + length_tenths(complexity),
        complexity,
        sort_key: 0,
        eliminations,
        placements,
        pattern: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;
    use crate::logic::tests::{memo_changes_no_result, positions_along, HARD_PUZZLES};
    use std::collections::VecDeque;

    /// Links from potential `from` to potential `to` (key, on) over `links`,
    /// by a plain breadth-first search over every potential.
    fn plain_distance(
        t: &StaticLinks,
        keys: usize,
        from: (usize, bool),
        to: (usize, bool),
        links: Links,
    ) -> Option<usize> {
        let mut distance = vec![usize::MAX; 2 * keys];
        distance[potential(from)] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some((k, on)) = queue.pop_front() {
            let d = distance[potential((k, on))];
            if (k, on) == to {
                return Some(d);
            }
            for &v in t.from((k, on), links) {
                let n = potential((v as usize, !on));
                if distance[n] == usize::MAX {
                    distance[n] = d + 1;
                    queue.push_back((v as usize, !on));
                }
            }
        }
        None
    }

    /// With a memo kept along a solve, the cycle and forcing chain search and
    /// then the multiple forcing chains (which share the position's links
    /// and reachability through it, `GridLinks`) find at every position what
    /// they find without one.
    #[test]
    fn sharing_the_grid_links_changes_no_result() {
        let (found, positions) = memo_changes_no_result(&HARD_PUZZLES, &[0], |cx, _| {
            cycles_and_forcing(cx).or_else(|| {
                crate::logic::chains::multiple(cx, crate::logic::chains::Mode::Multiple)
            })
        });
        assert!(
            found > 20 && positions > 50,
            "{found} found at {positions} positions"
        );
    }

    /// The cycle search's bound: from every potential, the way back to a
    /// start is no shorter than the ball around the start's negation says
    /// of the potential's negation (links go both ways negated), for each
    /// kind of links, at positions along a hard puzzle's solution.
    #[test]
    fn the_way_back_to_a_start_is_no_shorter_than_the_ball_says() {
        let model = classic(3, 3).expect("9x9");
        let layout = model.logic_layout();
        let line =
            "300915004005007000000200030130000402500000006806000073010009000000600200400582001";
        let (mut exact, mut bounded) = (0, 0);
        for (i, grid) in positions_along(line, 10).iter().enumerate() {
            let cx = Ctx::ladder(layout, grid);
            let t = StaticLinks::new(&cx);
            let keys = grid.cand.len() * grid.size as usize;
            let mut ball = Ball::new(keys);
            let starts: Vec<usize> = (0..keys)
                .filter(|&k| grid.has((k / 9) as u32, (k % 9 + 1) as u8))
                .step_by(7)
                .collect();
            for links in [
                Links { y: false, x: true },
                Links { y: true, x: false },
                BOTH,
            ] {
                for &s in &starts {
                    ball.spread(&t, (s, false), links, 4);
                    for &u in &starts {
                        for on in [true, false] {
                            let back = plain_distance(&t, keys, (u, on), (s, true), links);
                            let bound = ball.at_least((u, !on));
                            assert!(
                                back.is_none_or(|b| b >= bound),
                                "{line} position {i}: {u} {on} back to {s}: {back:?} < {bound}"
                            );
                            exact += usize::from(back == Some(bound));
                            bounded += usize::from(back.is_some_and(|b| b > bound));
                        }
                    }
                }
            }
        }
        assert!(
            exact > 100 && bounded > 100,
            "{exact} exact, {bounded} bounded"
        );
    }

    /// The half-deep search of [`shortest_forcing`] gives the plain search's
    /// length for every candidate, both states and both kinds of forcing
    /// chain, at every third position along the solutions of hard puzzles.
    #[test]
    fn forcing_chain_lengths_from_both_halves_equal_a_plain_search() {
        let model = classic(3, 3).expect("9x9");
        let layout = model.logic_layout();
        let (mut chains, mut none) = (0, 0);
        for line in HARD_PUZZLES {
            for (i, grid) in positions_along(line, 3).iter().enumerate() {
                let cx = Ctx::ladder(layout, grid);
                let t = StaticLinks::new(&cx);
                let keys = grid.cand.len() * grid.size as usize;
                let mut w = Walk::new(keys, grid.size);
                let mut b = Buffers::default();
                for cell in 0..grid.cand.len() as u32 {
                    if grid.cand[cell as usize].count_ones() < 2 {
                        continue;
                    }
                    for value in values_of(grid.cand[cell as usize]) {
                        let s = key(grid.size, cell, value);
                        for (on, links) in [true, false]
                            .into_iter()
                            .flat_map(|on| [(on, Links { y: false, x: true }), (on, BOTH)])
                        {
                            let start = (s, on);
                            let half = shortest_forcing(&mut w, &t, &mut b, start, links, |_| true);
                            let plain = plain_distance(&t, keys, start, (s, !on), links.with_x());
                            assert_eq!(
                                half,
                                plain,
                                "{line} position {i}: r{}c{} {value} {on} {links:?}",
                                cell / 9 + 1,
                                cell % 9 + 1
                            );
                            chains += usize::from(plain.is_some());
                            none += usize::from(plain.is_none());
                        }
                    }
                }
            }
        }
        eprintln!("{chains} chains, {none} without");
        assert!(
            chains > 1000 && none > 100,
            "{chains} chains, {none} without"
        );
    }
}
