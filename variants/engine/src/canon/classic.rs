//! The canonical form of an n-Sudoku (n ≤ 9): the least grid over bands,
//! stacks, rows within bands, columns within stacks, transposition (square
//! boxes) and digit renaming, found row by row. While the least rows are
//! empty, the column order does not matter and is left open; the first row
//! with clues is the one whose clues can be pushed furthest right, and only
//! the column orders that push them there are kept; each next row is the
//! least any kept state can make, and only the states that make it go on.
//! What is left at the end all make the same grid.

use super::relabelled;
use std::cmp::Ordering;

/// The shape of an n-Sudoku and its row and column orders.
#[derive(Clone, Debug)]
pub struct Shape {
    n: usize,
    box_rows: usize,
    box_cols: usize,
    /// Every column order that keeps stacks together: output column `j`
    /// shows source column `order[j]`.
    col_orders: Vec<Vec<u8>>,
    /// For each set of filled columns (a bit each), the column orders that
    /// push them furthest right, and that pattern (the first column the
    /// highest bit).
    pushing_right: Vec<(u32, Vec<u16>)>,
}

impl Shape {
    /// The n-Sudoku of `box_rows` x `box_cols` boxes.
    pub fn new(box_rows: usize, box_cols: usize) -> Shape {
        let n = box_rows * box_cols;
        let col_orders = orders_of(n, box_cols);
        let pushing_right = (0..1u32 << n)
            .map(|occ| {
                let mut best = u32::MAX;
                let mut tied = Vec::new();
                for (i, order) in col_orders.iter().enumerate() {
                    let pattern = order
                        .iter()
                        .fold(0u32, |key, &col| key << 1 | (occ >> col) & 1);
                    if pattern < best {
                        best = pattern;
                        tied.clear();
                    }
                    if pattern == best {
                        tied.push(i as u16);
                    }
                }
                (best, tied)
            })
            .collect();
        Shape {
            n,
            box_rows,
            box_cols,
            col_orders,
            pushing_right,
        }
    }

    /// The number of values (and rows, and columns).
    pub fn size(&self) -> u32 {
        self.n as u32
    }

    /// How many cell permutations the group has.
    pub fn order(&self) -> u64 {
        let rows = orders_count(self.n, self.box_rows);
        let cols = self.col_orders.len() as u64;
        let transpose = if self.box_rows == self.box_cols { 2 } else { 1 };
        rows * cols * transpose
    }
}

/// `k!`.
fn factorial(k: usize) -> u64 {
    (1..=k as u64).product()
}

/// How many orders of `n` lines keep groups of `group` together.
fn orders_count(n: usize, group: usize) -> u64 {
    let groups = n / group;
    factorial(groups) * factorial(group).pow(groups as u32)
}

/// Every order of `n` lines that keeps groups of `group` together.
pub(super) fn orders_of(n: usize, group: usize) -> Vec<Vec<u8>> {
    let groups = n / group;
    let mut out = Vec::new();
    for group_order in permutations(groups) {
        let mut partial: Vec<Vec<u8>> = vec![Vec::new()];
        for &g in &group_order {
            let inner = permutations(group);
            partial = partial
                .iter()
                .flat_map(|p| {
                    inner.iter().map(move |i| {
                        let mut q = p.clone();
                        q.extend(i.iter().map(|&x| (g * group + x) as u8));
                        q
                    })
                })
                .collect();
        }
        out.extend(partial);
    }
    out
}

/// Every permutation of `0..k`.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(k - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, k - 1);
            out.push(q);
        }
    }
    out
}

/// One way of reading the source so far.
#[derive(Clone, Copy)]
struct State {
    /// Which view of the source (1: transposed).
    view: u8,
    /// The source rows used so far (a bit each) and the last one.
    used: u32,
    last: u8,
    /// Index of the column order.
    columns: u16,
    /// Source digit → its new name (0: not named yet), and the next name.
    names: [u8; 10],
    next: u8,
}

/// The name of source digit `v` (0 stays 0), naming it next if it has none.
fn name(v: u8, state: &mut State) -> u8 {
    if v == 0 {
        return 0;
    }
    let name = &mut state.names[usize::from(v)];
    if *name == 0 {
        state.next += 1;
        *name = state.next;
    }
    *name
}

/// Source row `row` of `view` read in column order `columns` with `state`'s
/// names, naming new digits as they come; the names are kept in `state`.
fn read_row(view: &[u8], n: usize, row: usize, columns: &[u8], state: &mut State, out: &mut [u8]) {
    for (slot, &c) in out.iter_mut().zip(columns) {
        *slot = name(view[row * n + usize::from(c)], state);
    }
}

/// The canonical form of `givens` (row-major, 0 empty) on `shape`.
pub fn canonical(shape: &Shape, givens: &[u8]) -> Vec<u8> {
    let n = shape.n;
    if givens.len() != n * n || givens.iter().any(|&v| usize::from(v) > n) {
        // Not a grid of this shape: its own form, digits renamed.
        let mut out = givens.to_vec();
        relabelled(&mut out);
        return out;
    }
    let mut views = vec![givens.to_vec()];
    if shape.box_rows == shape.box_cols {
        views.push((0..n * n).map(|i| givens[(i % n) * n + i / n]).collect());
    }
    let mut grid = Vec::with_capacity(n * n);
    let Some(mut states) = empty_rows_then_first(shape, &views, &mut grid) else {
        return grid;
    };
    let (mut row, mut best) = ([0u8; 9], [0u8; 9]);
    for _ in grid.len() / n..n {
        let k = grid.len() / n;
        let mut next: Vec<State> = Vec::new();
        let mut have_best = false;
        for state in &states {
            let view = &views[usize::from(state.view)];
            let columns = &shape.col_orders[usize::from(state.columns)];
            for source in next_rows(shape, state.used, state.last, k) {
                let mut s = *state;
                // Read and compare at once: most rows lose at their first
                // cell that differs from the best.
                let mut order = if have_best {
                    Ordering::Equal
                } else {
                    Ordering::Less
                };
                let cells = &view[source * n..source * n + n];
                for (j, &c) in columns.iter().enumerate() {
                    let value = name(cells[usize::from(c)], &mut s);
                    if order == Ordering::Equal {
                        order = value.cmp(&best[j]);
                        if order == Ordering::Greater {
                            break;
                        }
                    }
                    row[j] = value;
                }
                s.used |= 1 << source;
                s.last = source as u8;
                match order {
                    Ordering::Less => {
                        best[..n].copy_from_slice(&row[..n]);
                        have_best = true;
                        next.clear();
                        next.push(s);
                    }
                    Ordering::Equal => next.push(s),
                    Ordering::Greater => {}
                }
            }
        }
        grid.extend_from_slice(&best[..n]);
        states = next;
    }
    grid
}

/// The source rows that may come `k`-th after rows `used` (the last
/// `last`): the rest of the last row's band, or at a band's start any row
/// of an unused band.
fn next_rows(shape: &Shape, used: u32, last: u8, k: usize) -> impl Iterator<Item = usize> {
    let (n, r) = (shape.n, shape.box_rows);
    let band = usize::from(last) / r;
    let starts_band = k.is_multiple_of(r);
    (0..n).filter(move |&row| {
        if used & (1 << row) != 0 {
            return false;
        }
        if starts_band {
            (0..r).all(|i| used & (1 << ((row / r) * r + i)) == 0)
        } else {
            row / r == band
        }
    })
}

/// A way of reading the source while every row so far is empty: no column
/// order chosen yet.
#[derive(Clone, Copy)]
struct Open {
    view: u8,
    used: u32,
    last: u8,
}

/// The leading empty rows (as zeros into `grid`), then the first row with
/// clues: the least pattern any row can be read into (its clues pushed
/// right) into `grid`, and the states (view, rows, column order) that read
/// it. `None` when the grid is empty.
fn empty_rows_then_first(
    shape: &Shape,
    views: &[Vec<u8>],
    grid: &mut Vec<u8>,
) -> Option<Vec<State>> {
    let n = shape.n;
    let occupied = |view: &[u8], row: usize| {
        (0..n).fold(0u32, |m, col| {
            m | u32::from(view[row * n + col] != 0) << col
        })
    };
    // A pattern as a number whose highest bit is the first column: less is
    // better (an empty cell before a clue); 0 is an empty row.
    let best_pattern = |occ: u32| shape.pushing_right[occ as usize].0;
    let mut open: Vec<Open> = (0..views.len())
        .map(|v| Open {
            view: v as u8,
            used: 0,
            last: 0,
        })
        .collect();
    for k in 0..n {
        let mut best = u32::MAX;
        let mut tied: Vec<(Open, usize, u32)> = Vec::new();
        for o in &open {
            let view = &views[usize::from(o.view)];
            for row in next_rows(shape, o.used, o.last, k) {
                let occ = occupied(view, row);
                let pattern = best_pattern(occ);
                if pattern < best {
                    best = pattern;
                    tied.clear();
                }
                if pattern == best {
                    tied.push((*o, row, occ));
                }
            }
        }
        if best == 0 {
            grid.extend(std::iter::repeat_n(0, n));
            open = tied
                .iter()
                .map(|&(o, row, _)| Open {
                    used: o.used | 1 << row,
                    last: row as u8,
                    ..o
                })
                .collect();
            continue;
        }
        let mut states = Vec::new();
        let mut first = vec![0u8; n];
        for &(o, row, occ) in &tied {
            let view = &views[usize::from(o.view)];
            for &i in &shape.pushing_right[occ as usize].1 {
                let order = &shape.col_orders[usize::from(i)];
                let mut s = State {
                    view: o.view,
                    used: o.used | 1 << row,
                    last: row as u8,
                    columns: i,
                    names: [0; 10],
                    next: 0,
                };
                read_row(view, n, row, order, &mut s, &mut first);
                states.push(s);
            }
        }
        grid.extend_from_slice(&first);
        return Some(states);
    }
    None
}
