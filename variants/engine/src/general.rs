//! The general solver: constraint propagation (naked singles through peers, hidden
//! singles in full houses, cage combinations) and depth-first search on the cell with
//! the fewest candidates (of bivalue cells, the one with the most unsolved peers) —
//! with constraints, the cell whose rules failed most per candidate, or the places of
//! a constraint's pivot digit (a skyscraper's tallest) when they are fewer.
//! Works for every model.

use crate::mask::{bit, is_single, value_of};
use crate::rules::Compiled;
use rand::seq::SliceRandom;
use rand::RngCore;

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Found {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// The first solution, one value per active cell.
    pub first: Option<Vec<u8>>,
    /// The search stopped because it used up its node budget; `count` is then a
    /// lower bound.
    pub gave_up: bool,
}

/// A reusable search context for one compiled model.
pub(crate) struct General<'m> {
    tables: &'m Compiled,
    queue: Vec<u32>,
    /// Each cage's cell candidates when it was last narrowed, at any node of
    /// the search (flattened, cage after cage, then primitive after
    /// primitive), so an unchanged cage or constraint is skipped.
    cage_seen: Vec<u32>,
    /// The same, as their required digits last pointed outward.
    pointed: Vec<u32>,
    /// How often each cell's rules failed in this search, and a value given
    /// to it by a branch failed at once, in units of [`FAILURE`], plus the
    /// number of rules reading the cell (models with constraints branch on
    /// the cell with the most failures per candidate: "dom/wdeg" with the
    /// decision's own conflicts counted, as the Interactive Sudoku Solver
    /// counts them; of cells alike in that, on the one most rules read).
    failures: Vec<u32>,
    levels: Vec<Vec<u32>>,
    /// The branches of the nodes on the current path, each a cell and the
    /// value it is given (one cell's values, or one digit's places).
    branches: Vec<(u32, u32)>,
    nodes_left: usize,
    keep_first: bool,
}

impl<'m> General<'m> {
    /// A context for the given tables.
    pub fn new(tables: &'m Compiled) -> Self {
        General {
            tables,
            queue: Vec::new(),
            cage_seen: vec![0; seen_len(tables)],
            pointed: vec![0; seen_len(tables)],
            failures: Vec::new(),
            levels: Vec::new(),
            branches: Vec::new(),
            nodes_left: usize::MAX,
            keep_first: true,
        }
    }

    /// Whether to keep the first solution found (the default); counting alone is
    /// quicker without.
    pub fn set_keep_first(&mut self, keep: bool) {
        self.keep_first = keep;
    }

    /// Candidates of each cell after placing the givens, before propagation.
    /// Values above `full` are rejected as contradictions by returning `None`.
    pub fn start(&mut self, givens: &[u8]) -> Option<Vec<u32>> {
        self.queue.clear();
        let mut cand = vec![self.tables.full; givens.len()];
        for (i, &g) in givens.iter().enumerate() {
            if g != 0 {
                let b = bit(g as u32);
                if b & self.tables.full == 0 {
                    return None;
                }
                cand[i] = b;
                self.queue.push(i as u32);
            }
        }
        Some(cand)
    }

    /// Applies the one-cell limits, then propagates pending singles to a
    /// fixpoint; `false` on a contradiction. [`General::search`] starts from
    /// what this leaves.
    pub fn propagate(&mut self, cand: &mut [u32]) -> bool {
        for &(cell, allowed) in &self.tables.cell_limits {
            if let Some(m) = cand.get_mut(cell as usize) {
                *m &= allowed;
            }
        }
        if cand.contains(&0) {
            return false;
        }
        // Every single cell must be propagated at least once.
        for (i, &m) in cand.iter().enumerate() {
            if is_single(m) {
                self.queue.push(i as u32);
            }
        }
        self.failures.clear();
        self.failures.resize(cand.len(), FAILURE);
        for (f, &rules) in self.failures.iter_mut().zip(&self.tables.rules_per_cell) {
            *f += rules;
        }
        let mut scratch = Scratch {
            queue: &mut self.queue,
            cage_seen: &mut self.cage_seen,
            pointed: &mut self.pointed,
            failures: &mut self.failures,
        };
        propagate(self.tables, &mut scratch, cand)
    }

    /// Limits the next searches to `nodes` branch points in total; a search that
    /// runs out reports `gave_up`.
    pub fn set_budget(&mut self, nodes: usize) {
        self.nodes_left = nodes;
    }

    /// Counts solutions up to `limit` from propagated candidates `cand`.
    /// With `rng`, values are tried in random order (for random solutions).
    pub fn search(&mut self, cand: Vec<u32>, limit: usize, rng: Option<&mut dyn RngCore>) -> Found {
        let mut found = Found::default();
        if limit == 0 {
            return found;
        }
        if self.levels.is_empty() {
            self.levels.push(Vec::new());
        }
        self.levels[0] = cand;
        let mut rng = rng;
        self.dfs(0, limit, &mut found, &mut rng);
        found
    }

    /// Pushes the branches of the node at `depth` whose chosen cell is
    /// `cell`: its values — or, when a primitive's pivot digit
    /// ([`Primitive::pivot_digit`]) has fewer places left on its cells
    /// (two or more), those places. Either way the branches split the
    /// node's solutions between them: the digit is in exactly one place.
    fn push_branches(&mut self, depth: usize, cell: usize) {
        let cand = &self.levels[depth];
        let options = cand[cell];
        let mut fewest: Option<(&[u32], u32, u32)> = None;
        // Fewer than two places never beats a cell of two values.
        let pivots = if options.count_ones() > 2 {
            &self.tables.pivots[..]
        } else {
            &[]
        };
        for &(i, digit) in pivots {
            let cells = self.tables.search_primitives[i].cells();
            let places = cells
                .iter()
                .filter(|&&c| cand[c as usize] & digit != 0)
                .count() as u32;
            if places >= 2 && places < fewest.map_or(options.count_ones(), |(_, _, p)| p) {
                fewest = Some((cells, digit, places));
            }
        }
        if let Some((cells, digit, _)) = fewest {
            let places = cells.iter().filter(|&&c| cand[c as usize] & digit != 0);
            self.branches.extend(places.map(|&c| (c, digit)));
            return;
        }
        let mut rest = options;
        while rest != 0 {
            self.branches
                .push((cell as u32, rest & rest.wrapping_neg()));
            rest &= rest - 1;
        }
    }

    /// Counts the grid of single cells at `depth` if every rule holds on it
    /// ([`every_rule_holds`]), keeping it as the first solution when asked.
    /// Out of line: the search's loop stays small.
    #[inline(never)]
    fn count_solution(&self, depth: usize, found: &mut Found) {
        let cand = &self.levels[depth];
        if !every_rule_holds(self.tables, cand) {
            return;
        }
        found.count += 1;
        if self.keep_first && found.first.is_none() {
            found.first = Some(cand.iter().map(|&m| value_of(m) as u8).collect());
        }
    }

    fn dfs(
        &mut self,
        depth: usize,
        limit: usize,
        found: &mut Found,
        rng: &mut Option<&mut dyn RngCore>,
    ) {
        let picked = if self.tables.search_primitives.is_empty() {
            pick_cell(self.tables, &self.levels[depth])
        } else {
            most_failed_cell(&self.levels[depth], &self.failures)
        };
        let Some(cell) = picked else {
            self.count_solution(depth, found);
            return;
        };
        if self.nodes_left == 0 {
            found.gave_up = true;
            return;
        }
        self.nodes_left -= 1;
        if self.levels.len() <= depth + 1 {
            self.levels.push(Vec::new());
        }
        let start = self.branches.len();
        self.push_branches(depth, cell);
        if let Some(r) = rng.as_deref_mut() {
            self.branches[start..].shuffle(r);
        }
        for k in start..self.branches.len() {
            let (cell, value) = self.branches[k];
            let (done, next) = self.levels.split_at_mut(depth + 1);
            let child = &mut next[0];
            child.clear();
            child.extend_from_slice(&done[depth]);
            child[cell as usize] = value;
            self.queue.clear();
            self.queue.push(cell);
            let mut scratch = Scratch {
                queue: &mut self.queue,
                cage_seen: &mut self.cage_seen,
                pointed: &mut self.pointed,
                failures: &mut self.failures,
            };
            if propagate(self.tables, &mut scratch, child) {
                self.dfs(depth + 1, limit, found, rng);
                if found.count >= limit || found.gave_up {
                    break;
                }
            } else {
                // The branch failed at once: its cell counts a failure too.
                failed(&mut self.failures, &[cell]);
            }
        }
        self.branches.truncate(start);
    }
}

/// Whether every cage and constraint holds on `cand`, every cell single
/// (each rule is exact on single cells). Propagation alone does not promise
/// it: a narrowing that is not idempotent (a value kept for a partner the same
/// pass took) could leave all its cells single without its rule holding, and
/// a rule is not narrowed again on cells it left as they are.
fn every_rule_holds(t: &Compiled, cand: &[u32]) -> bool {
    // Narrowed on a copy of their cells, not through their `propagate` (a
    // second caller of those keeps them out of the propagation loop's inlining).
    let mut local = Vec::new();
    let mut holds = |cells: &[u32], narrow: &dyn Fn(&mut [u32]) -> Result<bool, ()>| {
        local.clear();
        local.extend(cells.iter().map(|&c| cand[c as usize]));
        narrow(&mut local) == Ok(false)
    };
    t.cages
        .iter()
        .all(|cage| holds(&cage.cells, &|l| cage.narrow(l)))
        && t.search_primitives
            .iter()
            .all(|p| holds(p.cells(), &|l| p.narrow(l)))
}

/// The cells every cage and constraint reads, counted once per reader.
fn seen_len(t: &Compiled) -> usize {
    let cages: usize = t.cages.iter().map(|c| c.cells.len()).sum();
    let primitives: usize = t.search_primitives.iter().map(|p| p.cells().len()).sum();
    cages + primitives
}

/// Bivalue cells compared by [`pick_cell`]: enough to find a busy one, few enough
/// that a 25x25 grid full of them is not scanned whole at every branch.
const BIVALUE_CHOICES: usize = 8;

/// The unsolved cell with the fewest candidates, or `None` when all are single.
/// Of the first [`BIVALUE_CHOICES`] cells with two candidates, the one with the
/// most unsolved peers (placing either value settles the most).
fn pick_cell(t: &Compiled, cand: &[u32]) -> Option<usize> {
    let mut best = None;
    let (mut best_count, mut best_busy, mut bivalue) = (u32::MAX, 0, 0);
    for (i, &m) in cand.iter().enumerate() {
        let n = m.count_ones();
        // Placed cells never; more candidates than the best, never; as many,
        // only bivalue cells are compared (by busyness).
        if n < 2 || n > best_count || (n == best_count && n > 2) {
            continue;
        }
        let busy = if n == 2 {
            bivalue += 1;
            t.peers_of(i)
                .iter()
                .filter(|&&p| !is_single(cand[p as usize]))
                .count()
        } else {
            0
        };
        if n < best_count || busy > best_busy {
            best = Some(i);
            best_count = n;
            best_busy = busy;
        }
        if bivalue == BIVALUE_CHOICES {
            break;
        }
    }
    best
}

/// The unsolved cell with the most rule failures per candidate (its weight
/// in `failures` over its candidates; the first of equals), or `None` when
/// all are single.
fn most_failed_cell(cand: &[u32], failures: &[u32]) -> Option<usize> {
    let mut best: Option<(usize, u64, u64)> = None;
    for (i, &m) in cand.iter().enumerate() {
        let n = u64::from(m.count_ones());
        if n < 2 {
            continue;
        }
        let w = u64::from(failures.get(i).copied().unwrap_or(1));
        // w / n > best_w / best_n, without division.
        if best.is_none_or(|(_, bw, bn)| w * bn > bw * n) {
            best = Some((i, w, n));
        }
    }
    best.map(|(i, _, _)| i)
}

/// What a propagation works with besides the candidates.
struct Scratch<'a> {
    /// Cells that became single and are still to be propagated.
    queue: &'a mut Vec<u32>,
    /// Each cage's and constraint's cells as last narrowed.
    cage_seen: &'a mut [u32],
    /// Each cage's and constraint's cells as last pointed outward.
    pointed: &'a mut [u32],
    /// Failures per cell (see [`General`]), counted when a rule fails.
    failures: &'a mut [u32],
}

/// What one failure adds to a cell's weight in [`General`]'s `failures`:
/// more than any cell's count of rules, which so only breaks ties. Across
/// the eight orientations of the variant corpus, ties broken by rule count
/// rather than by cell order raised the median rate of 16 kinds and lowered
/// 11 (docs/benchmarks.md, "Ties broken by the rules a cell is in").
const FAILURE: u32 = 256;

/// Counts a failure of the rule over `cells` in `failures`; `false`, for
/// the propagation to return.
fn failed(failures: &mut [u32], cells: &[u32]) -> bool {
    for &c in cells {
        if let Some(f) = failures.get_mut(c as usize) {
            *f = f.saturating_add(FAILURE);
        }
    }
    false
}

/// Locked-candidate passes per propagation: each pass reads every intersection,
/// and a second pass rarely finds what the search would not find sooner. Singles
/// and cages still always run to their fixpoint.
const LOCKED_ROUNDS: usize = 1;

/// The most 64-bit words a cell's peer bits take (a layout of 64 x 64 cells).
const MAX_WORDS: usize = (crate::MAX_SIDE * crate::MAX_SIDE / 64) as usize;

/// The full houses with a cell narrowed since they were last scanned for
/// hidden singles (house `h` is bit `h`). A house none of whose cells
/// changed would find nothing new, so skipping it changes nothing — not
/// the singles found, nor which rule fails first (what the search's
/// branching counts). Models with more than 64 full houses scan them all.
struct DirtyHouses {
    bits: u64,
    tracked: bool,
}

impl DirtyHouses {
    /// Every house to be scanned.
    fn all(t: &Compiled) -> DirtyHouses {
        DirtyHouses {
            bits: u64::MAX,
            tracked: !t.full_houses_of.is_empty(),
        }
    }

    /// Cell `c` was narrowed.
    #[inline]
    fn touch(&mut self, t: &Compiled, c: u32) {
        self.bits |= t.full_houses_of(c as usize);
    }

    /// Cells `cells` may have been narrowed.
    fn touch_all(&mut self, t: &Compiled, cells: &[u32]) {
        for &c in cells {
            self.touch(t, c);
        }
    }

    /// Whether house `h` is to be scanned; it is then clean until touched.
    #[inline]
    fn take(&mut self, h: usize) -> bool {
        if !self.tracked {
            return true;
        }
        let bit = 1u64 << h;
        let dirty = self.bits & bit != 0;
        self.bits &= !bit;
        dirty
    }
}

/// Runs propagation to a fixpoint from the single cells in `queue`.
fn propagate(t: &Compiled, s: &mut Scratch, cand: &mut [u32]) -> bool {
    let (queue, cage_seen, pointed) = (&mut *s.queue, &mut *s.cage_seen, &mut *s.pointed);
    let mut locked_rounds = 0;
    let mut dirty = DirtyHouses::all(t);
    // No cage or primitive has pointed on these candidates yet (no mask is
    // 0). `cage_seen` is kept from call to call: a cage's or primitive's
    // narrowing reads only its own cells, so one whose cells are as they were
    // after it last narrowed — at this node or any other — has nothing to
    // take. Pointing also takes from cells outside, which backtracking
    // restores, so it starts afresh.
    pointed.fill(0);
    loop {
        while let Some(cell) = queue.pop() {
            let m = cand[cell as usize];
            for &p in t.peers_of(cell as usize) {
                let pm = cand[p as usize];
                if pm & m != 0 {
                    let n = pm & !m;
                    if n == 0 {
                        return failed(s.failures, &[cell, p]);
                    }
                    cand[p as usize] = n;
                    dirty.touch(t, p);
                    if is_single(n) {
                        queue.push(p);
                    }
                }
            }
        }
        let mut progress = false;
        for h in 0..t.full_house_count() {
            if !dirty.take(h) {
                continue;
            }
            let cells = t.full_house(h);
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &x in cells {
                let m = cand[x as usize];
                twice |= once & m;
                once |= m;
                placed |= m * u32::from(is_single(m));
            }
            if once != t.full {
                return failed(s.failures, cells);
            }
            // Values with one home that is not yet a single cell.
            let unique = once & !twice & !placed;
            if unique == 0 {
                continue;
            }
            for &x in cells {
                let m = cand[x as usize];
                let u = m & unique;
                if u == 0 {
                    continue;
                }
                // A cell that is the only home of two values: impossible.
                if !is_single(u) {
                    return failed(s.failures, cells);
                }
                if u != m {
                    cand[x as usize] = u;
                    dirty.touch(t, x);
                    queue.push(x);
                    progress = true;
                }
            }
        }
        if progress {
            continue;
        }
        let mut at = 0;
        for cage in &t.cages {
            let seen = &mut cage_seen[at..at + cage.cells.len()];
            at += cage.cells.len();
            if unchanged(&cage.cells, seen, cand) {
                continue;
            }
            match cage.propagate(cand, queue) {
                Ok(changed) => {
                    if changed {
                        dirty.touch_all(t, &cage.cells);
                    }
                    progress |= changed;
                }
                Err(()) => return failed(s.failures, &cage.cells),
            }
            remember(&cage.cells, seen, cand);
        }
        if progress || !queue.is_empty() {
            continue;
        }
        for primitive in t.search_primitives.iter() {
            let cells = primitive.cells();
            let seen = &mut cage_seen[at..at + cells.len()];
            at += cells.len();
            if unchanged(cells, seen, cand) {
                continue;
            }
            match primitive.propagate(cand, queue, |c| dirty.touch(t, c)) {
                Ok(changed) => progress |= changed,
                Err(()) => return failed(s.failures, cells),
            }
            remember(cells, seen, cand);
            // A cell it made single goes to its peers (and the houses'
            // hidden singles) before the costlier rules after it run on
            // candidates that single would have cut.
            if progress && !queue.is_empty() {
                break;
            }
        }
        if progress || !queue.is_empty() {
            continue;
        }
        match required_digits_point_out(t, queue, cand, &mut dirty, pointed) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(()) => return false,
        }
        if locked_rounds == LOCKED_ROUNDS {
            return true;
        }
        locked_rounds += 1;
        match locked_candidates(t, queue, cand, &mut dirty) {
            Ok(true) => {}
            Ok(false) => return true,
            Err(()) => return false,
        }
    }
}

/// A digit a cage or primitive must hold between its cells (every digit
/// set still fitting a cage holds it; a renban's digits every run left
/// contains), all of whose places there one outside cell sees, leaves that
/// cell: the digit is in one of those places.
///
/// `pointed` holds each cage's and primitive's cells as they were when they
/// last pointed (0: never): one whose cells have not changed since has
/// nothing new to take.
fn required_digits_point_out(
    t: &Compiled,
    queue: &mut Vec<u32>,
    cand: &mut [u32],
    dirty: &mut DirtyHouses,
    pointed: &mut [u32],
) -> Result<bool, ()> {
    if t.cages.is_empty() && t.search_primitives.is_empty() {
        return Ok(false);
    }
    let mut progress = false;
    let mut seeing = [0u64; MAX_WORDS];
    let mut point = Pointing {
        t,
        seeing: &mut seeing[..t.peer_words],
        queue,
        dirty,
    };
    let mut at = 0;
    for cage in &t.cages {
        let seen = &mut pointed[at..at + cage.cells.len()];
        at += cage.cells.len();
        if unchanged(&cage.cells, seen, cand) {
            continue;
        }
        // Pointing outward takes nothing from the cage's own cells.
        remember(&cage.cells, seen, cand);
        let mut local = [0u32; crate::MAX_SIZE as usize];
        let local = &mut local[..cage.cells.len()];
        for (l, &c) in local.iter_mut().zip(&cage.cells) {
            *l = cand[c as usize];
        }
        progress |= point.out(&cage.cells, cage.required_digits(local), cand)?;
    }
    for primitive in t.search_primitives.iter() {
        let cells = primitive.cells();
        let seen = &mut pointed[at..at + cells.len()];
        at += cells.len();
        if unchanged(cells, seen, cand) {
            continue;
        }
        remember(cells, seen, cand);
        let open = primitive.required_digits(|i| cand[cells[i] as usize]);
        progress |= point.out(cells, open, cand)?;
    }
    Ok(progress)
}

/// Whether `cells` hold what `seen` says they held when last [`remember`]ed.
fn unchanged(cells: &[u32], seen: &[u32], cand: &[u32]) -> bool {
    cells.iter().zip(seen).all(|(&c, &s)| cand[c as usize] == s)
}

/// Notes in `seen` what `cells` hold now.
fn remember(cells: &[u32], seen: &mut [u32], cand: &[u32]) {
    for (s, &c) in seen.iter_mut().zip(cells) {
        *s = cand[c as usize];
    }
}

/// What [`required_digits_point_out`] works with.
struct Pointing<'a> {
    t: &'a Compiled,
    /// Per digit: the cells seeing all its places, as bits.
    seeing: &'a mut [u64],
    queue: &'a mut Vec<u32>,
    dirty: &'a mut DirtyHouses,
}

impl Pointing<'_> {
    /// Takes each digit of `open`, which `cells` must hold, from the cells
    /// outside them that see all its places among them.
    fn out(&mut self, cells: &[u32], mut open: u32, cand: &mut [u32]) -> Result<bool, ()> {
        let t = self.t;
        let mut progress = false;
        while open != 0 {
            let b = open & open.wrapping_neg();
            open &= open - 1;
            // On grids up to 128 cells (two words) the intersection runs in
            // a local pair, kept in registers, not stored back at each place.
            let places = match <&mut [u64; 2]>::try_from(&mut *self.seeing) {
                Ok(two) => {
                    let mut words = [!0u64; 2];
                    let places = common_peers(t, cells, cand, b, &mut words);
                    *two = words;
                    places
                }
                Err(_) => common_peers(t, cells, cand, b, self.seeing),
            };
            if places == 0 {
                return Err(());
            }
            // The places are not among their own peers, and the other
            // cells of the group do not hold the digit: nothing of the
            // group itself is taken below.
            for (w, &word) in self.seeing.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let q = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let m = cand[q];
                    if m & b == 0 {
                        continue;
                    }
                    if m == b {
                        return Err(());
                    }
                    cand[q] = m & !b;
                    self.dirty.touch(t, q as u32);
                    progress = true;
                    if is_single(m & !b) {
                        self.queue.push(q as u32);
                    }
                }
            }
        }
        Ok(progress)
    }
}

/// Sets `seeing` to the cells that see every cell of `cells` holding the
/// digit `b` (peer bits, ANDed); returns how many such cells there are.
#[inline(always)]
fn common_peers(t: &Compiled, cells: &[u32], cand: &[u32], b: u32, seeing: &mut [u64]) -> usize {
    seeing.fill(!0);
    let mut places = 0;
    for &c in cells {
        if cand[c as usize] & b != 0 {
            places += 1;
            for (s, &p) in seeing.iter_mut().zip(t.peer_bits_of(c as usize)) {
                *s &= p;
            }
        }
    }
    places
}

/// Pointing and claiming between every pair of full houses that share cells.
fn locked_candidates(
    t: &Compiled,
    queue: &mut Vec<u32>,
    cand: &mut [u32],
    dirty: &mut DirtyHouses,
) -> Result<bool, ()> {
    let union = |cand: &[u32], r: &std::ops::Range<usize>| {
        t.locked_cells[r.clone()]
            .iter()
            .fold(0u32, |acc, &c| acc | cand[c as usize])
    };
    let mut progress = false;
    for pair in &t.locked {
        let shared = union(cand, &pair.shared);
        let only_a = union(cand, &pair.only_a);
        let only_b = union(cand, &pair.only_b);
        // Values that house A can only place in the shared cells leave B's other cells.
        for (confined, rest, rest_union) in [
            (shared & !only_a, &pair.only_b, only_b),
            (shared & !only_b, &pair.only_a, only_a),
        ] {
            if confined & rest_union == 0 {
                continue;
            }
            for &c in &t.locked_cells[rest.clone()] {
                let m = cand[c as usize];
                if m & confined != 0 {
                    let n = m & !confined;
                    if n == 0 {
                        return Err(());
                    }
                    cand[c as usize] = n;
                    dirty.touch(t, c);
                    progress = true;
                    if is_single(n) {
                        queue.push(c);
                    }
                }
            }
        }
    }
    Ok(progress)
}

#[cfg(test)]
mod tests {
    use crate::rules::ModelBuilder;
    use protocol::{Constraint, Coord};
    use std::sync::Arc;

    /// A classic 9x9 layout to add rules to.
    fn nine_by_nine() -> ModelBuilder {
        crate::geometry::classic_builder(3, 3).expect("9x9")
    }

    /// The first `n` cells of the first row.
    fn first_row(n: u32) -> Vec<Coord> {
        (0..n).map(|c| [0, c]).collect()
    }

    /// Five cells of a renban in the first row: every run of five digits
    /// holds 5, so the row's other cells lose it; a cell of the first box
    /// below the line sees only three of its cells and keeps it.
    #[test]
    fn a_digit_a_renban_must_hold_leaves_the_cells_that_see_all_its_places() {
        let model = nine_by_nine()
            .constraint(Constraint::Renban {
                cells: first_row(5),
            })
            .build()
            .expect("valid");
        let puzzle = crate::Puzzle::new(Arc::new(model), vec![0; 81]).expect("valid");
        let cand = puzzle.propagate().expect("consistent");
        let five = 1 << 4;
        for (c, &m) in cand.iter().enumerate().take(9).skip(5) {
            assert_eq!(m & five, 0, "r1c{} keeps 5", c + 1);
        }
        assert_eq!(cand[9] & five, five, "r2c1 lost 5");
        assert!((0..5).all(|c| cand[c] & five != 0));
    }

    /// An entropic line of five cells is many narrowings (one per window of
    /// three) but one rule: each of its cells counts it once; a cell it
    /// shares with a cage counts two, and a cell no rule reads none.
    #[test]
    fn a_cell_counts_each_rule_reading_it_once() {
        let model = nine_by_nine()
            .constraint(Constraint::Entropic {
                cells: first_row(5),
            })
            .cage(vec![[0, 2], [1, 2]], 10)
            .build()
            .expect("valid");
        let rules = &model.compiled.rules_per_cell;
        assert_eq!(&rules[..6], &[1, 1, 2, 1, 1, 0]);
        assert_eq!((rules[11], rules[80]), (1, 0));
    }

    /// A cage of r1c1 and r2c2 adding up to 17 holds 8 and 9: both leave the
    /// rest of the first box, which sees both cells, and no cell of the first
    /// row past the box, which sees only one.
    #[test]
    fn a_digit_a_cage_must_hold_leaves_the_cells_that_see_all_its_places() {
        let model = nine_by_nine()
            .cage(vec![[0, 0], [1, 1]], 17)
            .build()
            .expect("valid");
        let puzzle = crate::Puzzle::new(Arc::new(model), vec![0; 81]).expect("valid");
        let cand = puzzle.propagate().expect("consistent");
        let high = 0b1_1000_0000;
        for box_cell in [1, 2, 9, 11, 18, 19, 20] {
            assert_eq!(cand[box_cell] & high, 0, "cell {box_cell} keeps 8 or 9");
        }
        assert_eq!(cand[3] & high, high, "r1c4 lost 8 or 9");
    }

    /// Every 4x4 sudoku, cell by cell, passed to `f`.
    fn every_4x4(grid: &mut [u8; 16], at: usize, f: &mut impl FnMut(&[u8; 16])) {
        if at == 16 {
            return f(grid);
        }
        let (r, c) = (at / 4, at % 4);
        for v in 1..=4 {
            let clash = (0..at).any(|i| {
                let (ri, ci) = (i / 4, i % 4);
                grid[i] == v && (ri == r || ci == c || (ri / 2 == r / 2 && ci / 2 == c / 2))
            });
            if !clash {
                grid[at] = v;
                every_4x4(grid, at + 1, f);
            }
        }
    }

    /// Branching on the places of a skyscraper line's tallest digit splits
    /// the solutions without losing any: a 4x4 whose first row shows two
    /// from either side counts as many as the grids listed one by one that
    /// do (`check::check_solution`) — the search branching on the 4's places (two left, its first
    /// cell three values) and, with no pivots, on cells alone.
    #[test]
    fn branching_on_a_skyscrapers_tallest_counts_every_solution() {
        let model = crate::geometry::classic_builder(2, 2)
            .expect("4x4")
            .constraint(Constraint::Skyscraper {
                cells: first_row(4),
                count: 2,
                clue: None,
            })
            .constraint(Constraint::Skyscraper {
                cells: first_row(4).into_iter().rev().collect(),
                count: 2,
                clue: None,
            })
            .build()
            .expect("valid");
        let mut listed = 0;
        every_4x4(&mut [0; 16], 0, &mut |g| {
            listed += usize::from(crate::check::check_solution(&model, g).is_ok());
        });
        assert!(listed > 1);
        assert_eq!(model.compiled.pivots.len(), 2);
        let count = |compiled: &crate::rules::Compiled| {
            let mut search = super::General::new(compiled);
            let mut cand = search.start(&[0; 16]).expect("no givens");
            assert!(search.propagate(&mut cand));
            search.search(cand, usize::MAX, None).count
        };
        assert_eq!(count(&model.compiled), listed);
        let mut cells_only = model.compiled.clone();
        cells_only.pivots = Default::default();
        assert_eq!(count(&cells_only), listed);
    }

    /// A grid of single cells handed to the search counts only when every
    /// cage and constraint holds on it: a solved grid does; with r1c1 and
    /// r1c2 swapped, the cage on r1c1-r2c1 and the thermometer from r1c1
    /// break (the houses are the peers' propagation's to keep).
    #[test]
    fn a_full_grid_counts_only_if_every_rule_holds_on_it() {
        let solved =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
        let model = nine_by_nine()
            .cage(vec![[0, 0], [1, 0]], 5)
            .constraint(Constraint::Thermometer {
                cells: first_row(3),
                slow: false,
            })
            .build()
            .expect("valid");
        let grid = |text: &str| -> Vec<u32> { text.bytes().map(|b| 1 << (b - b'1')).collect() };
        let count = |text: &str| {
            super::General::new(&model.compiled)
                .search(grid(text), 2, None)
                .count
        };
        assert_eq!(count(solved), 1);
        let mut swapped = solved.as_bytes().to_vec();
        swapped.swap(0, 1);
        let swapped = String::from_utf8(swapped).expect("ascii");
        assert_eq!(count(&swapped), 0);
    }
}
