//! Checking a grid of values against a model's rules, without any solution.

use crate::model::{kind_name, Model};

/// Every active cell whose value breaks a house, pair or cage rule in `values`
/// (one per active cell, 0 = empty). A cage breaks when its filled values exceed the
/// sum, or it is full and misses it. Sorted, without repeats.
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
