//! Windoku as a Sudoku Arena plugin: classic 9x9 plus four shaded 3x3 windows.
//! Parameter `diagonals=true` adds both main diagonals (Windoku-X).

use plugin_sdk::engine::geometry::{classic_builder, diagonals, windoku_windows};
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::{params, standard_difficulties, Manifest, ParamSpec, ParamValue, Params, Variant};

/// Windoku.
struct Windoku;

impl Variant for Windoku {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "windoku".into(),
            name: "Windoku".into(),
            rules: "Classic Sudoku, and each of the four shaded 3x3 windows also holds \
                    1-9 exactly once. With diagonals, so does each main diagonal."
                .into(),
            params: vec![ParamSpec {
                key: "diagonals".into(),
                name: "Also both diagonals".into(),
                default: ParamValue::Bool(false),
                allowed: vec![ParamValue::Bool(false), ParamValue::Bool(true)],
                labels: vec!["No".into(), "Windoku-X".into()],
            }],
            difficulties: standard_difficulties(),
            clues: Vec::new(),
        }
    }

    fn model(&self, params: &Params) -> Result<Model, PuzzleError> {
        let mut houses: Vec<_> = windoku_windows().into();
        if params::flag(params, "diagonals")? {
            houses.extend(diagonals(9, [0, 0]));
        }
        classic_builder(3, 3)?.houses(houses).build()
    }
}

plugin_sdk::export_variant!(Windoku);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_and_optional_diagonals() {
        let plain = Params::from([("diagonals".to_string(), ParamValue::Bool(false))]);
        let x = Params::from([("diagonals".to_string(), ParamValue::Bool(true))]);
        assert_eq!(Windoku.model(&plain).expect("model").houses().len(), 31);
        assert_eq!(Windoku.model(&x).expect("model").houses().len(), 33);
    }
}
