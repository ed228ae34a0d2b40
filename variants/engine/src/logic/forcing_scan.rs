//! A quick scan ahead of the Nishio and multiple forcing-chain searches
//! ([`chains::multiple`](crate::logic::chains)): the same propagation as
//! their branches, without recording how each potential was reached, tells
//! which cells can give those searches anything at all. They then search
//! only from those cells and find exactly what they found before. At most
//! positions no cell gives anything, and proving that was most of their time.
//!
//! - Nishio: a branch follows house links of its one value, writing each
//!   "off" into a scratch copy of that value's places (as a dynamic chain
//!   does), and a cell gives something when assuming one of its candidates on
//!   or off reaches a contradiction. The scan takes the branch's steps in the
//!   search's own order, so it meets a contradiction exactly when the search
//!   does.
//! - Multiple forcing chains: a branch follows every static link (the
//!   closure does not depend on the order); a cell gives something when all
//!   its values, or all places of one of its values in a house, agree on an
//!   elimination or a placement.

use crate::logic::grid::candidate_key;
use crate::logic::stamps::Stamps;
use crate::logic::static_chains::{GridLinks, Potentials};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};
use std::rc::Rc;

/// What a static branch implies: its on and off candidates as bits by key
/// (`cell * size + value - 1`).
struct Closure {
    on: Vec<u64>,
    off: Vec<u64>,
}

/// Where a multiple forcing chain search from one cell can find something
/// ([`Scan::multiple_at`]); elsewhere its branches agree on nothing.
#[derive(Debug, Default)]
pub(crate) struct Agreements {
    /// Its cell forcing: the branches of all its values agree.
    pub cell: bool,
    /// The house forcings it leads whose branches agree: (value, group).
    pub houses: Vec<(u8, u32)>,
}

impl Agreements {
    /// Whether the search from the cell can find anything.
    pub fn any(&self) -> bool {
        self.cell || !self.houses.is_empty()
    }

    /// Whether the house forcing of `value` in `group` can.
    pub fn house(&self, value: u8, group: u32) -> bool {
        self.houses.contains(&(value, group))
    }
}

/// The scan of one position.
pub(crate) struct Scan<'a> {
    cx: &'a Ctx<'a>,
    /// Nishio: cells known on, known off, and written off in the scratch.
    on: Stamps,
    off: Stamps,
    gone: Stamps,
    /// Nishio: the value's places in each group, as the branch goes.
    places: Vec<u32>,
    /// Nishio: the potentials still to follow, and the ones an "off" makes.
    ons: Vec<u32>,
    offs: Vec<u32>,
    made: Vec<u32>,
    /// Multiple: each candidate's static "on" branch, run once per scan.
    closures: Vec<Option<Closure>>,
    /// Multiple: the grid's links, and which potentials imply which over
    /// them, found at the first branch (or by the cycle search before).
    links: Option<Rc<GridLinks>>,
    /// Multiple: candidates a conclusion can place (an empty cell with other
    /// candidates), by key. Any "off" a static branch reaches is a candidate,
    /// so any the branches agree on is an elimination.
    placeable: Vec<u64>,
}

impl<'a> Scan<'a> {
    /// A scan of the position `cx` sees.
    pub fn new(cx: &'a Ctx<'a>) -> Scan<'a> {
        let grid = cx.grid;
        let cells = grid.cand.len();
        let keys = cells * grid.size as usize;
        let words = keys.div_ceil(64);
        let mut placeable = vec![0u64; words];
        for (c, &cand) in grid.cand.iter().enumerate() {
            if cand.count_ones() > 1 {
                for v in values_of(cand) {
                    let k = candidate_key(grid.size, c as u32, v);
                    placeable[k / 64] |= 1 << (k % 64);
                }
            }
        }
        Scan {
            cx,
            on: Stamps::new(cells),
            off: Stamps::new(cells),
            gone: Stamps::new(cells),
            places: Vec::new(),
            ons: Vec::new(),
            offs: Vec::new(),
            made: Vec::new(),
            closures: (0..keys).map(|_| None).collect(),
            links: None,
            placeable,
        }
    }

    /// Whether a Nishio search from `cell` can find anything: assuming one of
    /// its candidates on or off reaches a contradiction.
    pub fn nishio_at(&mut self, cell: u32) -> bool {
        values_of(self.cx.grid.cand[cell as usize]).any(|v| {
            self.nishio_contradicts(cell, v, true) || self.nishio_contradicts(cell, v, false)
        })
    }

    /// Whether assuming `value` in `cell` on (or off) reaches a contradiction
    /// along the house links of `value`, in the order a Nishio branch takes
    /// them: every pending "on" first, then one "off" (written into the
    /// scratch places once followed).
    fn nishio_contradicts(&mut self, cell: u32, value: u8, on: bool) -> bool {
        let (layout, grid) = (self.cx.layout, self.cx.grid);
        let b = bit(u32::from(value));
        self.on.clear();
        self.off.clear();
        self.gone.clear();
        self.places.clear();
        self.places
            .extend(layout.groups.iter().map(|g| grid.positions(g, value)));
        self.ons.clear();
        self.offs.clear();
        if on {
            self.on.mark(cell as usize);
            self.ons.push(cell);
        } else {
            self.off.mark(cell as usize);
            self.offs.push(cell);
        }
        let (mut next_on, mut next_off) = (0, 0);
        loop {
            if let Some(&p) = self.ons.get(next_on) {
                next_on += 1;
                for &q in &layout.peers[p as usize] {
                    if grid.cand[q as usize] & b == 0 || self.gone.is_marked(q as usize) {
                        continue;
                    }
                    if self.on.is_marked(q as usize) {
                        return true;
                    }
                    if self.off.mark(q as usize) {
                        self.offs.push(q);
                    }
                }
                continue;
            }
            let Some(&p) = self.offs.get(next_off) else {
                return false;
            };
            next_off += 1;
            let (groups, slots) = (&layout.groups_of[p as usize], &layout.slots[p as usize]);
            self.made.clear();
            for (&g, &slot) in groups.iter().zip(slots) {
                let group = &layout.groups[g as usize];
                let others = self.places[g as usize] & !(1 << slot);
                if group.full && others.count_ones() == 1 {
                    self.made
                        .push(group.cells[others.trailing_zeros() as usize]);
                }
            }
            if self.gone.mark(p as usize) {
                for (&g, &slot) in groups.iter().zip(slots) {
                    self.places[g as usize] &= !(1 << slot);
                }
            }
            for i in 0..self.made.len() {
                let q = self.made[i];
                if self.off.is_marked(q as usize) {
                    return true;
                }
                if self.on.mark(q as usize) {
                    self.ons.push(q);
                }
            }
        }
    }

    /// Where a multiple forcing chain search from `cell` can find anything:
    /// its cell forcing, and each house forcing it leads (`cell` is the first
    /// place of a value in a full house), when their branches agree on an
    /// elimination or a placement.
    pub fn multiple_at(&mut self, cell: u32) -> Agreements {
        let (layout, grid) = (self.cx.layout, self.cx.grid);
        let values: Vec<u8> = values_of(grid.cand[cell as usize]).collect();
        let mut leads = Vec::with_capacity(values.len());
        let mut found = Agreements::default();
        for &value in &values {
            let lead = candidate_key(grid.size, cell, value);
            self.close(lead);
            leads.push(lead);
            for &g in &layout.groups_of[cell as usize] {
                let group = &layout.groups[g as usize];
                let spots = group.cells_at(grid.positions(group, value));
                if !group.full || spots.len() < 2 || spots[0] != cell {
                    continue;
                }
                let keys: Vec<usize> = spots
                    .iter()
                    .map(|&c| candidate_key(grid.size, c, value))
                    .collect();
                for &k in &keys {
                    self.close(k);
                }
                if self.agree(&keys) {
                    found.houses.push((value, g));
                }
            }
        }
        found.cell = self.agree(&leads);
        found
    }

    /// Whether the branches of `keys` (closed) all imply a placement or an
    /// elimination still to make. A branch that contradicts itself gives the
    /// search what it reached before the contradiction, a part of its closure:
    /// the whole closure over-approximates it, so the scan still passes every
    /// forcing the search can find.
    fn agree(&self, keys: &[usize]) -> bool {
        let closures: Vec<&Closure> = keys
            .iter()
            .filter_map(|&k| self.closures[k].as_ref())
            .collect();
        (0..self.placeable.len()).any(|w| {
            let on = closures.iter().fold(self.placeable[w], |m, c| m & c.on[w]);
            let off = closures.iter().fold(u64::MAX, |m, c| m & c.off[w]);
            on | off != 0
        })
    }

    /// Runs the static "on" branch of key `k`, once.
    fn close(&mut self, k: usize) {
        if self.closures[k].is_none() {
            let cx = self.cx;
            let grid_links = self.links.get_or_insert_with(|| GridLinks::of(cx));
            self.closures[k] = Some(closure(grid_links.both(cx), k, self.placeable.len()));
        }
    }
}

/// Everything assuming key `k` on implies through static links (`reach`):
/// from an on, the cell's other values and the value in its peers turn off;
/// from an off, the other value of a bivalue cell and the other place of a
/// value with two places in a full group turn on. `words` bit words hold a
/// state's candidates.
fn closure(reach: &Potentials, k: usize, words: usize) -> Closure {
    let mut closure = Closure {
        on: vec![0; words],
        off: vec![0; words],
    };
    for (key, on) in reach.reached((k, true)) {
        let state = if on {
            &mut closure.on
        } else {
            &mut closure.off
        };
        state[key / 64] |= 1 << (key % 64);
    }
    closure
}
