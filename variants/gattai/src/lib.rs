//! Gattai as a Sudoku Arena plugin: overlapping 9x9 grids that share boxes, in the
//! daily archive's five layouts (parameter `mode`): Samurai (five grids) and the
//! twins Horizon, Sunrise, Sunset and Eclipse (two grids sharing one box). A
//! shared box is one set of cells in the model, so a value placed there counts in
//! both grids.
//!
//! The rules are fixed per mode, so generation is the standard one on the mode's
//! model, with the archive's clue ranges, reaching for the requested technique
//! tier (measured fast enough on these models, though larger than the engine's
//! default limit) — except Samurai extreme, which keeps its clue band alone (a
//! tier check after each removal on 369 cells took 1.2 s per puzzle there) and
//! grades each try once instead: a try that is not extreme, or needs dynamic
//! forcing chains (seconds a step on 369 cells, and no fair ask of a player),
//! is thrown away, and the grade is handed to the SDK with the puzzle. At
//! hard and extreme every grid must need the others (no grid taken alone has a
//! unique solution), so a try where one does is thrown away and the next is
//! drawn from the same stream.

use plugin_sdk::engine::generate::Tiering;
use plugin_sdk::engine::geometry::{GattaiMode, GATTAI_MODES};
use plugin_sdk::engine::{logic, Difficulty, Generated, Model, Puzzle, PuzzleError};
use plugin_sdk::{
    params, standard_difficulties, ClueRange, GenerateContext, GenerateError, Manifest, ParamSpec,
    ParamValue, Params, Variant,
};
use std::sync::Arc;

/// The archive's clue ranges (inclusive), easy to extreme: twins, then Samurai.
const TWIN_CLUES: [(u32, u32); 4] = [(80, 90), (64, 79), (52, 63), (34, 51)];
const SAMURAI_CLUES: [(u32, u32); 4] = [(160, 180), (130, 159), (100, 129), (68, 99)];

/// Tries at hard and extreme before giving up on a seed (each is a whole puzzle;
/// in practice the first or second is kept).
const TRIES: usize = 32;

/// Samurai and the twins.
struct Gattai;

fn mode_of(params: &Params) -> Result<&'static GattaiMode, PuzzleError> {
    let id = params::text(params, "mode")?;
    GattaiMode::by_id(id).ok_or_else(|| PuzzleError::new(format!("unknown mode '{id}'")))
}

/// Whether some grid of `mode`, taken alone with its givens, has exactly one
/// solution.
fn a_grid_stands_alone(model: &Model, mode: &GattaiMode, givens: &[u8]) -> bool {
    mode.grids.iter().any(|&(_, [top, left])| {
        let grid: Option<Vec<u8>> = (0..81)
            .map(|k| {
                let cell = model.cell_at(top + k / 9, left + k % 9)?;
                Some(givens[cell])
            })
            .collect();
        let Some(grid) = grid else { return false };
        let Ok(classic) = plugin_sdk::engine::geometry::classic(3, 3) else {
            return false;
        };
        Puzzle::new(Arc::new(classic), grid).is_ok_and(|p| p.solution_count(2) == 1)
    })
}

impl Variant for Gattai {
    fn manifest(&self) -> Manifest {
        let difficulties = standard_difficulties();
        let clues = GATTAI_MODES
            .iter()
            .flat_map(|mode| {
                let ranges = if mode.id == "samurai" {
                    SAMURAI_CLUES
                } else {
                    TWIN_CLUES
                };
                let when = Params::from([("mode".to_string(), ParamValue::Text(mode.id.into()))]);
                difficulties
                    .iter()
                    .zip(ranges)
                    .map(move |(d, (min, max))| ClueRange {
                        when: when.clone(),
                        difficulty: d.clone(),
                        min,
                        max,
                    })
            })
            .collect();
        Manifest {
            id: "gattai".into(),
            name: "Gattai".into(),
            rules: "Several 9x9 Sudoku grids overlap: fill every grid so that each row, \
                    column and box of each grid holds 1-9 exactly once. A shared box belongs \
                    to both grids at once."
                .into(),
            params: vec![ParamSpec {
                key: "mode".into(),
                name: "Layout".into(),
                default: ParamValue::Text("samurai".into()),
                allowed: GATTAI_MODES
                    .iter()
                    .map(|m| ParamValue::Text(m.id.into()))
                    .collect(),
                labels: GATTAI_MODES.iter().map(|m| m.name.to_string()).collect(),
            }],
            difficulties,
            clues,
        }
    }

    fn model(&self, params: &Params) -> Result<Model, PuzzleError> {
        mode_of(params)?.model()
    }

    fn generate(&self, ctx: &GenerateContext) -> Result<Generated, GenerateError> {
        let mode = mode_of(ctx.params())?;
        let model = Arc::new(mode.model()?);
        let mut rng = ctx.rng("gattai");
        let independent = matches!(ctx.difficulty(), Difficulty::Hard | Difficulty::Extreme);
        let tiering = if mode.id == "samurai" && ctx.difficulty() == Difficulty::Extreme {
            Tiering::BandOnly
        } else {
            Tiering::Tiered
        };
        for _ in 0..TRIES {
            ctx.check_deadline()?;
            let g = ctx.standard_with(&model, &mut rng, tiering)?;
            if independent && a_grid_stands_alone(&model, mode, g.puzzle.givens()) {
                continue;
            }
            if tiering == Tiering::BandOnly {
                // Graded here: an extreme Samurai needs chains, never dynamic
                // forcing chains (seconds a step on 369 cells).
                let grade = ctx.grade(&model, g.puzzle.givens(), logic::Chains::Static)?;
                if grade.tier != Some(Difficulty::Extreme) {
                    continue;
                }
                ctx.keep_grade(g.puzzle.givens(), grade);
            }
            return Ok(g);
        }
        Err(GenerateError::Failed(format!(
            "no {} puzzle in {TRIES} tries where every grid needs the others",
            mode.id
        )))
    }
}

plugin_sdk::export_variant!(Gattai);

#[cfg(test)]
mod tests {
    use super::*;
    use plugin_sdk::engine::check::check_solution;

    fn ctx(mode: &str, difficulty: Difficulty) -> GenerateContext {
        let manifest = Gattai.manifest();
        let params = Params::from([("mode".to_string(), ParamValue::Text(mode.into()))]);
        let (lo, hi) = manifest
            .clue_range(&params, difficulty.as_str())
            .expect("declared");
        GenerateContext::new(params, difficulty, "test", None, (lo as usize, hi as usize))
    }

    #[test]
    fn every_mode_has_clue_ranges_and_a_model() {
        let m = Gattai.manifest();
        assert_eq!(m.clues.len(), 20);
        for mode in GATTAI_MODES {
            let p = Params::from([("mode".to_string(), ParamValue::Text(mode.id.into()))]);
            assert!(Gattai.model(&p).is_ok());
        }
    }

    #[test]
    fn an_extreme_samurai_is_extreme_without_dynamic_forcing_chains() {
        let c = ctx("samurai", Difficulty::Extreme);
        let g = Gattai.generate(&c).expect("generated");
        let grade = logic::grade(
            g.puzzle.model(),
            g.puzzle.givens(),
            logic::Options { uniqueness: true },
        );
        assert_eq!(grade.tier, Some(Difficulty::Extreme));
        assert!(grade.steps.iter().all(|s| !matches!(
            s.technique,
            logic::Technique::DynamicForcingChain | logic::Technique::DynamicForcingChainPlus
        )));
        let (lo, hi) = c.clue_range();
        assert!((lo..=hi).contains(&g.puzzle.clue_count()));
    }

    #[test]
    fn a_hard_twin_is_unique_in_band_and_no_grid_stands_alone() {
        let c = ctx("twin-ne", Difficulty::Hard);
        let g = Gattai.generate(&c).expect("generated");
        let model = g.puzzle.model();
        assert!(check_solution(model, &g.solution).is_ok());
        assert_eq!(g.puzzle.solution_count(2), 1);
        let (lo, hi) = c.clue_range();
        assert!((lo..=hi).contains(&g.puzzle.clue_count()));
        let mode = GattaiMode::by_id("twin-ne").expect("mode");
        assert!(!a_grid_stands_alone(model, mode, g.puzzle.givens()));
    }
}
