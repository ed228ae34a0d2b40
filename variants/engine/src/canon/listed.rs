//! The symmetries of any model as a list of cell permutations (rotations
//! and reflections of its layout; on a full grid of up to 9x9 with extra
//! houses, the band, stack, row and column orders too), each kept when it
//! maps the model's frame onto itself; and the least form over them.
//!
//! The frame is what every puzzle of the variant shares: its houses but
//! jigsaw regions, and its different-pairs. Jigsaw regions and killer cages
//! are the puzzle's own clues: a symmetry moves them with the givens, and
//! they are part of the form.

use super::{box_shape, classic};
use crate::Model;
use protocol::HouseKind;
use std::collections::HashSet;

/// A cell permutation: output cell `k` shows source cell `perm[k]`.
pub(super) type Perm = Vec<u32>;

/// The model's symmetries (identity first) and whether digits may be
/// renamed (no cages or constraints give them meaning).
pub(super) fn symmetries(model: &Model) -> (Vec<Perm>, bool) {
    let relabel = model.cages().is_empty() && model.constraints().is_empty();
    let identity: Perm = (0..model.cell_count() as u32).collect();
    if !model.constraints().is_empty() {
        return (vec![identity], false);
    }
    let frame = Frame::of(model);
    let mut seen: HashSet<Perm> = HashSet::new();
    let mut out = vec![identity.clone()];
    seen.insert(identity);
    let mut keep = |perm: Perm| {
        if frame.is_kept_by(&perm) && seen.insert(perm.clone()) {
            out.push(perm);
        }
    };
    for map in dihedral(model.rows(), model.cols()) {
        if let Some(perm) = perm_of(model, &map) {
            keep(perm);
        }
    }
    if let Some(n) = line_orders_apply(model) {
        let (r, c) = box_shape(model).unwrap_or((n, n));
        for_each_line_order(n, r, c, &frame, &mut keep);
    }
    (out, relabel)
}

/// The size of a full square grid of up to 9x9 with boxes and no jigsaw
/// regions or cages, where band, stack, row and column orders are
/// candidates.
fn line_orders_apply(model: &Model) -> Option<usize> {
    let n = model.size() as usize;
    let square = model.is_full_layout() && model.rows() as usize == n && model.cols() as usize == n;
    let plain =
        model.cages().is_empty() && !model.houses().iter().any(|h| h.kind == HouseKind::Region);
    (square && plain && n <= 9 && box_shape(model).is_some()).then_some(n)
}

/// Every (transpose, row order, column order) of an n x n grid with
/// `r` x `c` boxes, passed to `keep` when a quick test of the frame's
/// special cells allows it.
fn for_each_line_order(n: usize, r: usize, c: usize, frame: &Frame, keep: &mut dyn FnMut(Perm)) {
    let row_orders = classic::orders_of(n, r);
    let col_orders = classic::orders_of(n, c);
    let special: Vec<(usize, usize, u32)> = (0..n * n)
        .filter(|&cell| frame.signature[cell] != 0)
        .map(|cell| (cell / n, cell % n, frame.signature[cell]))
        .collect();
    let transposes: &[bool] = if r == c { &[false, true] } else { &[false] };
    for &t in transposes {
        for rows in &row_orders {
            let mut row_at = [0usize; 9];
            for (i, &src) in rows.iter().enumerate() {
                row_at[usize::from(src)] = i;
            }
            for cols in &col_orders {
                let mut col_at = [0usize; 9];
                for (j, &src) in cols.iter().enumerate() {
                    col_at[usize::from(src)] = j;
                }
                // Where source (a, b) lands.
                let lands = |a: usize, b: usize| {
                    if t {
                        (row_at[b], col_at[a])
                    } else {
                        (row_at[a], col_at[b])
                    }
                };
                let quick = special.iter().all(|&(a, b, sig)| {
                    let (i, j) = lands(a, b);
                    frame.signature[i * n + j] == sig
                });
                if !quick {
                    continue;
                }
                let perm: Perm = (0..n * n)
                    .map(|k| {
                        let (i, j) = (k / n, k % n);
                        let (a, b) = (usize::from(rows[i]), usize::from(cols[j]));
                        let source = if t { b * n + a } else { a * n + b };
                        source as u32
                    })
                    .collect();
                keep(perm);
            }
        }
    }
}

/// What every puzzle of the model shares, to test a permutation against.
struct Frame {
    /// Houses (but jigsaw regions) as sorted cells.
    houses: HashSet<Vec<u32>>,
    house_list: Vec<Vec<u32>>,
    /// Different-pairs, each (low, high).
    pairs: HashSet<(u32, u32)>,
    /// Per cell: in how many houses other than rows, columns and boxes, plus
    /// how many different-pairs (a symmetry keeps it).
    signature: Vec<u32>,
}

impl Frame {
    fn of(model: &Model) -> Frame {
        let mut signature = vec![0u32; model.cell_count()];
        let mut house_list = Vec::new();
        for h in model.houses() {
            if h.kind == HouseKind::Region {
                continue;
            }
            let mut cells = h.cells.clone();
            cells.sort_unstable();
            if !matches!(h.kind, HouseKind::Row | HouseKind::Column | HouseKind::Box) {
                for &c in &cells {
                    signature[c as usize] += 1;
                }
            }
            house_list.push(cells);
        }
        let mut pairs = HashSet::new();
        for &[a, b] in model.different() {
            pairs.insert((a.min(b), a.max(b)));
            signature[a as usize] += 1 << 8;
            signature[b as usize] += 1 << 8;
        }
        Frame {
            houses: house_list.iter().cloned().collect(),
            house_list,
            pairs,
            signature,
        }
    }

    /// Whether `perm` maps every house onto a house and every pair onto a
    /// pair.
    fn is_kept_by(&self, perm: &[u32]) -> bool {
        let mut lands = vec![0u32; perm.len()];
        for (k, &s) in perm.iter().enumerate() {
            lands[s as usize] = k as u32;
        }
        self.house_list.iter().all(|h| {
            let mut image: Vec<u32> = h.iter().map(|&c| lands[c as usize]).collect();
            image.sort_unstable();
            self.houses.contains(&image)
        }) && self.pairs.iter().all(|&(a, b)| {
            let (x, y) = (lands[a as usize], lands[b as usize]);
            self.pairs.contains(&(x.min(y), x.max(y)))
        })
    }
}

/// A map from an output position to the source position it shows.
type PositionMap = Box<dyn Fn(u32, u32) -> (u32, u32)>;

/// The rotations and reflections of a `rows` x `cols` layout as maps from
/// an output position to the source position it shows (8 when square, 4
/// otherwise).
fn dihedral(rows: u32, cols: u32) -> Vec<PositionMap> {
    let (h, w) = (rows - 1, cols - 1);
    let mut maps: Vec<PositionMap> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (h - r, c)),
        Box::new(move |r, c| (r, w - c)),
        Box::new(move |r, c| (h - r, w - c)),
    ];
    if rows == cols {
        maps.push(Box::new(|r, c| (c, r)));
        maps.push(Box::new(move |r, c| (w - c, r)));
        maps.push(Box::new(move |r, c| (c, h - r)));
        maps.push(Box::new(move |r, c| (w - c, h - r)));
    }
    maps
}

/// The cell permutation of a position map, when it maps active cells onto
/// active cells.
fn perm_of(model: &Model, map: &dyn Fn(u32, u32) -> (u32, u32)) -> Option<Perm> {
    (0..model.cell_count())
        .map(|k| {
            let [r, c] = model.coord(k);
            let (a, b) = map(r, c);
            model.cell_at(a, b).map(|s| s as u32)
        })
        .collect()
}

/// The least form of a puzzle over `perms`: its jigsaw regions (numbered in
/// the order read), its cages (numbered in the order read, then their
/// sums), then its givens (renamed in the order read when `relabel`). The
/// givens of the least are returned with it.
pub(super) fn canonical(
    clues: &Clues,
    perms: &[Perm],
    relabel: bool,
    givens: &[u8],
) -> (Vec<u32>, Vec<u8>) {
    let (region_of, cage_of) = (&clues.region_of, &clues.cage_of);
    let mut best: Option<(Vec<u32>, Vec<u8>)> = None;
    for perm in perms {
        let mut key = Vec::with_capacity(perm.len() * 3);
        key.extend(renumbered(perm.iter().map(|&s| region_of[s as usize].0)));
        let cages: Vec<u32> = renumbered(perm.iter().map(|&s| cage_of[s as usize].0));
        let mut sums = vec![0u32; cages.iter().copied().max().unwrap_or(0) as usize];
        for (&label, &s) in cages.iter().zip(perm) {
            if label > 0 {
                sums[label as usize - 1] = cage_of[s as usize].1;
            }
        }
        key.extend(&cages);
        key.extend(&sums);
        let mut image: Vec<u8> = perm
            .iter()
            .map(|&s| givens.get(s as usize).copied().unwrap_or(0))
            .collect();
        if relabel {
            super::relabelled(&mut image);
        }
        key.extend(image.iter().map(|&v| u32::from(v)));
        if best.as_ref().is_none_or(|(b, _)| key < *b) {
            best = Some((key, image));
        }
    }
    best.unwrap_or_default()
}

/// A puzzle's own clues besides its givens, per cell.
#[derive(Clone, Debug)]
pub(super) struct Clues {
    /// The jigsaw region holding each cell (1-based; 0 none).
    region_of: Vec<(u32, u32)>,
    /// The cage holding each cell (1-based; 0 none) and its sum.
    cage_of: Vec<(u32, u32)>,
}

impl Clues {
    /// The regions and cages of `model`.
    pub(super) fn of(model: &Model) -> Clues {
        let cells = model.cell_count();
        let regions = model
            .houses()
            .iter()
            .filter(|h| h.kind == HouseKind::Region);
        Clues {
            region_of: labels(cells, regions.map(|h| (&h.cells[..], 0))),
            cage_of: labels(cells, model.cages().iter().map(|c| (&c.cells[..], c.sum))),
        }
    }
}

/// Per cell: the index (1-based, 0 none) of the group holding it, and the
/// group's number.
fn labels<'a>(cells: usize, groups: impl Iterator<Item = (&'a [u32], u32)>) -> Vec<(u32, u32)> {
    let mut out = vec![(0, 0); cells];
    for (i, (group, number)) in groups.enumerate() {
        for &c in group {
            if let Some(slot) = out.get_mut(c as usize) {
                *slot = (i as u32 + 1, number);
            }
        }
    }
    out
}

/// Labels renumbered 1, 2, … in the order first read (0 stays 0).
fn renumbered(labels: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut names: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    labels
        .map(|l| {
            if l == 0 {
                return 0;
            }
            let next = names.len() as u32 + 1;
            *names.entry(l).or_insert(next)
        })
        .collect()
}
