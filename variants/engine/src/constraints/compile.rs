//! From the vocabulary (`protocol::Constraint`) to what the solvers read:
//! primitives, and the houses, cages and different-pairs some kinds are.
//! Every check a constraint fails is an error naming it.

use super::{EqualSums, LinearSum, Pattern, PatternKind, Primitive, Relation, Table};
use crate::error::PuzzleError;
use protocol::{Axis, Constraint, Coord};

/// What a puzzle's constraints compile to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compiled {
    /// The primitives, each with the index of the constraint it comes from.
    pub primitives: Vec<(Primitive, usize)>,
    /// All-different groups (cages without a sum, disjoint groups).
    pub houses: Vec<Vec<Coord>>,
    /// Killer cages with a sum.
    pub cages: Vec<(Vec<Coord>, u32)>,
    /// Cells that must differ (anti-king, anti-knight; and where a rule
    /// implies it: a renban's cells, a strict thermometer's).
    pub different: Vec<[Coord; 2]>,
}

/// What compiling needs of the layout.
pub(crate) struct Layout<'a> {
    /// The number of values.
    pub size: u32,
    /// The layout's rows and columns.
    pub rows: u32,
    pub cols: u32,
    /// The active cell at a position, if any.
    pub cell_at: &'a dyn Fn(u32, u32) -> Option<u32>,
    /// The boxes and jigsaw regions, as cells.
    pub regions: &'a [Vec<Coord>],
    /// Every house (rows, columns, regions, …), as cells: which cells see
    /// each other.
    pub houses: &'a [Vec<Coord>],
}

/// Compiles `constraints` on `layout`.
pub(crate) fn compile(
    constraints: &[Constraint],
    layout: &Layout,
) -> Result<Compiled, PuzzleError> {
    let mut out = Compiled::default();
    let active = |h: &[Coord]| -> Vec<u32> {
        h.iter()
            .filter_map(|&[r, c]| (layout.cell_at)(r, c))
            .collect()
    };
    // A killer cage's cells see each other too (its digits differ): sums
    // over them are bounded as over a house's.
    let cages = constraints.iter().filter_map(|c| match c {
        Constraint::Cage { cells, .. } if cells.len() > 1 => Some(&cells[..]),
        _ => None,
    });
    let house_cells: Vec<Vec<u32>> = layout
        .houses
        .iter()
        .map(|h| &h[..])
        .chain(cages)
        .map(active)
        .collect();
    for (index, c) in constraints.iter().enumerate() {
        One::new(layout, &house_cells, constraints, index, &mut out)
            .compile(c)
            .map_err(|message| {
                PuzzleError::new(format!("constraint {index} ({}): {message}", c.kind()))
            })?;
    }
    for (cells, coefficients, total, index) in line_totals_in_houses(&out, layout, &house_cells) {
        // Derived from rules already compiled: one that cannot hold means no
        // grid can, which the search finds; nothing to report here.
        One::new(layout, &house_cells, constraints, index, &mut out)
            .sum(cells, coefficients, total)
            .ok();
    }
    Ok(out)
}

/// The most cells a sum [`line_totals_in_houses`] derives may have: a longer
/// one bounds little and costs more than it prunes (on the corpus's zipper
/// and region-sum puzzles, up to 7 cells: 37 -> 16 and 723 -> 546 nodes, and
/// the grader finishes the region-sum puzzle; up to 9: slower than none).
const DERIVED_SUM_CELLS: usize = 7;

/// Renbans of up to this many cells are tables of their runs' orderings
/// (exact, and narrowed by bit sets); longer ones are narrowed by windows.
const SHORT_RENBAN: usize = 3;

/// A derived sum: cells, coefficients, total, and the constraint it is
/// told as.
type DerivedSum = (Vec<u32>, Vec<i32>, i32, usize);

/// The rule of 45 through equal-sum lines (zipper, region-sum): a full house
/// holding two or more whole groups of such lines adds up to its digits'
/// total with each of those groups counted as another group of its line —
/// one outside the house where there is one, the smallest. Four pairs of a
/// zipper in a box and one cell more: that cell plus four times the middle
/// (or another pair) is 45. One sum per such house, if it is short (see
/// [`DERIVED_SUM_CELLS`]).
fn line_totals_in_houses(
    out: &Compiled,
    layout: &Layout,
    house_cells: &[Vec<u32>],
) -> Vec<DerivedSum> {
    let size = layout.size;
    let house_total = (size * (size + 1) / 2) as i32;
    let lines: Vec<(&EqualSums, usize)> = out
        .primitives
        .iter()
        .filter_map(|(p, index)| match p {
            Primitive::EqualSums(e) => Some((e, *index)),
            _ => None,
        })
        .collect();
    let mut derived = Vec::new();
    for house in house_cells.iter().filter(|h| h.len() == size as usize) {
        // Whole groups in the house, none sharing a cell with another
        // (lines may cross): each line's count and its stand-in.
        let mut claimed: Vec<u32> = Vec::new();
        let mut stand_ins: Vec<(&[u32], i32)> = Vec::new();
        let mut told_as = None;
        for &(line, index) in &lines {
            let mut count = 0;
            for (_, group) in line.groups_inside(house) {
                if group.iter().all(|c| !claimed.contains(c)) {
                    claimed.extend_from_slice(group);
                    count += 1;
                }
            }
            if count == 0 {
                continue;
            }
            if let Some(stand_in) = line
                .groups()
                .min_by_key(|g| (super::equal_sums::lies_in(g, house), g.len()))
            {
                stand_ins.push((stand_in, count));
                told_as.get_or_insert(index);
            }
        }
        let replaced: i32 = stand_ins.iter().map(|&(_, k)| k).sum();
        let (true, Some(index)) = (replaced >= 2, told_as) else {
            continue;
        };
        let mut terms: Vec<(u32, i32)> = house
            .iter()
            .filter(|c| !claimed.contains(c))
            .map(|&c| (c, 1))
            .collect();
        for (group, k) in stand_ins {
            for &c in group {
                match terms.iter_mut().find(|(t, _)| *t == c) {
                    Some((_, coefficient)) => *coefficient += k,
                    None => terms.push((c, k)),
                }
            }
        }
        let (cells, coefficients): (Vec<u32>, Vec<i32>) = terms.into_iter().unzip();
        if cells.len() <= DERIVED_SUM_CELLS {
            derived.push((cells, coefficients, house_total, index));
        }
    }
    derived
}

/// The orthogonal neighbours of every cell, each pair once (`a` before `b`
/// in reading order).
fn orthogonal_pairs(layout: &Layout) -> Vec<[Coord; 2]> {
    let mut out = Vec::new();
    for r in 0..layout.rows {
        for c in 0..layout.cols {
            if (layout.cell_at)(r, c).is_none() {
                continue;
            }
            for [nr, nc] in [[r, c + 1], [r + 1, c]] {
                if nr < layout.rows && nc < layout.cols && (layout.cell_at)(nr, nc).is_some() {
                    out.push([[r, c], [nr, nc]]);
                }
            }
        }
    }
    out
}

/// The marked pairs of `constraints` (in either order) that `marks` says
/// carry a mark.
fn marked(constraints: &[Constraint], marks: impl Fn(&Constraint) -> bool) -> Vec<[Coord; 2]> {
    constraints
        .iter()
        .filter(|c| marks(c))
        .filter_map(|c| match c {
            Constraint::Difference { cells, .. }
            | Constraint::Ratio { cells, .. }
            | Constraint::Xv { cells, .. } => Some(*cells),
            _ => None,
        })
        .collect()
}

/// Whether one of `a` and `b` is `r` times the other (a ratio past any
/// digit relates none: no product overflows).
fn in_ratio(a: u32, b: u32, r: u32) -> bool {
    r.checked_mul(b) == Some(a) || r.checked_mul(a) == Some(b)
}

/// Whether `c` is a Kropki dot, white or black.
fn is_kropki(c: &Constraint) -> bool {
    matches!(c, Constraint::Difference { .. } | Constraint::Ratio { .. })
}

/// `Err` naming the first of `values` outside 1..=`size`.
fn in_range(values: &[u32], size: u32) -> Result<(), String> {
    match values.iter().find(|&&v| v == 0 || v > size) {
        Some(v) => Err(format!("value {v} is outside 1..={size}")),
        None => Ok(()),
    }
}

/// Whether the pair `p` is among `pairs`, either way round.
fn has_pair(pairs: &[[Coord; 2]], [a, b]: [Coord; 2]) -> bool {
    pairs
        .iter()
        .any(|&[x, y]| (x == a && y == b) || (x == b && y == a))
}

/// One constraint being compiled.
struct One<'a, 'l> {
    layout: &'a Layout<'l>,
    /// The layout's houses as active cells (what sums group their terms by).
    house_cells: &'a [Vec<u32>],
    /// Every constraint of the puzzle (the global ones read the others).
    all: &'a [Constraint],
    index: usize,
    out: &'a mut Compiled,
}

impl<'a, 'l> One<'a, 'l> {
    /// Compiling as constraint `index` of `all` (what its primitives are
    /// told as).
    fn new(
        layout: &'a Layout<'l>,
        house_cells: &'a [Vec<u32>],
        all: &'a [Constraint],
        index: usize,
        out: &'a mut Compiled,
    ) -> One<'a, 'l> {
        One {
            layout,
            house_cells,
            all,
            index,
            out,
        }
    }
    /// The active cell at `coord`.
    fn cell(&self, [r, c]: Coord) -> Result<u32, String> {
        if r >= self.layout.rows || c >= self.layout.cols {
            return Err(format!(
                "cell [{r},{c}] is outside the {}x{} layout",
                self.layout.rows, self.layout.cols
            ));
        }
        (self.layout.cell_at)(r, c).ok_or_else(|| format!("cell [{r},{c}] is not an active cell"))
    }

    /// The active cells of `coords`, at least `least` and none repeated.
    fn cells(&self, coords: &[Coord], least: usize) -> Result<Vec<u32>, String> {
        let out = self.line(coords, least)?;
        for (i, (&cell, coord)) in out.iter().zip(coords).enumerate() {
            if out[..i].contains(&cell) {
                return Err(format!("cell [{},{}] is repeated", coord[0], coord[1]));
            }
        }
        Ok(out)
    }

    /// The active cells of a line that may cross itself (whispers,
    /// palindromes, zippers): at least `least`, never the same twice in a row.
    fn line(&self, coords: &[Coord], least: usize) -> Result<Vec<u32>, String> {
        if coords.len() < least {
            return Err(format!(
                "needs at least {least} cells, has {}",
                coords.len()
            ));
        }
        let out = coords
            .iter()
            .map(|&coord| self.cell(coord))
            .collect::<Result<Vec<u32>, String>>()?;
        if let Some(i) = (1..out.len()).find(|&i| out[i] == out[i - 1]) {
            let [r, c] = coords[i];
            return Err(format!("cell [{r},{c}] follows itself"));
        }
        Ok(out)
    }

    fn push(&mut self, p: Primitive) {
        self.out.primitives.push((p, self.index));
    }

    /// A relation between two cells.
    fn relate(&mut self, a: u32, b: u32, allowed: impl Fn(u32, u32) -> bool) -> Result<(), String> {
        let relation = Relation::new([a, b], self.layout.size, allowed);
        if !relation.satisfiable() {
            return Err("no two digits satisfy it".into());
        }
        self.push(Primitive::Relation(relation));
        Ok(())
    }

    /// A slow thermometer: each cell at most the next, and strictly below
    /// any later cell it sees (no digit repeats in a house) — the setters'
    /// reading, which steps of `<=` between neighbours alone cannot see.
    fn slow_thermometer(&mut self, cells: &[u32]) -> Result<(), String> {
        for (i, &low) in cells.iter().enumerate() {
            for (j, &high) in cells.iter().enumerate().skip(i + 1) {
                if low == high {
                    continue;
                }
                if self.see_each_other(&[low, high]) {
                    self.relate(low, high, |a, b| a < b)?;
                } else if j == i + 1 {
                    self.relate(low, high, |a, b| a <= b)?;
                }
            }
        }
        Ok(())
    }

    /// Each of `cells` limited to the values `keep` accepts.
    fn limit(&mut self, cells: &[u32], keep: impl Fn(u32) -> bool) -> Result<(), String> {
        let values: Vec<u8> = (1..=self.layout.size)
            .filter(|&v| keep(v))
            .map(|v| v as u8)
            .collect();
        if values.is_empty() {
            return Err(format!("no digit of 1..={} is allowed", self.layout.size));
        }
        for &cell in cells {
            self.push(Primitive::Table(Table::new(vec![cell], values.clone())));
        }
        Ok(())
    }

    /// `Σ coefficients × cells = total`, its terms split into sets of cells
    /// that see each other four ways: greedily (in order, one coefficient
    /// per set, any house), and by the layout's rows, columns and regions.
    /// Full houses whose cells all carry one coefficient are folded into the
    /// total first ([`fold_full_houses`]); `Err` when nothing is left and
    /// the total is not met.
    fn sum(&mut self, cells: Vec<u32>, coefficients: Vec<i32>, total: i32) -> Result<(), String> {
        let (cells, coefficients, total) = fold_full_houses(
            self.house_cells,
            self.layout.size,
            cells,
            coefficients,
            total,
        );
        if cells.is_empty() {
            return match total {
                0 => Ok(()),
                _ => Err("its whole houses can never add up to what it needs".into()),
            };
        }
        let houses = self.house_cells;
        let share = |a: u32, b: u32| shared_house(houses, &[a, b]);
        let mut greedy: Vec<Vec<usize>> = Vec::new();
        for (t, &cell) in cells.iter().enumerate() {
            let fits = |g: &Vec<usize>| {
                coefficients[g[0]] == coefficients[t] && g.iter().all(|&o| share(cells[o], cell))
            };
            match greedy.iter_mut().find(|g| fits(g)) {
                Some(g) => g.push(t),
                None => greedy.push(vec![t]),
            }
        }
        let mut partitions = vec![greedy];
        partitions.extend(self.families().iter().map(|family| {
            let mut sets: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
            for (t, cell) in cells.iter().enumerate() {
                let house = family.iter().position(|h| h.contains(cell));
                match sets
                    .iter_mut()
                    .find(|(h, _)| house.is_some() && *h == house)
                {
                    Some((_, set)) => set.push(t),
                    None => sets.push((house, vec![t])),
                }
            }
            sets.into_iter().map(|(_, set)| set).collect()
        }));
        self.push(Primitive::Sum(LinearSum::new(
            cells,
            coefficients,
            total,
            &partitions,
        )));
        Ok(())
    }

    /// The layout's rows, its columns and its regions (boxes or jigsaw
    /// pieces), as active cells: three families of houses that do not
    /// overlap within a family.
    fn families(&self) -> [Vec<Vec<u32>>; 3] {
        let layout = self.layout;
        let active = |h: &[Coord]| -> Vec<u32> {
            h.iter()
                .filter_map(|&[r, c]| (layout.cell_at)(r, c))
                .collect()
        };
        let lines = |along: fn(&Coord) -> u32| -> Vec<Vec<u32>> {
            layout
                .houses
                .iter()
                .filter(|h| h.len() > 1 && h.iter().all(|x| along(x) == along(&h[0])))
                .map(|h| active(h))
                .collect()
        };
        [
            lines(|&[r, _]| r),
            lines(|&[_, c]| c),
            layout.regions.iter().map(|h| active(h)).collect(),
        ]
    }

    /// Every two of `cells` hold different digits (peers to the solvers).
    fn differ(&mut self, cells: &[Coord]) {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                self.out.different.push([a, b]);
            }
        }
    }

    /// Whether `cells` all lie in one house (their digits differ).
    fn see_each_other(&self, cells: &[u32]) -> bool {
        shared_house(self.house_cells, cells)
    }

    fn pattern(&mut self, cells: Vec<u32>, kind: PatternKind, distinct: bool) {
        self.push(Primitive::Pattern(Pattern {
            cells,
            kind,
            distinct,
            exact_open: usize::MAX,
        }));
    }

    /// A row or column from a clue's side: every cell of one line.
    fn full_line(&self, coords: &[Coord]) -> Result<Vec<u32>, String> {
        let cells = self.cells(coords, 2)?;
        let same_row = coords.iter().all(|c| c[0] == coords[0][0]);
        let same_col = coords.iter().all(|c| c[1] == coords[0][1]);
        if !(same_row || same_col) || cells.len() != self.layout.size as usize {
            return Err(format!(
                "needs a whole row or column of {} cells",
                self.layout.size
            ));
        }
        Ok(cells)
    }

    fn compile(&mut self, c: &Constraint) -> Result<(), String> {
        let size = self.layout.size;
        match c {
            Constraint::Even { cells } => {
                self.limit(&self.cells(cells, 1)?, |v| v.is_multiple_of(2))
            }
            Constraint::Odd { cells } => {
                self.limit(&self.cells(cells, 1)?, |v| !v.is_multiple_of(2))
            }
            Constraint::Values { cells, values } => {
                in_range(values, size)?;
                self.limit(&self.cells(cells, 1)?, |v| values.contains(&v))
            }
            Constraint::Thermometer {
                cells: coords,
                slow,
            } => {
                let cells = self.cells(coords, 2)?;
                if !slow && cells.len() > size as usize {
                    return Err(format!(
                        "{} cells cannot strictly increase through 1..={size}",
                        cells.len()
                    ));
                }
                if *slow {
                    self.slow_thermometer(&cells)?;
                } else {
                    for pair in cells.windows(2) {
                        self.relate(pair[0], pair[1], |a, b| a < b)?;
                    }
                }
                if !slow {
                    self.differ(coords);
                    // The i-th cell has i cells below it and the rest above.
                    let n = cells.len() as u32;
                    for (i, &cell) in cells.iter().enumerate() {
                        let i = i as u32;
                        self.limit(&[cell], |v| v > i && v + (n - 1 - i) <= size)?;
                    }
                }
                Ok(())
            }
            Constraint::Arrow { circle, line } => {
                // A pill reads as a number in reading order.
                let mut circle = circle.clone();
                circle.sort_unstable();
                let circle_cells = self.cells(&circle, 1)?;
                let line_cells = self.cells(line, 1)?;
                if circle_cells.len() > 3 {
                    return Err("a circle or pill holds 1 to 3 cells".into());
                }
                if circle_cells.iter().any(|c| line_cells.contains(c)) {
                    return Err("the circle's cells are on the arrow's line".into());
                }
                let most = (0..circle_cells.len()).fold(0u64, |m, _| m * 10 + u64::from(size));
                if line_cells.len() as u64 > most {
                    return Err(format!(
                        "its {} line cells add up to at least {}, more than the circle can hold ({most})",
                        line_cells.len(),
                        line_cells.len()
                    ));
                }
                let k = circle_cells.len() as u32;
                let coefficients = line_cells
                    .iter()
                    .map(|_| 1)
                    .chain((0..k).map(|i| -(10i32.pow(k - 1 - i))))
                    .collect();
                let cells = line_cells.into_iter().chain(circle_cells).collect();
                self.sum(cells, coefficients, 0)
            }
            Constraint::Difference { cells, value } => {
                let cells = self.cells(cells, 2)?;
                let d = *value;
                self.relate(cells[0], cells[1], |a, b| a.abs_diff(b) == d)
            }
            Constraint::Ratio { cells, value } => {
                let cells = self.cells(cells, 2)?;
                let r = *value;
                self.relate(cells[0], cells[1], |a, b| in_ratio(a, b, r))
            }
            Constraint::Xv { cells, sum } => {
                let cells = self.cells(cells, 2)?;
                self.relate(cells[0], cells[1], |a, b| a + b == *sum)
            }
            Constraint::LittleKiller { cells, sum, .. } => {
                let cells = self.cells(cells, 1)?;
                let n = cells.len() as u32;
                if *sum < n || *sum > n * size {
                    return Err(format!(
                        "sum {sum} is impossible for {n} digits of 1..={size}"
                    ));
                }
                let coefficients = vec![1; cells.len()];
                self.sum(cells, coefficients, *sum as i32)
            }
            Constraint::Sandwich { cells, sum, .. } => {
                let cells = self.full_line(cells)?;
                let most = (2..size).sum::<u32>();
                if *sum > most {
                    return Err(format!(
                        "sum {sum} is above {most}, all the digits between 1 and {size}"
                    ));
                }
                let kind = PatternKind::Sandwich {
                    sum: *sum,
                    low: 1,
                    high: size as u8,
                };
                self.pattern(cells, kind, true);
                Ok(())
            }
            Constraint::Cage { cells, sum } => {
                let k = self.cells(cells, 1)?.len() as u32;
                if k > size {
                    return Err(format!("{k} cells cannot hold different digits"));
                }
                let (lo, hi) = crate::cage::sum_range(k, size);
                if let Some(sum) = sum.filter(|s| !(lo..=hi).contains(s)) {
                    return Err(format!(
                        "sum {sum} is impossible for {k} different digits (possible: {lo}..={hi})"
                    ));
                }
                match sum {
                    Some(sum) => self.out.cages.push((cells.clone(), *sum)),
                    None => self.out.houses.push(cells.clone()),
                }
                Ok(())
            }
            Constraint::Renban { cells: coords } => {
                let cells = self.cells(coords, 2)?;
                if cells.len() > size as usize {
                    return Err(format!(
                        "{} cells cannot hold different digits",
                        cells.len()
                    ));
                }
                self.differ(coords);
                let k = cells.len();
                let run = |t: &[u32]| {
                    let (lo, hi) = (t.iter().min(), t.iter().max());
                    lo.zip(hi)
                        .is_some_and(|(lo, hi)| (hi - lo) as usize == k - 1)
                        && t.iter().enumerate().all(|(i, a)| !t[..i].contains(a))
                };
                match (k <= SHORT_RENBAN)
                    .then(|| super::digit_tuples(k, size, u64::MAX, run))
                    .flatten()
                {
                    Some(tuples) => {
                        let flat = tuples.into_iter().flatten().map(|d| d as u8).collect();
                        self.push(Primitive::Table(Table::new(cells, flat)));
                    }
                    None => self.pattern(cells, PatternKind::Renban, true),
                }
                Ok(())
            }
            Constraint::Whispers { cells, difference } => {
                let cells = self.line(cells, 2)?;
                let d = *difference;
                for pair in cells.windows(2) {
                    self.relate(pair[0], pair[1], |a, b| a.abs_diff(b) >= d)?;
                }
                Ok(())
            }
            Constraint::Palindrome { cells } => {
                let cells = self.line(cells, 2)?;
                let n = cells.len();
                for i in (0..n / 2).filter(|&i| cells[i] != cells[n - 1 - i]) {
                    self.relate(cells[i], cells[n - 1 - i], |a, b| a == b)?;
                }
                Ok(())
            }
            Constraint::Between { cells } => {
                let cells = self.cells(cells, 3)?;
                self.pattern(cells, PatternKind::Between, false);
                Ok(())
            }
            Constraint::Zipper { cells } => {
                let cells = self.line(cells, 2)?;
                let n = cells.len();
                // Each pair equidistant from the middle adds up to the total,
                // which an odd line's middle cell holds.
                let mut groups: Vec<(Vec<u32>, bool)> = (0..n / 2)
                    .map(|i| {
                        let pair = [cells[i], cells[n - 1 - i]];
                        (pair.to_vec(), self.see_each_other(&pair))
                    })
                    .collect();
                if !n.is_multiple_of(2) {
                    groups.push((vec![cells[n / 2]], false));
                }
                // Pairs of digits up to 25 always fit the sums' bits; one pair
                // alone states nothing.
                if let Some(rule) = EqualSums::new(groups, size) {
                    let rule = rule.sharing_houses(self.house_cells, size);
                    self.push(Primitive::EqualSums(rule));
                }
                Ok(())
            }
            Constraint::Entropic { cells } => {
                let cells = self.cells(cells, 2)?;
                if !size.is_multiple_of(3) {
                    return Err(format!("digits 1..={size} do not split into thirds"));
                }
                let third = |v: u32| (v - 1) / (size / 3);
                // One digit of each third, in any order.
                let one_each = |t: &[u32]| {
                    let mut thirds: Vec<u32> = t.iter().map(|&v| third(v)).collect();
                    thirds.sort_unstable();
                    thirds == [0, 1, 2]
                };
                let tuples: Vec<u8> = super::digit_tuples(3, size, u64::MAX, one_each)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|d| d as u8)
                    .collect();
                for window in cells.windows(3) {
                    self.push(Primitive::Table(Table::new(
                        window.to_vec(),
                        tuples.clone(),
                    )));
                }
                Ok(())
            }
            Constraint::RegionSum { cells } => {
                let coords = cells;
                let cells = self.cells(coords, 2)?;
                let region_of =
                    |coord: &Coord| self.layout.regions.iter().position(|r| r.contains(coord));
                let mut runs: Vec<Vec<u32>> = Vec::new();
                let mut last = None;
                for (coord, &cell) in coords.iter().zip(&cells) {
                    let region = region_of(coord).ok_or_else(|| {
                        format!("cell [{},{}] is in no region", coord[0], coord[1])
                    })?;
                    match runs.last_mut() {
                        Some(run) if last == Some(region) => run.push(cell),
                        _ => runs.push(vec![cell]),
                    }
                    last = Some(region);
                }
                let groups = runs.iter().map(|run| (run.clone(), true)).collect();
                if let Some(rule) = EqualSums::new(groups, size) {
                    let rule = rule.sharing_houses(self.house_cells, size);
                    self.push(Primitive::EqualSums(rule));
                } else if let Some((first, rest)) = runs.split_first() {
                    // Runs too long for the sums' bits (big grids): each run
                    // against the first, bounded.
                    for run in rest {
                        let cells: Vec<u32> = run.iter().chain(first).copied().collect();
                        let coefficients = run
                            .iter()
                            .map(|_| 1)
                            .chain(first.iter().map(|_| -1))
                            .collect();
                        self.sum(cells, coefficients, 0)?;
                    }
                }
                Ok(())
            }
            Constraint::Minimum { cells } | Constraint::Maximum { cells } => {
                let lower = matches!(c, Constraint::Minimum { .. });
                let marked_cells = self.cells(cells, 1)?;
                // Every cell marked the same way, by any constraint.
                let same: Vec<Coord> = self
                    .all
                    .iter()
                    .filter(|o| std::mem::discriminant(*o) == std::mem::discriminant(c))
                    .flat_map(|o| match o {
                        Constraint::Minimum { cells } | Constraint::Maximum { cells } => {
                            cells.clone()
                        }
                        _ => Vec::new(),
                    })
                    .collect();
                for (coord, &cell) in cells.iter().zip(&marked_cells) {
                    for [nr, nc] in neighbours(*coord, self.layout) {
                        if same.contains(&[nr, nc]) {
                            continue;
                        }
                        let Some(other) = (self.layout.cell_at)(nr, nc) else {
                            continue;
                        };
                        self.relate(cell, other, |a, b| if lower { a < b } else { a > b })?;
                    }
                }
                Ok(())
            }
            Constraint::Quadruple { cells, values } => {
                let cells = self.cells(cells, 1)?;
                if cells.len() > 4 || values.len() > cells.len() {
                    return Err(format!(
                        "{} digits for {} cells (a quadruple has up to 4 of each)",
                        values.len(),
                        cells.len()
                    ));
                }
                in_range(values, size)?;
                let tuples = quadruple_tuples(cells.len(), values, size);
                self.push(Primitive::Table(Table::new(cells, tuples)));
                Ok(())
            }
            Constraint::XSum { cells, sum, .. } => {
                let cells = self.full_line(cells)?;
                self.pattern(cells, PatternKind::XSum { sum: *sum }, true);
                Ok(())
            }
            Constraint::Skyscraper { cells, count, .. } => {
                let cells = self.full_line(cells)?;
                if *count == 0 || *count > size {
                    return Err(format!("count {count} is outside 1..={size}"));
                }
                // The cell `d` from the clue has at least `count - 1 - d`
                // higher cells seen after it, so holds at most `N - count + 1 + d`.
                for (d, &cell) in cells.iter().enumerate() {
                    let most = size - count + 1 + d as u32;
                    self.limit(&[cell], |v| v <= most)?;
                }
                self.pattern(cells, PatternKind::Skyscraper { count: *count }, true);
                Ok(())
            }
            Constraint::Indexer { cells, axis } => {
                let indexers = self.cells(cells, 1)?;
                for (&[r, c], &cell) in cells.iter().zip(&indexers) {
                    for x in 1..=size {
                        let (target, value) = match axis {
                            Axis::Column => ([r, x - 1], c + 1),
                            Axis::Row => ([x - 1, c], r + 1),
                        };
                        let Some(other) = (self.layout.cell_at)(target[0], target[1]) else {
                            continue;
                        };
                        if other != cell {
                            self.relate(cell, other, |a, b| a != x || b == value)?;
                        } else {
                            // The cell indexes itself: X there means X = its own index.
                            self.limit(&[cell], |a| a != x || a == value)?;
                        }
                    }
                }
                Ok(())
            }
            Constraint::Clone { cells, clones } => {
                if cells.len() != clones.len() {
                    return Err(format!("{} cells but {} clones", cells.len(), clones.len()));
                }
                let (a, b) = (self.cells(cells, 1)?, self.cells(clones, 1)?);
                for (&x, &y) in a.iter().zip(&b) {
                    if x != y {
                        self.relate(x, y, |p, q| p == q)?;
                    }
                }
                Ok(())
            }
            Constraint::NonConsecutive => {
                let dots = marked(self.all, is_kropki);
                for pair in orthogonal_pairs(self.layout) {
                    if !has_pair(&dots, pair) {
                        let (a, b) = (self.cell(pair[0])?, self.cell(pair[1])?);
                        self.relate(a, b, |p, q| p.abs_diff(q) != 1)?;
                    }
                }
                Ok(())
            }
            Constraint::AntiKing | Constraint::AntiKnight => {
                let moves: &[[i64; 2]] = if matches!(c, Constraint::AntiKing) {
                    &[[0, 1], [1, -1], [1, 0], [1, 1]]
                } else {
                    &[[1, -2], [1, 2], [2, -1], [2, 1]]
                };
                for r in 0..self.layout.rows {
                    for col in 0..self.layout.cols {
                        if (self.layout.cell_at)(r, col).is_none() {
                            continue;
                        }
                        for [dr, dc] in moves {
                            let (nr, nc) = (i64::from(r) + dr, i64::from(col) + dc);
                            let inside = (0..i64::from(self.layout.rows)).contains(&nr)
                                && (0..i64::from(self.layout.cols)).contains(&nc);
                            if inside && (self.layout.cell_at)(nr as u32, nc as u32).is_some() {
                                self.out.different.push([[r, col], [nr as u32, nc as u32]]);
                            }
                        }
                    }
                }
                Ok(())
            }
            Constraint::DisjointGroups => {
                let regions = self.layout.regions;
                if regions.is_empty() || regions.iter().any(|r| r.len() != regions[0].len()) {
                    return Err("needs boxes of one size".into());
                }
                for k in 0..regions[0].len() {
                    let mut group: Vec<Coord> = Vec::new();
                    for region in regions {
                        let mut cells = region.clone();
                        cells.sort_unstable();
                        group.push(cells[k]);
                    }
                    self.out.houses.push(group);
                }
                Ok(())
            }
            Constraint::Negative { ratio, xv } => {
                let dots = marked(self.all, is_kropki);
                let marks = marked(self.all, |c| matches!(c, Constraint::Xv { .. }));
                let mut ratios: Vec<u32> = self
                    .all
                    .iter()
                    .filter_map(|c| match c {
                        Constraint::Ratio { value, .. } => Some(*value),
                        _ => None,
                    })
                    .collect();
                if ratios.is_empty() {
                    ratios.push(2);
                }
                for pair in orthogonal_pairs(self.layout) {
                    let (a, b) = (self.cell(pair[0])?, self.cell(pair[1])?);
                    if *ratio && !has_pair(&dots, pair) {
                        let ratios = ratios.clone();
                        self.relate(a, b, move |p, q| !ratios.iter().any(|&r| in_ratio(p, q, r)))?;
                    }
                    if *xv && !has_pair(&marks, pair) {
                        self.relate(a, b, |p, q| p + q != 5 && p + q != 10)?;
                    }
                }
                Ok(())
            }
            Constraint::Table { cells, tuples, .. } => {
                let cells = self.cells(cells, 1)?;
                let mut flat = Vec::with_capacity(tuples.len() * cells.len());
                for (i, t) in tuples.iter().enumerate() {
                    if t.len() != cells.len() {
                        return Err(format!(
                            "tuple {i} has {} digits for {} cells",
                            t.len(),
                            cells.len()
                        ));
                    }
                    in_range(t, size).map_err(|e| format!("tuple {i}: {e}"))?;
                    flat.extend(t.iter().map(|&v| v as u8));
                }
                if flat.is_empty() {
                    return Err("allows no tuple".into());
                }
                self.push(Primitive::Table(Table::new(cells, flat)));
                Ok(())
            }
        }
    }
}

/// The positions orthogonally next to `[r, c]` inside the layout.
fn neighbours([r, c]: Coord, layout: &Layout) -> Vec<Coord> {
    let mut out = Vec::new();
    if r > 0 {
        out.push([r - 1, c]);
    }
    if c > 0 {
        out.push([r, c - 1]);
    }
    if r + 1 < layout.rows {
        out.push([r + 1, c]);
    }
    if c + 1 < layout.cols {
        out.push([r, c + 1]);
    }
    out
}

/// Every tuple of `k` digits of 1..=`size` holding each of `values` (as
/// often as listed), flattened. `k` is at most 4, so at most 32^4 tuples.
fn quadruple_tuples(k: usize, values: &[u32], size: u32) -> Vec<u8> {
    let holds_all = |tuple: &[u32]| {
        let mut left = tuple.to_vec();
        values
            .iter()
            .all(|v| match left.iter().position(|x| x == v) {
                Some(i) => {
                    left.swap_remove(i);
                    true
                }
                None => false,
            })
    };
    super::digit_tuples(k, size, u64::MAX, holds_all)
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| d as u8)
        .collect()
}

/// A sum without the full houses (of `size` cells) whose every cell is one
/// of its terms with one coefficient: such a house holds each digit once,
/// so those terms add up to a constant (the setters' "rule of 45") — an
/// arrow along eight whole rows becomes an arrow along what is left.
fn fold_full_houses(
    houses: &[Vec<u32>],
    size: u32,
    mut cells: Vec<u32>,
    mut coefficients: Vec<i32>,
    mut total: i32,
) -> (Vec<u32>, Vec<i32>, i32) {
    let house_total = (size * (size + 1) / 2) as i32;
    for house in houses.iter().filter(|h| h.len() == size as usize) {
        let terms: Option<Vec<usize>> = house
            .iter()
            .map(|c| cells.iter().position(|x| x == c))
            .collect();
        let Some(terms) = terms else { continue };
        let k = coefficients[terms[0]];
        if terms.iter().any(|&t| coefficients[t] != k) {
            continue;
        }
        total -= k * house_total;
        (cells, coefficients) = cells
            .iter()
            .zip(&coefficients)
            .filter(|(c, _)| !house.contains(c))
            .unzip();
    }
    (cells, coefficients, total)
}

/// Whether one of `houses` holds every cell of `cells`.
fn shared_house(houses: &[Vec<u32>], cells: &[u32]) -> bool {
    houses.iter().any(|h| cells.iter().all(|c| h.contains(c)))
}

#[cfg(test)]
mod tests {
    use crate::rules::ModelBuilder;
    use protocol::{Axis, Constraint, Coord};
    use std::sync::Arc;

    /// An indexer whose digit points past the layout's last column points
    /// nowhere (not into the next row).
    #[test]
    fn an_indexer_never_wraps_into_the_next_row() {
        let model = ModelBuilder::new(4, 2, 2)
            .constraint(Constraint::Indexer {
                cells: vec![[0, 0]],
                axis: Axis::Column,
            })
            .build()
            .expect("valid");
        // 3 at [0,0] would send 1 to [0,2], off the layout, not to [1,0].
        let givens = vec![3, 0, 2, 0];
        assert!(crate::Puzzle::new(Arc::new(model), givens).is_ok());
    }

    /// One-cell rules leave the search's list and become each cell's
    /// limits, merged per cell; the grader's list keeps every primitive.
    #[test]
    fn one_cell_rules_are_limits_applied_once() {
        let model = crate::geometry::classic_builder(2, 2)
            .expect("4x4")
            .constraint(Constraint::Even {
                cells: vec![[0, 0], [1, 0]],
            })
            .constraint(Constraint::Skyscraper {
                cells: vec![[0, 0], [0, 1], [0, 2], [0, 3]],
                count: 3,
                clue: None,
            })
            .build()
            .expect("valid");
        let compiled = &model.compiled;
        // Two evens, four skyscraper bounds (the first cell at most 2, the
        // second at most 3, ...), and the skyscraper itself.
        assert_eq!(compiled.primitives.len(), 7);
        assert_eq!(compiled.search_primitives.len(), 1);
        let limit = |cell: u32| {
            compiled
                .cell_limits
                .iter()
                .find(|l| l.0 == cell)
                .map(|l| l.1)
        };
        assert_eq!(limit(0), Some(0b0010), "even and at most 2");
        assert_eq!(limit(1), Some(0b0111), "at most 3");
        assert_eq!(limit(4), Some(0b1010), "even");
        assert_eq!(limit(5), None);
        let puzzle = crate::Puzzle::new(Arc::new(model), vec![0; 16]).expect("valid");
        let cand = puzzle.propagate().expect("consistent");
        assert_eq!((cand[0], cand[4]), (0b0010, 0b1000), "2 above 4");
    }

    #[test]
    fn a_cage_with_an_impossible_sum_is_an_error_naming_it() {
        let e = ModelBuilder::new(4, 1, 4)
            .constraint(Constraint::Even {
                cells: vec![[0, 0]],
            })
            .constraint(Constraint::Cage {
                cells: vec![[0, 0], [0, 1]],
                sum: Some(9),
            })
            .build()
            .expect_err("two of 1..=4 add up to 7 at most");
        assert_eq!(
            e.to_string(),
            "constraint 1 (cage): sum 9 is impossible for 2 different digits (possible: 3..=7)"
        );
    }

    /// A killer cage's cells see each other, so a little killer through
    /// three cells of one cage (no two in a row, column or box) adds up to
    /// at least 1 + 2 + 3: 5 is refused at once.
    #[test]
    fn a_sum_bounds_the_cells_of_one_cage_as_different_digits() {
        let cells = vec![[0, 0], [1, 3], [2, 6]];
        let model = crate::geometry::classic_builder(3, 3)
            .expect("9x9")
            .constraint(Constraint::Cage {
                cells: cells.clone(),
                sum: None,
            })
            .constraint(Constraint::LittleKiller {
                cells,
                sum: 5,
                clue: None,
            })
            .build()
            .expect("valid");
        let [(sum, _)] = &model.compiled.primitives[..] else {
            panic!("one primitive: the sum");
        };
        assert_eq!(sum.narrow(&mut [0x1FF; 3]), Err(()));
    }

    /// A 4x4 with a little killer along the first row and two cells of
    /// the second.
    fn killer_over_a_row(cells: Vec<Coord>, sum: u32) -> Result<crate::Model, crate::PuzzleError> {
        crate::geometry::classic_builder(2, 2)
            .expect("4x4")
            .constraint(Constraint::LittleKiller {
                cells,
                sum,
                clue: None,
            })
            .build()
    }

    /// The row adds up to 10 whatever its digits: the sum keeps the two
    /// cells of the second row, and still holds them to the rest.
    #[test]
    fn a_sum_leaves_out_the_whole_houses_it_covers() {
        let cells = vec![[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 2]];
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut givens = solution.to_vec();
        (givens[4], givens[6]) = (0, 0);
        for (sum, solutions) in [(14, 1), (15, 0)] {
            let model = killer_over_a_row(cells.clone(), sum).expect("valid");
            let kept: Vec<&[u32]> = model
                .compiled
                .primitives
                .iter()
                .map(|(p, _)| p.cells())
                .collect();
            assert_eq!(kept, [&[4, 6][..]]);
            let puzzle = crate::Puzzle::new(Arc::new(model), givens.clone()).expect("valid");
            assert_eq!(puzzle.count(2).solutions, solutions, "sum {sum}");
        }
    }

    /// r1c1 <= r2c3 <= r1c2 on a 4x4: the ends share a row, so r1c1 stays
    /// strictly below r1c2 though the middle cell sees neither.
    #[test]
    fn a_slow_thermometer_rises_strictly_between_cells_that_see_each_other() {
        let model = crate::geometry::classic_builder(2, 2)
            .expect("4x4")
            .constraint(Constraint::Thermometer {
                cells: vec![[0, 0], [1, 2], [0, 1]],
                slow: true,
            })
            .build()
            .expect("valid");
        let (low, middle, high) = (0, 6, 1);
        let mut cand = vec![0b1111u32; 16];
        cand[high] = 0b0110;
        let mut singles = Vec::new();
        while model.compiled.primitives.iter().any(|(p, _)| {
            p.propagate(&mut cand, &mut singles, |_| {})
                .expect("satisfiable")
        }) {}
        assert_eq!(cand[low], 0b0011, "r1c1 below r1c2's 2 or 3");
        assert_eq!(cand[middle], 0b0111, "r2c3 may equal r1c2");
    }

    /// Two pairs of a zipper fill four cells of the first box: the other
    /// five cells and twice a pair outside add up to 45.
    #[test]
    fn a_box_with_two_zipper_pairs_adds_up_through_a_pair_outside() {
        let (x, y) = ([8, 7], [8, 8]);
        let model = crate::geometry::classic_builder(3, 3)
            .expect("9x9")
            .constraint(Constraint::Zipper {
                cells: vec![[0, 0], [0, 1], x, y, [1, 1], [1, 0]],
            })
            .build()
            .expect("valid");
        let index = |[r, c]: Coord| (r * 9 + c) as usize;
        let others = [[0, 2], [1, 2], [2, 0], [2, 1], [2, 2]];
        let mut cand = vec![0x1ffu32; 81];
        for (v, &cell) in others.iter().enumerate() {
            cand[index(cell)] = 1 << v;
        }
        cand[index(x)] = 1 << 8;
        let mut singles = Vec::new();
        while model.compiled.primitives.iter().any(|(p, _)| {
            p.propagate(&mut cand, &mut singles, |_| {})
                .expect("satisfiable")
        }) {}
        // 1 + 2 + 3 + 4 + 5 + 2 × (9 + y) = 45.
        assert_eq!(cand[index(y)], 1 << 5);
    }

    /// A three-cell renban is the table of its runs' orderings, so it sees
    /// what windows miss: two cells that can only hold 1 or 5 and a third
    /// holding 2 or 3 fit the run 1-3 cell by cell, yet no ordering of any run.
    #[test]
    fn a_short_renban_is_narrowed_exactly() {
        let model = crate::geometry::classic_builder(3, 3)
            .expect("9x9")
            .constraint(Constraint::Renban {
                cells: vec![[0, 0], [1, 1], [2, 2]],
            })
            .build()
            .expect("valid");
        let [(renban, _)] = &model.compiled.primitives[..] else {
            panic!("one primitive");
        };
        assert!(matches!(renban, super::Primitive::Table(_)));
        let mut local = [0b1_0001, 0b1_0001, 0b110];
        assert_eq!(renban.narrow(&mut local), Err(()));
        let mut local = [0b1_0001, 0b1_1000, 0b110];
        assert_eq!(renban.narrow(&mut local), Ok(true));
        assert_eq!(local, [0b1_0000, 0b1000, 0b100], "5, 4 and 3");
    }

    #[test]
    fn a_sum_over_whole_houses_that_misses_its_total_is_an_error() {
        let e = killer_over_a_row((0..4).map(|c| [0, c]).collect(), 11)
            .expect_err("a row of 1..=4 adds up to 10");
        assert_eq!(
            e.to_string(),
            "constraint 0 (littleKiller): its whole houses can never add up to what it needs"
        );
    }

    #[test]
    fn a_long_strict_thermometer_is_an_error_naming_it() {
        let cells = (0..5).map(|c| [0, c]).collect();
        let e = ModelBuilder::new(4, 1, 5)
            .constraint(Constraint::Thermometer { cells, slow: false })
            .build()
            .expect_err("5 cells cannot increase through 1..=4");
        assert_eq!(
            e.to_string(),
            "constraint 0 (thermometer): 5 cells cannot strictly increase through 1..=4"
        );
    }
}
