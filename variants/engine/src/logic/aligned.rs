//! Aligned exclusion: for two (or three) cells, try every combination of their
//! candidates; a combination is impossible when two of the cells see each other
//! and hold the same value, or when a cell seeing all of them would be left
//! with no candidate. A candidate that appears in no possible combination is
//! false. Aligned Pair Exclusion (6.2) and Aligned Triple Exclusion (7.5).

use crate::logic::cells::CellSet;
use crate::logic::memo;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::{bit, values_of};

/// The first aligned exclusion over `degree` (2 or 3) cells.
///
/// What a set of cells gives depends only on its cells' candidates and on
/// those of the cells that see all of them (its excluders; whether its cells
/// are searched at all depends on these too). So, in a solve, a set none of
/// whose cells, nor any cell seeing them all, changed since the search last
/// found nothing is not tried again. A cell with one candidate left keeps
/// every cell it sees out of the search, so in a grid with one (never in the
/// ladder, where singles come first) the memo is neither read nor written.
pub(crate) fn exclusion(cx: &Ctx, degree: usize) -> Option<Step> {
    if cx.grid.cand.iter().any(|&m| m.count_ones() == 1) {
        return search_sets(cx, degree, None);
    }
    cx.grid_step(memo::ALIGNED + degree as u8, |changed| {
        search_sets(cx, degree, changed)
    })
}

/// [`exclusion`], trying only sets that read a cell of `changed` (`None`:
/// every set).
fn search_sets(cx: &Ctx, degree: usize, changed: Option<&CellSet>) -> Option<Step> {
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    // Base cells and the cells that may exclude combinations for each.
    let mut bases: Vec<u32> = Vec::new();
    let mut excluders = vec![CellSet::empty(cx.layout); n as usize];
    for c in 0..n {
        if cand[c as usize].count_ones() < 2 {
            continue;
        }
        let peers = &cx.layout.peers[c as usize];
        if peers.iter().any(|&p| cand[p as usize].count_ones() == 1) {
            continue;
        }
        for &p in peers {
            if (2..=degree as u32).contains(&cand[p as usize].count_ones()) {
                excluders[c as usize].insert(p);
            }
        }
        if !excluders[c as usize].is_empty() {
            bases.push(c);
        }
    }
    // Each base cell's place in `bases`, if it is one.
    let mut rank = vec![usize::MAX; n as usize];
    for (i, &b) in bases.iter().enumerate() {
        rank[b as usize] = i;
    }
    // Whether `c` is a third cell of the pair `(x, y)` (`area` below).
    let in_area = |x: u32, y: u32, c: u32| {
        excluders[x as usize].contains(c) || excluders[y as usize].contains(c)
    };
    // Scratch: the excluders common to a pair, to a triple, the area of a pair,
    // the changed cells seeing both cells of a pair.
    let mut pair = CellSet::empty(cx.layout);
    let (mut common, mut area) = (CellSet::empty(cx.layout), CellSet::empty(cx.layout));
    let mut changed_seeing = CellSet::empty(cx.layout);
    let mut blockers = Vec::new();
    for (i, &a) in bases.iter().enumerate() {
        for (j, &b) in bases[i + 1..].iter().enumerate() {
            // Whether the pair itself, or a cell seeing both, changed; with
            // neither, a triple with it changed only if its third cell did.
            let pair_changed = changed.is_none_or(|d| {
                changed_seeing.copy_from(d);
                changed_seeing.keep(cx.layout.seen_by(a));
                changed_seeing.keep(cx.layout.seen_by(b));
                d.contains(a) || d.contains(b) || !changed_seeing.is_empty()
            });
            if degree == 2 && !pair_changed {
                continue;
            }
            // Every cell set needs two excluders common to all its cells, so a
            // pair without two cannot start a triple either.
            pair.copy_from(&excluders[a as usize]);
            pair.keep_set(&excluders[b as usize]);
            if pair.len() < 2 {
                continue;
            }
            if degree == 2 {
                if let Some(step) = try_cells(cx, &[a, b], &pair, &mut blockers) {
                    if let Some(step) = cx.offer(step) {
                        return Some(step);
                    }
                }
                continue;
            }
            // Third cells: base cells among the excluders of either.
            area.copy_from(&excluders[a as usize]);
            area.add(&excluders[b as usize]);
            if let Some(d) = changed.filter(|_| !pair_changed) {
                // Only a changed third cell can make the triple new.
                area.keep_set(d);
            }
            for t in area.iter() {
                if t == a || t == b || rank[t as usize] == usize::MAX {
                    continue;
                }
                let triple_changed = changed.is_none_or(|d| {
                    d.contains(t)
                        || (pair_changed
                            && (d.contains(a)
                                || d.contains(b)
                                || changed_seeing.meets_words(cx.layout.seen_by(t))))
                });
                if !triple_changed {
                    continue;
                }
                common.copy_from(&pair);
                common.keep_set(&excluders[t as usize]);
                if common.len() < 2 {
                    continue;
                }
                // A triple is met from each of its pairs that has the third
                // in its area: only the first meeting (pairs in order) tries
                // it. Its pairs all passed the two-excluder test above.
                let (rt, rb) = (rank[t as usize], j + i + 1);
                let met_before = if rt < i {
                    in_area(t, a, b) || in_area(t, b, a)
                } else {
                    rt < rb && in_area(a, t, b)
                };
                if met_before {
                    continue;
                }
                if let Some(step) = try_cells(cx, &[a, b, t], &common, &mut blockers) {
                    if let Some(step) = cx.offer(step) {
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}

/// The aligned exclusion over `cells` (2 or 3), whose common excluders (two
/// or more) are `excluders`, if it eliminates anything. `blockers` is scratch
/// space for the excluders' candidates.
fn try_cells(
    cx: &Ctx,
    cells: &[u32],
    excluders: &CellSet,
    blockers: &mut Vec<u32>,
) -> Option<Step> {
    let cand = &cx.grid.cand;
    // A combination is impossible where it holds all of an excluder's candidates.
    blockers.clear();
    blockers.extend(excluders.iter().map(|e| cand[e as usize]));
    blockers.sort_unstable();
    blockers.dedup();
    let blocked = |used: u32| blockers.iter().any(|&m| m & !used == 0);
    // Which pairs of the set see each other (may not share a value).
    let mut clash = [[false; 3]; 3];
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            clash[i][j] = cx.layout.sees(cells[i], cells[j]);
        }
    }
    let mut allowed = [0u32; 3];
    let third = if cells.len() == 3 {
        cand[cells[2] as usize]
    } else {
        1
    };
    // Every candidate of every cell allowed: nothing left to find.
    let all = [cand[cells[0] as usize], cand[cells[1] as usize], third];
    for v0 in values_of(cand[cells[0] as usize]) {
        for v1 in values_of(cand[cells[1] as usize]) {
            if v0 == v1 && clash[0][1] {
                continue;
            }
            let pair = bit(u32::from(v0)) | bit(u32::from(v1));
            // Blocked by the first two values alone: so is every third.
            if blocked(pair) {
                continue;
            }
            // With two cells, `third` is a dummy single value that never clashes.
            for v2 in values_of(third) {
                if cells.len() == 3 && ((v0 == v2 && clash[0][2]) || (v1 == v2 && clash[1][2])) {
                    continue;
                }
                let values = [bit(u32::from(v0)), bit(u32::from(v1)), bit(u32::from(v2))];
                if (0..3).all(|i| allowed[i] & values[i] != 0) {
                    continue; // Allows nothing new.
                }
                let used = if cells.len() == 3 {
                    pair | values[2]
                } else {
                    pair
                };
                if !blocked(used) {
                    for i in 0..3 {
                        allowed[i] |= values[i];
                    }
                    // Compared value by value: a whole-array compare reads the
                    // three words just written as one, which stalls.
                    if (0..3).all(|i| allowed[i] == all[i]) {
                        return None;
                    }
                }
            }
        }
    }
    let eliminations: Vec<Candidate> = cells
        .iter()
        .enumerate()
        .flat_map(|(i, &c)| {
            values_of(cand[c as usize] & !allowed[i]).map(move |v| Candidate::new(c, v))
        })
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let (technique, rating) = if cells.len() == 2 {
        (Technique::AlignedPairExclusion, 62)
    } else {
        (Technique::AlignedTripleExclusion, 75)
    };
    let mut step = Step::new(technique, rating);
    for c in cells.iter().copied().chain(excluders.iter()) {
        step.pattern
            .extend(values_of(cand[c as usize]).map(|v| Candidate::new(c, v)));
    }
    step.eliminations = eliminations;
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::tests::memo_changes_no_result;

    /// With a memo kept along a solve, each degree gives at every position
    /// what a search without one gives: the sets it passes over read no
    /// changed cell. Puzzles whose rated solutions use aligned exclusion.
    #[test]
    fn the_memo_changes_no_result() {
        let lines = [
            "230400000007300009060800000072000003409206708600000290000003010100008300000001085",
            "200016000400000502007050060730002000900030005000900034040020300102000006000860009",
            "010750000807060509000000200003500004400020007900006300008000000301040702000073040",
            "000605800005840000300007060803000041090000050150000302060200009000059700009701000",
        ];
        let (found, positions) = memo_changes_no_result(&lines, &[2, 3], exclusion);
        assert!(
            found >= 4 && positions > 30,
            "{found} found, {positions} positions without a single"
        );
    }
}
