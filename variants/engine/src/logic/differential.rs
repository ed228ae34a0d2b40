//! Two ladders, one truth: along a puzzle's whole solve path, every time the
//! solver runs a rung that has a reference finder (`reference.rs`), the
//! accelerated finder's outcome — with the memo the solve keeps — is checked
//! against the reference's: a step must be one the family's instances make,
//! and "nothing" must mean the reference finds nothing either.

use crate::logic::ladder::{Rung, LADDER};
use crate::logic::schedule::{Chains, Climb};
use crate::logic::step::{Candidate, Step, Technique};
use crate::logic::{run_watched, Ctx, Difficulty, Options};
use crate::model::Model;
use std::collections::BTreeMap;

/// What a differential run over one puzzle saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Differential {
    /// Rung outcomes compared with their reference (positions x rungs).
    pub compared: usize,
    /// Of those, steps the accelerated finder returned.
    pub steps: usize,
    /// Those steps by technique.
    pub techniques: BTreeMap<Technique, usize>,
    /// Every disagreement, in words.
    pub disagreements: Vec<String>,
}

/// Solves `givens` twice — as [`super::grade`] does, and as a tier check
/// does (the named rungs too: finned fish, colouring) — without dynamic
/// forcing chains (every rung with a reference comes before them), and
/// compares each rung that has a reference with it at every position it runs.
pub fn differential(model: &Model, givens: &[u8], options: Options) -> Differential {
    let grade = Climb {
        options,
        cap: Difficulty::Extreme,
        rated_only: true,
        chains: Chains::Static,
        first: false,
        exhausted: None,
        until: None,
    };
    let tier = Climb {
        options: Options { uniqueness: false },
        rated_only: false,
        first: true,
        ..grade
    };
    let mut out = Differential::default();
    let mut watch = |rung: &Rung, cx: &Ctx, found: Option<&Step>| {
        let Some(reference) = rung.reference else {
            return;
        };
        let expected = reference(cx.layout, cx.grid, cx.se_limits);
        out.compared += 1;
        let wrong = match found {
            Some(step) => {
                out.steps += 1;
                *out.techniques.entry(step.technique).or_default() += 1;
                let beyond = expected.beyond(step);
                (!beyond.is_empty()).then(|| {
                    format!(
                        "{:?} deduced {} that no instance of its family does",
                        step.technique,
                        words(&beyond)
                    )
                })
            }
            None => (!expected.is_empty()).then(|| {
                let all: Vec<Candidate> = expected
                    .placements
                    .iter()
                    .chain(&expected.eliminations)
                    .copied()
                    .collect();
                let index = LADDER.iter().position(|r| std::ptr::eq(r, rung));
                format!(
                    "rung {} of the ladder ({:?} tier) found nothing where its reference deduces {}",
                    index.map_or("?".to_string(), |i| i.to_string()),
                    rung.tier,
                    words(&all)
                )
            }),
        };
        if let Some(wrong) = wrong {
            out.disagreements.push(format!(
                "after {} placed: {wrong}",
                cx.grid.values.iter().filter(|&&v| v != 0).count()
            ));
        }
    };
    for climb in [grade, tier] {
        run_watched(model, givens, &[], climb, &mut watch);
    }
    out
}

/// Candidates in words (cells numbered from 0), the first six.
fn words(candidates: &[Candidate]) -> String {
    let shown: Vec<String> = candidates
        .iter()
        .take(6)
        .map(|c| format!("cell {} value {}", c.cell, c.value))
        .collect();
    let more = candidates.len().saturating_sub(shown.len());
    match more {
        0 => shown.join(", "),
        _ => format!("{} and {more} more", shown.join(", ")),
    }
}
