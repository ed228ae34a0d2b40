//! Aligned exclusion: for two (or three) cells, try every combination of their
//! candidates; a combination is impossible when two of the cells see each other
//! and hold the same value, or when a cell seeing all of them would be left
//! with no candidate. A candidate that appears in no possible combination is
//! false. Aligned Pair Exclusion (6.2) and Aligned Triple Exclusion (7.5).

use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::subsets::values_of;
use crate::logic::Ctx;
use crate::mask::bit;

/// The first aligned exclusion over `degree` (2 or 3) cells.
pub(crate) fn exclusion(cx: &Ctx, degree: usize) -> Option<Step> {
    let cand = &cx.grid.cand;
    let n = cand.len() as u32;
    // Base cells and the cells that may exclude combinations for each.
    let mut bases: Vec<u32> = Vec::new();
    let mut excluders: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for c in 0..n {
        if cand[c as usize].count_ones() < 2 {
            continue;
        }
        let peers = &cx.layout.peers[c as usize];
        if peers.iter().any(|&p| cand[p as usize].count_ones() == 1) {
            continue;
        }
        let ex: Vec<u32> = peers
            .iter()
            .copied()
            .filter(|&p| (2..=degree as u32).contains(&cand[p as usize].count_ones()))
            .collect();
        if !ex.is_empty() {
            excluders[c as usize] = ex;
            bases.push(c);
        }
    }
    for (i, &a) in bases.iter().enumerate() {
        for &b in &bases[i + 1..] {
            if degree == 2 {
                if let Some(step) = try_cells(cx, &[a, b], &excluders) {
                    return Some(step);
                }
                continue;
            }
            let mut area: Vec<u32> = excluders[a as usize]
                .iter()
                .chain(&excluders[b as usize])
                .copied()
                .filter(|&c| c != a && c != b && !excluders[c as usize].is_empty())
                .collect();
            area.sort_unstable();
            area.dedup();
            for &t in &area {
                if let Some(step) = try_cells(cx, &[a, b, t], &excluders) {
                    return Some(step);
                }
            }
        }
    }
    None
}

fn try_cells(cx: &Ctx, cells: &[u32], excluders: &[Vec<u32>]) -> Option<Step> {
    let cand = &cx.grid.cand;
    let common: Vec<u32> = excluders[cells[0] as usize]
        .iter()
        .copied()
        .filter(|e| {
            cells[1..]
                .iter()
                .all(|&c| excluders[c as usize].contains(e))
        })
        .collect();
    if common.len() < 2 {
        return None;
    }
    let options: Vec<Vec<u8>> = cells
        .iter()
        .map(|&c| values_of(cand[c as usize]).collect())
        .collect();
    let mut allowed = vec![0u32; cells.len()];
    let mut pick = vec![0usize; cells.len()];
    loop {
        let combo: Vec<u8> = pick
            .iter()
            .enumerate()
            .map(|(i, &j)| options[i][j])
            .collect();
        if possible(cx, cells, &combo, &common) {
            for (i, &v) in combo.iter().enumerate() {
                allowed[i] |= bit(u32::from(v));
            }
        }
        // Next combination (odometer).
        let mut i = 0;
        while i < pick.len() {
            pick[i] += 1;
            if pick[i] < options[i].len() {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
        if i == pick.len() {
            break;
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
    for &c in cells.iter().chain(&common) {
        step.pattern
            .extend(values_of(cand[c as usize]).map(|v| Candidate::new(c, v)));
    }
    step.eliminations = eliminations;
    Some(step)
}

fn possible(cx: &Ctx, cells: &[u32], combo: &[u8], common: &[u32]) -> bool {
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            if combo[i] == combo[j] && cx.layout.sees(cells[i], cells[j]) {
                return false;
            }
        }
    }
    let used = combo.iter().fold(0, |m, &v| m | bit(u32::from(v)));
    common
        .iter()
        .all(|&e| cx.grid.cand[e as usize] & !used != 0)
}
