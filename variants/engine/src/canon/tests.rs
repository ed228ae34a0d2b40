//! Canonical forms are the same for every disguise of a puzzle.

use super::*;
use crate::generate::{generate, Target};
use crate::geometry::{classic, classic_builder, diagonals, windoku_windows};
use crate::seed::{rng_for, Rng};
use protocol::HouseKind;
use rand::seq::SliceRandom;
use rand::Rng as _;
use std::collections::HashSet;
use std::sync::Arc;

/// A random symmetry of an n x n grid with r x c boxes (transposed only when
/// `transpose`), digits renamed when `rename`: output cell `k` shows
/// source cell `perm[k]`, digit `v` becomes `names[v]`.
fn disguise(
    rng: &mut Rng,
    n: usize,
    (r, c): (usize, usize),
    transpose: bool,
    rename: bool,
) -> (Vec<usize>, Vec<u8>) {
    let lines = |rng: &mut Rng, group: usize| -> Vec<usize> {
        let mut groups: Vec<usize> = (0..n / group).collect();
        groups.shuffle(rng);
        groups
            .iter()
            .flat_map(|&g| {
                let mut inner: Vec<usize> = (0..group).map(|i| g * group + i).collect();
                inner.shuffle(rng);
                inner
            })
            .collect()
    };
    let (rows, cols) = (lines(rng, r), lines(rng, c));
    let t = transpose && rng.gen_bool(0.5);
    let perm = (0..n * n)
        .map(|k| {
            let (a, b) = (rows[k / n], cols[k % n]);
            if t {
                b * n + a
            } else {
                a * n + b
            }
        })
        .collect();
    let mut names: Vec<u8> = (1..=n as u8).collect();
    if rename {
        names.shuffle(rng);
    }
    names.insert(0, 0);
    (perm, names)
}

fn apply(givens: &[u8], (perm, names): &(Vec<usize>, Vec<u8>)) -> Vec<u8> {
    perm.iter()
        .map(|&s| names[usize::from(givens[s])])
        .collect()
}

fn puzzles(model: &Arc<Model>, seed: &str, count: usize) -> Vec<Vec<u8>> {
    let mut rng = rng_for(seed);
    (0..count)
        .map(|_| {
            let g = generate(model, &mut rng, Target::Minimal).expect("generates");
            g.puzzle.givens().to_vec()
        })
        .collect()
}

#[test]
fn every_disguise_of_a_classic_puzzle_has_one_form() {
    // 100 puzzles of each size, 1,000 disguises of each (9x9; fewer below).
    for (r, c, count, disguises) in [(3, 3, 100, 1000), (2, 3, 50, 200), (2, 2, 30, 100)] {
        let model = Arc::new(classic(r as u32, c as u32).expect("model"));
        let symmetries = Symmetries::of(&model);
        assert!(symmetries.relabels());
        let mut rng = rng_for("disguises");
        for givens in puzzles(&model, &format!("canon {r}x{c}"), count) {
            let form = symmetries.canonical(&givens);
            // The form is a disguise of the puzzle: same clue count, unique.
            let clues = |g: &[u8]| g.iter().filter(|&&v| v != 0).count();
            assert_eq!(clues(&form.givens), clues(&givens));
            let again = crate::Puzzle::new(model.clone(), form.givens.clone()).expect("loads");
            assert_eq!(again.solution_count(2), 1);
            assert_eq!(symmetries.canonical(&form.givens), form, "idempotent");
            for _ in 0..disguises {
                let d = disguise(&mut rng, r * c, (r, c), r == c, true);
                assert_eq!(symmetries.canonical(&apply(&givens, &d)), form);
            }
        }
    }
}

#[test]
fn different_puzzles_have_different_forms() {
    let model = Arc::new(classic(3, 3).expect("model"));
    let symmetries = Symmetries::of(&model);
    let forms: std::collections::HashSet<Canonical> = puzzles(&model, "distinct", 20)
        .iter()
        .map(|g| symmetries.canonical(g))
        .collect();
    assert_eq!(forms.len(), 20);
}

#[test]
fn large_n_sudokus_fall_back_to_rotations_and_reflections() {
    // A full search over 16x16's orders would take 2^16 x 7,962,624 steps
    // before the first form: the server's pool once spun on it for good.
    for (box_rows, box_cols) in [(4, 4), (5, 5), (3, 4)] {
        let model = Arc::new(classic(box_rows, box_cols).expect("model"));
        let symmetries = Symmetries::of(&model);
        assert!(symmetries.relabels());
        let square = box_rows == box_cols;
        assert_eq!(
            symmetries.order(),
            if square { 8 } else { 4 },
            "{box_rows}x{box_cols}"
        );
        let n = model.size() as usize;
        // Any givens do: a form does not ask for a solution.
        let givens: Vec<u8> = (0..n * n)
            .map(|k| if k % 5 == 0 { (k * 7 % n + 1) as u8 } else { 0 })
            .collect();
        let rotated: Vec<u8> = (0..n * n).map(|k| givens[n * n - 1 - k]).collect();
        assert_eq!(
            symmetries.canonical(&givens),
            symmetries.canonical(&rotated)
        );
    }
}

#[test]
fn x_and_windoku_keep_the_symmetries_that_keep_their_extra_houses() {
    let x = Arc::new(
        classic_builder(3, 3)
            .and_then(|b| b.houses(diagonals(9, [0, 0])).build())
            .expect("model"),
    );
    let windoku_x = Arc::new(
        classic_builder(3, 3)
            .and_then(|b| {
                b.houses(windoku_windows())
                    .houses(diagonals(9, [0, 0]))
                    .build()
            })
            .expect("model"),
    );
    for (model, name) in [(x, "x"), (windoku_x, "windoku-x")] {
        let symmetries = Symmetries::of(&model);
        // X: one permutation of rows and columns commuting with the
        // reversal (2 x 2 x 6), times transposition, times the reversal of
        // columns alone: 96. Windoku-X: its windows keep 16 of those.
        let expected = if name == "x" { 96 } else { 16 };
        assert_eq!(symmetries.order(), expected, "{name}");
        let listed = match &symmetries.kind {
            Kind::Listed { perms, .. } => perms.clone(),
            Kind::Classic(_) => panic!("{name} is not classic"),
        };
        let mut rng = rng_for(name);
        for givens in puzzles(&model, name, 100) {
            let form = symmetries.canonical(&givens);
            for _ in 0..1000 {
                let perm = listed.choose(&mut rng).expect("some");
                let mut names: Vec<u8> = (1..=9).collect();
                names.shuffle(&mut rng);
                names.insert(0, 0);
                let d: Vec<usize> = perm.iter().map(|&s| s as usize).collect();
                assert_eq!(symmetries.canonical(&apply(&givens, &(d, names))), form);
            }
        }
    }
}

#[test]
fn a_killer_keeps_its_cages_and_digits_through_a_rotation() {
    // Two cages on a 4x4; rotated a quarter turn, the same puzzle.
    let build = |cages: &[(Vec<[u32; 2]>, u32)]| {
        let mut b = classic_builder(2, 2).expect("builder");
        for (cells, sum) in cages {
            b = b.cage(cells.clone(), *sum);
        }
        b.build().expect("model")
    };
    let a = build(&[(vec![[0, 0], [0, 1]], 3), (vec![[3, 3], [2, 3]], 7)]);
    // A quarter turn: (r, c) -> (c, 3 - r).
    let b = build(&[(vec![[0, 3], [1, 3]], 3), (vec![[3, 0], [3, 1]], 7)]);
    let (sa, sb) = (Symmetries::of(&a), Symmetries::of(&b));
    assert!(!sa.relabels());
    let givens_a = {
        let mut g = vec![0u8; 16];
        g[5] = 4; // (1, 1)
        g
    };
    let givens_b = {
        let mut g = vec![0u8; 16];
        g[4 + 2] = 4; // (1, 1) -> (1, 2)
        g
    };
    assert_eq!(sa.canonical(&givens_a), sb.canonical(&givens_b));
    // Another sum is another puzzle.
    let c = build(&[(vec![[0, 3], [1, 3]], 4), (vec![[3, 0], [3, 1]], 7)]);
    assert_ne!(
        sa.canonical(&givens_a),
        Symmetries::of(&c).canonical(&givens_b)
    );
}

#[test]
fn every_rotation_and_reflection_of_a_killer_has_one_form() {
    // 100 random killers (domino cages with random sums, a few givens; the
    // form does not need them unique), each in all 8 orientations.
    type Map = fn(u32, u32) -> (u32, u32);
    let maps: [Map; 8] = [
        |r, c| (r, c),
        |r, c| (8 - r, c),
        |r, c| (r, 8 - c),
        |r, c| (8 - r, 8 - c),
        |r, c| (c, r),
        |r, c| (8 - c, r),
        |r, c| (c, 8 - r),
        |r, c| (8 - c, 8 - r),
    ];
    let mut rng = rng_for("killers");
    for _ in 0..100 {
        let mut used = [false; 81];
        let mut cages: Vec<([[u32; 2]; 2], u32)> = Vec::new();
        while cages.len() < 20 {
            let (r, c) = (rng.gen_range(0..9u32), rng.gen_range(0..8u32));
            let (a, b) = ((r * 9 + c) as usize, (r * 9 + c + 1) as usize);
            if used[a] || used[b] {
                continue;
            }
            used[a] = true;
            used[b] = true;
            cages.push(([[r, c], [r, c + 1]], rng.gen_range(3..=17)));
        }
        let givens: Vec<(u32, u32, u8)> = (0..6)
            .map(|_| {
                (
                    rng.gen_range(0..9),
                    rng.gen_range(0..9),
                    rng.gen_range(1..=9),
                )
            })
            .collect();
        let forms: Vec<Canonical> = maps
            .iter()
            .map(|map| {
                let mut b = classic_builder(3, 3).expect("builder");
                for (cells, sum) in &cages {
                    let moved = cells.map(|[r, c]| {
                        let (y, x) = map(r, c);
                        [y, x]
                    });
                    b = b.cage(moved.to_vec(), *sum);
                }
                let model = b.build().expect("model");
                let mut grid = vec![0u8; 81];
                for &(r, c, v) in &givens {
                    let (y, x) = map(r, c);
                    grid[(y * 9 + x) as usize] = v;
                }
                Symmetries::of(&model).canonical(&grid)
            })
            .collect();
        assert!(forms.iter().all(|f| *f == forms[0]));
    }
}

/// A map of layout positions `(row, col)`.
type Orientation = Box<dyn Fn(u32, u32) -> (u32, u32)>;

/// The eight rotations and reflections of an n x n layout.
fn orientations(n: u32) -> [Orientation; 8] {
    let m = n - 1;
    [
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (m - r, c)),
        Box::new(move |r, c| (r, m - c)),
        Box::new(move |r, c| (m - r, m - c)),
        Box::new(|r, c| (c, r)),
        Box::new(move |r, c| (m - c, r)),
        Box::new(move |r, c| (c, m - r)),
        Box::new(move |r, c| (m - c, m - r)),
    ]
}

/// Random digit names (0 stays 0).
fn random_names(rng: &mut Rng, n: u8) -> Vec<u8> {
    let mut names: Vec<u8> = (1..=n).collect();
    names.shuffle(rng);
    names.insert(0, 0);
    names
}

#[test]
fn every_disguise_of_a_jigsaw_has_one_form() {
    // 100 random jigsaws (boxes with 30 random cell swaps between regions,
    // a dozen random givens; the form does not need them unique), each in
    // 1,000 disguises: its 8 orientations, moving the regions with the
    // givens, each with 125 renamings of the digits.
    let mut rng = rng_for("jigsaws");
    for _ in 0..100 {
        let mut region: Vec<u32> = (0..81).map(|k| (k / 27) * 3 + (k % 9) / 3).collect();
        for _ in 0..30 {
            let (a, b) = (rng.gen_range(0..81), rng.gen_range(0..81));
            region.swap(a, b);
        }
        let mut givens = [0u8; 81];
        for _ in 0..12 {
            givens[rng.gen_range(0..81)] = rng.gen_range(1..=9);
        }
        let mut forms = HashSet::new();
        for map in orientations(9).iter() {
            let mut cells: Vec<Vec<[u32; 2]>> = vec![Vec::new(); 9];
            let mut moved = [0u8; 81];
            for k in 0..81u32 {
                let (y, x) = map(k / 9, k % 9);
                cells[region[k as usize] as usize].push([y, x]);
                moved[(y * 9 + x) as usize] = givens[k as usize];
            }
            let lines = (0..9u32).flat_map(|i| {
                [
                    (HouseKind::Row, (0..9).map(|j| [i, j]).collect()),
                    (HouseKind::Column, (0..9).map(|j| [j, i]).collect()),
                ]
            });
            let regions = cells.into_iter().map(|c| (HouseKind::Region, c));
            let model = crate::ModelBuilder::new(9, 9, 9)
                .houses(lines.chain(regions))
                .build()
                .expect("a jigsaw model");
            for _ in 0..125 {
                let names = random_names(&mut rng, 9);
                let renamed: Vec<u8> = moved.iter().map(|&v| names[usize::from(v)]).collect();
                forms.insert(canonical_form(&model, &renamed));
            }
        }
        assert_eq!(forms.len(), 1, "one form for every disguise");
    }
}

#[test]
fn every_disguise_of_a_twin_gattai_has_one_form() {
    // The twin of grids at r1c1 and r7c7 on a 15x15 layout is kept by 4 of
    // the 8 orientations (the transpositions and the half turn); 100 random
    // puzzles (a dozen givens on the active cells), each in 1,000 disguises:
    // those 4 with 250 renamings of the digits each.
    let model = crate::geometry::GattaiMode::by_id("twin-nw")
        .expect("the twin mode")
        .model()
        .expect("a twin model");
    let kept: Vec<_> = orientations(15)
        .into_iter()
        .filter(|map| {
            (0..model.cell_count()).all(|i| {
                let [r, c] = model.coord(i);
                let (y, x) = map(r, c);
                model.cell_at(y, x).is_some()
            })
        })
        .collect();
    assert_eq!(kept.len(), 4);
    assert_eq!(Symmetries::of(&model).order(), 4);
    let mut rng = rng_for("twins");
    for _ in 0..100 {
        let mut givens = vec![0u8; model.cell_count()];
        for _ in 0..12 {
            givens[rng.gen_range(0..model.cell_count())] = rng.gen_range(1..=9);
        }
        let mut forms = HashSet::new();
        for map in &kept {
            let mut moved = vec![0u8; model.cell_count()];
            for (i, &v) in givens.iter().enumerate() {
                let [r, c] = model.coord(i);
                let (y, x) = map(r, c);
                moved[model.cell_at(y, x).expect("kept")] = v;
            }
            for _ in 0..250 {
                let names = random_names(&mut rng, 9);
                let renamed: Vec<u8> = moved.iter().map(|&v| names[usize::from(v)]).collect();
                forms.insert(canonical_form(&model, &renamed));
            }
        }
        assert_eq!(forms.len(), 1, "one form for every disguise");
    }
}
