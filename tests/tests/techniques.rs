//! HoDoKu's technique regression library (`../shared/datasets/techniques/`): for
//! each case of a technique the solver implements under the same definition, the
//! solver should find that technique in the case's candidate grid with exactly
//! the listed eliminations (or placements).
//!
//! Every case of every such technique passes: `find` returns every instance a
//! finder meets, so the one HoDoKu lists is among them.

use arena_tests::classic9;
use arena_tests::reglib::cases;
use engine::logic::{find, Candidate};
use std::collections::BTreeSet;

#[test]
fn hodoku_library_cases_pass() {
    let model = classic9();
    let cases = cases();
    assert!(cases.len() > 300, "only {} cases read", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let steps = find(&model, &case.values, &case.cand, case.technique);
        let ok = if case.absent {
            steps.is_empty()
        } else {
            steps.iter().any(|s| {
                let elim: BTreeSet<Candidate> = s.eliminations.iter().copied().collect();
                let place: BTreeSet<Candidate> = s.placements.iter().copied().collect();
                (case.eliminations.is_empty() || elim == case.eliminations)
                    && (case.placements.is_empty() || place == case.placements)
            })
        };
        if !ok {
            let got: Vec<_> = steps.iter().map(|s| &s.eliminations).collect();
            failures.push(format!("{:?}: {} -> {got:?}", case.technique, case.line));
        }
    }
    let mut by: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for c in &cases {
        by.entry(format!("{:?}", c.technique)).or_default().0 += 1;
    }
    for f in &failures {
        let t = f.split(':').next().unwrap_or_default().to_string();
        by.entry(t).or_default().1 += 1;
    }
    for (t, (n, bad)) in &by {
        eprintln!("{t}: {}/{n} pass", n - bad);
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
