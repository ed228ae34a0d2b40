//! Implied houses: cell sets the rules force to hold every value once though
//! no house says so (Windoku's five hidden windows). Found by the law of
//! leftovers: `k` parallel rows (or columns) hold every value `k` times; take
//! away `k - 1` disjoint houses lying wholly inside them, and what is left —
//! when it is `N` cells — holds every value once. Repeated until nothing new
//! appears, so a leftover can help find the next.

use protocol::HouseKind;

/// The most parallel lines one leftover is taken from.
const MOST_LINES: usize = 3;

/// The implied houses of a model whose full houses are `houses` (cells of
/// each, with its kind), with `cells` active cells and `size` values; none on
/// grids of more than 128 cells. The caller decides where to look (the
/// layout: models with houses beyond rows, columns, boxes and regions, and
/// no cages).
pub(crate) fn implied_houses(
    houses: &[(HouseKind, &[u32])],
    cells: usize,
    size: u32,
) -> Vec<Vec<u32>> {
    if cells > 128 {
        return Vec::new();
    }
    let mask = |cs: &[u32]| cs.iter().fold(0u128, |m, &c| m | 1 << c);
    let mut known: Vec<u128> = houses.iter().map(|(_, cs)| mask(cs)).collect();
    // The houses a leftover may take away: every full house but the lines.
    let mut blocks: Vec<u128> = houses
        .iter()
        .filter(|(kind, _)| !matches!(kind, HouseKind::Row | HouseKind::Column))
        .map(|(_, cs)| mask(cs))
        .collect();
    let lines: Vec<Vec<u128>> = [HouseKind::Row, HouseKind::Column]
        .map(|line| {
            houses
                .iter()
                .filter(|(kind, _)| *kind == line)
                .map(|(_, cs)| mask(cs))
                .collect()
        })
        .into();
    let mut found = Vec::new();
    loop {
        let before = found.len();
        for parallel in &lines {
            for pick in subsets(parallel.len(), MOST_LINES) {
                let union = pick.iter().fold(0u128, |m, &i| m | parallel[i]);
                let inside: Vec<u128> = blocks
                    .iter()
                    .copied()
                    .filter(|&b| b & !union == 0)
                    .collect();
                for taken in disjoint_choices(&inside, pick.len() - 1) {
                    let left = union & !taken;
                    if left.count_ones() == size && !known.contains(&left) {
                        known.push(left);
                        blocks.push(left);
                        found.push(left);
                    }
                }
            }
        }
        if found.len() == before {
            break;
        }
    }
    found
        .into_iter()
        .map(|m| (0..128u32).filter(|&c| m >> c & 1 == 1).collect())
        .collect()
}

/// Every subset of `0..n` with 2 to `most` members, in increasing order.
fn subsets(n: usize, most: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::new();
    fn grow(start: usize, n: usize, most: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if pick.len() >= 2 {
            out.push(pick.clone());
        }
        if pick.len() == most {
            return;
        }
        for i in start..n {
            pick.push(i);
            grow(i + 1, n, most, pick, out);
            pick.pop();
        }
    }
    grow(0, n, most, &mut pick, &mut out);
    out
}

/// The unions of every `k` pairwise disjoint masks of `masks`.
fn disjoint_choices(masks: &[u128], k: usize) -> Vec<u128> {
    let mut out = Vec::new();
    fn grow(masks: &[u128], start: usize, k: usize, union: u128, out: &mut Vec<u128>) {
        if k == 0 {
            out.push(union);
            return;
        }
        for i in start..masks.len() {
            if masks[i] & union == 0 {
                grow(masks, i + 1, k - 1, union | masks[i], out);
            }
        }
    }
    grow(masks, 0, k, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {

    /// Windoku's four windows imply five more: the rows and columns 1, 5
    /// and 9 cut the grid into nine 3x3 windows.
    #[test]
    fn windoku_implies_its_five_hidden_windows() {
        let model = crate::geometry::classic_builder(3, 3)
            .and_then(|b| b.houses(crate::geometry::windoku_windows()).build())
            .expect("windoku");
        let layout = model.logic_layout();
        let implied: Vec<&Vec<u32>> = layout
            .groups
            .iter()
            .filter(|g| g.house.is_some_and(|h| h >= model.houses().len()))
            .map(|g| &g.cells)
            .collect();
        assert_eq!(implied.len(), 5, "{implied:?}");
        // r1c2..r1c4, r5c2..r5c4, r9c2..r9c4 (0-based rows 0, 4, 8; columns 1-3).
        let hidden: Vec<u32> = [0u32, 4, 8]
            .iter()
            .flat_map(|r| (1..4).map(move |c| r * 9 + c))
            .collect();
        assert!(implied.iter().any(|cs| **cs == hidden));
        // Classic rules alone imply nothing.
        let plain = crate::geometry::classic(3, 3).expect("9x9");
        assert_eq!(plain.logic_layout().groups.len(), 27);
    }
}
