//! Constraints a complete solution satisfies, found at random: the pool a
//! generator draws its clues from. Lines are random walks whose every step
//! keeps the line's rule; marks between cells and outside clues are read off
//! the solution wherever they hold.

use super::ClueKind;
use crate::seed::Rng;
use protocol::{Constraint, Coord, Place};
use rand::seq::SliceRandom;
use rand::Rng as _;

/// A full square layout and its solution, read by position.
pub(crate) struct Solved<'a> {
    /// Cells per side (and values: 1..=side).
    pub side: u32,
    /// One value per cell, row-major.
    pub values: &'a [u8],
}

impl Solved<'_> {
    fn at(&self, [r, c]: Coord) -> u32 {
        u32::from(self.values[(r * self.side + c) as usize])
    }

    fn inside(&self, r: i64, c: i64) -> Option<Coord> {
        let side = i64::from(self.side);
        ((0..side).contains(&r) && (0..side).contains(&c)).then_some([r as u32, c as u32])
    }

    /// The cells a king's move from `cell`, in random order.
    fn neighbours(&self, [r, c]: Coord, rng: &mut Rng) -> Vec<Coord> {
        let mut out = Vec::with_capacity(8);
        for dr in -1..=1i64 {
            for dc in -1..=1i64 {
                if (dr, dc) != (0, 0) {
                    out.extend(self.inside(i64::from(r) + dr, i64::from(c) + dc));
                }
            }
        }
        out.shuffle(rng);
        out
    }

    /// Every pair of orthogonally adjacent cells.
    fn adjacent_pairs(&self) -> Vec<[Coord; 2]> {
        let n = self.side;
        let mut pairs = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if c + 1 < n {
                    pairs.push([[r, c], [r, c + 1]]);
                }
                if r + 1 < n {
                    pairs.push([[r, c], [r + 1, c]]);
                }
            }
        }
        pairs
    }
}

/// How a line grows: whether `next` may follow the cells so far, and whether
/// the cells so far make a finished line.
struct LineRule<'r> {
    lengths: std::ops::RangeInclusive<usize>,
    step: &'r dyn Fn(&[u32], u32) -> bool,
    done: &'r dyn Fn(&[u32]) -> bool,
}

/// Random walks from random free cells, each step to a free neighbour that
/// `rule` allows, stopping at a random length; up to `wanted` finished lines
/// on cells `used` did not hold (and marks them used).
fn walks(
    grid: &Solved,
    rng: &mut Rng,
    used: &mut [bool],
    wanted: usize,
    rule: &LineRule,
) -> Vec<Vec<Coord>> {
    let n = grid.side;
    let free = |used: &[bool], [r, c]: Coord| !used[(r * n + c) as usize];
    let mut lines = Vec::new();
    for _ in 0..wanted * 20 {
        if lines.len() == wanted {
            break;
        }
        let start = [rng.gen_range(0..n), rng.gen_range(0..n)];
        if !free(used, start) {
            continue;
        }
        let target = rng.gen_range(rule.lengths.clone());
        let mut path = vec![start];
        let mut values = vec![grid.at(start)];
        while path.len() < target {
            let last = path[path.len() - 1];
            let next = grid
                .neighbours(last, rng)
                .into_iter()
                .find(|&x| free(used, x) && !path.contains(&x) && (rule.step)(&values, grid.at(x)));
            let Some(next) = next else { break };
            path.push(next);
            values.push(grid.at(next));
        }
        if rule.lengths.contains(&path.len()) && (rule.done)(&values) {
            for &[r, c] in &path {
                used[(r * n + c) as usize] = true;
            }
            lines.push(path);
        }
    }
    lines
}

/// Up to `wanted` arrows: a circle whose digit the cells of its shaft (a
/// walk from a neighbour) add up to, two to four of them.
fn arrows(grid: &Solved, rng: &mut Rng, used: &mut [bool], wanted: usize) -> Vec<Constraint> {
    let n = grid.side;
    let mut out = Vec::new();
    for _ in 0..wanted * 20 {
        if out.len() == wanted {
            break;
        }
        let circle = [rng.gen_range(0..n), rng.gen_range(0..n)];
        let total = grid.at(circle);
        if used[(circle[0] * n + circle[1]) as usize] || total < 3 {
            continue;
        }
        let mut line: Vec<Coord> = Vec::new();
        let mut sum = 0;
        let mut last = circle;
        while sum < total && line.len() < 4 {
            let next = grid.neighbours(last, rng).into_iter().find(|&x| {
                !used[(x[0] * n + x[1]) as usize]
                    && x != circle
                    && !line.contains(&x)
                    && sum + grid.at(x) <= total
            });
            let Some(next) = next else { break };
            sum += grid.at(next);
            line.push(next);
            last = next;
        }
        if sum == total && line.len() >= 2 {
            for &[r, c] in line.iter().chain([&circle]) {
                used[(r * n + c) as usize] = true;
            }
            out.push(Constraint::Arrow {
                circle: vec![circle],
                line,
            });
        }
    }
    out
}

/// Every diagonal from outside the grid, two cells or more and short of a
/// full main diagonal, with its sum: little killer clues, each diagonal once
/// (from one of its two ends, at random: the other end's clue says the same).
fn little_killers(grid: &Solved, rng: &mut Rng) -> Vec<Constraint> {
    let n = i64::from(grid.side);
    let mut out = Vec::new();
    // Each direction from each outside place along the top and the sides.
    for (dr, dc) in [(1i64, 1i64), (1, -1), (-1, 1), (-1, -1)] {
        for start in 0..n {
            for (r0, c0) in [
                (if dr > 0 { 0 } else { n - 1 }, start),
                (start, if dc > 0 { 0 } else { n - 1 }),
            ] {
                let mut cells = Vec::new();
                let (mut r, mut c) = (r0, c0);
                while let Some(cell) = grid.inside(r, c) {
                    cells.push(cell);
                    r += dr;
                    c += dc;
                }
                if cells.len() < 2 || cells.len() >= grid.side as usize {
                    continue;
                }
                let clue: Place = [(r0 - dr) as i32, (c0 - dc) as i32];
                let sum = cells.iter().map(|&x| grid.at(x)).sum();
                let mut diagonal = cells.clone();
                diagonal.sort_unstable();
                out.push((
                    diagonal,
                    Constraint::LittleKiller {
                        cells,
                        sum,
                        clue: Some(clue),
                    },
                ));
            }
        }
    }
    out.shuffle(rng);
    let mut seen = std::collections::HashSet::new();
    out.into_iter()
        .filter(|(diagonal, _)| seen.insert(diagonal.clone()))
        .map(|(_, clue)| clue)
        .collect()
}

/// Each row's and column's sandwich sum (between its 1 and its highest digit).
fn sandwiches(grid: &Solved) -> Vec<Constraint> {
    let n = grid.side;
    let mut out = Vec::new();
    for i in 0..n {
        for (cells, clue) in [
            ((0..n).map(|c| [i, c]).collect::<Vec<_>>(), [i as i32, -1]),
            ((0..n).map(|r| [r, i]).collect(), [-1, i as i32]),
        ] {
            let values: Vec<u32> = cells.iter().map(|&x| grid.at(x)).collect();
            let at = |v| values.iter().position(|&x| x == v).unwrap_or(0);
            let (a, b) = (at(1), at(n));
            let (lo, hi) = (a.min(b), a.max(b));
            let sum = values[lo + 1..hi].iter().sum();
            out.push(Constraint::Sandwich {
                cells,
                sum,
                clue: Some(clue),
            });
        }
    }
    out
}

/// Lines tried for on one grid: two per row (the reduction drops most).
fn lines_wanted(grid: &Solved) -> usize {
    2 * grid.side as usize
}

/// Constraints of `kind` that `grid` satisfies, in random order; lines avoid
/// (and mark) the cells in `used`.
pub(crate) fn candidates(
    kind: ClueKind,
    grid: &Solved,
    rng: &mut Rng,
    used: &mut [bool],
) -> Vec<Constraint> {
    let n = grid.side;
    let wanted = lines_wanted(grid);
    let mut out = match kind {
        ClueKind::Thermometer => {
            let step = |v: &[u32], next: u32| v.last().is_some_and(|&l| next > l);
            let rule = LineRule {
                lengths: 3..=8,
                step: &step,
                done: &|_| true,
            };
            walks(grid, rng, used, wanted, &rule)
                .into_iter()
                .map(|cells| Constraint::Thermometer { cells, slow: false })
                .collect()
        }
        ClueKind::Arrow => arrows(grid, rng, used, wanted),
        ClueKind::Renban => {
            let step = |v: &[u32], next: u32| {
                let lo = v.iter().copied().min().unwrap_or(next).min(next);
                let hi = v.iter().copied().max().unwrap_or(next).max(next);
                !v.contains(&next) && hi - lo <= 4
            };
            let done = |v: &[u32]| {
                let lo = v.iter().copied().min().unwrap_or(0);
                let hi = v.iter().copied().max().unwrap_or(0);
                (hi - lo) as usize + 1 == v.len()
            };
            let rule = LineRule {
                lengths: 3..=5,
                step: &step,
                done: &done,
            };
            walks(grid, rng, used, wanted, &rule)
                .into_iter()
                .map(|cells| Constraint::Renban { cells })
                .collect()
        }
        ClueKind::Whispers => {
            let difference = whisper_difference(n);
            let step = move |v: &[u32], next: u32| {
                v.last().is_some_and(|&l| l.abs_diff(next) >= difference)
            };
            let rule = LineRule {
                lengths: 3..=7,
                step: &step,
                done: &|_| true,
            };
            walks(grid, rng, used, wanted, &rule)
                .into_iter()
                .map(|cells| Constraint::Whispers { cells, difference })
                .collect()
        }
        ClueKind::Kropki => grid
            .adjacent_pairs()
            .into_iter()
            .filter_map(|cells| {
                let (a, b) = (grid.at(cells[0]), grid.at(cells[1]));
                if a == 2 * b || b == 2 * a {
                    Some(Constraint::Ratio { cells, value: 2 })
                } else if a.abs_diff(b) == 1 {
                    Some(Constraint::Difference { cells, value: 1 })
                } else {
                    None
                }
            })
            .collect(),
        ClueKind::Xv => grid
            .adjacent_pairs()
            .into_iter()
            .filter_map(|cells| {
                let sum = grid.at(cells[0]) + grid.at(cells[1]);
                (sum == 5 || sum == 10).then_some(Constraint::Xv { cells, sum })
            })
            .collect(),
        ClueKind::EvenOdd => (0..n * n)
            .map(|i| {
                let cell = [i / n, i % n];
                if grid.at(cell).is_multiple_of(2) {
                    Constraint::Even { cells: vec![cell] }
                } else {
                    Constraint::Odd { cells: vec![cell] }
                }
            })
            .collect(),
        ClueKind::LittleKiller => little_killers(grid, rng),
        ClueKind::Sandwich => sandwiches(grid),
    };
    out.shuffle(rng);
    out
}

/// How far apart neighbours on a whisper line are: German whispers' 5 on
/// 9x9, half the digits (rounded up) on other sizes.
pub fn whisper_difference(side: u32) -> u32 {
    side.div_ceil(2)
}
