//! The modern vocabulary's constraints as a rung: a thermometer, arrow, dot,
//! line or clue rules out the candidates of its cells that no digits it
//! allows could hold (its primitives narrowed on the grid, as the search
//! narrows them). Each kind's step is named for its family
//! ([`Technique::of_constraint`]): a thermometer's is a Thermometer step, a little
//! killer's an Outside Clue step, all rated alike.

use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;
use crate::mask::values_of;
use std::collections::BTreeSet;

/// A constraint step's rating: after the singles, level with a cage's
/// combinations.
const RATING: u16 = 20;

/// The first constraint that rules out a candidate of its cells.
pub(crate) fn narrowing(cx: &Ctx) -> Option<Step> {
    for (primitive, index) in cx.layout.primitives.iter() {
        let cells = primitive.cells();
        if cells.iter().all(|&c| cx.grid.values[c as usize] != 0) {
            continue;
        }
        let before = cx.grid.masks(cells);
        let mut after = before.clone();
        // A broken constraint deduces nothing here: checking the grid
        // reports it.
        if !matches!(primitive.narrow(&mut after), Ok(true)) {
            continue;
        }
        let mut eliminations = BTreeSet::new();
        for ((&cell, &was), &is) in cells.iter().zip(&before).zip(&after) {
            if cx.grid.values[cell as usize] == 0 {
                eliminations.extend(values_of(was & !is).map(|v| Candidate::new(cell, v)));
            }
        }
        if eliminations.is_empty() {
            continue;
        }
        let technique = cx
            .layout
            .constraint_techniques
            .get(*index)
            .copied()
            .unwrap_or(Technique::LocalRule);
        let mut step = Step::new(technique, RATING);
        let unique: BTreeSet<u32> = cells.iter().copied().collect();
        step.pattern = unique
            .iter()
            .flat_map(|&c| values_of(cx.grid.cand[c as usize]).map(move |v| Candidate::new(c, v)))
            .collect();
        step.eliminations = eliminations.into_iter().collect();
        step.constraint = Some(*index);
        if let Some(step) = cx.offer(step) {
            return Some(step);
        }
    }
    None
}

/// A value a constraint's cells must hold between them (a renban's: every
/// run of digits it can still hold has it), of which one cell outside sees
/// every place on the line: that cell cannot hold it (line pointing, rated
/// as cage pointing).
pub(crate) fn line_pointing(cx: &Ctx) -> Option<Step> {
    for (primitive, index) in cx.layout.primitives.iter() {
        let cells = primitive.cells();
        let masks = cx.grid.masks(cells);
        // Not yet placed on the line (a placed cell's mask is its value).
        for v in values_of(primitive.required_digits(|i| masks[i])) {
            let holders: Vec<u32> = cells
                .iter()
                .copied()
                .filter(|&c| cx.grid.values[c as usize] == 0 && cx.grid.has(c, v))
                .collect();
            let eliminations = super::killer::outside_seeing_all(cx, cells, &holders, v);
            if eliminations.is_empty() {
                continue;
            }
            let mut step = Step::new(Technique::LinePointing, 26);
            step.pattern = holders.iter().map(|&c| Candidate::new(c, v)).collect();
            step.eliminations = eliminations;
            step.constraint = Some(*index);
            if let Some(step) = cx.offer(step) {
                return Some(step);
            }
        }
    }
    None
}
