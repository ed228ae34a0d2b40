//! A puzzle's rules: values, layout, active cells, houses, cages and
//! different-pairs, validated once when built, with the peer and cage tables
//! every solver reads. The solvers' own tables are built from the rules
//! (`crate::model::Model` holds them); the rules know none of their consumers.

use crate::cage::CageTable;
use crate::constraints::{self, Primitive};
use crate::error::PuzzleError;
use crate::mask::full_mask;
use protocol::{Constraint, Coord, HouseKind};

/// The largest number of values a model may use (values are bits of a `u32`).
pub const MAX_SIZE: u32 = 32;
/// The largest layout side a model may use.
pub const MAX_SIDE: u32 = 64;

/// Marks a layout position that is not an active cell.
const NO_CELL: u32 = u32::MAX;

/// A group of active cells whose values are all different.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelHouse {
    /// How the house is drawn.
    pub kind: HouseKind,
    /// Active-cell indices.
    pub cells: Vec<u32>,
}

/// A killer cage: all different, values adding up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelCage {
    /// Active-cell indices.
    pub cells: Vec<u32>,
    /// Required sum.
    pub sum: u32,
}

/// A validated set of rules. Cells are numbered `0..cell_count()` in row-major
/// order of the layout.
#[derive(Clone, Debug)]
pub struct Rules {
    size: u32,
    rows: u32,
    cols: u32,
    symbols: Vec<char>,
    cell_at: Vec<u32>,
    coords: Vec<Coord>,
    houses: Vec<ModelHouse>,
    cages: Vec<ModelCage>,
    different: Vec<[u32; 2]>,
    /// The constraints as written, and how many of the houses, cages and
    /// different-pairs above were written as such (the rest come from the
    /// constraints).
    constraints: Vec<Constraint>,
    authored: [usize; 3],
    pub(crate) compiled: Compiled,
    classic9: bool,
}

/// Precomputed tables the solvers use: peers, full houses and cage combinations.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compiled {
    pub full: u32,
    pub peer_start: Vec<u32>,
    pub peers: Vec<u32>,
    /// Each cell's peers as bits, `peer_words` 64-bit words per cell.
    pub peer_bits: Vec<u64>,
    pub peer_words: usize,
    pub full_house_start: Vec<u32>,
    pub full_house_cells: Vec<u32>,
    /// Per cell, the full houses holding it as bits (house `h` is bit `h`);
    /// empty when there are more than 64 full houses.
    pub full_houses_of: Vec<u64>,
    pub cages: Vec<CageTable>,
    pub locked: Vec<LockedPair>,
    pub locked_cells: Vec<u32>,
    /// The constraints' primitives, each with its constraint's index
    /// (shared with the logical solver's layout).
    pub primitives: std::sync::Arc<[(Primitive, usize)]>,
    /// The same as the search narrows them ([`crate::constraints::for_search`]).
    pub search_primitives: std::sync::Arc<[Primitive]>,
    /// The search primitives with a pivot digit
    /// ([`Primitive::pivot_digit`]): their indices and digits.
    pub pivots: std::sync::Arc<[(usize, u32)]>,
    /// What the one-cell primitives leave each cell they read, applied once
    /// to the search's first candidates (also [`crate::constraints::for_search`]).
    pub cell_limits: Vec<(u32, u32)>,
    /// Per cell, how many constraints and cages read it (a constraint made
    /// of many primitives counts once): the search's tie-break between
    /// cells it would otherwise rank alike.
    pub rules_per_cell: Vec<u32>,
}

/// Two full houses sharing two or more cells. A value that, in one house, can only
/// go in the shared cells cannot go anywhere else in the other house (pointing and
/// claiming, i.e. locked candidates). Ranges index `Compiled::locked_cells`.
#[derive(Clone, Debug)]
pub(crate) struct LockedPair {
    pub shared: std::ops::Range<usize>,
    pub only_a: std::ops::Range<usize>,
    pub only_b: std::ops::Range<usize>,
}

impl Compiled {
    /// Peers of cell `c`: every cell sharing a house, cage or different-pair with it.
    #[inline]
    pub fn peers_of(&self, c: usize) -> &[u32] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// Peers of cell `c` as bits (cell `p` is bit `p % 64` of word `p / 64`).
    #[inline]
    pub fn peer_bits_of(&self, c: usize) -> &[u64] {
        &self.peer_bits[c * self.peer_words..(c + 1) * self.peer_words]
    }

    /// The full houses holding cell `c`, as bits; every bit when they are
    /// not tracked (more than 64 full houses).
    #[inline]
    pub fn full_houses_of(&self, c: usize) -> u64 {
        self.full_houses_of.get(c).copied().unwrap_or(u64::MAX)
    }

    /// Number of houses holding exactly N cells.
    #[inline]
    pub fn full_house_count(&self) -> usize {
        self.full_house_start.len() - 1
    }

    /// Cells of the `h`-th full house.
    #[inline]
    pub fn full_house(&self, h: usize) -> &[u32] {
        let (a, b) = (self.full_house_start[h], self.full_house_start[h + 1]);
        &self.full_house_cells[a as usize..b as usize]
    }
}

/// How many constraints (each primitive tagged with its constraint's index)
/// and cages read each of `cells` cells.
fn rules_per_cell(
    cells: usize,
    primitives: &[(Primitive, usize)],
    cages: &[CageTable],
) -> Vec<u32> {
    let mut read: Vec<(u32, usize)> = primitives
        .iter()
        .flat_map(|(p, index)| p.cells().iter().map(move |&c| (c, *index)))
        .collect();
    read.sort_unstable();
    read.dedup();
    let mut count = vec![0u32; cells];
    let cage_cells = cages.iter().flat_map(|cage| cage.cells.iter());
    for &c in read.iter().map(|(c, _)| c).chain(cage_cells) {
        if let Some(n) = count.get_mut(c as usize) {
            *n += 1;
        }
    }
    count
}

/// Default display symbols: `1`-`9` then `A`-`Z`.
pub fn default_symbols(size: u32) -> Vec<char> {
    "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        .chars()
        .take(size as usize)
        .collect()
}

impl Rules {
    /// Number of values N.
    pub fn size(&self) -> u32 {
        self.size
    }
    /// Layout rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }
    /// Layout columns.
    pub fn cols(&self) -> u32 {
        self.cols
    }
    /// Number of active cells.
    pub fn cell_count(&self) -> usize {
        self.coords.len()
    }
    /// Display symbol of each value (index 0 is value 1).
    pub fn symbols(&self) -> &[char] {
        &self.symbols
    }
    /// `[row, col]` of an active cell.
    pub fn coord(&self, cell: usize) -> Coord {
        self.coords[cell]
    }
    /// The active cell at a layout position, if any.
    pub fn cell_at(&self, row: u32, col: u32) -> Option<usize> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        match self.cell_at[(row * self.cols + col) as usize] {
            NO_CELL => None,
            c => Some(c as usize),
        }
    }
    /// Whether every layout position is an active cell.
    pub fn is_full_layout(&self) -> bool {
        self.coords.len() == (self.rows * self.cols) as usize
    }
    /// The houses.
    pub fn houses(&self) -> &[ModelHouse] {
        &self.houses
    }
    /// The cages.
    pub fn cages(&self) -> &[ModelCage] {
        &self.cages
    }
    /// The different-pairs.
    pub fn different(&self) -> &[[u32; 2]] {
        &self.different
    }
    /// The constraints of the modern vocabulary, as written.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    /// The houses, cages and different-pairs written as such (not derived
    /// from a constraint): what a puzzle file lists.
    pub fn authored(&self) -> (&[ModelHouse], &[ModelCage], &[[u32; 2]]) {
        let [h, c, d] = self.authored;
        (&self.houses[..h], &self.cages[..c], &self.different[..d])
    }
    /// Whether this is exactly classic 9x9 Sudoku (rows, columns, 3x3 boxes and
    /// nothing else), which the specialised 9x9 solver handles.
    pub fn is_classic9(&self) -> bool {
        self.classic9
    }
}

/// Builds [`Rules`] (and from them a [`crate::Model`]) from layout coordinates,
/// checking every rule as it goes.
#[derive(Clone, Debug)]
pub struct ModelBuilder {
    size: u32,
    rows: u32,
    cols: u32,
    symbols: Option<Vec<char>>,
    active: Option<Vec<Coord>>,
    houses: Vec<(HouseKind, Vec<Coord>)>,
    cages: Vec<(Vec<Coord>, u32)>,
    different: Vec<[Coord; 2]>,
    constraints: Vec<Constraint>,
}

impl ModelBuilder {
    /// Starts a model with values 1..=`size` on a `rows` x `cols` layout.
    pub fn new(size: u32, rows: u32, cols: u32) -> Self {
        ModelBuilder {
            size,
            rows,
            cols,
            symbols: None,
            active: None,
            houses: Vec::new(),
            cages: Vec::new(),
            different: Vec::new(),
            constraints: Vec::new(),
        }
    }
    /// Sets the display symbols (one per value).
    pub fn symbols(mut self, symbols: Vec<char>) -> Self {
        self.symbols = Some(symbols);
        self
    }
    /// Restricts the active cells (default: the whole layout).
    pub fn active_cells(mut self, cells: Vec<Coord>) -> Self {
        self.active = Some(cells);
        self
    }
    /// Adds a house.
    pub fn house(mut self, kind: HouseKind, cells: Vec<Coord>) -> Self {
        self.houses.push((kind, cells));
        self
    }
    /// Adds several houses (e.g. from [`crate::geometry`]).
    pub fn houses(mut self, houses: impl IntoIterator<Item = (HouseKind, Vec<Coord>)>) -> Self {
        self.houses.extend(houses);
        self
    }
    /// Adds a killer cage.
    pub fn cage(mut self, cells: Vec<Coord>, sum: u32) -> Self {
        self.cages.push((cells, sum));
        self
    }
    /// Adds a different-pair.
    pub fn different(mut self, a: Coord, b: Coord) -> Self {
        self.different.push([a, b]);
        self
    }
    /// Adds a constraint of the modern vocabulary.
    pub fn constraint(mut self, c: Constraint) -> Self {
        self.constraints.push(c);
        self
    }

    /// Validates everything and precomputes the peer and cage tables.
    pub fn rules(mut self) -> Result<Rules, PuzzleError> {
        let (size, rows, cols) = (self.size, self.rows, self.cols);
        if size == 0 || size > MAX_SIZE {
            return Err(PuzzleError::new(format!(
                "size {size} is outside 1..={MAX_SIZE}"
            )));
        }
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(PuzzleError::new(format!(
                "layout {rows}x{cols} is outside 1x1..={MAX_SIDE}x{MAX_SIDE}"
            )));
        }
        let symbols = match self.symbols.take() {
            Some(s) => s,
            None => default_symbols(size),
        };
        check_symbols(&symbols, size)?;

        let mut cell_at = vec![NO_CELL; (rows * cols) as usize];
        let active: Vec<Coord> = match self.active.take() {
            Some(list) => {
                let mut seen = vec![false; cell_at.len()];
                for &[r, c] in &list {
                    if r >= rows || c >= cols {
                        return Err(PuzzleError::new(format!(
                            "active cell [{r},{c}] is outside the {rows}x{cols} layout"
                        )));
                    }
                    let i = (r * cols + c) as usize;
                    if std::mem::replace(&mut seen[i], true) {
                        return Err(PuzzleError::new(format!(
                            "active cell [{r},{c}] is listed twice"
                        )));
                    }
                }
                (0..rows)
                    .flat_map(|r| (0..cols).map(move |c| [r, c]))
                    .filter(|&[r, c]| seen[(r * cols + c) as usize])
                    .collect()
            }
            None => (0..rows)
                .flat_map(|r| (0..cols).map(move |c| [r, c]))
                .collect(),
        };
        for (i, &[r, c]) in active.iter().enumerate() {
            cell_at[(r * cols + c) as usize] = i as u32;
        }
        let authored = [self.houses.len(), self.cages.len(), self.different.len()];
        let primitives = self.compile_constraints(&cell_at)?;
        // `what` names the list in an error (built only then).
        let resolve =
            |what: &dyn Fn() -> String, cells: &[Coord]| -> Result<Vec<u32>, PuzzleError> {
                let mut out = Vec::with_capacity(cells.len());
                for &[r, c] in cells {
                    if r >= rows || c >= cols {
                        return Err(PuzzleError::new(format!(
                            "{}: cell [{r},{c}] is outside the {rows}x{cols} layout",
                            what()
                        )));
                    }
                    let idx = cell_at[(r * cols + c) as usize];
                    if idx == NO_CELL {
                        return Err(PuzzleError::new(format!(
                            "{}: cell [{r},{c}] is not an active cell",
                            what()
                        )));
                    }
                    if out.contains(&idx) {
                        return Err(PuzzleError::new(format!(
                            "{}: cell [{r},{c}] is repeated",
                            what()
                        )));
                    }
                    out.push(idx);
                }
                Ok(out)
            };

        let mut houses = Vec::with_capacity(self.houses.len());
        for (i, (kind, cells)) in self.houses.iter().enumerate() {
            let what = || format!("house {i} ({})", kind_name(*kind));
            let cells = resolve(&what, cells)?;
            if cells.len() > size as usize {
                return Err(PuzzleError::new(format!(
                    "{} has {} cells but only {size} values exist",
                    what(),
                    cells.len()
                )));
            }
            houses.push(ModelHouse { kind: *kind, cells });
        }
        let mut cages = Vec::with_capacity(self.cages.len());
        for (i, (cells, sum)) in self.cages.iter().enumerate() {
            let cells = resolve(&|| format!("cage {i}"), cells)?;
            let k = cells.len() as u32;
            if k == 0 || k > size {
                return Err(PuzzleError::new(format!(
                    "cage {i} has {k} cells; a cage needs 1..={size}"
                )));
            }
            let (lo, hi) = crate::cage::sum_range(k, size);
            if *sum < lo || *sum > hi {
                return Err(PuzzleError::new(format!(
                    "cage {i}: sum {sum} is impossible for {k} different values in 1..={size} (possible: {lo}..={hi})"
                )));
            }
            cages.push(ModelCage { cells, sum: *sum });
        }
        let mut different = Vec::with_capacity(self.different.len());
        for (i, pair) in self.different.iter().enumerate() {
            let cells = resolve(&|| format!("different pair {i}"), pair)?;
            different.push([cells[0], cells[1]]);
        }

        let mut model = Rules {
            size,
            rows,
            cols,
            symbols,
            cell_at,
            coords: active,
            houses,
            cages,
            different,
            constraints: self.constraints,
            authored,
            compiled: Compiled::default(),
            classic9: false,
        };
        model.compiled = compile(&model);
        let (search_primitives, cell_limits) =
            crate::constraints::for_search(&primitives, model.size);
        model.compiled.pivots = search_primitives
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.pivot_digit() {
                0 => None,
                digit => Some((i, digit)),
            })
            .collect();
        model.compiled.search_primitives = search_primitives.into();
        model.compiled.cell_limits = cell_limits;
        model.compiled.rules_per_cell =
            rules_per_cell(model.cell_count(), &primitives, &model.compiled.cages);
        model.compiled.primitives = primitives.into();
        model.classic9 = detect_classic9(&model);
        Ok(model)
    }
}

impl ModelBuilder {
    /// Compiles the constraints on the layout whose active cell at each
    /// position is `cell_at`: the houses, cages and different-pairs some
    /// kinds are join the builder's own (after them); the primitives are
    /// returned.
    fn compile_constraints(
        &mut self,
        cell_at: &[u32],
    ) -> Result<Vec<(Primitive, usize)>, PuzzleError> {
        if self.constraints.is_empty() {
            return Ok(Vec::new());
        }
        let (rows, cols) = (self.rows, self.cols);
        // Off the layout before any arithmetic (a file may name any cell).
        let at = |r: u32, c: u32| match (r < rows && c < cols)
            .then(|| cell_at.get((r * cols + c) as usize))
            .flatten()
        {
            Some(&NO_CELL) | None => None,
            Some(&i) => Some(i),
        };
        let regions: Vec<Vec<Coord>> = self
            .houses
            .iter()
            .filter(|(kind, _)| matches!(kind, HouseKind::Box | HouseKind::Region))
            .map(|(_, cells)| cells.clone())
            .collect();
        let houses: Vec<Vec<Coord>> = self.houses.iter().map(|(_, c)| c.clone()).collect();
        let layout = constraints::Layout {
            size: self.size,
            rows: self.rows,
            cols: self.cols,
            cell_at: &at,
            regions: &regions,
            houses: &houses,
        };
        let compiled = constraints::compile(&self.constraints, &layout)?;
        self.houses
            .extend(compiled.houses.into_iter().map(|h| (HouseKind::Extra, h)));
        self.cages.extend(compiled.cages);
        self.different.extend(compiled.different);
        Ok(compiled.primitives)
    }
}

fn check_symbols(symbols: &[char], size: u32) -> Result<(), PuzzleError> {
    if symbols.len() != size as usize {
        return Err(PuzzleError::new(format!(
            "symbols has {} characters but size is {size}",
            symbols.len()
        )));
    }
    for (i, s) in symbols.iter().enumerate() {
        if symbols[..i].contains(s) {
            return Err(PuzzleError::new(format!("symbol '{s}' is repeated")));
        }
        if matches!(s, '.' | '0') || s.is_whitespace() {
            return Err(PuzzleError::new(format!(
                "symbol '{s}' is reserved for empty cells"
            )));
        }
    }
    Ok(())
}

/// The lowercase name of a house kind, as written in puzzle files.
pub fn kind_name(kind: HouseKind) -> &'static str {
    match kind {
        HouseKind::Row => "row",
        HouseKind::Column => "column",
        HouseKind::Box => "box",
        HouseKind::Region => "region",
        HouseKind::Diagonal => "diagonal",
        HouseKind::Window => "window",
        HouseKind::Extra => "extra",
        HouseKind::Unknown => "unknown",
    }
}

fn compile(model: &Rules) -> Compiled {
    let n = model.cell_count();
    // Each cell's peers as a bit set (`words` per cell): sorted and without
    // repeats as they come out.
    let words = n.div_ceil(64);
    let mut peer_bits = vec![0u64; n * words];
    let mut group_bits = vec![0u64; words];
    let mut link = |group: &[u32]| {
        group_bits.fill(0);
        for &c in group {
            group_bits[c as usize / 64] |= 1 << (c % 64);
        }
        for &a in group {
            let row = &mut peer_bits[a as usize * words..][..words];
            for (w, g) in row.iter_mut().zip(&group_bits) {
                *w |= g;
            }
            row[a as usize / 64] &= !(1 << (a % 64));
        }
    };
    for h in &model.houses {
        link(&h.cells);
    }
    for c in &model.cages {
        link(&c.cells);
    }
    for p in &model.different {
        link(p);
    }
    let mut peer_start = Vec::with_capacity(n + 1);
    let mut peers = Vec::new();
    peer_start.push(0);
    for row in peer_bits.chunks(words.max(1)).take(n) {
        for (w, &bits) in row.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                peers.push((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        peer_start.push(peers.len() as u32);
    }
    let mut full_house_start = vec![0];
    let mut full_house_cells = Vec::new();
    for h in &model.houses {
        if h.cells.len() == model.size as usize {
            full_house_cells.extend_from_slice(&h.cells);
            full_house_start.push(full_house_cells.len() as u32);
        }
    }
    let mut full_houses_of = Vec::new();
    if full_house_start.len() - 1 <= 64 {
        full_houses_of = vec![0u64; n];
        for (h, w) in full_house_start.windows(2).enumerate() {
            for &c in &full_house_cells[w[0] as usize..w[1] as usize] {
                full_houses_of[c as usize] |= 1 << h;
            }
        }
    }
    let full: Vec<&ModelHouse> = model
        .houses
        .iter()
        .filter(|h| h.cells.len() == model.size as usize)
        .collect();
    // Each full house's cells as a bit set, to find the pairs sharing cells.
    let house_bits: Vec<Vec<u64>> = full
        .iter()
        .map(|h| {
            let mut bits = vec![0u64; words];
            for &c in &h.cells {
                bits[c as usize / 64] |= 1 << (c % 64);
            }
            bits
        })
        .collect();
    let mut locked = Vec::new();
    let mut locked_cells = Vec::new();
    for (i, a) in full.iter().enumerate() {
        for (j, b) in full.iter().enumerate().skip(i + 1) {
            let common: u32 = house_bits[i]
                .iter()
                .zip(&house_bits[j])
                .map(|(x, y)| (x & y).count_ones())
                .sum();
            if common < 2 || common as usize == a.cells.len() {
                continue;
            }
            let shared: Vec<u32> = a
                .cells
                .iter()
                .copied()
                .filter(|c| b.cells.contains(c))
                .collect();
            if shared.len() < 2 || shared.len() == a.cells.len() {
                continue;
            }
            let mut push = |cells: Vec<u32>| {
                let start = locked_cells.len();
                locked_cells.extend(cells);
                start..locked_cells.len()
            };
            let only_a = a
                .cells
                .iter()
                .copied()
                .filter(|c| !shared.contains(c))
                .collect();
            let only_b = b
                .cells
                .iter()
                .copied()
                .filter(|c| !shared.contains(c))
                .collect();
            locked.push(LockedPair {
                shared: push(shared),
                only_a: push(only_a),
                only_b: push(only_b),
            });
        }
    }
    let mut cages: Vec<CageTable> = model
        .cages
        .iter()
        .map(|c| CageTable::new(&c.cells, c.sum, model.size))
        .collect();
    if !cages.is_empty() {
        let houses: Vec<&[u32]> = full.iter().map(|h| &h.cells[..]).collect();
        let real: Vec<(&[u32], u32)> = model.cages.iter().map(|c| (&c.cells[..], c.sum)).collect();
        let are_peers = |a: u32, b: u32| {
            let range = peer_start[a as usize] as usize..peer_start[a as usize + 1] as usize;
            peers[range].binary_search(&b).is_ok()
        };
        cages.extend(crate::cage::implied_by_houses(
            &houses, &real, model.size, are_peers,
        ));
    }
    Compiled {
        full: full_mask(model.size),
        peer_start,
        peers,
        peer_bits,
        peer_words: words,
        full_house_start,
        full_house_cells,
        full_houses_of,
        cages,
        locked,
        locked_cells,
        primitives: Default::default(),
        search_primitives: Default::default(),
        pivots: Default::default(),
        cell_limits: Vec::new(),
        rules_per_cell: Vec::new(),
    }
}

fn detect_classic9(model: &Rules) -> bool {
    if model.size != 9
        || model.rows != 9
        || model.cols != 9
        || !model.is_full_layout()
        || !model.cages.is_empty()
        || !model.constraints.is_empty()
    {
        return false;
    }
    let mut expected: Vec<Vec<u32>> = Vec::with_capacity(27);
    for i in 0..9u32 {
        expected.push((0..9).map(|j| i * 9 + j).collect());
        expected.push((0..9).map(|j| j * 9 + i).collect());
        let (br, bc) = (i / 3 * 3, i % 3 * 3);
        expected.push((0..9).map(|j| (br + j / 3) * 9 + bc + j % 3).collect());
    }
    expected.sort();
    let mut actual: Vec<Vec<u32>> = model
        .houses
        .iter()
        .map(|h| {
            let mut c = h.cells.clone();
            c.sort_unstable();
            c
        })
        .collect();
    actual.sort();
    actual.dedup();
    // Different-pairs inside a classic house add nothing; any other pair does.
    let pairs_redundant = model.different.iter().all(|&[a, b]| {
        expected
            .iter()
            .any(|h| h.binary_search(&a).is_ok() && h.binary_search(&b).is_ok())
    });
    actual == expected && pairs_redundant
}
