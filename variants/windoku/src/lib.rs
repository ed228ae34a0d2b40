//! Windoku as a Sudoku Arena plugin: classic 9x9 plus four shaded 3x3 windows.
//! Parameter `diagonals=true` adds both main diagonals (Windoku-X).

use plugin_sdk::engine::geometry::classic_builder;
use plugin_sdk::engine::{Model, PuzzleError};
use plugin_sdk::protocol::HouseKind;
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
                name: "Also both diagonals (Windoku-X)".into(),
                default: ParamValue::Bool(false),
                allowed: vec![ParamValue::Bool(false), ParamValue::Bool(true)],
            }],
            difficulties: standard_difficulties(),
            clues: Vec::new(),
        }
    }

    fn model(&self, params: &Params) -> Result<Model, PuzzleError> {
        let mut b = classic_builder(3, 3)?;
        for top in [1, 5] {
            for left in [1, 5] {
                let cells = (0..9).map(|k| [top + k / 3, left + k % 3]).collect();
                b = b.house(HouseKind::Window, cells);
            }
        }
        if params::flag(params, "diagonals")? {
            b = b
                .house(HouseKind::Diagonal, (0..9).map(|i| [i, i]).collect())
                .house(HouseKind::Diagonal, (0..9).map(|i| [i, 8 - i]).collect());
        }
        b.build()
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
