//! The escape hatch for rules the vocabulary lacks: a local rule over a few
//! cells, given as a predicate the SDK enumerates into a table of allowed
//! digit tuples when the model is built. The engine then propagates it like
//! any other constraint, with no call across the ABI during a search.

use protocol::{Constraint, Coord};

/// The most tuples a local rule may list (digits^cells before filtering).
pub const MAX_TUPLES: u64 = 1 << 20;

/// A [`Constraint::Table`] over `cells` (digits 1..=`size`) holding every
/// tuple `allowed` accepts, described by `description`. `Err` when the
/// rule reads too many cells to list, or allows no tuple.
pub fn local_rule(
    cells: Vec<Coord>,
    size: u32,
    description: &str,
    allowed: impl Fn(&[u32]) -> bool,
) -> Result<Constraint, String> {
    let k = cells.len();
    let tuples = engine::digit_tuples(k, size, MAX_TUPLES, &allowed)
        .filter(|_| k > 0)
        .ok_or_else(|| {
            format!(
                "local rule '{description}': {k} cells of 1..={size} are too many to list (at most {MAX_TUPLES} tuples)"
            )
        })?;
    if tuples.is_empty() {
        return Err(format!(
            "local rule '{description}' allows no digits at all"
        ));
    }
    Ok(Constraint::Table {
        cells,
        tuples,
        description: description.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::geometry::classic_builder;
    use std::sync::Arc;

    #[test]
    fn a_local_rule_narrows_like_any_constraint() {
        // The top-left corner's two cells add up to a square number.
        let rule = local_rule(vec![[0, 0], [0, 1]], 4, "a square sum", |d| {
            matches!(d[0] + d[1], 4 | 9)
        })
        .expect("listable");
        let model = classic_builder(2, 2)
            .expect("4x4")
            .constraint(rule)
            .build()
            .expect("valid");
        // With 1 given at [0,0], [0,1] must be 3.
        let mut givens = vec![0u8; 16];
        givens[0] = 1;
        let puzzle = engine::Puzzle::new(Arc::new(model), givens).expect("puzzle");
        let count = puzzle.count(50);
        assert!(count.solutions > 0);
        assert!(count.first.is_some_and(|s| s[1] == 3));
    }

    #[test]
    fn too_many_cells_is_an_error_naming_the_rule() {
        let cells = (0..9).map(|c| [0, c]).collect();
        let e = local_rule(cells, 9, "a whole row", |_| true).expect_err("too big");
        assert!(e.contains("a whole row"), "{e}");
    }
}
