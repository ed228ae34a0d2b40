//! The candidate grid a person works on: placed values, the candidates left in
//! every empty cell, and the layout facts every technique asks about (which houses
//! a cell is in, which cells see each other).

use crate::cage::CageTable;
use crate::logic::step::Candidate;
use crate::logic::virtual_cage::VirtualCage;
use crate::mask::{bit, full_mask};
use crate::rules::Rules;
use protocol::HouseKind;
use std::sync::OnceLock;

/// The index of (cell, value) in per-candidate arrays of a grid of `size`
/// values.
pub(crate) fn candidate_key(size: u32, cell: u32, value: u8) -> usize {
    cell as usize * size as usize + usize::from(value) - 1
}

/// One all-different group a technique may reason about.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// This group's index in [`Layout::groups`].
    pub index: u32,
    /// Index into the model's houses, or `None` for a cage; an index past the
    /// model's houses is an implied house ([`Layout::house_cells`]).
    pub house: Option<usize>,
    /// How the group is drawn (cages count as [`HouseKind::Extra`]).
    pub kind: HouseKind,
    /// Active-cell indices.
    pub cells: Vec<u32>,
    /// Whether every value must appear in it (it holds exactly N cells).
    pub full: bool,
    /// A cage's sum (`None` for a house).
    pub sum: Option<u32>,
    /// A cage's digit sets (`None` for a house).
    pub table: Option<CageTable>,
}

impl Group {
    /// Whether the group is a row or a column.
    pub fn is_line(&self) -> bool {
        matches!(self.kind, HouseKind::Row | HouseKind::Column)
    }

    /// The cells at the positions in `mask` (bit `i` for the `i`-th cell).
    pub fn cells_at(&self, mask: u32) -> Vec<u32> {
        self.cells_in(mask).collect()
    }

    /// [`Group::cells_at`], one by one, in order.
    pub fn cells_in(&self, mask: u32) -> impl Iterator<Item = u32> + '_ {
        let mut rest = mask;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let slot = rest.trailing_zeros();
                rest &= rest - 1;
                self.cells[slot as usize]
            })
        })
    }
}

/// Whether Sudoku Explainer's locked candidates (pointing, claiming) reason
/// about a house of this kind: rows, columns, boxes, jigsaw regions and
/// Windoku's windows. An intersection with a diagonal or another house is a
/// generalized intersection there (2.9).
pub(crate) fn is_locking_kind(kind: HouseKind) -> bool {
    matches!(
        kind,
        HouseKind::Row | HouseKind::Column | HouseKind::Box | HouseKind::Region | HouseKind::Window
    )
}

/// Two full groups sharing two or more cells, and where they overlap.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Crossing {
    /// The first group's index.
    pub a: u32,
    /// The second group's index.
    pub b: u32,
    /// Bit `i` set when `a`'s `i`-th cell is in `b`.
    pub a_in_b: u32,
    /// Bit `i` set when `b`'s `i`-th cell is in `a`.
    pub b_in_a: u32,
}

/// The layout facts of a model, built once per grading.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Every house, then every cage, then every implied house.
    pub groups: Vec<Group>,
    /// The groups holding each cell.
    pub groups_of: Vec<Vec<u32>>,
    /// For each cell, its position in each group of `groups_of` (same order).
    pub slots: Vec<Vec<u8>>,
    /// Indices of the full groups (every value appears once).
    pub full_groups: Vec<u32>,
    /// The full rows and the full columns (group indices), when every cell is in
    /// at most one of each and there are at most 64 of each: what fish need.
    pub lines: Option<[Vec<u32>; 2]>,
    /// For each cell, its position in `lines[0]` and `lines[1]` (`u8::MAX` when none).
    pub line_of: [Vec<u8>; 2],
    /// Ordered pairs of full groups sharing two or more cells (each pair twice).
    pub crossings: Vec<Crossing>,
    /// The peers of each cell: the model's, and the cells sharing an implied
    /// house with it.
    pub peers: Vec<Vec<u32>>,
    /// Row-major bit matrix: `sees[a * stride + b / 64]` bit `b % 64` is set when
    /// `a` and `b` are peers.
    sees: Vec<u64>,
    stride: usize,
    /// Whether the model is exactly classic n-Sudoku (rows, columns, boxes and
    /// nothing else), where uniqueness techniques are sound.
    pub classic: bool,
    /// Whether the model has variant rules beyond rows, columns, boxes and
    /// regions — a diagonal, a window or another house, or different-pairs
    /// (anti-knight) — and no cages: where generalized intersections find
    /// what pointing and claiming cannot.
    pub variant_rules: bool,
    /// The number of values.
    pub size: u32,
    /// The 45 rule's virtual cages (none without cages), found on first use.
    pub virtual_cages: OnceLock<Vec<VirtualCage>>,
    /// The model's constraint primitives, each with its constraint's index.
    pub primitives: std::sync::Arc<[(crate::constraints::Primitive, usize)]>,
    /// The technique each constraint's own narrowing is named for, by index.
    pub constraint_techniques: Vec<crate::logic::step::Technique>,
}

impl Layout {
    /// The layout of `model`.
    pub fn new(model: &Rules) -> Layout {
        let n = model.cell_count();
        let mut groups: Vec<Group> = model
            .houses()
            .iter()
            .enumerate()
            .map(|(i, h)| Group {
                index: i as u32,
                house: Some(i),
                kind: h.kind,
                cells: h.cells.clone(),
                full: h.cells.len() == model.size() as usize,
                sum: None,
                table: None,
            })
            .collect();
        let houses = groups.len();
        // Houses beyond rows, columns, boxes and regions: where implied houses
        // and generalized intersections are looked for (not with cages: a
        // killer's grading has neither).
        let variant_houses = model.cages().is_empty()
            && model.houses().iter().any(|h| {
                !matches!(
                    h.kind,
                    HouseKind::Row | HouseKind::Column | HouseKind::Box | HouseKind::Region
                )
            });
        let implied = if variant_houses {
            let full: Vec<(HouseKind, &[u32])> = groups
                .iter()
                .filter(|g| g.full)
                .map(|g| (g.kind, g.cells.as_slice()))
                .collect();
            super::implied::implied_houses(&full, n, model.size())
        } else {
            Vec::new()
        };
        groups.extend(model.cages().iter().enumerate().map(|(i, c)| Group {
            index: (houses + i) as u32,
            house: None,
            kind: HouseKind::Extra,
            cells: c.cells.clone(),
            full: c.cells.len() == model.size() as usize,
            sum: Some(c.sum),
            // The model compiled the same table for its cage `i`.
            table: Some(match model.compiled.cages.get(i) {
                Some(table) => table.clone(),
                None => CageTable::new(&c.cells, c.sum, model.size()),
            }),
        }));
        // Implied houses after the cages, numbered after the model's houses.
        for (k, cells) in implied.into_iter().enumerate() {
            groups.push(Group {
                index: groups.len() as u32,
                house: Some(houses + k),
                kind: HouseKind::Extra,
                cells,
                full: true,
                sum: None,
                table: None,
            });
        }
        let mut groups_of = vec![Vec::new(); n];
        let mut slots = vec![Vec::new(); n];
        for (g, group) in groups.iter().enumerate() {
            for (i, &c) in group.cells.iter().enumerate() {
                groups_of[c as usize].push(g as u32);
                slots[c as usize].push(i as u8);
            }
        }
        // The model's peers, and the cells sharing an implied house.
        let mut peers: Vec<Vec<u32>> = (0..n)
            .map(|c| model.compiled.peers_of(c).to_vec())
            .collect();
        for group in groups
            .iter()
            .filter(|g| g.house.is_some_and(|h| h >= houses))
        {
            for &a in &group.cells {
                peers[a as usize].extend(group.cells.iter().copied().filter(|&b| b != a));
            }
        }
        for list in &mut peers {
            list.sort_unstable();
            list.dedup();
        }
        let stride = n.div_ceil(64);
        let mut sees = vec![0u64; n * stride];
        for (a, list) in peers.iter().enumerate() {
            for &b in list {
                sees[a * stride + b as usize / 64] |= 1 << (b % 64);
            }
        }
        let full_groups: Vec<u32> = (0..groups.len() as u32)
            .filter(|&g| groups[g as usize].full)
            .collect();
        let (lines, line_of) = fish_lines(&groups, &full_groups, n);
        let crossings = crossings(&groups, &full_groups, &groups_of, &slots);
        let classic = model.cages().is_empty()
            && model.constraints().is_empty()
            && model.different().is_empty()
            && model.is_full_layout()
            && model
                .houses()
                .iter()
                .all(|h| matches!(h.kind, HouseKind::Row | HouseKind::Column | HouseKind::Box));
        let variant_rules =
            variant_houses || model.cages().is_empty() && !model.different().is_empty();
        Layout {
            peers,
            groups,
            groups_of,
            slots,
            full_groups,
            lines,
            line_of,
            crossings,
            sees,
            stride,
            classic,
            variant_rules,
            size: model.size(),
            virtual_cages: OnceLock::new(),
            primitives: model.compiled.primitives.clone(),
            constraint_techniques: model
                .constraints()
                .iter()
                .map(crate::logic::step::Technique::of_constraint)
                .collect(),
        }
    }

    /// The cells of house `house`: one of the model's, or, numbered after
    /// them, an implied house (`crate::logic::implied`).
    pub fn house_cells<'m>(&'m self, model: &'m Rules, house: usize) -> &'m [u32] {
        match model.houses().get(house) {
            Some(h) => &h.cells,
            None => self
                .groups
                .iter()
                .find(|g| g.house == Some(house))
                .map_or(&[][..], |g| &g.cells),
        }
    }

    /// Whether cells `a` and `b` are peers (share a house, a cage or a
    /// different-pair). A cell does not see itself.
    #[inline]
    pub fn sees(&self, a: u32, b: u32) -> bool {
        self.sees[a as usize * self.stride + b as usize / 64] >> (b % 64) & 1 == 1
    }

    /// The cells `a` sees, as a bit set of [`Layout::set_words`] words (bit
    /// `b % 64` of word `b / 64` for cell `b`).
    pub fn seen_by(&self, a: u32) -> &[u64] {
        &self.sees[a as usize * self.stride..][..self.stride]
    }

    /// The words of a bit set over the cells ([`Layout::seen_by`]).
    pub fn set_words(&self) -> usize {
        self.stride
    }

    /// Whether `c` sees every cell of `cells` (and is none of them).
    pub fn sees_all(&self, c: u32, cells: &[u32]) -> bool {
        cells.iter().all(|&o| self.sees(c, o))
    }
}

/// The ordered pairs of `full_groups` sharing two or more cells, by first
/// group then second (found through the groups of each cell, not by testing
/// every pair).
fn crossings(
    groups: &[Group],
    full_groups: &[u32],
    groups_of: &[Vec<u32>],
    slots: &[Vec<u8>],
) -> Vec<Crossing> {
    let is_full = |g: u32| groups[g as usize].full;
    // Per other group: the positions of the shared cells in `a`, and in it.
    let mut shared = vec![(0u32, 0u32); groups.len()];
    let mut touched: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    for &a in full_groups {
        for (i, &c) in groups[a as usize].cells.iter().enumerate() {
            for (&b, &slot) in groups_of[c as usize].iter().zip(&slots[c as usize]) {
                if b != a && is_full(b) {
                    let entry = &mut shared[b as usize];
                    if entry.0 == 0 {
                        touched.push(b);
                    }
                    entry.0 |= 1 << i;
                    entry.1 |= 1 << slot;
                }
            }
        }
        touched.sort_unstable();
        for &b in &touched {
            let (a_in_b, b_in_a) = std::mem::take(&mut shared[b as usize]);
            if a_in_b.count_ones() >= 2 {
                out.push(Crossing {
                    a,
                    b,
                    a_in_b,
                    b_in_a,
                });
            }
        }
        touched.clear();
    }
    out
}

/// The full rows and columns for fish, and each cell's line positions.
type FishLines = (Option<[Vec<u32>; 2]>, [Vec<u8>; 2]);

fn fish_lines(groups: &[Group], full_groups: &[u32], cells: usize) -> FishLines {
    let mut line_of = [vec![u8::MAX; cells], vec![u8::MAX; cells]];
    let mut lines = [Vec::new(), Vec::new()];
    let mut usable = true;
    for (k, kind) in [HouseKind::Row, HouseKind::Column].into_iter().enumerate() {
        for &g in full_groups {
            let group = &groups[g as usize];
            if group.kind != kind {
                continue;
            }
            let ordinal = lines[k].len();
            usable &= ordinal < 64;
            for &c in &group.cells {
                usable &= line_of[k][c as usize] == u8::MAX;
                line_of[k][c as usize] = ordinal.min(254) as u8;
            }
            lines[k].push(g);
        }
    }
    (usable.then_some(lines), line_of)
}

/// Placed values and candidates.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    /// Number of values N.
    pub size: u32,
    /// Value of each cell, 0 when empty.
    pub values: Vec<u8>,
    /// Candidates of each empty cell (0 for placed cells).
    pub cand: Vec<u32>,
    /// For each group and value (`group * size + value - 1`), the positions in
    /// the group where the value is still a candidate, as a mask over its cells.
    pos: Vec<u32>,
}

/// The grid reached a state with no solution (a cell or a house with no place
/// left for something): the steps or the starting candidates were wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

impl Grid {
    /// A grid with `values` placed and every candidate a placed peer does not rule
    /// out.
    pub fn new(layout: &Layout, values: &[u8]) -> Grid {
        let full = full_mask(layout.size);
        let cand = (0..values.len())
            .map(|c| {
                if values[c] != 0 {
                    return 0;
                }
                layout.peers[c]
                    .iter()
                    .fold(full, |m, &p| match values[p as usize] {
                        0 => m,
                        v => m & !bit(u32::from(v)),
                    })
            })
            .collect();
        Grid::from_parts(layout, values.to_vec(), cand)
    }

    /// A grid from placed values and candidates as they are.
    pub fn from_parts(layout: &Layout, values: Vec<u8>, cand: Vec<u32>) -> Grid {
        let size = layout.size;
        let mut pos = vec![0u32; layout.groups.len() * size as usize];
        for group in &layout.groups {
            for (i, &c) in group.cells.iter().enumerate() {
                let mut m = cand[c as usize];
                while m != 0 {
                    let v = m.trailing_zeros() as usize;
                    m &= m - 1;
                    pos[group.index as usize * size as usize + v] |= 1 << i;
                }
            }
        }
        Grid {
            size,
            values,
            cand,
            pos,
        }
    }

    /// Places `value` in `cell` and removes it from every peer.
    pub fn place(&mut self, layout: &Layout, cell: u32, value: u8) {
        let c = cell as usize;
        self.values[c] = value;
        let mut m = self.cand[c];
        while m != 0 {
            let v = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            self.eliminate(layout, Candidate::new(cell, v));
        }
        for &p in &layout.peers[c] {
            self.eliminate(layout, Candidate::new(p, value));
        }
    }

    /// Removes one candidate.
    #[inline]
    pub fn eliminate(&mut self, layout: &Layout, c: Candidate) {
        let b = bit(u32::from(c.value));
        let cell = c.cell as usize;
        if self.cand[cell] & b == 0 {
            return;
        }
        self.cand[cell] &= !b;
        let size = self.size as usize;
        for (&g, &slot) in layout.groups_of[cell].iter().zip(&layout.slots[cell]) {
            self.pos[g as usize * size + usize::from(c.value) - 1] &= !(1 << slot);
        }
    }

    /// Makes this grid a copy of `other`, reusing its allocations.
    pub fn copy_from(&mut self, other: &Grid) {
        self.size = other.size;
        self.values.clone_from(&other.values);
        self.cand.clone_from(&other.cand);
        self.pos.clone_from(&other.pos);
    }

    /// Whether `cell` still has `value` as a candidate.
    #[inline]
    pub fn has(&self, cell: u32, value: u8) -> bool {
        self.cand[cell as usize] & bit(u32::from(value)) != 0
    }

    /// The values placed in `cells`, as a mask.
    pub fn placed(&self, cells: &[u32]) -> u32 {
        cells.iter().fold(0, |m, &c| match self.values[c as usize] {
            0 => m,
            v => m | bit(u32::from(v)),
        })
    }

    /// What `cell` may hold: its value's bit if placed, else its candidates.
    pub fn mask(&self, cell: u32) -> u32 {
        match self.values[cell as usize] {
            0 => self.cand[cell as usize],
            v => bit(u32::from(v)),
        }
    }

    /// What each of `cells` may hold ([`Grid::mask`]).
    pub fn masks(&self, cells: &[u32]) -> Vec<u32> {
        cells.iter().map(|&c| self.mask(c)).collect()
    }

    /// Whether every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The cells of `group` where `value` is still a candidate, as a mask over
    /// the group's cell positions.
    #[inline]
    pub fn positions(&self, group: &Group, value: u8) -> u32 {
        self.pos[group.index as usize * self.size as usize + usize::from(value) - 1]
    }

    /// The empty cells of `group`.
    pub fn empty_cells<'a>(&'a self, group: &'a Group) -> impl Iterator<Item = u32> + 'a {
        group
            .cells
            .iter()
            .copied()
            .filter(move |&c| self.values[c as usize] == 0)
    }

    /// Whether the grid is still consistent: every empty cell has a candidate,
    /// no group holds a value twice, and every value missing from a full group
    /// has a place in it.
    pub fn check(&self, layout: &Layout) -> Result<(), Contradiction> {
        for c in 0..self.values.len() {
            if self.values[c] == 0 && self.cand[c] == 0 {
                return Err(Contradiction);
            }
        }
        for group in &layout.groups {
            let (mut placed, mut seen) = (0u32, 0u32);
            for &c in &group.cells {
                let c = c as usize;
                if self.values[c] != 0 {
                    let b = bit(u32::from(self.values[c]));
                    if placed & b != 0 {
                        return Err(Contradiction);
                    }
                    placed |= b;
                    seen |= b;
                } else {
                    seen |= self.cand[c];
                }
            }
            if group.full && seen != full_mask(self.size) {
                return Err(Contradiction);
            }
        }
        Ok(())
    }
}
