//! Basic fish: a value whose places in `k` rows all lie in `k` columns (or the
//! reverse) cannot go anywhere else in those columns. X-Wing (k = 2), Swordfish
//! (3), Jellyfish (4).

use crate::logic::combinations::first_combination;
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::Ctx;

/// The first fish of size `k`.
pub(crate) fn basic(cx: &Ctx, k: usize) -> Option<Step> {
    let lines = cx.layout.lines.as_ref()?;
    for value in 1..=cx.grid.size as u8 {
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
    }
    None
}
