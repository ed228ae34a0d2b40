//! Checking a grid of values against a model's rules, without any solution.

use crate::model::Model;
use crate::rules::kind_name;

/// Every active cell whose value breaks a house, pair, cage or constraint rule
/// in `values` (one per active cell, 0 = empty). A cage breaks when its filled
/// values exceed the sum, or it is full and misses it; a constraint when no
/// digits in its empty cells could keep it. Sorted, without repeats.
pub fn conflicting_cells(model: &Model, values: &[u8]) -> Vec<usize> {
    let mut bad = vec![false; model.cell_count()];
    visit_conflicts(model, values, true, |cells, _| {
        for &c in cells {
            bad[c as usize] = true;
        }
        true
    });
    bad.iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i)
        .collect()
}

/// A description of the first rule `values` breaks, if any. With `complete`, a
/// cage must also add up exactly once all its cells are filled; without, only
/// repeats and overshooting sums count.
pub(crate) fn first_conflict(model: &Model, values: &[u8], complete: bool) -> Option<String> {
    if model.is_classic9() && !classic9_repeats(values) {
        return None;
    }
    let mut first = None;
    visit_conflicts(model, values, complete, |_, msg| {
        first = Some(msg());
        false
    });
    first
}

fn visit_conflicts(
    model: &Model,
    values: &[u8],
    complete_cages: bool,
    mut report: impl FnMut(&[u32], &dyn Fn() -> String) -> bool,
) {
    let at = |c: u32| {
        let [r, col] = model.coord(c as usize);
        format!("[{r},{col}]")
    };
    for (h, house) in model.houses().iter().enumerate() {
        if !repeats_a_value(&house.cells, values) {
            continue;
        }
        for (i, &a) in house.cells.iter().enumerate() {
            let v = values[a as usize];
            if v == 0 {
                continue;
            }
            for &b in &house.cells[i + 1..] {
                if values[b as usize] == v {
                    let msg = || {
                        format!(
                            "{v} at {} and {} in {} house {h}",
                            at(a),
                            at(b),
                            kind_name(house.kind)
                        )
                    };
                    if !report(&[a, b], &msg) {
                        return;
                    }
                }
            }
        }
    }
    for &[a, b] in model.different() {
        let v = values[a as usize];
        if v != 0 && v == values[b as usize] {
            let msg = || format!("{v} at {} and {} which must differ", at(a), at(b));
            if !report(&[a, b], &msg) {
                return;
            }
        }
    }
    for (k, cage) in model.cages().iter().enumerate() {
        let filled: Vec<u32> = cage
            .cells
            .iter()
            .copied()
            .filter(|&c| values[c as usize] != 0)
            .collect();
        let total: u32 = filled.iter().map(|&c| u32::from(values[c as usize])).sum();
        let full = filled.len() == cage.cells.len();
        for (i, &a) in filled.iter().enumerate() {
            for &b in &filled[i + 1..] {
                if values[a as usize] == values[b as usize] {
                    let v = values[a as usize];
                    let msg = || format!("{v} at {} and {} in cage {k}", at(a), at(b));
                    if !report(&[a, b], &msg) {
                        return;
                    }
                }
            }
        }
        let over = total > cage.sum || (!full && total == cage.sum && !filled.is_empty());
        let missed = full && complete_cages && total != cage.sum;
        if over || missed {
            let msg = || format!("cage {k} adds up to {total}, needs {}", cage.sum);
            if !report(&filled, &msg) {
                return;
            }
        }
    }
    let full = crate::mask::full_mask(model.size());
    for (primitive, index) in model.compiled.primitives.iter() {
        let cells = primitive.cells();
        let filled: Vec<u32> = cells
            .iter()
            .copied()
            .filter(|&c| values[c as usize] != 0)
            .collect();
        if filled.is_empty() {
            continue;
        }
        // Broken when no digits for its empty cells can keep it.
        let mut local: Vec<u32> = cells
            .iter()
            .map(|&c| match values[c as usize] {
                0 => full,
                v => crate::mask::bit(u32::from(v)),
            })
            .collect();
        if primitive.narrow(&mut local).is_err() {
            let kind = model.constraints()[*index].kind();
            let msg = || format!("constraint {index} ({kind}) is broken");
            if !report(&filled, &msg) {
                return;
            }
        }
    }
}

/// Whether a row, column or box of a classic 9x9 grid repeats a value: one
/// pass over the 81 cells (the whole check of every file of plain puzzles).
fn classic9_repeats(values: &[u8]) -> bool {
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let mut repeated = 0u16;
    for (i, &v) in values.iter().enumerate().take(81) {
        if v > 9 {
            return true; // not a 9x9 value: the full check says what is wrong
        }
        let bit = (1u16 << v) & !1;
        let (r, c) = (i / 9, i % 9);
        let b = r / 3 * 3 + c / 3;
        repeated |= (rows[r] | cols[c] | boxes[b]) & bit;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    repeated != 0
}

/// Whether two of `cells` hold the same value (one pass with a bit per value:
/// the pairwise search that names them runs only on a house that does).
fn repeats_a_value(cells: &[u32], values: &[u8]) -> bool {
    let mut seen = [0u64; 4];
    cells.iter().any(|&c| {
        let v = values[c as usize];
        if v == 0 {
            return false;
        }
        let (word, bit) = (usize::from(v) / 64, 1u64 << (v % 64));
        let repeated = seen[word] & bit != 0;
        seen[word] |= bit;
        repeated
    })
}

/// Checks that `values` is a complete, valid solution: every active cell filled with
/// 1..=N and no rule broken. Returns the first problem.
pub fn check_solution(model: &Model, values: &[u8]) -> Result<(), String> {
    if values.len() != model.cell_count() {
        return Err(format!(
            "{} values for {} cells",
            values.len(),
            model.cell_count()
        ));
    }
    if let Some(i) = values
        .iter()
        .position(|&v| v == 0 || u32::from(v) > model.size())
    {
        let [r, c] = model.coord(i);
        return Err(format!(
            "cell [{r},{c}] holds {} (needs 1..={})",
            values[i],
            model.size()
        ));
    }
    match first_conflict(model, values, true) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;

    #[test]
    fn a_repeat_in_any_house_is_named_on_9x9_and_other_sizes() {
        let nine = classic(3, 3).expect("9x9");
        let mut values = vec![0u8; 81];
        assert_eq!(first_conflict(&nine, &values, false), None);
        for (a, b, house) in [(0, 8, "row"), (0, 72, "column"), (0, 20, "box")] {
            values.fill(0);
            values[a] = 5;
            values[b] = 5;
            let problem = first_conflict(&nine, &values, false).expect("a repeat");
            assert!(problem.starts_with("5 at"), "{problem}");
            assert!(problem.contains(house), "{problem} names the {house}");
        }
        values.fill(0);
        values[0] = 5;
        values[40] = 5;
        assert_eq!(
            first_conflict(&nine, &values, false),
            None,
            "no shared house"
        );

        let six = classic(2, 3).expect("6x6");
        let mut values = vec![0u8; 36];
        values[0] = 6;
        values[7] = 6;
        let problem = first_conflict(&six, &values, false).expect("a repeat in a box");
        assert!(problem.contains("box"), "{problem}");
    }
}
