//! A specialised solver for classic 9x9 Sudoku, in the style of JCZSolve.
//!
//! Candidates are kept per digit and per band: `f[b * 9 + d]` holds 27 bits, one per
//! cell of band `b` (rows `3b..3b+3`, bit `row_in_band * 9 + col`). Inside a band, a
//! digit's cells must form one cell per row and one per box, i.e. a permutation of
//! row/box segments; a 512-entry table keeps exactly the segments some permutation
//! can use, which performs locked-candidate (pointing/claiming) reasoning and
//! in-band hidden singles in one lookup. A row left with one cell solves that cell,
//! which removes its column from the digit's other bands and the cell from the other
//! digits. Naked singles and column hidden singles run between table passes; the
//! search branches on a cell with two candidates when there is one.

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

/// For every set of non-empty segments (bit `row * 3 + box`), the cells of the
/// segments that some row-to-box permutation uses; 0 when no permutation fits.
const PERMUTATION_CELLS: [u32; 512] = {
    const PERMS: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut seg = 0;
    while seg < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut fits = true;
            let mut r = 0;
            while r < 3 {
                if seg >> (r * 3 + perm[r as usize]) & 1 == 0 {
                    fits = false;
                }
                r += 1;
            }
            if fits {
                let mut r = 0;
                while r < 3 {
                    t[seg] |= 7 << (r * 9 + perm[r as usize] * 3);
                    r += 1;
                }
            }
            p += 1;
        }
        seg += 1;
    }
    t
};

const ALL: u32 = (1 << 27) - 1;

/// For the 9-bit set of columns a digit can still use inside one band: the cells the
/// digit may keep in the other two bands. A box whose part of the set is a single
/// column puts the digit in that column, so the other bands lose the whole column.
const NEIGHBOUR_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols: u32 = 0;
    while cols < 512 {
        let mut keep = ALL;
        let mut k: u32 = 0;
        while k < 3 {
            let part = (cols >> (3 * k)) & 7;
            if part == 1 || part == 2 || part == 4 {
                keep &= !column(3 * k + part.trailing_zeros());
            }
            k += 1;
        }
        t[cols as usize] = keep;
        cols += 1;
    }
    t
};

/// What a count found: the number of solutions (up to the limit) and the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Count9 {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// The first solution found, row-major values 1..=9.
    pub first: Option<[u8; 81]>,
}

/// Search state: about 150 bytes, copied on every guess.
#[derive(Clone, Copy)]
pub(crate) struct Board9 {
    f: [u32; 27],
    /// Bit `i` set: `f[i]` changed since the band tables last looked at it.
    dirty: u32,
    unsolved: [u32; 3],
}

impl Board9 {
    /// A board with the givens (row-major, 0 = empty) placed; `None` if two givens
    /// clash in a row or box, or a value is above 9.
    pub fn new(givens: &[u8; 81]) -> Option<Board9> {
        let mut board = Board9 {
            f: [ALL; 27],
            dirty: 0,
            unsolved: [ALL; 3],
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
            if board.f[b * 9 + d] & (1 << pos) == 0 {
                return None;
            }
            board.place(d, b, pos);
            board.clear_other_digits(d, b, 1 << pos);
        }
        Some(board)
    }

    /// Removes `digit` (1..=9) from the candidates of `cell` (0..81).
    pub fn forbid(&mut self, cell: usize, digit: u8) {
        let d = digit as usize - 1;
        self.clear(cell / 27 * 9 + d, 1 << (cell % 27));
    }

    /// Removes `mask` from `f[i]`, marking it dirty if anything went.
    #[inline]
    fn clear(&mut self, i: usize, mask: u32) {
        if self.f[i] & mask != 0 {
            self.f[i] &= !mask;
            self.dirty |= 1 << i;
        }
    }

    /// Keeps only `mask` of `f[i]`, marking it dirty if anything went (branch-free).
    #[inline]
    fn keep(&mut self, i: usize, mask: u32) {
        let old = self.f[i];
        self.f[i] = old & mask;
        self.dirty |= u32::from(old & !mask != 0) << i;
    }

    /// Removes `cell` of band `b` from every digit but `d` (branch-free over the
    /// band's nine contiguous entries).
    #[inline]
    fn clear_other_digits(&mut self, d: usize, b: usize, cell: u32) {
        let band = &mut self.f[b * 9..b * 9 + 9];
        let mut changed = 0u32;
        for (e, x) in band.iter_mut().enumerate() {
            changed |= u32::from(*x & cell != 0) << e;
            *x &= !cell;
        }
        band[d] |= cell;
        self.dirty |= (changed & !(1 << d)) << (b * 9);
    }

    /// Counts solutions, stopping at `limit`.
    pub fn count(self, limit: usize) -> Count9 {
        let mut out = Count9 {
            count: 0,
            first: None,
        };
        if limit > 0 {
            search(self, limit, &mut out);
        }
        out
    }

    /// Keeps `d` in band `b` only at `pos` within its row and box of the band.
    #[inline]
    fn place(&mut self, d: usize, b: usize, pos: u32) {
        let (row, col) = (pos / 9, pos % 9);
        self.clear(
            b * 9 + d,
            (ROW[row as usize] | BOX[(col / 3) as usize]) & !(1 << pos),
        );
    }

    /// Applies the band tables until nothing changes; `false` on a contradiction.
    fn update(&mut self) -> bool {
        macro_rules! entries {
            ($($b:literal $d:literal),*) => {
                while self.dirty != 0 {
                    $(
                        if self.dirty & 1 << ($b * 9 + $d) != 0
                            && !self.update_entry::<$b, $d>()
                        {
                            return false;
                        }
                    )*
                }
            };
        }
        entries!(
            0 0, 0 1, 0 2, 0 3, 0 4, 0 5, 0 6, 0 7, 0 8,
            1 0, 1 1, 1 2, 1 3, 1 4, 1 5, 1 6, 1 7, 1 8,
            2 0, 2 1, 2 2, 2 3, 2 4, 2 5, 2 6, 2 7, 2 8
        );
        true
    }

    /// The band tables for digit `D` in band `B` (constants, so every index folds).
    #[inline(always)]
    fn update_entry<const B: usize, const D: usize>(&mut self) -> bool {
        let i = B * 9 + D;
        self.dirty &= !(1 << i);
        let raw = self.f[i];
        let seg = SEGMENTS[(raw & 511) as usize]
            | SEGMENTS[(raw >> 9 & 511) as usize] << 3
            | SEGMENTS[(raw >> 18) as usize] << 6;
        let a = raw & PERMUTATION_CELLS[seg as usize];
        if a == 0 {
            return false;
        }
        self.f[i] = a;
        let keep = NEIGHBOUR_CELLS[((a | a >> 9 | a >> 18) & 511) as usize];
        self.keep((B + 1) % 3 * 9 + D, keep);
        self.keep((B + 2) % 3 * 9 + D, keep);
        // Rows left with one cell solve it: the other digits lose the cell. (Its
        // column leaves the other bands through the neighbour table above, since
        // the box now holds the digit in one column.)
        let solved = single_rows(a) & self.unsolved[B];
        if solved != 0 {
            self.unsolved[B] &= !solved;
            for e in 0..9 {
                if e != D {
                    self.keep(B * 9 + e, !solved);
                }
            }
        }
        true
    }

    /// Places every cell with one candidate left. `Err` on an empty cell.
    fn naked_singles(&mut self) -> Result<bool, ()> {
        let mut found = false;
        for b in 0..3 {
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.f[b * 9 + d];
                two |= one & x;
                one |= x;
            }
            if self.unsolved[b] & !one != 0 {
                return Err(());
            }
            let mut singles = one & !two & self.unsolved[b];
            while singles != 0 {
                let cell = singles & singles.wrapping_neg();
                singles ^= cell;
                let d = (0..9).find(|&d| self.f[b * 9 + d] & cell != 0).ok_or(())?;
                self.place(d, b, cell.trailing_zeros());
                found = true;
            }
        }
        Ok(found)
    }

    /// Places every digit that has one cell left in a column. `Err` on a column
    /// with no place for a digit.
    fn column_singles(&mut self) -> Result<bool, ()> {
        let mut found = false;
        for d in 0..9 {
            let (mut one, mut two, mut placed) = (0u32, 0u32, 0u32);
            for b in 0..3 {
                let x = self.f[b * 9 + d];
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
                let b = (0..3).find(|&b| self.f[b * 9 + d] & cm != 0).ok_or(())?;
                let pos = (self.f[b * 9 + d] & cm).trailing_zeros();
                self.place(d, b, pos);
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

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The cell to branch on: a bivalue cell if any, else the first unsolved one.
    fn branch_cell(&self) -> (usize, u32) {
        let mut fallback = None;
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[b * 9 + d];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = two & !three & self.unsolved[b];
            if pairs != 0 {
                return (b, pairs.trailing_zeros());
            }
            if fallback.is_none() && self.unsolved[b] != 0 {
                fallback = Some((b, self.unsolved[b].trailing_zeros()));
            }
        }
        fallback.unwrap_or((0, 0))
    }

    fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.f[b * 9 + d];
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

/// The cells of `a` that are alone in their row of the band.
#[inline]
fn single_rows(a: u32) -> u32 {
    let mut s = 0;
    for row in ROW {
        let r = a & row;
        if r & r.wrapping_sub(1) == 0 {
            s |= r;
        }
    }
    s
}

fn search(mut board: Board9, limit: usize, out: &mut Count9) {
    if !board.propagate() {
        return;
    }
    if board.is_solved() {
        out.count += 1;
        if out.first.is_none() {
            out.first = Some(board.grid());
        }
        return;
    }
    let (b, pos) = board.branch_cell();
    let cell = 1u32 << pos;
    let mut digits = 0u32;
    for d in 0..9 {
        if board.f[b * 9 + d] & cell != 0 {
            digits |= 1 << d;
        }
    }
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut child = board;
        child.place(d, b, pos);
        child.clear_other_digits(d, b, cell);
        search(child, limit, out);
        if out.count >= limit {
            return;
        }
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
        let c = Board9::new(&parse(p)).expect("valid").count(2);
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

    #[test]
    fn empty_grid_has_many_and_clash_has_none() {
        assert_eq!(Board9::new(&[0; 81]).expect("empty").count(5).count, 5);
        let mut g = [0u8; 81];
        g[0] = 5;
        g[80 - 8] = 5; // same column, other band
        assert_eq!(Board9::new(&g).expect("placed").count(2).count, 0);
        let mut g = [0u8; 81];
        g[0] = 5;
        g[1] = 5;
        assert!(Board9::new(&g).is_none());
    }
}
