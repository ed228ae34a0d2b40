//! Rules beyond houses, cages and different-pairs, as the solvers see them:
//! a few primitive kinds that every kind of the modern vocabulary
//! (`protocol::Constraint`, compiled in `compile.rs`) is made of. Each narrows
//! candidate masks (value `v` is bit `v - 1`) and, once every cell it reads
//! holds one value, fails exactly when that assignment breaks it — so a
//! search that propagates it never counts a grid the rule forbids.

mod compile;
mod equal_sums;
mod pattern;
mod relation;
mod sum;
mod table;

pub(crate) use compile::{compile, Layout};
pub(crate) use equal_sums::EqualSums;
pub(crate) use pattern::{Pattern, PatternKind};
pub(crate) use relation::Relation;
pub(crate) use sum::LinearSum;
pub use table::digit_tuples;
pub(crate) use table::Table;

use crate::mask::is_single;

/// One primitive rule over a few cells (active-cell indices).
#[derive(Clone, Debug)]
pub(crate) enum Primitive {
    /// Two cells whose values must be related by a table.
    Relation(Relation),
    /// A weighted sum of cells equal to a total (values may repeat).
    Sum(LinearSum),
    /// A rule over a line of cells checked by enumeration (sandwich, X-sum,
    /// skyscraper, renban, between line, quadruple, entropic line).
    Pattern(Pattern),
    /// The allowed value tuples of a few cells.
    Table(Table),
    /// Groups of cells that all add up to one unstated total (zipper and
    /// region-sum lines).
    EqualSums(EqualSums),
}

impl Primitive {
    /// The cells it reads.
    pub fn cells(&self) -> &[u32] {
        match self {
            Primitive::Relation(r) => &r.cells,
            Primitive::Sum(s) => &s.cells,
            Primitive::Pattern(p) => &p.cells,
            Primitive::Table(t) => &t.cells,
            Primitive::EqualSums(e) => &e.cells,
        }
    }

    /// The digits its cells must hold between them that are not yet placed
    /// there, given each cell's candidates (`candidates(i)`, `i` indexing
    /// [`Primitive::cells`]); 0 when the kind says nothing of the sort.
    /// A renban's: those every run of digits still open to it contains.
    pub fn required_digits(&self, candidates: impl Fn(usize) -> u32) -> u32 {
        match self {
            Primitive::Pattern(p) if p.kind == PatternKind::Renban => {
                let mut local = [0u32; crate::MAX_SIZE as usize];
                let n = p.cells.len().min(local.len());
                let mut placed = 0;
                for (i, l) in local[..n].iter_mut().enumerate() {
                    *l = candidates(i);
                    placed |= if is_single(*l) { *l } else { 0 };
                }
                pattern::renban_required(&local[..n]) & !placed
            }
            _ => 0,
        }
    }

    /// The digit whose place among its cells decides the most about the
    /// rule, as a bit; 0 for kinds without one. A skyscraper's over a whole
    /// line is its tallest: the buildings seen are all before it. The search
    /// may branch on that digit's places rather than on one cell's values.
    pub fn pivot_digit(&self) -> u32 {
        match self {
            Primitive::Pattern(p) if p.distinct && !p.cells.is_empty() => match p.kind {
                PatternKind::Skyscraper { .. } => 1 << (p.cells.len() - 1),
                _ => 0,
            },
            _ => 0,
        }
    }

    /// Narrows `local`, the candidates of [`Primitive::cells`] in order.
    /// `Err` when no assignment is left; `Ok(true)` when anything changed.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        match self {
            Primitive::Relation(r) => r.narrow(local),
            Primitive::Sum(s) => s.narrow(local),
            Primitive::Pattern(p) => p.narrow(local),
            Primitive::Table(t) => t.narrow(local),
            Primitive::EqualSums(e) => e.narrow(local),
        }
    }

    /// Narrows the candidates of its cells in a per-cell array; cells that
    /// become single are pushed onto `singles`, and every cell narrowed is
    /// told to `narrowed`.
    pub fn propagate(
        &self,
        cand: &mut [u32],
        singles: &mut Vec<u32>,
        mut narrowed: impl FnMut(u32),
    ) -> Result<bool, ()> {
        let cells = self.cells();
        // Most primitives read a few cells: their masks stay on the stack.
        let mut on_stack = [0u32; 16];
        let mut on_heap = Vec::new();
        let local: &mut [u32] = if cells.len() <= on_stack.len() {
            &mut on_stack[..cells.len()]
        } else {
            on_heap.resize(cells.len(), 0);
            &mut on_heap
        };
        for (l, &c) in local.iter_mut().zip(cells) {
            *l = cand[c as usize];
        }
        if !self.narrow(local)? {
            return Ok(false);
        }
        for (&l, &c) in local.iter().zip(cells) {
            if cand[c as usize] != l {
                cand[c as usize] = l;
                narrowed(c);
                if is_single(l) {
                    singles.push(c);
                }
            }
        }
        Ok(true)
    }
}

/// The primitives as the search narrows them: relations over the same two
/// cells (a Kropki dot's pair under the non-consecutive rule and the negative
/// constraint, say) made one, where the first of them stood — one narrowing
/// instead of several, each of which would re-wake the others. The grader and
/// the checks keep the primitives apart (each names its own constraint).
///
/// Primitives over one cell are not among them: they become the second list,
/// each such cell's values (of 1..=`size`) that they all allow, applied once
/// to the search's first candidates (a cell's candidates only shrink from
/// there, so they never narrow anything again).
pub(crate) fn for_search(
    primitives: &[(Primitive, usize)],
    size: u32,
) -> (Vec<Primitive>, Vec<(u32, u32)>) {
    let mut out: Vec<Primitive> = Vec::with_capacity(primitives.len());
    let mut limits: Vec<(u32, u32)> = Vec::new();
    let mut relation_at: std::collections::HashMap<[u32; 2], usize> = Default::default();
    for (primitive, _) in primitives {
        if let &[cell] = primitive.cells() {
            // A value is allowed when the primitive accepts the cell holding
            // it alone (each primitive is exact on single cells).
            let allowed = (1..=size)
                .map(|v| 1u32 << (v - 1))
                .filter(|&b| primitive.narrow(&mut [b]).is_ok())
                .fold(0, |m, b| m | b);
            limits.push((cell, allowed));
            continue;
        }
        if let Primitive::Relation(r) = primitive {
            let pair = [r.cells[0].min(r.cells[1]), r.cells[0].max(r.cells[1])];
            if let Some(&at) = relation_at.get(&pair) {
                if let Primitive::Relation(first) = &mut out[at] {
                    if first.intersect(r) {
                        continue;
                    }
                }
            }
            relation_at.insert(pair, out.len());
        }
        out.push(match primitive {
            Primitive::Sum(sum) => Primitive::Sum(sum.for_search()),
            Primitive::Pattern(pattern) => Primitive::Pattern(pattern.for_search()),
            other => other.clone(),
        });
    }
    // One entry per cell, its limits intersected.
    limits.sort_unstable_by_key(|&(cell, _)| cell);
    limits.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 &= later.1;
        }
        same
    });
    (out, limits)
}

/// Writes `narrowed` into `local`; `Err` if any mask is empty, `Ok(true)` if
/// any changed.
pub(crate) fn store(local: &mut [u32], narrowed: &[u32]) -> Result<bool, ()> {
    if narrowed.contains(&0) {
        return Err(());
    }
    // Cell by cell: most primitives have a few cells, for which a call to
    // memcmp costs more than the comparison.
    let mut changed = false;
    for (l, &n) in local.iter_mut().zip(narrowed) {
        changed |= *l != n;
        *l = n;
    }
    Ok(changed)
}
