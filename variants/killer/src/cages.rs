//! Cage layouts over a solved grid: a random partition into small connected
//! cages of distinct digits, merges of two touching cages into one, and moves
//! of one cell to a touching cage. The
//! generator starts from small cages (easy to reason about) and merges them
//! while a tier-capped logical solve still succeeds.
//!
//! Neither the partition nor a merge pairs cells into a *deadly rectangle*:
//! four cells at the corners of a rectangle in two boxes, holding `a b / b a`,
//! where each cage holding a corner holds the corner beside it in the same row
//! (or each, the one in the same column). Swapping `a` and `b` there keeps
//! every row, column, box, cage sum and cage's distinct digits: a second
//! solution, whatever else the cages say. Most starting partitions with
//! several solutions had one (263 of 925 dead starts over 30 extreme 9x9
//! puzzles had two solutions differing in exactly such four cells). Moves of
//! one cell (used where this check is off, on 6x6) do not check.

use plugin_sdk::engine::combinations;
use plugin_sdk::engine::seed::Rng;
use rand::seq::SliceRandom;
use rand::Rng as _;

/// The grid a layout covers: its boxes' rows and columns (the side is their
/// product), and whether both main diagonals are houses too (Killer-X).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Rows of a box.
    pub box_rows: usize,
    /// Columns of a box.
    pub box_cols: usize,
    /// Whether each main diagonal holds every digit once.
    pub diagonals: bool,
}

impl Shape {
    /// Cells per side (and digits).
    pub fn side(self) -> usize {
        self.box_rows * self.box_cols
    }
}

/// A partition of a square grid's cells into cages.
#[derive(Clone, Debug)]
pub(crate) struct Cages {
    /// Cells per side.
    side: usize,
    /// The grid's boxes and diagonals.
    shape: Shape,
    /// Whether partitions and merges keep out of deadly rectangles.
    avoid_deadly: bool,
    /// The solution, row-major.
    solution: Vec<u8>,
    /// The cage of each cell (an index into `cells`).
    of: Vec<usize>,
    /// The cells of each cage; empty once merged into another.
    cells: Vec<Vec<usize>>,
}

/// Two touching cages that may become one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Merge {
    /// The cage that stays.
    pub keep: usize,
    /// The cage whose cells move into `keep`.
    pub gone: usize,
}

/// A cell that may leave its cage for a touching one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Move {
    /// The cell.
    pub cell: usize,
    /// The cage it joins.
    pub to: usize,
}

impl Cages {
    /// Every cell that can move to a touching cage of fewer than `max` cells
    /// without its digit: its own cage keeps two cells or more and stays
    /// connected.
    pub fn moves(&self, max: usize) -> Vec<Move> {
        let mut out = Vec::new();
        for (c, &from) in self.of.iter().enumerate() {
            if self.cells[from].len() < 3 {
                continue;
            }
            let start = out.len();
            for d in self.neighbours(c) {
                let to = self.of[d];
                let m = Move { cell: c, to };
                if to != from
                    && self.cells[to].len() < max
                    && self.digits(to) & self.digit(c) == 0
                    && !out[start..].contains(&m)
                {
                    out.push(m);
                }
            }
            // Only a cell with somewhere to go is checked for splitting its cage.
            if out.len() > start && !self.connected_without(from, c) {
                out.truncate(start);
            }
        }
        out
    }

    /// Whether cage `id` stays connected without cell `gone`.
    fn connected_without(&self, id: usize, gone: usize) -> bool {
        let rest: Vec<usize> = self.cells[id]
            .iter()
            .copied()
            .filter(|&c| c != gone)
            .collect();
        let mut seen = vec![rest[0]];
        let mut todo = vec![rest[0]];
        while let Some(c) = todo.pop() {
            for d in self.neighbours(c) {
                if d != gone && self.of[d] == id && !seen.contains(&d) {
                    seen.push(d);
                    todo.push(d);
                }
            }
        }
        seen.len() == rest.len()
    }

    /// Moves `m.cell` into cage `m.to`.
    pub fn shift(&mut self, m: Move) {
        let from = self.of[m.cell];
        self.cells[from].retain(|&c| c != m.cell);
        self.cells[m.to].push(m.cell);
        self.of[m.cell] = m.to;
    }

    /// A random partition of the solved grid `solution` (`side` x `side`) into
    /// connected cages of distinct digits, each grown towards a size drawn from
    /// `sizes`; unless `sizes` allows one cell, a cell left alone joins a
    /// touching cage where it can.
    pub fn random(
        solution: &[u8],
        shape: Shape,
        sizes: std::ops::RangeInclusive<usize>,
        avoid_deadly: bool,
        rng: &mut Rng,
    ) -> Cages {
        let side = shape.side();
        let n = side * side;
        let mut cages = Cages {
            side,
            shape,
            avoid_deadly,
            solution: solution.to_vec(),
            of: vec![usize::MAX; n],
            cells: Vec::new(),
        };
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(rng);
        for &start in &order {
            if cages.of[start] != usize::MAX {
                continue;
            }
            let target = rng.gen_range(sizes.clone());
            let id = cages.cells.len();
            cages.cells.push(vec![start]);
            cages.of[start] = id;
            let mut digits = cages.digit(start);
            while cages.cells[id].len() < target {
                let frontier: Vec<usize> = cages.cells[id]
                    .iter()
                    .flat_map(|&c| cages.neighbours(c))
                    .filter(|&c| {
                        cages.of[c] == usize::MAX
                            && digits & cages.digit(c) == 0
                            && !cages.pairs_deadly(c, &cages.cells[id])
                    })
                    .collect();
                let Some(&next) = frontier.choose(rng) else {
                    break;
                };
                cages.cells[id].push(next);
                cages.of[next] = id;
                digits |= cages.digit(next);
            }
        }
        if *sizes.start() > 1 {
            cages.absorb_singles(*sizes.end(), rng);
        }
        cages
    }

    /// Joins every one-cell cage to a random touching cage that lacks its digit
    /// and has room (a one-cell cage is a given in disguise).
    fn absorb_singles(&mut self, max: usize, rng: &mut Rng) {
        for id in 0..self.cells.len() {
            if self.cells[id].len() != 1 {
                continue;
            }
            let mut options: Vec<Merge> = self
                .merges(max + 1)
                .into_iter()
                .filter(|m| m.gone == id || m.keep == id)
                .collect();
            options.shuffle(rng);
            if let Some(&m) = options.first() {
                self.merge(m);
            }
        }
    }

    /// Whether cell `x` in one cage with any of `cells` would make two
    /// corners of a deadly rectangle whose other two already share a cage
    /// (see the module's doc).
    fn pairs_deadly(&self, x: usize, cells: &[usize]) -> bool {
        if !self.avoid_deadly {
            return false;
        }
        let side = self.side;
        let (x_row, x_col) = (x / side, x % side);
        cells.iter().any(|&y| {
            let (y_row, y_col) = (y / side, y % side);
            // The other two corners: along the other line through x's column
            // (row pair) or row (column pair), where y's digit is.
            let (first, second) = if x_row == y_row {
                let Some(r) =
                    (0..side).find(|&r| self.solution[r * side + x_col] == self.solution[y])
                else {
                    return false;
                };
                (r * side + x_col, r * side + y_col)
            } else if x_col == y_col {
                let Some(c) =
                    (0..side).find(|&c| self.solution[x_row * side + c] == self.solution[y])
                else {
                    return false;
                };
                (x_row * side + c, y_row * side + c)
            } else {
                return false;
            };
            self.solution[second] == self.solution[x]
                && self.of[first] != usize::MAX
                && self.of[first] == self.of[second]
                && self.swap_keeps_houses([x, second], [y, first])
        })
    }

    /// Whether swapping the digits of cells `a` (holding one digit) and `b`
    /// (the other) keeps every box's and diagonal's digits: each holds as
    /// many of `a` as of `b` (rows and columns always do, the four cells
    /// being a rectangle).
    fn swap_keeps_houses(&self, a: [usize; 2], b: [usize; 2]) -> bool {
        let (side, shape) = (self.side, self.shape);
        let box_of = |c: usize| (c / side / shape.box_rows, c % side / shape.box_cols);
        let count = |cells: &[usize; 2], within: &dyn Fn(usize) -> bool| {
            cells.iter().filter(|&&d| within(d)).count()
        };
        let same = |within: &dyn Fn(usize) -> bool| count(&a, within) == count(&b, within);
        let boxes = a
            .iter()
            .chain(&b)
            .all(|&c| same(&|d| box_of(d) == box_of(c)));
        boxes
            && (!shape.diagonals
                || (same(&|d| d / side == d % side) && same(&|d| d / side + d % side == side - 1)))
    }

    /// The value bit of cell `c`'s solution digit.
    fn digit(&self, c: usize) -> u32 {
        1 << (self.solution[c] - 1)
    }

    /// The digits of cage `id`, as a bitmask.
    fn digits(&self, id: usize) -> u32 {
        self.cells[id].iter().fold(0, |m, &c| m | self.digit(c))
    }

    /// The orthogonal neighbours of cell `c`.
    fn neighbours(&self, c: usize) -> impl Iterator<Item = usize> {
        let side = self.side;
        let (r, col) = (c / side, c % side);
        [
            (r > 0).then(|| c - side),
            (r + 1 < side).then(|| c + side),
            (col > 0).then(|| c - 1),
            (col + 1 < side).then(|| c + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// Every pair of touching cages with distinct digits whose union has at most
    /// `max` cells, each pair once.
    pub fn merges(&self, max: usize) -> Vec<Merge> {
        let ids = self.cells.len();
        let digits: Vec<u32> = (0..ids).map(|id| self.digits(id)).collect();
        // Pairs already met, as `a * ids + b`: a pair touches along several edges.
        let mut met = vec![false; ids * ids];
        let mut out = Vec::new();
        for (c, &a) in self.of.iter().enumerate() {
            for d in self.neighbours(c) {
                let b = self.of[d];
                if a < b
                    && !std::mem::replace(&mut met[a * ids + b], true)
                    && self.cells[a].len() + self.cells[b].len() <= max
                    && digits[a] & digits[b] == 0
                    && !self.cells[a]
                        .iter()
                        .any(|&x| self.pairs_deadly(x, &self.cells[b]))
                {
                    out.push(Merge { keep: a, gone: b });
                }
            }
        }
        out
    }

    /// How many digit sets the cage `m` would make could fill it: few (one, as
    /// for 3 in two cells) makes it easy to read, many makes it hard.
    pub fn combinations_after(&self, m: Merge) -> usize {
        let k = self.cells[m.keep].len() + self.cells[m.gone].len();
        let sum = self.sum(m.keep) + self.sum(m.gone);
        combinations(k as u32, sum, self.side as u32, usize::MAX).map_or(usize::MAX, |c| c.len())
    }

    /// Moves the cells of `m.gone` into `m.keep`.
    pub fn merge(&mut self, m: Merge) {
        let moved = std::mem::take(&mut self.cells[m.gone]);
        for &c in &moved {
            self.of[c] = m.keep;
        }
        self.cells[m.keep].extend(moved);
    }

    /// The sum of cage `id`.
    fn sum(&self, id: usize) -> u32 {
        self.cells[id]
            .iter()
            .map(|&c| u32::from(self.solution[c]))
            .sum()
    }

    /// The number of cages.
    pub fn count(&self) -> usize {
        self.cells.iter().filter(|c| !c.is_empty()).count()
    }

    /// The cages as (cells as `[row, column]`, sum), in reading order of their
    /// first cell.
    pub fn list(&self) -> Vec<(Vec<[u32; 2]>, u32)> {
        let mut ids: Vec<usize> = (0..self.cells.len())
            .filter(|&id| !self.cells[id].is_empty())
            .collect();
        ids.sort_by_key(|&id| self.cells[id].iter().min().copied());
        ids.into_iter()
            .map(|id| {
                let mut cells = self.cells[id].clone();
                cells.sort_unstable();
                let coords = cells
                    .iter()
                    .map(|&c| [(c / self.side) as u32, (c % self.side) as u32])
                    .collect();
                (coords, self.sum(id))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugin_sdk::engine::generate::random_solution;
    use plugin_sdk::engine::seed::rng_for;

    /// A solved 4x4 grid.
    const SOLVED: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    /// Its 2x2 boxes, no diagonals.
    const SHAPE: Shape = Shape {
        box_rows: 2,
        box_cols: 2,
        diagonals: false,
    };

    #[test]
    fn a_partition_covers_every_cell_once_with_distinct_digits() {
        for seed in 0..20 {
            let cages = Cages::random(&SOLVED, SHAPE, 2..=3, true, &mut rng_for(&seed.to_string()));
            let list = cages.list();
            let mut seen = [false; 16];
            for (cells, sum) in &list {
                let digits: Vec<u8> = cells
                    .iter()
                    .map(|&[r, c]| SOLVED[(r * 4 + c) as usize])
                    .collect();
                let mut unique = digits.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), digits.len(), "repeated digit in {cells:?}");
                assert_eq!(*sum, digits.iter().map(|&d| u32::from(d)).sum::<u32>());
                for &[r, c] in cells {
                    let i = (r * 4 + c) as usize;
                    assert!(!seen[i], "cell {i} in two cages");
                    seen[i] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
            assert_eq!(list.iter().map(|(_, s)| s).sum::<u32>(), 40);
        }
    }

    #[test]
    fn a_move_keeps_every_cage_connected_with_distinct_digits() {
        for seed in 0..20 {
            let mut cages =
                Cages::random(&SOLVED, SHAPE, 3..=3, true, &mut rng_for(&seed.to_string()));
            for m in cages.moves(4) {
                let mut next = cages.clone();
                let from = next.of[m.cell];
                next.shift(m);
                assert_eq!(next.of[m.cell], m.to);
                assert!(next.cells[from].len() >= 2, "a cage left with one cell");
                for id in [from, m.to] {
                    let cells = &next.cells[id];
                    assert!(next.connected_without(id, usize::MAX), "cage {id} split");
                    assert_eq!(
                        next.digits(id).count_ones() as usize,
                        cells.len(),
                        "repeated digit"
                    );
                    assert!(cells.len() <= 4);
                }
                assert_eq!(next.list().iter().map(|(_, s)| s).sum::<u32>(), 40);
            }
            if let Some(&m) = cages.moves(4).first() {
                cages.shift(m);
            }
        }
    }

    #[test]
    fn a_merge_joins_two_touching_cages() {
        let mut cages = Cages::random(&SOLVED, SHAPE, 1..=1, true, &mut rng_for("m"));
        let before = cages.count();
        let merges = cages.merges(2);
        assert!(!merges.is_empty());
        let m = merges[0];
        let combos = cages.combinations_after(m);
        assert!(combos >= 1);
        cages.merge(m);
        assert_eq!(cages.count(), before - 1);
        assert!(cages.merges(2).iter().all(|x| x.gone != m.gone));
    }

    #[test]
    fn a_cell_joining_one_corner_pair_of_a_deadly_rectangle_is_seen() {
        // The 4x4 grid's cells with cages `cages` (the rest in none yet).
        let layout = |cages: &[&[usize]]| {
            let mut of = vec![usize::MAX; 16];
            for (id, cells) in cages.iter().enumerate() {
                for &c in *cells {
                    of[c] = id;
                }
            }
            Cages {
                side: 4,
                shape: SHAPE,
                avoid_deadly: true,
                solution: SOLVED.to_vec(),
                of,
                cells: cages.iter().map(|c| c.to_vec()).collect(),
            }
        };
        // Row pairs: cells 0 and 1 (1 2) share a cage; 8 and 9 (2 1) are two
        // boxes down.
        let mut rows = layout(&[&[0, 1], &[8]]);
        assert!(rows.pairs_deadly(9, &[8]));
        // Cell 10 with 8 makes 2 4 / 4 2 with 12 and 14, which share no cage.
        assert!(!rows.pairs_deadly(10, &[8]));
        rows.avoid_deadly = false;
        assert!(!rows.pairs_deadly(9, &[8]));
        // Column pairs: 1 above 2 in cells 0 and 8, 2 above 1 in 1 and 9.
        let columns = layout(&[&[1, 9], &[0]]);
        assert!(columns.pairs_deadly(8, &[0]));
        assert!(!layout(&[&[1], &[0]]).pairs_deadly(8, &[0]));
    }

    /// Whether some rectangle of `cages` holds `a b / b a` in two boxes with
    /// both its row pairs, or both its column pairs, in one cage each
    /// (checked corner by corner, unlike `pairs_deadly`).
    fn has_deadly_rectangle(cages: &Cages, box_side: usize) -> bool {
        let side = cages.side;
        let at = |r: usize, c: usize| r * side + c;
        let box_of = |i: usize| (i / side / box_side, i % side / box_side);
        (0..side).any(|r1| {
            (r1 + 1..side).any(|r2| {
                (0..side).any(|c1| {
                    (c1 + 1..side).any(|c2| {
                        let [a, b, c, d] = [at(r1, c1), at(r1, c2), at(r2, c1), at(r2, c2)];
                        let s = &cages.solution;
                        let swapped = s[a] == s[d] && s[b] == s[c];
                        let two_boxes = (box_of(a) == box_of(b) && box_of(c) == box_of(d))
                            || (box_of(a) == box_of(c) && box_of(b) == box_of(d));
                        let of = &cages.of;
                        let paired = (of[a] == of[b] && of[c] == of[d])
                            || (of[a] == of[c] && of[b] == of[d]);
                        swapped && two_boxes && paired
                    })
                })
            })
        })
    }

    #[test]
    fn partitions_and_merges_keep_out_of_deadly_rectangles() {
        let model = plugin_sdk::engine::geometry::classic(3, 3).expect("classic");
        let shape = Shape {
            box_rows: 3,
            box_cols: 3,
            diagonals: false,
        };
        let mut seen_without = 0;
        for seed in 0..40 {
            let mut rng = rng_for(&format!("deadly-{seed}"));
            let solution = random_solution(&model, &mut rng).expect("a solution");
            for avoid in [true, false] {
                let mut rng = rng_for(&format!("cages-{seed}"));
                let mut cages = Cages::random(&solution, shape, 2..=3, avoid, &mut rng);
                // Merge down to 20 cages, checking each layout on the way.
                loop {
                    let deadly = has_deadly_rectangle(&cages, 3);
                    assert!(!(avoid && deadly), "seed {seed}: a deadly rectangle");
                    seen_without += usize::from(deadly);
                    let merges = cages.merges(6);
                    match merges.choose(&mut rng) {
                        Some(&m) if cages.count() > 20 => cages.merge(m),
                        _ => break,
                    }
                }
            }
        }
        // Without the check, layouts do pair cells so.
        assert!(seen_without > 0);
    }
}
