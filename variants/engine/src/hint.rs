//! The next step for a player: a wrong entry, a naked single or a hidden single
//! (from the candidates the placed values leave), or, beyond those, the value of the
//! most constrained cell. A later technique ladder grades puzzles with more steps.

use crate::mask::{bit, is_single, value_of};
use crate::model::{kind_name, Model};
use protocol::HouseKind;

/// One step for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `cell` holds a value that is not the solution's.
    Wrong {
        /// The cell.
        cell: usize,
    },
    /// `cell` has one candidate left: `value`.
    NakedSingle {
        /// The cell.
        cell: usize,
        /// Its only candidate.
        value: u8,
    },
    /// `value` has one place left in house `house`: `cell`.
    HiddenSingle {
        /// The cell.
        cell: usize,
        /// The value.
        value: u8,
        /// Index into the model's houses.
        house: usize,
    },
    /// No single applies: the solution's value for the most constrained cell.
    Reveal {
        /// The cell.
        cell: usize,
        /// Its value in the solution.
        value: u8,
    },
}

/// The next step for `values` (one per active cell, 0 = empty; givens included)
/// towards `solution`. `None` when the grid is complete and correct.
pub fn next_step(model: &Model, solution: &[u8], values: &[u8]) -> Option<Step> {
    if let Some(cell) = (0..values.len()).find(|&c| values[c] != 0 && values[c] != solution[c]) {
        return Some(Step::Wrong { cell });
    }
    let cand = basic_candidates(model, values);
    let empty = || (0..values.len()).filter(|&c| values[c] == 0);
    if let Some(cell) = empty().find(|&c| is_single(cand[c])) {
        let value = value_of(cand[cell]) as u8;
        if value == solution[cell] {
            return Some(Step::NakedSingle { cell, value });
        }
    }
    for (h, house) in model.houses().iter().enumerate() {
        if house.cells.len() != model.size() as usize {
            continue;
        }
        for v in 1..=model.size() {
            if house
                .cells
                .iter()
                .any(|&c| u32::from(values[c as usize]) == v)
            {
                continue;
            }
            let mut spots = house
                .cells
                .iter()
                .filter(|&&c| values[c as usize] == 0 && cand[c as usize] & bit(v) != 0);
            if let (Some(&c), None) = (spots.next(), spots.next()) {
                if u32::from(solution[c as usize]) == v {
                    return Some(Step::HiddenSingle {
                        cell: c as usize,
                        value: v as u8,
                        house: h,
                    });
                }
            }
        }
    }
    let cell = empty().min_by_key(|&c| cand[c].count_ones())?;
    Some(Step::Reveal {
        cell,
        value: solution[cell],
    })
}

/// Candidates of every empty cell given only the values placed in its houses,
/// cages and pairs (what a player sees without further reasoning).
fn basic_candidates(model: &Model, values: &[u8]) -> Vec<u32> {
    let full = crate::mask::full_mask(model.size());
    (0..values.len())
        .map(|c| {
            if values[c] != 0 {
                return bit(u32::from(values[c]));
            }
            model.compiled.peers_of(c).iter().fold(full, |m, &p| {
                let v = values[p as usize];
                if v == 0 {
                    m
                } else {
                    m & !bit(u32::from(v))
                }
            })
        })
        .collect()
}

/// A player-facing explanation of a step, e.g. "r4c7 can only be 5: every other
/// value is already in one of its houses."
pub fn explain(model: &Model, step: &Step) -> String {
    let at = |cell: usize| {
        let [r, c] = model.coord(cell);
        format!("r{}c{}", r + 1, c + 1)
    };
    let sym = |v: u8| model.symbols()[v as usize - 1];
    match *step {
        Step::Wrong { cell } => format!("{} is wrong: its value is not the solution's.", at(cell)),
        Step::NakedSingle { cell, value } => format!(
            "{} can only be {}: every other value is already in one of its houses.",
            at(cell),
            sym(value)
        ),
        Step::HiddenSingle { cell, value, house } => format!(
            "{} has only one place left in {}: {}.",
            sym(value),
            house_name(model, house),
            at(cell)
        ),
        Step::Reveal { cell, value } => format!(
            "No single step is left; {} is {} (it has the fewest candidates).",
            at(cell),
            sym(value)
        ),
    }
}

/// "row 4", "box 7", "diagonal 1": the house's kind and its number among houses of
/// that kind.
fn house_name(model: &Model, house: usize) -> String {
    let kind: HouseKind = model.houses()[house].kind;
    let n = model.houses()[..=house]
        .iter()
        .filter(|h| h.kind == kind)
        .count();
    format!("{} {n}", kind_name(kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;

    fn solution4() -> Vec<u8> {
        vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    }

    #[test]
    fn wrong_entries_come_first() {
        let m = classic(2, 2).expect("4x4");
        let mut v = solution4();
        v[5] = 1;
        assert_eq!(
            next_step(&m, &solution4(), &v),
            Some(Step::Wrong { cell: 5 })
        );
    }

    #[test]
    fn naked_single_then_complete() {
        let m = classic(2, 2).expect("4x4");
        let mut v = solution4();
        v[0] = 0;
        let step = next_step(&m, &solution4(), &v).expect("a step");
        assert_eq!(step, Step::NakedSingle { cell: 0, value: 1 });
        assert!(explain(&m, &step).starts_with("r1c1 can only be 1"));
        assert_eq!(next_step(&m, &solution4(), &solution4()), None);
    }

    #[test]
    fn hidden_single_names_its_house() {
        let m = classic(2, 2).expect("4x4");
        // Only the givens 1 at r2c3 and 1 at r3c2 and 1 at r4c4: row 1 must take 1 at r1c1.
        let mut v = vec![0u8; 16];
        v[6] = 1;
        v[9] = 1;
        v[15] = 1;
        let step = next_step(&m, &solution4(), &v).expect("a step");
        assert!(
            matches!(
                step,
                Step::HiddenSingle {
                    cell: 0,
                    value: 1,
                    ..
                }
            ),
            "{step:?}"
        );
    }
}
