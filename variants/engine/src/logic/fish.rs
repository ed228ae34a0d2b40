//! Basic fish: a value whose places in `k` rows all lie in `k` columns (or the
//! reverse) cannot go anywhere else in those columns. X-Wing (k = 2), Swordfish
//! (3), Jellyfish (4).

use crate::logic::cells::CellSet;
use crate::logic::combinations::first_combination;
use crate::logic::memo;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;

/// The first fish of size `k`. A value's fish depend only on its places in
/// the rows and columns (the cells they eliminate from only lose it), so,
/// in a solve, a value that gave none is skipped while those stay as they
/// were.
pub(crate) fn basic(cx: &Ctx, k: usize) -> Option<Step> {
    let lines = cx.layout.lines.as_ref()?;
    let search = memo::BASIC_FISH + k as u8;
    for value in 1..=cx.grid.size as u8 {
        let places = cx.line_places(value);
        if cx.known_fruitless(search, value, &places) {
            continue;
        }
        for base in 0..2 {
            let cover = 1 - base;
            // (base line group, its cover lines as a mask)
            let mut candidates: Vec<(u32, u64)> = Vec::new();
            for &g in &lines[base] {
                let group = &cx.layout.groups[g as usize];
                let mut mask = 0u64;
                let mut covered = true;
                for &c in &group.cells {
                    if cx.grid.has(c, value) {
                        let line = cx.layout.line_of[cover][c as usize];
                        covered &= line != u8::MAX;
                        mask |= 1u64.checked_shl(u32::from(line)).unwrap_or(0);
                    }
                }
                if covered && (2..=k as u32).contains(&mask.count_ones()) {
                    candidates.push((g, mask));
                }
            }
            let found = first_combination(candidates.len(), k, |pick| {
                let union = pick.iter().fold(0u64, |m, &i| m | candidates[i].1);
                if union.count_ones() as usize != k {
                    return None;
                }
                let base_groups: Vec<u32> = pick.iter().map(|&i| candidates[i].0).collect();
                let in_base = |c: u32| {
                    base_groups
                        .iter()
                        .any(|&g| cx.layout.groups[g as usize].cells.contains(&c))
                };
                let cover_groups: Vec<u32> = (0..64)
                    .filter(|b| union >> b & 1 == 1)
                    .map(|b| lines[cover][b])
                    .collect();
                let eliminations: Vec<Candidate> = cover_groups
                    .iter()
                    .flat_map(|&g| cx.layout.groups[g as usize].cells.iter().copied())
                    .filter(|&c| cx.grid.has(c, value) && !in_base(c))
                    .map(|c| Candidate::new(c, value))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let (technique, rating) = match k {
                    2 => (Technique::XWing, 32),
                    3 => (Technique::Swordfish, 38),
                    _ => (Technique::Jellyfish, 52),
                };
                let mut step = Step::new(technique, rating);
                for &g in &base_groups {
                    let group = &cx.layout.groups[g as usize];
                    step.pattern.extend(
                        group
                            .cells
                            .iter()
                            .filter(|&&c| cx.grid.has(c, value))
                            .map(|&c| Candidate::new(c, value)),
                    );
                }
                step.eliminations = eliminations;
                for g in base_groups.iter().chain(&cover_groups) {
                    step.houses.extend(cx.layout.groups[*g as usize].house);
                }
                cx.offer(step)
            });
            if found.is_some() {
                return found;
            }
        }
        cx.note_fruitless(search, value, places);
    }
    None
}

/// The most cover lines a finned fish's base lines may reach: a jellyfish's
/// four and three more for fins (they span at most a box's width).
const MAX_SPAN: usize = 7;

/// Finned and sashimi fish of size `k` (not in Sudoku Explainer, which finds
/// them as chains): the value's places in `k` base lines lie in `k` cover lines
/// except for some "fins"; either the fish stands (and the cover lines lose the
/// value outside the base lines) or a fin holds the value, so a cell of a cover
/// line that sees every fin loses it either way. Sashimi when a base line keeps
/// only one cell besides its fins.
pub(crate) fn finned(cx: &Ctx, k: usize) -> Option<Step> {
    let lines = cx.layout.lines.as_ref()?;
    let line_of = &cx.layout.line_of;
    // One memo entry per fish size.
    let search = memo::FINNED + k as u8;
    let layout = cx.layout;
    // Each line's cells, by orientation and line (built at the first value
    // whose search is not known fruitless).
    let line_cells = |o: usize| -> Vec<CellSet> {
        lines[o]
            .iter()
            .map(|&g| CellSet::of(layout, layout.groups[g as usize].cells.iter().copied()))
            .collect()
    };
    let mut built: Option<[Vec<CellSet>; 2]> = None;
    // Scratch sets: the base lines' cells, what a combination could
    // eliminate, and per line of a combination's span the cells that could
    // lose the value if that line's places were fins (they hold the value,
    // lie outside the base lines and see each of those places).
    let (mut base_cells, mut reach) = (CellSet::empty(layout), CellSet::empty(layout));
    let mut fin_reach: Vec<CellSet> = (0..MAX_SPAN).map(|_| CellSet::empty(layout)).collect();
    for value in 1..=cx.grid.size as u8 {
        let places = cx.line_places(value);
        if cx.known_fruitless(search, value, &places) {
            continue;
        }
        let line_cells = &*built.get_or_insert_with(|| [line_cells(0), line_cells(1)]);
        let value_cells = CellSet::holding(layout, cx.grid, value);
        for base in 0..2 {
            let cover = 1 - base;
            // (base line group, its places, their cover lines as a mask)
            let mut bases: Vec<(u32, Vec<u32>, u64)> = Vec::new();
            for &g in &lines[base] {
                let group = &cx.layout.groups[g as usize];
                let places: Vec<u32> = group.cells_at(cx.grid.positions(group, value));
                let mut mask = 0u64;
                for &c in &places {
                    mask |= 1u64
                        .checked_shl(u32::from(line_of[cover][c as usize]))
                        .unwrap_or(0);
                }
                if places.len() >= 2 && mask.count_ones() as usize == places.len() {
                    bases.push((g, places, mask));
                }
            }
            // The fins of the combination at hand (one buffer for them all).
            let mut fins: Vec<u32> = Vec::new();
            let found = first_combination(bases.len(), k, |pick| {
                let union = pick.iter().fold(0u64, |m, &i| m | bases[i].2);
                // With k lines it is a basic fish; fins span at most a box's width.
                let width = union.count_ones() as usize;
                if width <= k || width > k + 3 {
                    return None;
                }
                let mut spread = [0u32; MAX_SPAN];
                for (slot, line) in spread
                    .iter_mut()
                    .zip((0..64).filter(|b| union >> b & 1 == 1))
                {
                    *slot = line;
                }
                let base_mask = pick.iter().fold(0u64, |m, &i| {
                    m | 1u64
                        .checked_shl(u32::from(line_of[base][bases[i].1[0] as usize]))
                        .unwrap_or(0)
                });
                let in_base = |c: u32| {
                    let line = u32::from(line_of[base][c as usize]);
                    line < 64 && base_mask >> line & 1 == 1
                };
                base_cells.clear();
                for &i in pick {
                    let line = line_of[base][bases[i].1[0] as usize] as usize;
                    base_cells.add(&line_cells[base][line]);
                }
                for set in &mut fin_reach[..width] {
                    set.copy_from(&value_cells);
                    set.remove(&base_cells);
                }
                for &c in pick.iter().flat_map(|&i| &bases[i].1) {
                    let line = u32::from(line_of[cover][c as usize]);
                    if let Some(j) = spread[..width].iter().position(|&l| l == line) {
                        fin_reach[j].keep(layout.seen_by(c));
                    }
                }
                // By line `j` of the span: the lines of the span with a cell
                // that could lose the value were `j`'s places fins. Each
                // uncovered line needs a covered one there (the exact test
                // follows; this one rejects nearly every combination).
                let mut meeting = [0u32; MAX_SPAN];
                for (j, lines) in meeting[..width].iter_mut().enumerate() {
                    for (l, &line) in spread[..width].iter().enumerate() {
                        if fin_reach[j].meets(&line_cells[cover][line as usize]) {
                            *lines |= 1 << l;
                        }
                    }
                }
                first_combination(width, k, |covers| {
                    let covered = covers.iter().fold(0u32, |m, &i| m | 1 << i);
                    let stranded =
                        (0..width).any(|j| covered >> j & 1 == 0 && meeting[j] & covered == 0);
                    if stranded {
                        return None;
                    }
                    let cover_mask = covers.iter().fold(0u64, |m, &i| m | 1 << spread[i]);
                    let in_cover = |c: u32| {
                        let line = u32::from(line_of[cover][c as usize]);
                        line < 64 && cover_mask >> line & 1 == 1
                    };
                    let mut sashimi = false;
                    for &i in pick {
                        let body = (bases[i].2 & cover_mask).count_ones();
                        if body == 0 {
                            return None;
                        }
                        sashimi |= body == 1;
                    }
                    // Some cell of a cover line, outside the base lines,
                    // must hold the value and see every fin, the places on
                    // the lines of the span not covered (bit sets: most
                    // combinations fail here).
                    reach.fill();
                    for (j, set) in fin_reach[..width].iter().enumerate() {
                        if !covers.contains(&j) {
                            reach.keep_set(set);
                        }
                    }
                    if !reach.iter().any(in_cover) {
                        return None;
                    }
                    fins.clear();
                    fins.extend(
                        pick.iter()
                            .flat_map(|&i| bases[i].1.iter().copied())
                            .filter(|&c| !in_cover(c)),
                    );
                    let cover_groups: Vec<u32> = covers
                        .iter()
                        .map(|&i| lines[cover][spread[i] as usize])
                        .collect();
                    let eliminations: Vec<Candidate> = cover_groups
                        .iter()
                        .flat_map(|&g| cx.layout.groups[g as usize].cells.iter().copied())
                        .filter(|&c| cx.grid.has(c, value) && !in_base(c))
                        .filter(|&c| cx.layout.sees_all(c, fins.as_slice()))
                        .map(|c| Candidate::new(c, value))
                        .collect();
                    if eliminations.is_empty() {
                        return None;
                    }
                    let (technique, rating) = match (k, sashimi) {
                        (2, false) => (Technique::FinnedXWing, 34),
                        (2, true) => (Technique::SashimiXWing, 35),
                        (3, false) => (Technique::FinnedSwordfish, 40),
                        (3, true) => (Technique::SashimiSwordfish, 41),
                        (_, false) => (Technique::FinnedJellyfish, 54),
                        (_, true) => (Technique::SashimiJellyfish, 55),
                    };
                    let mut step = Step::new(technique, rating);
                    for &i in pick {
                        step.pattern
                            .extend(bases[i].1.iter().map(|&c| Candidate::new(c, value)));
                        step.houses
                            .extend(cx.layout.groups[bases[i].0 as usize].house);
                    }
                    for &g in &cover_groups {
                        step.houses.extend(cx.layout.groups[g as usize].house);
                    }
                    step.eliminations = eliminations;
                    cx.offer(step)
                })
            });
            if found.is_some() {
                return found;
            }
        }
        cx.note_fruitless(search, value, places);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::tests::{memo_changes_no_result, HARD_PUZZLES};

    /// With a memo kept along a solve, basic fish of each size give at every
    /// position what a search without one gives.
    #[test]
    fn the_memo_changes_no_result() {
        let (found, positions) = memo_changes_no_result(&HARD_PUZZLES, &[2, 3, 4], basic);
        assert!(
            found >= 10 && positions > 30,
            "{found} found, {positions} positions"
        );
    }
}
