//! The bitboard solver: the general solver's rules (houses, cages, pairs) for models
//! of at most 128 cells, with one 128-bit board of cells per value.
//!
//! A search level is `size + 1` boards: `boards[v]` holds the cells where value
//! `v + 1` is still possible, `boards[size]` the cells already placed. Naked singles
//! come from bit-sliced counting across the value boards, hidden singles from ANDing
//! a value board with house masks, so a 9x9 variant costs a handful of word
//! operations per rule instead of a loop over cells.

use crate::cage::CageTable;
use crate::general::Found;
use crate::rules::Rules;
use rand::seq::SliceRandom;
use rand::RngCore;

/// The most cells a model may have for this solver.
pub(crate) const MAX_CELLS: usize = 128;

/// Precomputed masks for one model.
#[derive(Clone, Debug)]
pub(crate) struct BitTables {
    size: usize,
    cells: usize,
    active: u128,
    peers: Vec<u128>,
    houses: Vec<u128>,
    cages: Vec<CageTable>,
    /// Whether hidden singles use the AVX-512 scan (`bits_avx512.rs`).
    avx512: bool,
}

impl BitTables {
    /// Tables for `model`, or `None` if it has more than [`MAX_CELLS`] cells.
    pub fn new(model: &Rules) -> Option<BitTables> {
        let cages = &model.compiled.cages;
        let cells = model.cell_count();
        // The constraints' primitives run in the general solver only.
        if cells > MAX_CELLS || !model.compiled.primitives.is_empty() {
            return None;
        }
        let mask = |list: &[u32]| list.iter().fold(0u128, |m, &c| m | 1 << c);
        let mut peers = vec![0u128; cells];
        for (c, p) in peers.iter_mut().enumerate() {
            *p = mask(model.compiled.peers_of(c));
        }
        let size = model.size() as usize;
        let houses: Vec<u128> = model
            .houses()
            .iter()
            .filter(|h| h.cells.len() == size)
            .map(|h| mask(&h.cells))
            .collect();
        Some(BitTables {
            size,
            cells,
            active: if cells == 128 {
                u128::MAX
            } else {
                (1u128 << cells) - 1
            },
            peers,
            houses,
            cages: cages.to_vec(),
            avx512: avx512_scan_fits(size),
        })
    }
}

/// Whether this CPU runs the AVX-512 hidden-single scan for `size` values.
#[cfg(target_arch = "x86_64")]
fn avx512_scan_fits(size: usize) -> bool {
    size <= crate::bits_avx512::MAX_VALUES && crate::bits_avx512::available()
}

/// Whether this CPU runs the AVX-512 hidden-single scan (never off x86-64).
#[cfg(not(target_arch = "x86_64"))]
fn avx512_scan_fits(_size: usize) -> bool {
    false
}

/// The AVX-512 hidden-single scan, on a level of tables that chose it.
#[cfg(target_arch = "x86_64")]
fn avx512_hidden_singles(t: &BitTables, b: &mut [u128]) -> Result<bool, ()> {
    // SAFETY: `t.avx512` is set only when the CPU has AVX-512F and VPOPCNTDQ
    // (`bits_avx512::available`) and the model has few enough values.
    unsafe {
        crate::bits_avx512::hidden_singles(t.size, &t.houses, b, |b, cell, v| assign(t, b, cell, v))
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512_hidden_singles(_t: &BitTables, _b: &mut [u128]) -> Result<bool, ()> {
    unreachable!("the AVX-512 scan is never chosen off x86-64")
}

/// A reusable search context.
pub(crate) struct BitSearch<'t> {
    t: &'t BitTables,
    levels: Vec<u128>,
    order: Vec<usize>,
    nodes_left: usize,
    keep_first: bool,
}

impl<'t> BitSearch<'t> {
    /// A context for `t`.
    pub fn new(t: &'t BitTables) -> Self {
        BitSearch {
            t,
            levels: Vec::new(),
            order: Vec::new(),
            nodes_left: usize::MAX,
            keep_first: true,
        }
    }

    /// Whether to keep the first solution found (the default); counting alone is
    /// quicker without.
    pub fn set_keep_first(&mut self, keep: bool) {
        self.keep_first = keep;
    }

    /// Limits the search to `nodes` branch points; running out sets `gave_up`.
    pub fn set_budget(&mut self, nodes: usize) {
        self.nodes_left = nodes;
    }

    /// Counts solutions of `givens` (one per cell, 0 = empty) up to `limit`,
    /// optionally with one value forbidden in one cell and values tried in random
    /// order.
    pub fn count(
        &mut self,
        givens: &[u8],
        forbid: Option<(usize, u8)>,
        limit: usize,
        rng: Option<&mut dyn RngCore>,
    ) -> Found {
        let mut found = Found::default();
        self.levels.clear();
        self.levels.resize(self.t.size + 1, 0);
        if !root(self.t, &mut self.levels, givens, forbid) {
            return found;
        }
        if limit > 0 {
            let mut rng = rng;
            self.dfs(0, limit, &mut found, &mut rng);
        }
        found
    }

    fn dfs(
        &mut self,
        depth: usize,
        limit: usize,
        found: &mut Found,
        rng: &mut Option<&mut dyn RngCore>,
    ) {
        let (t, stride) = (self.t, self.t.size + 1);
        let at = depth * stride;
        let Some(cell) = pick_cell(t, &self.levels[at..at + stride]) else {
            found.count += 1;
            if self.keep_first && found.first.is_none() {
                found.first = Some(values(t, &self.levels[at..at + stride]));
            }
            return;
        };
        if self.nodes_left == 0 {
            found.gave_up = true;
            return;
        }
        self.nodes_left -= 1;
        if self.levels.len() < at + 2 * stride {
            self.levels.resize(at + 2 * stride, 0);
        }
        let start = self.order.len();
        for v in 0..t.size {
            if self.levels[at + v] >> cell & 1 != 0 {
                self.order.push(v);
            }
        }
        if let Some(r) = rng.as_deref_mut() {
            self.order[start..].shuffle(r);
        }
        for k in start..self.order.len() {
            let v = self.order[k];
            let (done, next) = self.levels.split_at_mut(at + stride);
            let child = &mut next[..stride];
            child.copy_from_slice(&done[at..]);
            assign(t, child, cell, v);
            if propagate(t, child) {
                self.dfs(depth + 1, limit, found, rng);
                if found.count >= limit || found.gave_up {
                    break;
                }
            }
        }
        self.order.truncate(start);
    }
}

/// Fills `level` (one search level) with the givens placed, `forbid` applied and
/// propagation run; `false` on a contradiction.
fn root(t: &BitTables, level: &mut [u128], givens: &[u8], forbid: Option<(usize, u8)>) -> bool {
    level[..t.size].fill(t.active);
    level[t.size] = 0;
    for (c, &g) in givens.iter().enumerate() {
        if g == 0 {
            continue;
        }
        let v = g as usize - 1;
        if v >= t.size || level[v] >> c & 1 == 0 {
            return false;
        }
        assign(t, level, c, v);
    }
    if let Some((c, value)) = forbid {
        if let Some(v) = (value as usize).checked_sub(1).filter(|&v| v < t.size) {
            level[v] &= !(1u128 << c);
        }
    }
    propagate(t, level)
}

/// Places value index `v` in `cell`.
#[inline]
pub(crate) fn assign(t: &BitTables, b: &mut [u128], cell: usize, v: usize) {
    let bit = 1u128 << cell;
    for board in &mut b[..t.size] {
        *board &= !bit;
    }
    b[v] = (b[v] & !t.peers[cell]) | bit;
    b[t.size] |= bit;
}

/// Propagates naked singles, hidden singles and cages to a fixpoint; `false` on a
/// contradiction. (Locked candidates, which the cell solver uses for large grids,
/// cost more than they save at this size: measured 1.8x slower on the hardest 9x9
/// set.)
fn propagate(t: &BitTables, b: &mut [u128]) -> bool {
    let n = t.size;
    loop {
        // Naked singles, and empty cells, by bit-sliced counting.
        let (mut one, mut two) = (0u128, 0u128);
        for &board in &b[..n] {
            two |= one & board;
            one |= board;
        }
        if t.active & !one != 0 {
            return false;
        }
        let mut singles = one & !two & !b[n];
        if singles != 0 {
            while singles != 0 {
                let cell = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let Some(v) = (0..n).find(|&v| b[v] >> cell & 1 != 0) else {
                    return false;
                };
                assign(t, b, cell, v);
            }
            continue;
        }
        // Hidden singles in full houses.
        let mut progress = false;
        if t.avx512 {
            match avx512_hidden_singles(t, b) {
                Err(()) => return false,
                Ok(found) => progress = found,
            }
        } else {
            for &house in &t.houses {
                for v in 0..n {
                    let x = b[v] & house;
                    if x == 0 {
                        return false;
                    }
                    if x & (x - 1) == 0 && x & b[n] == 0 {
                        assign(t, b, x.trailing_zeros() as usize, v);
                        progress = true;
                    }
                }
            }
        }
        if progress {
            continue;
        }
        match cages(t, b) {
            Err(()) => return false,
            Ok(true) => continue,
            Ok(false) => return true,
        }
    }
}

/// Runs every cage's combination reasoning on per-cell masks; `Ok(true)` if any
/// candidate went.
fn cages(t: &BitTables, b: &mut [u128]) -> Result<bool, ()> {
    let mut progress = false;
    let mut local = [0u32; crate::MAX_SIZE as usize];
    for cage in &t.cages {
        let local = &mut local[..cage.cells.len()];
        for (l, &c) in local.iter_mut().zip(&cage.cells) {
            *l = (0..t.size).fold(0u32, |m, v| m | ((b[v] >> c & 1) as u32) << v);
        }
        let mut before = [0u32; crate::MAX_SIZE as usize];
        before[..local.len()].copy_from_slice(local);
        if !cage.narrow(local)? {
            continue;
        }
        for (i, &c) in cage.cells.iter().enumerate() {
            let gone = before[i] & !local[i];
            for (v, board) in b[..t.size].iter_mut().enumerate() {
                if gone >> v & 1 != 0 {
                    *board &= !(1u128 << c);
                    progress = true;
                }
            }
        }
    }
    Ok(progress)
}

/// A cell to branch on: the cell with two candidates, else three, that has the
/// most open peers; else the one with the fewest candidates; `None` when every
/// cell is placed.
fn pick_cell(t: &BitTables, b: &[u128]) -> Option<usize> {
    let open = t.active & !b[t.size];
    if open == 0 {
        return None;
    }
    let (mut one, mut two, mut three, mut four) = (0u128, 0u128, 0u128, 0u128);
    for &board in &b[..t.size] {
        four |= three & board;
        three |= two & board;
        two |= one & board;
        one |= board;
    }
    for few in [two & !three & open, three & !four & open] {
        if few != 0 {
            return Some(busiest(t, few, open));
        }
    }
    let mut best = (u32::MAX, 0usize);
    let mut rest = open;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let count = b[..t.size].iter().filter(|&&x| x >> c & 1 != 0).count() as u32;
        if count < best.0 {
            best = (count, c);
        }
    }
    Some(best.1)
}

/// Of `cells` (not empty), the one with the most `open` peers.
fn busiest(t: &BitTables, mut cells: u128, open: u128) -> usize {
    let mut best = (0u32, cells.trailing_zeros() as usize);
    while cells != 0 {
        let c = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let busy = (t.peers[c] & open).count_ones();
        if busy > best.0 {
            best = (busy, c);
        }
    }
    best.1
}

/// The placed value of every cell.
fn values(t: &BitTables, b: &[u128]) -> Vec<u8> {
    let mut out = vec![0u8; t.cells];
    for (v, &board) in b[..t.size].iter().enumerate() {
        let mut x = board;
        while x != 0 {
            out[x.trailing_zeros() as usize] = v as u8 + 1;
            x &= x - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, Target};
    use crate::geometry::classic;
    use crate::model::Model;
    use crate::seed::rng_for;
    use std::sync::Arc;

    /// Puzzles on `model`: minimal ones, ones with clues taken away (several
    /// solutions) and ones with a clue changed (usually none).
    fn puzzles(model: &Arc<Model>) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for seed in 0..12 {
            let g = generate(
                model,
                &mut rng_for(&format!("bits-{seed}")),
                Target::Minimal,
            )
            .expect("generated");
            let givens = g.puzzle.givens().to_vec();
            let clues: Vec<usize> = (0..givens.len()).filter(|&c| givens[c] != 0).collect();
            let mut fewer = givens.clone();
            for &c in clues.iter().step_by(3) {
                fewer[c] = 0;
            }
            let mut wrong = givens.clone();
            let c = clues[seed % clues.len()];
            wrong[c] = wrong[c] % model.size() as u8 + 1;
            out.extend([givens, fewer, wrong]);
        }
        out
    }

    #[test]
    fn avx512_and_scalar_scans_agree() {
        if !avx512_scan_fits(9) {
            eprintln!("this CPU has no AVX-512 VPOPCNTDQ: only the scalar scan can run here");
            return;
        }
        // 6, 9 and 10 values: one, three and three registers, the last partly used.
        for (rows, cols) in [(2, 3), (3, 3), (2, 5)] {
            let model = Arc::new(classic(rows, cols).expect("model"));
            let simd = BitTables::new(&model).expect("fits");
            assert!(
                simd.avx512,
                "{rows}x{cols}: the AVX-512 scan should be chosen"
            );
            let scalar = BitTables {
                avx512: false,
                ..simd.clone()
            };
            for givens in puzzles(&model) {
                let a = BitSearch::new(&simd).count(&givens, None, 3, None);
                let b = BitSearch::new(&scalar).count(&givens, None, 3, None);
                assert_eq!(a, b, "{rows}x{cols}: {givens:?}");
                // Singles are confluent: the root fixpoints are the same.
                let fixpoint = |t: &BitTables| {
                    let mut level = vec![0; t.size + 1];
                    root(t, &mut level, &givens, None).then_some(level)
                };
                assert_eq!(
                    fixpoint(&simd),
                    fixpoint(&scalar),
                    "{rows}x{cols}: {givens:?}"
                );
            }
        }
    }
}
