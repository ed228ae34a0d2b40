//! A specialised solver for classic 9x9 Sudoku: JCZSolve's algorithm.
//!
//! Candidates are kept per digit and per band: `f[d * 3 + b]` holds 27 bits, one per
//! cell of band `b` (rows `3b..3b+3`, bit `row_in_band * 9 + col`). Inside a band, a
//! digit's cells must form one cell per row and one per box, i.e. a permutation of
//! row/box segments; a 512-entry table keeps exactly the segments some permutation
//! can use, which performs locked-candidate (pointing/claiming) reasoning and
//! in-band hidden singles in one lookup. A box left with one column for the digit
//! removes that column from the digit's other bands; a row whose segment is forced
//! and whose box has one column is solved, and the other digits lose its cell. All
//! of it is table lookups and unconditional masking (no data-dependent branches); an
//! entry is revisited when it differs from what the tables last saw. Naked singles
//! run between table passes and note the bivalue cells; the search branches on the
//! bivalue cell with the most unsolved peers.

/// Cells of each row of a band.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// Cells of one box of a band (index = box column 0..3).
const BOX: [u32; 3] = [0x1C0E07, 0x1C0E07 << 3, 0x1C0E07 << 6];

/// Cells of one column of a band.
const fn column(col: u32) -> u32 {
    1 << col | 1 << (col + 9) | 1 << (col + 18)
}

/// Which of a row's three box segments are non-empty, for every 9-bit row.
const SEGMENTS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if (row >> (3 * k)) & 7 != 0 {
                t[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    t
};

/// The six ways to give each row of a band its own box: row `r` to box `PERMS[p][r]`.
const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a set of non-empty segments (bit `row * 3 + box`): the segments that some
/// fitting row-to-box permutation uses, and those that every one uses (both 0 when
/// none fits).
const fn fitting_segments(seg: u32) -> (u32, u32) {
    let (mut some, mut every, mut any) = (0u32, 511u32, false);
    let mut p = 0;
    while p < 6 {
        let mut used = 0u32;
        let mut r = 0;
        while r < 3 {
            used |= 1 << (r * 3 + PERMS[p][r as usize]);
            r += 1;
        }
        if seg & used == used {
            some |= used;
            every &= used;
            any = true;
        }
        p += 1;
    }
    if any {
        (some, every)
    } else {
        (0, 0)
    }
}

/// The cells of a set of segments (bit `row * 3 + box`).
const fn segment_cells(segments: u32) -> u32 {
    let mut cells = 0;
    let mut s = 0;
    while s < 9 {
        if segments >> s & 1 != 0 {
            cells |= 7 << (s / 3 * 9 + s % 3 * 3);
        }
        s += 1;
    }
    cells
}

/// For every set of non-empty segments, the cells of the segments that some
/// row-to-box permutation uses; 0 when no permutation fits.
const PERMUTATION_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut seg = 0;
    while seg < 512 {
        t[seg] = segment_cells(fitting_segments(seg as u32).0);
        seg += 1;
    }
    t
};

/// For every set of non-empty segments, the segments every fitting row-to-box
/// permutation uses (forced segments); 0 when none fits.
const FORCED_SEGMENTS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut seg = 0;
    while seg < 512 {
        t[seg] = fitting_segments(seg as u32).1;
        seg += 1;
    }
    t
};

const ALL: u32 = (1 << 27) - 1;

/// Of a 9-bit set of columns a digit can use in a band, the boxes (bit `k`) where
/// that is a single column, and those columns.
const fn single_columns(cols: u32) -> (u32, u32) {
    let (mut boxes, mut columns) = (0u32, 0u32);
    let mut k: u32 = 0;
    while k < 3 {
        let part = (cols >> (3 * k)) & 7;
        if part == 1 || part == 2 || part == 4 {
            boxes |= 1 << k;
            columns |= part << (3 * k);
        }
        k += 1;
    }
    (boxes, columns)
}

/// For the 9-bit set of columns a digit can still use inside one band: the cells the
/// digit may keep in the other two bands. A box whose part of the set is a single
/// column puts the digit in that column, so the other bands lose the whole column.
const NEIGHBOUR_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols: u32 = 0;
    while cols < 512 {
        let single = single_columns(cols).1;
        t[cols as usize] = ALL & !(single | single << 9 | single << 18);
        cols += 1;
    }
    t
};

/// For the 9-bit set of columns a digit can use in a band: the segments (bit
/// `row * 3 + box`) of the boxes where that is a single column.
const SINGLE_COLUMN_SEGMENTS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols: u32 = 0;
    while cols < 512 {
        let boxes = single_columns(cols).0;
        t[cols as usize] = boxes | boxes << 3 | boxes << 6;
        cols += 1;
    }
    t
};

/// The number of set bits of every 9-bit value.
const POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Each of the low `bits` bits of `set` turned into a field of `width` bits holding
/// `fill` (bit `i` to `fill << (width * i)`).
const fn spread(set: usize, bits: u32, width: u32, fill: u64) -> u64 {
    let mut out = 0;
    let mut i = 0;
    while i < bits {
        if set >> i & 1 != 0 {
            out |= fill << (width * i);
        }
        i += 1;
    }
    out
}

/// A 9-bit row spread to one nibble per column, so that adding rows counts per column.
const SPREAD: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = spread(i, 9, 4, 1);
        i += 1;
    }
    t
};

/// The cells of the rows in a 3-bit row set.
const ROWS_CELLS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        t[s] = spread(s, 3, 9, 511) as u32;
        s += 1;
    }
    t
};

/// What a count found: the number of solutions (up to the limit) and the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Count9 {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// The first solution found, row-major values 1..=9 (if asked for).
    pub first: Option<[u8; 81]>,
    /// Whether to keep the first solution.
    keep_first: bool,
}

/// Search state: about 250 bytes, copied on every guess.
#[derive(Clone, Copy)]
pub(crate) struct Board9 {
    /// Candidates: `f[d * 3 + b]`.
    f: [u32; 27],
    /// What the band tables last saw of each entry.
    seen: [u32; 27],
    /// Cells not yet solved, per band.
    unsolved: [u32; 3],
    /// Cells with exactly two candidates, per band (from the last naked-single scan).
    pairs: [u32; 3],
    /// Always `ALL`; read in the update loop's condition (see `update`).
    always: u32,
}

/// The index of digit `d` (0..9) in band `b`.
#[inline(always)]
const fn at(d: usize, b: usize) -> usize {
    d * 3 + b
}

impl Board9 {
    /// A board with the givens (row-major, 0 = empty) placed; `None` if two givens
    /// clash in a row, column or box, or a value is above 9.
    pub fn new(givens: &[u8; 81]) -> Option<Board9> {
        let mut board = Board9 {
            f: [ALL; 27],
            seen: [0; 27],
            unsolved: [ALL; 3],
            pairs: [0; 3],
            always: ALL,
        };
        for (i, &g) in givens.iter().enumerate() {
            if g == 0 {
                continue;
            }
            if g > 9 {
                return None;
            }
            let (b, pos) = (i / 27, (i % 27) as u32);
            let d = g as usize - 1;
            let cell = 1 << pos;
            if board.f[at(d, b)] & cell == 0 {
                return None;
            }
            board.unsolved[b] &= !cell;
            board.place(d, b, pos);
            let col = !column(pos % 9);
            board.f[at(d, (b + 1) % 3)] &= col;
            board.f[at(d, (b + 2) % 3)] &= col;
            for e in 0..9 {
                board.f[at(e, b)] &= !cell;
            }
            board.f[at(d, b)] |= cell;
        }
        Some(board)
    }

    /// Removes `digit` (1..=9) from the candidates of `cell` (0..81).
    pub fn forbid(&mut self, cell: usize, digit: u8) {
        self.f[at(digit as usize - 1, cell / 27)] &= !(1 << (cell % 27));
    }

    /// Counts solutions, stopping at `limit`; keeps the first one if `keep_first`.
    pub fn count(mut self, limit: usize, keep_first: bool) -> Count9 {
        let mut out = Count9 {
            count: 0,
            first: None,
            keep_first,
        };
        if limit > 0 && self.naked_singles().is_ok() && self.propagate() {
            self.guess(limit, &mut out);
        }
        out
    }

    /// Keeps `d` in band `b` only at `pos` within its row and box of the band.
    #[inline]
    fn place(&mut self, d: usize, b: usize, pos: u32) {
        let (row, col) = (pos / 9, pos % 9);
        self.f[at(d, b)] &= !(ROW[row as usize] | BOX[(col / 3) as usize]) | 1 << pos;
    }

    /// Applies the band tables until nothing changes; `false` on a contradiction.
    /// (The `always` test is always true; reading it keeps LLVM from carrying
    /// entries in registers across the unrolled loop, which measured 3-5% slower,
    /// the same trick as the `sudoku` crate's.)
    fn update(&mut self) -> bool {
        macro_rules! entries {
            ($($d:literal $b:literal),*) => {
                loop {
                    let mut changed = false;
                    $(
                        if (self.always >> $d) & 511 != 0
                            && self.f[at($d, $b)] != self.seen[at($d, $b)]
                        {
                            changed = true;
                            if !self.update_entry::<$d, $b>() {
                                return false;
                            }
                        }
                    )*
                    if !changed {
                        return true;
                    }
                }
            };
        }
        entries!(
            0 0, 0 1, 0 2, 1 0, 1 1, 1 2, 2 0, 2 1, 2 2,
            3 0, 3 1, 3 2, 4 0, 4 1, 4 2, 5 0, 5 1, 5 2,
            6 0, 6 1, 6 2, 7 0, 7 1, 7 2, 8 0, 8 1, 8 2
        );
    }

    /// The band tables for digit `D` in band `B` (constants, so every index folds).
    #[inline(always)]
    fn update_entry<const D: usize, const B: usize>(&mut self) -> bool {
        let raw = self.f[at(D, B)];
        // (`& 511` everywhere a table is indexed: the values fit, and saying so
        // lets the compiler drop the bounds checks.)
        let seg = (SEGMENTS[(raw & 511) as usize]
            | SEGMENTS[(raw >> 9 & 511) as usize] << 3
            | SEGMENTS[(raw >> 18 & 511) as usize] << 6)
            & 511;
        let a = raw & PERMUTATION_CELLS[seg as usize];
        if a == 0 {
            return false;
        }
        self.f[at(D, B)] = a;
        self.seen[at(D, B)] = a;
        let cols = ((a | a >> 9 | a >> 18) & 511) as usize;
        let keep = NEIGHBOUR_CELLS[cols];
        self.f[at(D, (B + 1) % 3)] &= keep;
        self.f[at(D, (B + 2) % 3)] &= keep;
        // Rows whose segment is forced, in a box with one column: one cell each.
        let solved_segments = FORCED_SEGMENTS[seg as usize] & SINGLE_COLUMN_SEGMENTS[cols];
        let solved_rows = SEGMENTS[(solved_segments & 511) as usize];
        let solved = ROWS_CELLS[(solved_rows & 7) as usize] & a;
        self.unsolved[B] &= !solved;
        macro_rules! others {
            ($($e:literal),*) => {
                $(
                    if $e != D {
                        self.f[at($e, B)] &= !solved;
                    }
                )*
            };
        }
        others!(0, 1, 2, 3, 4, 5, 6, 7, 8);
        true
    }

    /// Places every cell with one candidate left and notes the bivalue cells.
    /// `Err` on a cell with no candidate.
    fn naked_singles(&mut self) -> Result<bool, ()> {
        let mut found = false;
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[at(d, b)];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            if one != ALL {
                return Err(());
            }
            self.pairs[b] = two ^ three;
            let mut singles = (one ^ two) & self.unsolved[b];
            while singles != 0 {
                let cell = singles & singles.wrapping_neg();
                singles ^= cell;
                let d = (0..9).find(|&d| self.f[at(d, b)] & cell != 0).ok_or(())?;
                self.place(d, b, cell.trailing_zeros());
                found = true;
            }
        }
        Ok(found)
    }

    /// Propagates to a fixpoint; `false` on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            if !self.update() {
                return false;
            }
            if self.is_solved() {
                return true;
            }
            match self.naked_singles() {
                Err(()) => return false,
                Ok(true) => continue,
                Ok(false) => {}
            }
            match self.column_singles() {
                Err(()) => return false,
                Ok(true) => continue,
                Ok(false) => return true,
            }
        }
    }

    /// Places every digit that has one cell left in a column. `Err` on a column
    /// with no place for a digit.
    fn column_singles(&mut self) -> Result<bool, ()> {
        let mut found = false;
        for d in 0..9 {
            let (mut one, mut two, mut placed) = (0u32, 0u32, 0u32);
            for b in 0..3 {
                let x = self.f[at(d, b)];
                let done = x & !self.unsolved[b];
                placed |= done | done >> 9 | done >> 18;
                for row in 0..3 {
                    let r = x >> (9 * row) & 511;
                    two |= one & r;
                    one |= r;
                }
            }
            if one != 511 {
                return Err(());
            }
            let mut singles = one & !two & !placed & 511;
            while singles != 0 {
                let col = singles.trailing_zeros();
                singles &= singles - 1;
                let cm = column(col);
                let b = (0..3).find(|&b| self.f[at(d, b)] & cm != 0).ok_or(())?;
                let pos = (self.f[at(d, b)] & cm).trailing_zeros();
                self.place(d, b, pos);
                found = true;
            }
        }
        Ok(found)
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Records a solution, or branches: on the bivalue cell with the most unsolved
    /// peers if there is a bivalue cell, else on the first unsolved cell of the band
    /// where it has the fewest candidates.
    fn guess(&mut self, limit: usize, out: &mut Count9) {
        if self.is_solved() {
            out.count += 1;
            if out.keep_first && out.first.is_none() {
                out.first = Some(self.grid());
            }
            return;
        }
        let (b, cell) = if self.pairs != [0; 3] {
            self.busiest_pair()
        } else {
            self.fewest_candidates_cell()
        };
        let mut digits: u32 = 0;
        for d in 0..9 {
            digits |= u32::from(self.f[at(d, b)] & cell != 0) << d;
        }
        let pos = cell.trailing_zeros();
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // The last candidate: no copy needed.
                self.place(d, b, pos);
                if self.propagate() {
                    self.guess(limit, out);
                }
                return;
            }
            let mut child = *self;
            child.place(d, b, pos);
            if child.propagate() {
                child.guess(limit, out);
            }
            if out.count >= limit {
                return;
            }
            self.f[at(d, b)] &= !cell;
        }
    }

    /// The bivalue cell (band, cell bit) with the most unsolved cells in its row,
    /// column and box: placing either of its values settles the most. (Against the
    /// first bivalue cell, JCZSolve's choice: 38% fewer branches and 1.25-1.4x the
    /// speed on the hardest set; see docs/benchmarks.md.)
    fn busiest_pair(&self) -> (usize, u32) {
        // Unsolved cells per column within each band, and over the grid, one
        // nibble per column.
        let mut band_columns = [0u64; 3];
        for (b, counts) in band_columns.iter_mut().enumerate() {
            let u = self.unsolved[b];
            *counts = SPREAD[(u & 511) as usize]
                + SPREAD[(u >> 9 & 511) as usize]
                + SPREAD[(u >> 18 & 511) as usize];
        }
        let columns = band_columns[0] + band_columns[1] + band_columns[2];
        let mut best = (0u32, 0usize, 0u32);
        for (b, &in_band) in band_columns.iter().enumerate() {
            let u = self.unsolved[b];
            let mut pairs = self.pairs[b];
            while pairs != 0 {
                let pos = pairs.trailing_zeros();
                pairs &= pairs - 1;
                let (row, col) = (pos / 9, pos % 9);
                let first_col = col / 3 * 3;
                let in_row = u32::from(POP9[(u >> (9 * row) & 511) as usize]);
                let in_column = (columns >> (4 * col) & 15) as u32;
                // The box's three column counts, summed by one multiply.
                let in_box = (((in_band >> (4 * first_col) & 0xFFF) * 0x111) >> 8 & 15) as u32;
                // Cells counted twice: the row's and the column's parts of the box.
                let row_in_box = u32::from(POP9[(u >> (9 * row + first_col) & 7) as usize]);
                let column_in_box = (in_band >> (4 * col) & 15) as u32;
                let peers = in_row + in_column + in_box - row_in_box - column_in_box;
                if peers > best.0 {
                    best = (peers, b, pos);
                }
            }
        }
        (best.1, 1 << best.2)
    }

    /// The first unsolved cell of each band; of those, the one with the fewest candidates.
    fn fewest_candidates_cell(&self) -> (usize, u32) {
        let mut best = (10, 0, 0);
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let cell = u & u.wrapping_neg();
            let n = (0..9).filter(|&d| self.f[at(d, b)] & cell != 0).count();
            if n < best.0 {
                best = (n, b, cell);
            }
        }
        (best.1, best.2)
    }

    fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.f[at(d, b)];
                while x != 0 {
                    let pos = x.trailing_zeros() as usize;
                    x &= x - 1;
                    g[b * 27 + pos] = d as u8 + 1;
                }
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (i, ch) in line.bytes().take(81).enumerate() {
            if ch.is_ascii_digit() {
                g[i] = ch - b'0';
            }
        }
        g
    }

    #[test]
    fn tables_are_sane() {
        // All segments non-empty: every cell survives.
        assert_eq!(PERMUTATION_CELLS[511], ALL);
        // Only the diagonal segments: only they survive.
        let diag = 1 | 1 << 4 | 1 << 8;
        assert_eq!(PERMUTATION_CELLS[diag], 7 | 7 << 12 | 7 << 24);
        // A row with no segment: no permutation.
        assert_eq!(PERMUTATION_CELLS[0b111_111_000], 0);
    }

    #[test]
    fn solves_a_17_clue_puzzle() {
        let p = "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
        let c = Board9::new(&parse(p)).expect("valid").count(2, true);
        assert_eq!(c.count, 1);
        let s = c.first.expect("solution");
        let given = parse(p);
        for i in 0..81 {
            assert!(given[i] == 0 || given[i] == s[i]);
        }
        for i in 0..9 {
            let mut row = [false; 10];
            let mut col = [false; 10];
            for j in 0..9 {
                row[s[i * 9 + j] as usize] = true;
                col[s[j * 9 + i] as usize] = true;
            }
            assert!(row[1..].iter().all(|&x| x) && col[1..].iter().all(|&x| x));
        }
    }

    /// Unsolved peers of `(band, pos)`, cell by cell.
    fn unsolved_peers(board: &Board9, band: usize, pos: u32) -> u32 {
        let (r0, c0) = (band * 3 + pos as usize / 9, pos as usize % 9);
        let mut n = 0;
        for r in 0..9 {
            for c in 0..9 {
                let peer = r == r0 || c == c0 || (r / 3 == r0 / 3 && c / 3 == c0 / 3);
                let unsolved = board.unsolved[r / 3] >> ((r % 3) * 9 + c) & 1 != 0;
                if peer && (r, c) != (r0, c0) && unsolved {
                    n += 1;
                }
            }
        }
        n
    }

    #[test]
    fn branches_on_the_bivalue_cell_with_most_unsolved_peers() {
        let puzzles = [
            "800000000003600000070090200050007000000045700000100030001000068008500010090000400",
            ".......39.....1..5..3.5.8....8.9...6.7...2..1..4.......9.8..5..2....6..4..7.....",
        ];
        for p in puzzles {
            let mut board = Board9::new(&parse(p)).expect("valid");
            assert!(board.naked_singles().is_ok() && board.propagate());
            assert!(!board.is_solved(), "{p}: solved without a guess");
            assert!(board.pairs != [0; 3], "{p}: expected a bivalue cell");
            let (band, cell) = board.busiest_pair();
            assert_ne!(board.pairs[band] & cell, 0, "{p}: not a bivalue cell");
            let chosen = unsolved_peers(&board, band, cell.trailing_zeros());
            for b in 0..3 {
                let mut pairs = board.pairs[b];
                while pairs != 0 {
                    let pos = pairs.trailing_zeros();
                    pairs &= pairs - 1;
                    assert!(
                        unsolved_peers(&board, b, pos) <= chosen,
                        "{p}: a busier pair exists"
                    );
                }
            }
        }
    }

    #[test]
    fn empty_grid_has_many_and_clash_has_none() {
        assert_eq!(
            Board9::new(&[0; 81]).expect("empty").count(5, true).count,
            5
        );
        let mut g = [0u8; 81];
        g[0] = 5;
        g[80 - 8] = 5; // same column, other band
        assert!(Board9::new(&g).is_none());
        // No two givens clash, but (0,8) can only be 9 and column 8 has a 9.
        let mut g = [0u8; 81];
        for (c, v) in (1..=8).enumerate() {
            g[c] = v;
        }
        g[3 * 9 + 8] = 9;
        assert_eq!(Board9::new(&g).expect("placed").count(2, true).count, 0);
        let mut g = [0u8; 81];
        g[0] = 5;
        g[1] = 5;
        assert!(Board9::new(&g).is_none());
    }
}
