//! Random jigsaw layouts: N connected regions of N cells each on an N x N grid,
//! grown from the classic boxes by cell swapping.
//!
//! Each swap moves a cell `a` of region A into a neighbouring region B and a
//! cell `d` of B that touches A back into A, so every region keeps N cells; the
//! swap is undone unless both regions stay connected. After enough swaps the
//! boxes are unrecognisable; a layout that still has a region equal to a row,
//! a column or a box is refused (the variant would be a classic puzzle there).

use plugin_sdk::engine::seed::Rng;
use rand::Rng as _;

/// A layout: the region of each cell, row-major.
pub type Regions = Vec<usize>;

/// Accepted swaps per cell of the grid: enough to scatter every box.
const SWAPS_PER_CELL: usize = 2;

/// Tries per wanted swap before the layout is returned as it is.
const TRIES_PER_SWAP: usize = 20;

/// A random layout on an N x N grid (N = `box_rows * box_cols`), starting from
/// boxes of `box_rows` x `box_cols` cells.
pub fn random_regions(box_rows: usize, box_cols: usize, rng: &mut Rng) -> Regions {
    let n = box_rows * box_cols;
    let mut regions: Regions = (0..n * n)
        .map(|i| (i / n / box_rows) * box_rows + (i % n) / box_cols)
        .collect();
    let wanted = SWAPS_PER_CELL * n * n;
    let mut done = 0;
    for _ in 0..wanted * TRIES_PER_SWAP {
        if done == wanted {
            break;
        }
        if try_swap(&mut regions, n, rng) {
            done += 1;
        }
    }
    regions
}

/// The 4-neighbours of cell `i` on an N x N grid.
fn neighbours(i: usize, n: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / n, i % n);
    [
        (r > 0).then(|| i - n),
        (r + 1 < n).then_some(i + n),
        (c > 0).then(|| i - 1),
        (c + 1 < n).then_some(i + 1),
    ]
    .into_iter()
    .flatten()
}

/// One random swap between two neighbouring regions; whether it was kept.
fn try_swap(regions: &mut Regions, n: usize, rng: &mut Rng) -> bool {
    let a = rng.gen_range(0..n * n);
    let ra = regions[a];
    let others: Vec<usize> = neighbours(a, n).filter(|&b| regions[b] != ra).collect();
    if others.is_empty() {
        return false;
    }
    let rb = regions[others[rng.gen_range(0..others.len())]];
    // A cell of B (other than next to nothing of A) that touches A once `a` has left.
    let candidates: Vec<usize> = (0..n * n)
        .filter(|&d| regions[d] == rb && neighbours(d, n).any(|e| e != a && regions[e] == ra))
        .collect();
    if candidates.is_empty() {
        return false;
    }
    let d = candidates[rng.gen_range(0..candidates.len())];
    regions[a] = rb;
    regions[d] = ra;
    if connected(regions, n, ra) && connected(regions, n, rb) {
        true
    } else {
        regions[a] = ra;
        regions[d] = rb;
        false
    }
}

/// Whether region `id` is one 4-connected piece.
fn connected(regions: &Regions, n: usize, id: usize) -> bool {
    let Some(start) = regions.iter().position(|&r| r == id) else {
        return false;
    };
    let mut seen = vec![false; n * n];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(i) = stack.pop() {
        reached += 1;
        for j in neighbours(i, n) {
            if !seen[j] && regions[j] == id {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    reached == regions.iter().filter(|&&r| r == id).count()
}

/// Whether some region is exactly a row, a column or a `box_rows` x `box_cols`
/// box.
pub fn has_classic_region(regions: &Regions, box_rows: usize, box_cols: usize) -> bool {
    let n = box_rows * box_cols;
    let same = |cells: &mut dyn Iterator<Item = usize>| {
        let first: Vec<usize> = cells.collect();
        first.iter().all(|&c| regions[c] == regions[first[0]])
    };
    (0..n).any(|r| same(&mut (0..n).map(|c| r * n + c)))
        || (0..n).any(|c| same(&mut (0..n).map(|r| r * n + c)))
        || (0..n).any(|b| {
            let (top, left) = ((b / box_rows) * box_rows, (b % box_rows) * box_cols);
            same(&mut (0..n).map(|k| (top + k / box_cols) * n + left + k % box_cols))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugin_sdk::engine::seed::rng_for;

    #[test]
    fn every_region_has_n_connected_cells() {
        for (br, bc) in [(2, 3), (3, 3), (3, 4)] {
            let n = br * bc;
            for seed in 0..20 {
                let regions = random_regions(br, bc, &mut rng_for(&format!("r{seed}")));
                for id in 0..n {
                    assert_eq!(regions.iter().filter(|&&r| r == id).count(), n);
                    assert!(connected(&regions, n, id), "{n}: region {id} split");
                }
            }
        }
    }

    #[test]
    fn the_starting_boxes_are_classic_and_swaps_scatter_them() {
        let boxes: Regions = (0..81).map(|i| (i / 9 / 3) * 3 + (i % 9) / 3).collect();
        assert!(has_classic_region(&boxes, 3, 3));
        let scattered = (0..20)
            .filter(|s| {
                !has_classic_region(&random_regions(3, 3, &mut rng_for(&format!("s{s}"))), 3, 3)
            })
            .count();
        assert!(scattered >= 18, "{scattered} of 20 layouts lost every box");
    }
}
