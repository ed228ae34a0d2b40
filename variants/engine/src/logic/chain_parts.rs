//! What every chain search shares (`chains`, `static_chains`): which links it
//! follows, the offs one potential implies, and a found deduction with Sudoku
//! Explainer's length rating.

use crate::logic::grid::{Grid, Group, Layout};
use crate::logic::step::{Candidate, Rating, Step, Technique};
use crate::mask::{bit, values_of};

/// Which links a search may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Links {
    /// Bivalue-cell links ("Y").
    pub y: bool,
    /// House links ("X").
    pub x: bool,
}

impl Links {
    /// The same links plus house links.
    pub(crate) fn with_x(self) -> Links {
        Links { y: self.y, x: true }
    }
}

/// A found deduction before it becomes a [`Step`].
pub(crate) struct Found {
    /// The kind of chain.
    pub technique: Technique,
    /// Its rating (the kind's base plus its length's tenths).
    pub rating: Rating,
    /// The number of potentials its chains rest on.
    pub complexity: usize,
    /// Orders deductions of equal rating and complexity.
    pub sort_key: u8,
    /// What it removes and places.
    pub eliminations: Vec<Candidate>,
    pub placements: Vec<Candidate>,
    /// The candidates along its chains.
    pub pattern: Vec<Candidate>,
}

impl Found {
    /// What makes a deduction easier: a lower rating, then fewer potentials.
    pub fn key(&self) -> (Rating, usize, u8) {
        (self.rating, self.complexity, self.sort_key)
    }

    /// The step shown for this deduction.
    pub fn into_step(self) -> Step {
        let mut step = Step::new(self.technique, self.rating);
        step.eliminations = self.eliminations;
        step.placements = self.placements;
        step.pattern = self.pattern;
        step
    }
}

/// Keeps the easiest deduction, with `pattern` (the candidates of its
/// chains, gathered only for a deduction kept) as its pattern.
pub(crate) fn keep(
    best: &mut Option<Found>,
    mut found: Found,
    pattern: impl FnOnce() -> Vec<Candidate>,
) {
    if found.eliminations.is_empty() && found.placements.is_empty() {
        return;
    }
    if best.as_ref().is_none_or(|b| found.key() < b.key()) {
        found.pattern = pattern();
        *best = Some(found);
    }
}

/// SE's length increment: +0.1 each time the number of potentials beyond 2
/// passes 4, 6, 8, 12, 16, 24, 32, ...
pub(crate) fn length_tenths(complexity: usize) -> Rating {
    let length = complexity.saturating_sub(2);
    let (mut ceil, mut odd, mut added) = (4usize, false, 0);
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The other values of `cell` in `cand` ("Y" offs of `value` there).
pub(crate) fn cell_offs(cand: &[u32], cell: u32, value: u8) -> impl Iterator<Item = (u32, u8)> {
    values_of(cand[cell as usize] & !bit(u32::from(value))).map(move |v| (cell, v))
}

/// The peers of `cell` holding `value` in `cand` ("X" offs).
pub(crate) fn peer_offs<'c>(
    layout: &'c Layout,
    cand: &'c [u32],
    cell: u32,
    value: u8,
) -> impl Iterator<Item = (u32, u8)> + 'c {
    let b = bit(u32::from(value));
    layout.peers[cell as usize]
        .iter()
        .filter(move |&&p| cand[p as usize] & b != 0)
        .map(move |&p| (p, value))
}

/// Each full group of `cell` where `value` has exactly one other place in
/// `current`, with that place.
pub(crate) fn conjugates<'g>(
    layout: &'g Layout,
    current: &'g Grid,
    cell: u32,
    value: u8,
) -> impl Iterator<Item = (&'g Group, u32)> + 'g {
    let groups = &layout.groups_of[cell as usize];
    let slots = &layout.slots[cell as usize];
    groups.iter().zip(slots).filter_map(move |(&g, &slot)| {
        let group = &layout.groups[g as usize];
        let others = current.positions(group, value) & !(1 << slot);
        (group.full && others.count_ones() == 1)
            .then(|| (group, group.cells[others.trailing_zeros() as usize]))
    })
}
