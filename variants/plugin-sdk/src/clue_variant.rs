//! A whole variant whose clues are constraints of given kinds (Thermo,
//! Arrow, Kropki, …): a [`ClueVariant`] names them, and the SDK generates
//! its puzzles with `engine::constraint_clues` on classic rules — a random
//! solution, the constraints it satisfies, reduced while the puzzle stays
//! unique and needs exactly the requested tier.

use crate::{GenerateContext, GenerateError, Manifest, ParamSpec, ParamValue, Params, Variant};
use engine::constraint_clues::{generate_with_constraints, ClueKind};
use engine::geometry::classic_builder;
use engine::{Difficulty, Generated};
use protocol::plugin::ClueRange;

/// A variant on classic rules whose puzzles carry constraints of `kinds` as
/// their clues (and as few givens as it takes).
pub struct ClueVariant {
    /// The variant's id (`thermo`).
    pub id: &'static str,
    /// Its name in the lobby.
    pub name: &'static str,
    /// Its rules, as a player reads them.
    pub rules: &'static str,
    /// The constraint kinds its puzzles use.
    pub kinds: &'static [ClueKind],
    /// The sizes offered, first the default: a name (`9x9`) and its box shape.
    pub sizes: &'static [(&'static str, u32, u32)],
    /// The difficulties offered.
    pub difficulties: &'static [Difficulty],
}

impl ClueVariant {
    /// The box shape `params` ask for.
    fn shape(&self, params: &Params) -> Result<(u32, u32), GenerateError> {
        let asked = match params.get("size") {
            Some(ParamValue::Text(size)) => size.as_str(),
            _ => self.sizes.first().map_or("", |s| s.0),
        };
        self.sizes
            .iter()
            .find(|(name, _, _)| *name == asked)
            .map(|&(_, rows, cols)| (rows, cols))
            .ok_or_else(|| GenerateError::Failed(format!("size {asked:?} is not offered")))
    }
}

impl Variant for ClueVariant {
    fn manifest(&self) -> Manifest {
        let sizes: Vec<String> = self.sizes.iter().map(|s| s.0.to_string()).collect();
        let params = vec![ParamSpec {
            key: "size".into(),
            name: "Size".into(),
            default: ParamValue::Text(sizes.first().cloned().unwrap_or_default()),
            allowed: sizes.iter().cloned().map(ParamValue::Text).collect(),
            labels: Vec::new(),
        }];
        let difficulties: Vec<String> = self.difficulties.iter().map(|d| d.to_string()).collect();
        // The constraints are the clues: at most a given in every third cell.
        let clues = self
            .sizes
            .iter()
            .flat_map(|&(name, rows, cols)| {
                let cells = (rows * cols).pow(2);
                difficulties.iter().map(move |d| ClueRange {
                    when: Params::from([("size".to_string(), ParamValue::Text(name.into()))]),
                    difficulty: d.clone(),
                    min: 0,
                    max: cells / 3,
                })
            })
            .collect();
        Manifest {
            id: self.id.into(),
            name: self.name.into(),
            rules: self.rules.into(),
            params,
            difficulties,
            clues,
        }
    }

    fn generate(&self, ctx: &GenerateContext) -> Result<Generated, GenerateError> {
        let (rows, cols) = self.shape(ctx.params())?;
        let base = classic_builder(rows, cols)?;
        let mut rng = ctx.rng("clues");
        Ok(generate_with_constraints(
            &base,
            self.kinds,
            &mut rng,
            ctx.difficulty(),
            ctx.deadline(),
        )?)
    }
}
