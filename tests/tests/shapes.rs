//! What Jigsaw and Gattai promise beyond the conformance suite, checked on puzzles
//! from the real plugins (loaded through the host) by the engine alone: jigsaw
//! regions are connected, N cells each, never a plain row, column or box, and
//! differ per seed; at hard and extreme no Gattai grid taken alone has a unique
//! solution, and every puzzle keeps the archive's clue range of its mode.

use arena_tests::built_plugin_dir;
use engine::v1::from_v1;
use engine::{Model, Puzzle};
use protocol::plugin::{GenerateRequest, Params};
use protocol::{HouseKind, ParamValue, PuzzleV1};
use server::plugins::{PluginHost, TestPlugins};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn host() -> &'static PluginHost {
    static HOST: OnceLock<PluginHost> = OnceLock::new();
    HOST.get_or_init(|| PluginHost::load(&[built_plugin_dir()], 4, TestPlugins::Skip).0)
}

fn generate(variant: &str, key: &str, value: &str, difficulty: &str, seed: &str) -> PuzzleV1 {
    let req = GenerateRequest {
        minimal: false,
        params: Params::from([(key.to_string(), ParamValue::Text(value.into()))]),
        difficulty: difficulty.into(),
        seed: seed.into(),
    };
    host()
        .generate(variant, &req, Duration::from_secs(60))
        .unwrap_or_else(|e| panic!("{variant} {value} {difficulty} {seed}: {e}"))
}

/// Whether the cells (layout coordinates) are one 4-connected piece.
fn connected(cells: &[[u32; 2]]) -> bool {
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, c) in cells.iter().enumerate() {
            let [r, col] = cells[i];
            if !seen[j] && r.abs_diff(c[0]) + col.abs_diff(c[1]) == 1 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

#[test]
fn jigsaw_regions_are_irregular_connected_and_new_each_puzzle() {
    for (size, n) in [("6x6", 6u32), ("9x9", 9)] {
        let mut layouts = Vec::new();
        for seed in ["j-1", "j-2", "j-3"] {
            let p = generate("jigsaw", "size", size, "hard", seed);
            let loaded = from_v1(&p).expect("valid v1");
            let model = loaded.puzzle.model();
            assert!(loaded.puzzle.clue_count() >= 8, "{size} {seed}");
            let regions: Vec<Vec<[u32; 2]>> = model
                .houses()
                .iter()
                .filter(|h| h.kind == HouseKind::Region)
                .map(|h| h.cells.iter().map(|&c| model.coord(c as usize)).collect())
                .collect();
            assert_eq!(regions.len(), n as usize, "{size} {seed}");
            for cells in &regions {
                assert_eq!(cells.len(), n as usize);
                assert!(connected(cells), "{size} {seed}: a region is in pieces");
                let same_row = cells.iter().all(|c| c[0] == cells[0][0]);
                let same_col = cells.iter().all(|c| c[1] == cells[0][1]);
                assert!(!same_row && !same_col, "{size} {seed}: a region is a line");
            }
            assert!(
                model.houses().iter().all(|h| h.kind != HouseKind::Box),
                "{size}: no boxes in a jigsaw"
            );
            layouts.push(regions);
        }
        assert!(
            layouts[0] != layouts[1] && layouts[1] != layouts[2],
            "{size}: one layout for every seed"
        );
    }
}

/// Whether the 9x9 grid at `origin`, taken alone with its givens, has exactly one solution.
fn stands_alone(model: &Model, givens: &[u8], [top, left]: [u32; 2]) -> bool {
    let grid: Vec<u8> = (0..81)
        .map(|k| {
            model
                .cell_at(top + k / 9, left + k % 9)
                .map_or(0, |c| givens[c])
        })
        .collect();
    let classic = Arc::new(engine::geometry::classic(3, 3).expect("classic"));
    Puzzle::new(classic, grid)
        .expect("a grid's givens keep the rules")
        .solution_count(2)
        == 1
}

#[test]
fn gattai_grids_need_each_other_at_hard_and_extreme_and_keep_the_archive_ranges() {
    let manifest = host().manifest("gattai").expect("gattai loaded").clone();
    for mode in engine::geometry::GATTAI_MODES {
        for difficulty in ["easy", "hard", "extreme"] {
            let p = generate("gattai", "mode", mode.id, difficulty, "2026-02-01");
            let loaded = from_v1(&p).expect("valid v1");
            let (model, givens) = (loaded.puzzle.model(), loaded.puzzle.givens());
            let params = Params::from([("mode".to_string(), ParamValue::Text(mode.id.into()))]);
            let (lo, hi) = manifest.clue_range(&params, difficulty).expect("declared");
            let clues = loaded.puzzle.clue_count() as u32;
            assert!(
                (lo..=hi).contains(&clues),
                "{} {difficulty}: {clues} clues",
                mode.id
            );
            if difficulty != "easy" {
                for &(id, origin) in mode.grids {
                    assert!(
                        !stands_alone(model, givens, origin),
                        "{} {difficulty}: grid {id} stands alone",
                        mode.id
                    );
                }
            }
            assert!(p.grade.is_some(), "{} {difficulty}: not graded", mode.id);
        }
    }
}
