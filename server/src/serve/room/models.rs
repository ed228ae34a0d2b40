//! Engine models shared between rooms: every room playing puzzles with the same
//! rules (every classic 9x9 room, say) uses one model instead of its own (about
//! 26 KiB for a 9x9). Puzzles whose rules differ (a killer's cages, a jigsaw's
//! regions) still get their own. Models are immutable, so sharing is safe; a
//! model lives while a room uses it.

use engine::v1::{from_v1_with_model, model_from_v1, Loaded};
use engine::{Model, PuzzleError};
use protocol::{Cage, Constraint, Coord, House, Layout, PuzzleV1};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, Weak};

/// What [`model_from_v1`] reads of a puzzle: its rules, not its grid.
#[derive(Serialize)]
struct Rules<'a> {
    format: &'a str,
    size: u32,
    symbols: &'a Option<String>,
    layout: &'a Layout,
    cells: &'a Option<Vec<Coord>>,
    houses: &'a [House],
    cages: &'a [Cage],
    different: &'a [[Coord; 2]],
    constraints: &'a [Constraint],
}

/// Models by their rules (MessagePack of [`Rules`]), held weakly.
#[derive(Default)]
struct Models {
    by_rules: HashMap<Vec<u8>, Weak<Model>>,
    /// Entries above which the dead ones are swept out.
    sweep_above: usize,
}

/// The server's models.
static MODELS: LazyLock<Mutex<Models>> = LazyLock::new(Mutex::default);

/// Entries kept before the first sweep of dead ones.
const FIRST_SWEEP: usize = 64;

/// Reads a v1 object as [`engine::v1::from_v1`] does, sharing the model with
/// every other puzzle of the same rules still in use.
pub fn load(p: &PuzzleV1) -> Result<Loaded, PuzzleError> {
    let key = rmp_serde::to_vec(&Rules {
        format: &p.format,
        size: p.size,
        symbols: &p.symbols,
        layout: &p.layout,
        cells: &p.cells,
        houses: &p.houses,
        cages: &p.cages,
        different: &p.different,
        constraints: &p.constraints,
    })
    .map_err(|e| PuzzleError::new(format!("unreadable rules: {e}")))?;
    let shared = lock().by_rules.get(&key).and_then(Weak::upgrade);
    let model = match shared {
        Some(model) => model,
        None => {
            // Built outside the lock; two rooms racing for new rules may build
            // it twice, and the second simply replaces the first's entry.
            let model = Arc::new(model_from_v1(p)?);
            let mut models = lock();
            if models.by_rules.len() >= models.sweep_above {
                models.by_rules.retain(|_, m| m.strong_count() > 0);
                models.sweep_above = (2 * models.by_rules.len()).max(FIRST_SWEEP);
            }
            models.by_rules.insert(key, Arc::downgrade(&model));
            model
        }
    };
    from_v1_with_model(p, model)
}

/// The table, even after a panic elsewhere held it (entries are always whole).
fn lock() -> std::sync::MutexGuard<'static, Models> {
    MODELS.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::geometry::classic;

    /// A 9x9 classic v1 object (an empty grid, a made-up solution).
    fn classic_v1() -> PuzzleV1 {
        let model = Arc::new(classic(3, 3).expect("model"));
        let puzzle = engine::Puzzle::new(model, vec![0; 81]).expect("puzzle");
        engine::v1::to_v1(&puzzle, Some(&[1; 81]))
    }

    #[test]
    fn equal_rules_share_a_model_and_other_rules_do_not() {
        let a = load(&classic_v1()).expect("a");
        let mut other = classic_v1();
        other.grid[0][0] = 5;
        other.clue_count = None;
        let b = load(&other).expect("b");
        assert!(Arc::ptr_eq(a.puzzle.model_arc(), b.puzzle.model_arc()));
        assert_eq!(b.puzzle.givens()[0], 5);
        let mut caged = classic_v1();
        caged.cages.push(Cage {
            cells: vec![[0, 0], [0, 1]],
            sum: 3,
        });
        let c = load(&caged).expect("c");
        assert!(!Arc::ptr_eq(a.puzzle.model_arc(), c.puzzle.model_arc()));
        assert_eq!(c.puzzle.model().cages().len(), 1);
    }

    #[test]
    fn a_model_no_room_uses_is_dropped() {
        let mut lonely = classic_v1();
        lonely.different.push([[8, 8], [0, 0]]);
        let weak = Arc::downgrade(load(&lonely).expect("load").puzzle.model_arc());
        assert!(weak.upgrade().is_none());
        let again = load(&lonely).expect("again");
        assert_eq!(again.puzzle.model().cell_count(), 81);
    }

    #[test]
    fn bad_rules_are_still_refused() {
        let mut bad = classic_v1();
        bad.houses[0].cells.push([9, 9]);
        assert!(load(&bad).is_err());
    }
}
