//! Killer Sudoku as a Sudoku Arena plugin: classic rules, no givens, and every
//! cell in one cage whose digits differ and add up to the cage's sum.
//! Parameters: `size` 9x9 (default) or 6x6, and `diagonals` (Killer-X).
//!
//! Generation ([`Variant::generate`]): a random solution, a random partition of
//! it into small cages, then merges of two touching cages while the puzzle
//! stays solvable by the technique ladder capped at the requested tier, until
//! it needs exactly that tier (extreme: without dynamic forcing chains, see
//! `judge`). A puzzle the capped ladder solves is unique and
//! needs no guessing, so every puzzle is fair by construction. A try that stalls
//! (every merge makes it too hard) starts over from a fresh solution rather
//! than search on, unless it may still move single cells between cages (6x6
//! extreme); a 9x9 extreme try also starts over after a few refused merges.
//! The levers, per difficulty ([`Profile`]): the starting cage sizes, the
//! largest cage, the number of cages a medium puzzle stops at, the refusals a
//! try takes, the cell moves it may make, the counts before the ladder; on
//! 9x9, cages that keep out of deadly rectangles; and always, merges making
//! cages of few digit sets (one, as 3 in two cells) are tried before those of
//! many, and a merge that made the puzzle too hard is not tried again.

mod cages;

use cages::{Cages, Shape};
use plugin_sdk::engine::generate::{random_solution, tier_fit, FitRules, TierFit};
use plugin_sdk::engine::geometry::{classic_builder, diagonals};
use plugin_sdk::engine::{Difficulty, Generated, Model, ModelBuilder, Puzzle, PuzzleError};
use plugin_sdk::{
    params, ClueRange, GenerateContext, GenerateError, Manifest, ParamSpec, ParamValue, Params,
    Variant,
};
use rand::seq::SliceRandom;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// The sizes offered, with their box shapes.
const SIZES: [(&str, u32, u32); 2] = [("9x9", 3, 3), ("6x6", 2, 3)];

/// The difficulties offered: a killer has no givens, so even its first step is
/// a cage combination, a `medium` technique; no killer is `easy`.
const DIFFICULTIES: [Difficulty; 3] = [Difficulty::Medium, Difficulty::Hard, Difficulty::Extreme];

/// Fresh solutions tried before giving up (the deadline usually comes first).
const TRIES: usize = 4000;

/// Merges tried at one step before the try is dropped as stalled.
const MERGES_PER_STEP: usize = 12;

/// Branch points the uniqueness count before a tier solve may explore; past
/// it, the ladder decides (deterministic: a node count, not a time).
const COUNT_BUDGET: usize = 1_000;

/// Killer Sudoku.
struct Killer;

/// How a difficulty's cages are shaped.
struct Profile {
    /// Sizes the starting cages grow towards.
    start: RangeInclusive<usize>,
    /// The largest cage a merge may make.
    largest: usize,
    /// Cells per cage (on average) a puzzle keeps merging towards once it
    /// needs its tier (medium only: a harder one stops at its tier).
    cells_per_cage: Option<f64>,
    /// Merges refused as too hard before a try gives up and starts over: a
    /// 9x9 extreme try's first layouts past the hard ladder are extreme far
    /// more often than its later ones (14% for the first, about 5% from the
    /// fifth on, 32 seeds), so a fresh try beats a long wait.
    refusals: usize,
    /// Branch points a uniqueness count before the tier solve may explore
    /// (`None`: no count). Where layouts often have several solutions (6x6
    /// starting partitions, anything past medium), a count of microseconds
    /// drops them before a ladder solve of a millisecond would; on a 9x9
    /// medium layout, nearly always unique, it only adds.
    count_budget: Option<usize>,
    /// Single cells a stalled try may move to a touching cage before it
    /// gives up. A 6x6 try mostly stalls one step short of extreme (every
    /// merge gives a second solution) and a move changes less than a merge:
    /// 24 moves took the 6x6 extreme median from 84-90 to 35 ms (100 seeds).
    /// On 9x9, where each refused layout costs a full extreme solve, moves
    /// made it slower (148 → 242 ms with 8).
    shifts: usize,
}

impl Profile {
    /// The shape of `difficulty`'s cages on a grid of `side` cells per side.
    fn of(difficulty: Difficulty, side: usize) -> Profile {
        let small = side < 9;
        match difficulty {
            Difficulty::Easy | Difficulty::Medium => Profile {
                start: 2..=3,
                largest: if small { 3 } else { 4 },
                cells_per_cage: Some(if small { 2.4 } else { 3.0 }),
                refusals: usize::MAX,
                count_budget: small.then_some(COUNT_BUDGET),
                shifts: 0,
            },
            Difficulty::Hard => Profile {
                start: 2..=3,
                largest: 5,
                cells_per_cage: None,
                refusals: usize::MAX,
                count_budget: Some(COUNT_BUDGET),
                shifts: 0,
            },
            Difficulty::Extreme => Profile {
                start: 2..=3,
                largest: if small { 6 } else { 7 },
                cells_per_cage: None,
                refusals: if small { usize::MAX } else { 4 },
                count_budget: Some(COUNT_BUDGET),
                shifts: if small { 24 } else { 0 },
            },
        }
    }
}

/// Whether layouts on a grid of `side` cells per side keep out of deadly
/// rectangles (see `cages`), which give a second solution whatever the rest.
/// On 9x9 it took the median from 62 to 50-52 ms at extreme, 6.5 to 4.5 at
/// medium (200 and 100 seeds, side by side with the build before); on 6x6,
/// where a try mostly stalls one step short of extreme and moves single
/// cells, it made extreme slower (19 → 24 ms).
fn keeps_out_deadly_rectangles(side: usize) -> bool {
    side >= 9
}

/// The rules without cages for the request's parameters.
fn base(params: &Params) -> Result<(ModelBuilder, Shape), PuzzleError> {
    let size = params::text(params, "size")?;
    let &(_, rows, cols) = SIZES
        .iter()
        .find(|(s, ..)| *s == size)
        .ok_or_else(|| PuzzleError::new(format!("unknown size '{size}'")))?;
    let shape = Shape {
        box_rows: rows as usize,
        box_cols: cols as usize,
        diagonals: params::flag(params, "diagonals")?,
    };
    let mut builder = classic_builder(rows, cols)?;
    if shape.diagonals {
        builder = builder.houses(diagonals(rows * cols, [0, 0]));
    }
    Ok((builder, shape))
}

/// The model of `base` with `cages`.
fn with_cages(base: &ModelBuilder, cages: &Cages) -> Result<Model, PuzzleError> {
    cages
        .list()
        .into_iter()
        .fold(base.clone(), |b, (cells, sum)| b.cage(cells, sum))
        .build()
}

/// The model of `cages` and its verdict against `target` ([`judge`]).
fn judged(
    base: &ModelBuilder,
    cages: &Cages,
    target: Difficulty,
    count_budget: Option<usize>,
) -> Result<(Model, TierFit), GenerateError> {
    let model = with_cages(base, cages)?;
    let verdict = judge(&model, target, count_budget);
    Ok((model, verdict))
}

/// Judges `model` (no givens) against `target`, counting first within
/// `count_budget` ([`Profile::count_budget`]): on a layout with several
/// solutions the ladder would try every technique it knows before giving up.
/// An extreme killer must not need dynamic forcing chains (as Samurai's): a
/// layout that fails the ladder ends with a full pass of them, most of the
/// time a try takes.
fn judge(model: &Model, target: Difficulty, count_budget: Option<usize>) -> TierFit {
    let empty = vec![0; model.cell_count()];
    let rules = FitRules {
        count_budget,
        dynamic_chains: false,
    };
    tier_fit(model, &empty, target, rules)
}

/// One try from a fresh solution: the puzzle if it reached the tier.
fn attempt(
    ctx: &GenerateContext,
    base: &ModelBuilder,
    shape: Shape,
    solution: &[u8],
    rng: &mut plugin_sdk::engine::seed::Rng,
) -> Result<Option<Model>, GenerateError> {
    let target = ctx.difficulty();
    let side = shape.side();
    let profile = Profile::of(target, side);
    let enough = profile.cells_per_cage.map_or(usize::MAX, |per| {
        ((side * side) as f64 / per).ceil() as usize
    });
    let mut cages = Cages::random(
        solution,
        shape,
        profile.start.clone(),
        keeps_out_deadly_rectangles(side),
        rng,
    );
    let (mut model, mut verdict) = judged(base, &cages, target, profile.count_budget)?;
    if verdict == TierFit::TooHard {
        return Ok(None);
    }
    // Merges that made the puzzle too hard are not tried again: merging more
    // only takes information away.
    let mut refused: Vec<cages::Merge> = Vec::new();
    let mut shifts = 0;
    loop {
        if verdict == TierFit::Exact && cages.count() <= enough {
            return Ok(Some(model));
        }
        ctx.check_deadline()?;
        let mut merges = cages.merges(profile.largest);
        merges.retain(|m| !refused.contains(m));
        merges.shuffle(rng);
        merges.truncate(MERGES_PER_STEP);
        // Cages of few digit sets first: they keep the puzzle unique longest.
        merges.sort_by_key(|m| cages.combinations_after(*m));
        let mut moved = false;
        for m in merges {
            let mut next = cages.clone();
            next.merge(m);
            let (next_model, v) = judged(base, &next, target, profile.count_budget)?;
            if v == TierFit::TooHard {
                refused.push(m);
                if refused.len() >= profile.refusals {
                    break;
                }
            } else {
                (cages, model, verdict, moved) = (next, next_model, v, true);
                break;
            }
        }
        if !moved && verdict == TierFit::TooEasy && shifts < profile.shifts {
            // Stalled short of the tier: move a single cell to a touching
            // cage instead, and merge on from there.
            let mut options = cages.moves(profile.largest);
            options.shuffle(rng);
            options.truncate(MERGES_PER_STEP);
            for m in options {
                let mut next = cages.clone();
                next.shift(m);
                let (next_model, v) = judged(base, &next, target, profile.count_budget)?;
                if v != TierFit::TooHard {
                    (cages, model, verdict, moved) = (next, next_model, v, true);
                    shifts += 1;
                    refused.clear();
                    break;
                }
            }
        }
        if !moved {
            // Stalled: a medium puzzle with a few more cages than planned is
            // still a medium puzzle; a harder one has not got there.
            return Ok((verdict == TierFit::Exact).then_some(model));
        }
    }
}

impl Variant for Killer {
    fn manifest(&self) -> Manifest {
        let mut manifest = Manifest {
            id: "killer".into(),
            name: "Killer Sudoku".into(),
            rules: "Classic Sudoku with no givens: every row, column and box holds each \
                    digit once, and the digits of each dashed cage are all different and \
                    add up to the small number in its corner. With diagonals (Killer-X), \
                    each main diagonal also holds each digit once."
                .into(),
            params: params_spec(),
            difficulties: DIFFICULTIES.iter().map(|d| d.to_string()).collect(),
            clues: Vec::new(),
        };
        // No givens, whatever the parameters and difficulty.
        manifest.clues = manifest
            .parameter_sets()
            .into_iter()
            .flat_map(|when| {
                manifest.difficulties.iter().map(move |d| ClueRange {
                    when: when.clone(),
                    difficulty: d.clone(),
                    min: 0,
                    max: 0,
                })
            })
            .collect();
        manifest
    }

    fn generate(&self, ctx: &GenerateContext) -> Result<Generated, GenerateError> {
        let (base, shape) = base(ctx.params())?;
        let rules = base.clone().build()?;
        let mut rng = ctx.rng("killer");
        for _ in 0..TRIES {
            ctx.check_deadline()?;
            let solution = random_solution(&rules, &mut rng)
                .ok_or_else(|| GenerateError::Failed("the rules admit no solution".into()))?;
            if let Some(model) = attempt(ctx, &base, shape, &solution, &mut rng)? {
                let empty = vec![0; model.cell_count()];
                let puzzle = Puzzle::new(Arc::new(model), empty)?;
                return Ok(Generated { puzzle, solution });
            }
        }
        Err(GenerateError::Failed(format!(
            "no {} killer in {TRIES} tries",
            ctx.difficulty()
        )))
    }
}

/// The parameters: size and diagonals.
fn params_spec() -> Vec<ParamSpec> {
    vec![
        ParamSpec {
            key: "size".into(),
            name: "Size".into(),
            default: ParamValue::Text("9x9".into()),
            allowed: SIZES
                .iter()
                .map(|(s, ..)| ParamValue::Text((*s).into()))
                .collect(),
            labels: Vec::new(),
        },
        ParamSpec {
            key: "diagonals".into(),
            name: "Diagonals".into(),
            default: ParamValue::Bool(false),
            allowed: vec![ParamValue::Bool(false), ParamValue::Bool(true)],
            labels: vec!["No".into(), "Killer-X".into()],
        },
    ]
}

plugin_sdk::export_variant!(Killer);

#[cfg(test)]
mod tests {
    use super::*;
    use plugin_sdk::engine::logic::tier;
    use plugin_sdk::engine::Solution;

    fn generated(size: &str, diagonals: bool, d: Difficulty, seed: &str) -> Generated {
        let params = Params::from([
            ("size".to_string(), ParamValue::Text(size.into())),
            ("diagonals".to_string(), ParamValue::Bool(diagonals)),
        ]);
        let ctx = GenerateContext::new(params, d, seed, None, (0, 0));
        Killer.generate(&ctx).expect("a killer")
    }

    /// No givens, every cell in one cage of different digits adding up to its
    /// sum, unique, needing exactly the tier asked for, and the same for the
    /// same seed.
    fn check(size: &str, diagonals: bool, d: Difficulty, seed: &str) {
        let g = generated(size, diagonals, d, seed);
        let what = format!("{size} diagonals={diagonals} {d} {seed}");
        let model = g.puzzle.model();
        assert!(g.puzzle.givens().iter().all(|&v| v == 0), "{what}: a given");
        let mut owners = vec![0; model.cell_count()];
        for cage in model.cages() {
            let digits: Vec<u8> = cage.cells.iter().map(|&c| g.solution[c as usize]).collect();
            let mut distinct = digits.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                digits.len(),
                "{what}: repeated digit in a cage"
            );
            assert_eq!(
                digits.iter().map(|&v| u32::from(v)).sum::<u32>(),
                cage.sum,
                "{what}"
            );
            for &c in &cage.cells {
                owners[c as usize] += 1;
            }
        }
        assert!(
            owners.iter().all(|&n| n == 1),
            "{what}: a cell in no cage or two"
        );
        assert_eq!(
            g.puzzle.solve(),
            Solution::Unique(g.solution.clone()),
            "{what}"
        );
        assert_eq!(
            tier(model, g.puzzle.givens()),
            Some(d),
            "{what}: wrong tier"
        );
        let again = generated(size, diagonals, d, seed);
        assert_eq!(
            again.puzzle.model().cages(),
            model.cages(),
            "{what}: not deterministic"
        );
    }

    #[test]
    fn six_by_six_killers_of_every_tier() {
        for d in DIFFICULTIES {
            check("6x6", false, d, "t-1");
        }
        check("6x6", true, Difficulty::Hard, "t-2");
    }

    #[test]
    fn nine_by_nine_killers_medium_and_hard() {
        for seed in ["t-1", "t-2"] {
            check("9x9", false, Difficulty::Medium, seed);
            check("9x9", false, Difficulty::Hard, seed);
        }
        check("9x9", true, Difficulty::Medium, "t-3");
    }

    #[test]
    fn a_nine_by_nine_extreme_killer() {
        check("9x9", false, Difficulty::Extreme, "t-1");
    }

    #[test]
    fn no_easy_killer_and_no_givens_declared() {
        let m = Killer.manifest();
        assert_eq!(m.difficulties, ["medium", "hard", "extreme"]);
        assert_eq!(m.clues.len(), 4 * 3);
        assert!(m.clues.iter().all(|c| c.min == 0 && c.max == 0));
    }
}
