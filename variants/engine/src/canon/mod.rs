//! Canonical forms: one representative of every class of puzzles that are
//! the same up to their model's symmetries, so that copies in disguise
//! (rotated, reflected, bands swapped, digits renamed) are found.
//!
//! The symmetries follow from the model ([`Symmetries::of`]):
//! - a full n-Sudoku (rows, columns, boxes, nothing else): bands, stacks,
//!   rows within bands, columns within stacks, transposition when its boxes
//!   are square, and digits relabelled — [`classic`], a pruned search for
//!   the lexicographically least grid;
//! - any other model: the rotations and reflections of its layout and, on a
//!   full grid of up to 9x9 whose additions are extra houses and
//!   different-pairs (X, Windoku, Anti-Knight), the band, stack, row and
//!   column permutations, each kept when it maps every house (but jigsaw
//!   regions) and different-pair onto one of the model (`listed.rs`); jigsaw
//!   regions and cages move with the puzzle; digits relabelled unless cages
//!   or constraints give them meaning.
//!
//! Models with constraints of the modern vocabulary keep only the identity
//! (their clues' directions are not mapped yet). Larger grids (16x16, 25x25)
//! keep rotations and reflections only: their band and row orders are too
//! many to list, and the row-by-row search keeps too many ties when a row is
//! empty.
//!
//! A canonical form is the least grid, read row by row, over the symmetries
//! (an empty cell, 0, before any digit); with relabelling, digits are renamed
//! 1, 2, … in the order they are first read. Jigsaw regions and killer cages
//! are part of the form, read before the givens.

pub mod classic;
mod listed;

use crate::Model;
use protocol::HouseKind;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The symmetries of one model, ready to canonicalise its puzzles.
#[derive(Clone, Debug)]
pub struct Symmetries {
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// A full n-Sudoku of `box_rows` x `box_cols` boxes (n ≤ 9).
    Classic(classic::Shape),
    /// Listed cell permutations: output cell `k` takes source cell
    /// `perm[k]`; the first is the identity.
    Listed {
        perms: Vec<listed::Perm>,
        relabel: bool,
        clues: listed::Clues,
    },
}

/// A puzzle's canonical form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Canonical {
    /// What two puzzles equal up to symmetry share: the regions and cages
    /// (when the puzzle has its own), then the givens, as read.
    pub key: Vec<u32>,
    /// The givens of the canonical form, one per active cell (0 empty).
    pub givens: Vec<u8>,
}

impl Symmetries {
    /// The symmetries of `model`.
    pub fn of(model: &Model) -> Symmetries {
        if let Some(shape) = classic_shape(model) {
            return Symmetries {
                kind: Kind::Classic(shape),
            };
        }
        let (perms, relabel) = listed::symmetries(model);
        Symmetries {
            kind: Kind::Listed {
                perms,
                relabel,
                clues: listed::Clues::of(model),
            },
        }
    }

    /// How many cell permutations (digit renamings aside) the group has.
    pub fn order(&self) -> u64 {
        match &self.kind {
            Kind::Classic(shape) => shape.order(),
            Kind::Listed { perms, .. } => perms.len() as u64,
        }
    }

    /// Whether digits are renamed too.
    pub fn relabels(&self) -> bool {
        match &self.kind {
            Kind::Classic(_) => true,
            Kind::Listed { relabel, .. } => *relabel,
        }
    }

    /// The canonical form of `givens` (one value per active cell, 0 empty)
    /// on the model these symmetries are of.
    pub fn canonical(&self, givens: &[u8]) -> Canonical {
        match &self.kind {
            Kind::Classic(shape) => {
                let givens = classic::canonical(shape, givens);
                Canonical {
                    key: givens.iter().map(|&v| u32::from(v)).collect(),
                    givens,
                }
            }
            Kind::Listed {
                perms,
                relabel,
                clues,
            } => {
                let (key, givens) = listed::canonical(clues, perms, *relabel, givens);
                Canonical { key, givens }
            }
        }
    }
}

/// A puzzle's frame ([`frame_of`]) and canonical form. The symmetries of a
/// frame are found once and kept for the process (a file or a pool of one
/// variant finds them once); a model with clues of its own has its own.
pub fn canonical_form(model: &Model, givens: &[u8]) -> (String, Canonical) {
    let frame = frame_of(model);
    if has_own_clues(model) {
        return (frame, Symmetries::of(model).canonical(givens));
    }
    let form = symmetries_of_frame(&frame, model).canonical(givens);
    (frame, form)
}

/// The symmetries of `model`, whose frame is `frame` and which has no clues
/// of its own: found once per frame and kept for the process.
pub fn symmetries_of_frame(frame: &str, model: &Model) -> Arc<Symmetries> {
    static BY_FRAME: OnceLock<Mutex<HashMap<String, Arc<Symmetries>>>> = OnceLock::new();
    let cache = BY_FRAME.get_or_init(Default::default);
    if let Some(known) = cache.lock().ok().and_then(|c| c.get(frame).cloned()) {
        return known;
    }
    let found = Arc::new(Symmetries::of(model));
    if let Ok(mut c) = cache.lock() {
        c.insert(frame.to_string(), found.clone());
    }
    found
}

impl Canonical {
    /// A short stable name for this form on `frame` (FNV-1a of both): what
    /// a pool keeps to tell its puzzles apart.
    pub fn fingerprint(&self, frame: &str) -> u64 {
        let bytes = frame
            .bytes()
            .chain(self.key.iter().flat_map(|x| x.to_le_bytes()));
        bytes.fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    }
}

/// Whether puzzles of `model` carry clues of their own besides givens
/// (jigsaw regions, killer cages, constraints): part of their form.
pub fn has_own_clues(model: &Model) -> bool {
    !model.cages().is_empty()
        || !model.constraints().is_empty()
        || model.houses().iter().any(|h| h.kind == HouseKind::Region)
}

/// What every puzzle of `model`'s variant shares, as text: its size, layout,
/// houses but jigsaw regions, different-pairs and constraints. Two puzzles
/// can be equal up to symmetry only when their frames are equal.
pub fn frame_of(model: &Model) -> String {
    let mut houses: Vec<Vec<u32>> = model
        .houses()
        .iter()
        .filter(|h| h.kind != HouseKind::Region)
        .map(|h| {
            let mut cells = h.cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect();
    houses.sort();
    let mut pairs: Vec<(u32, u32)> = model
        .different()
        .iter()
        .map(|&[a, b]| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    let cells: Vec<[u32; 2]> = (0..model.cell_count()).map(|c| model.coord(c)).collect();
    format!(
        "{} {}x{} {cells:?} {houses:?} {pairs:?} {:?}",
        model.size(),
        model.rows(),
        model.cols(),
        model.constraints()
    )
}

/// The largest n-Sudoku whose forms are searched over every band, stack,
/// row and column order: the search's table has 2^n entries, each over every
/// column order ((box_cols!)^(n/box_cols) x (n/box_cols)!: 1,296 for 9x9,
/// 7,962,624 for 16x16 — out of reach), so larger grids fall back to their
/// rotations and reflections.
const LARGEST_FULL_SEARCH: u32 = 9;

/// The box shape of a full n-Sudoku with nothing but rows, columns and
/// boxes, if `model` is one small enough to search
/// ([`LARGEST_FULL_SEARCH`]).
pub(crate) fn classic_shape(model: &Model) -> Option<classic::Shape> {
    let n = model.size();
    let plain = n <= LARGEST_FULL_SEARCH
        && model.is_full_layout()
        && model.rows() == n
        && model.cols() == n
        && model.cages().is_empty()
        && model.different().is_empty()
        && model.constraints().is_empty()
        && model.houses().len() == 3 * n as usize
        && model
            .houses()
            .iter()
            .all(|h| matches!(h.kind, HouseKind::Row | HouseKind::Column | HouseKind::Box));
    let row_major =
        (0..n).all(|r| (0..n).all(|c| model.cell_at(r, c) == Some((r * n + c) as usize)));
    if !plain || !row_major {
        return None;
    }
    box_shape(model).map(|(r, c)| classic::Shape::new(r, c))
}

/// The rows and columns of the model's boxes, when every box is the same
/// aligned rectangle (the boxes of an n-Sudoku).
pub(crate) fn box_shape(model: &Model) -> Option<(usize, usize)> {
    let first = model.houses().iter().find(|h| h.kind == HouseKind::Box)?;
    let coords: Vec<[u32; 2]> = first
        .cells
        .iter()
        .map(|&c| model.coord(c as usize))
        .collect();
    let rows = coords.iter().map(|c| c[0]).max()? - coords.iter().map(|c| c[0]).min()? + 1;
    let cols = coords.iter().map(|c| c[1]).max()? - coords.iter().map(|c| c[1]).min()? + 1;
    let (r, c) = (rows as usize, cols as usize);
    let n = model.size() as usize;
    // n different cells all in the r x c block of the first: that block.
    let aligned = model
        .houses()
        .iter()
        .filter(|h| h.kind == HouseKind::Box)
        .all(|h| {
            let block = |x: u32| {
                let [y, z] = model.coord(x as usize);
                (y as usize / r, z as usize / c)
            };
            h.cells.len() == n && h.cells.iter().all(|&x| block(x) == block(h.cells[0]))
        });
    (r * c == n && aligned).then_some((r, c))
}

/// Renames digits 1, 2, … in the order they are first read (0 stays 0).
pub(crate) fn relabelled(grid: &mut [u8]) {
    let mut map = [0u8; 256];
    let mut next = 0u8;
    for v in grid.iter_mut() {
        if *v == 0 {
            continue;
        }
        let slot = &mut map[usize::from(*v)];
        if *slot == 0 {
            next += 1;
            *slot = next;
        }
        *v = *slot;
    }
}

#[cfg(test)]
mod tests;
