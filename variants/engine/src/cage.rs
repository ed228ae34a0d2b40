//! Killer cage reasoning: the sets of values (as bitmasks) that `k` different values
//! adding up to a sum can use, and the propagation rule built on them.

use crate::mask::{bit, is_single, value_of};

/// More combinations than this and a cage falls back to sum bounds only.
const MAX_COMBOS: usize = 4096;

/// The least and most `k` different values of 1..=`size` add up to.
pub(crate) fn sum_range(k: u32, size: u32) -> (u32, u32) {
    (k * (k + 1) / 2, k * (2 * size - k + 1) / 2)
}

/// Precomputed reasoning data for one cage.
#[derive(Clone, Debug)]
pub(crate) struct CageTable {
    /// Active-cell indices of the cage.
    pub cells: Vec<u32>,
    /// Required sum.
    pub sum: u32,
    /// Every value set of the right size and sum; `None` when there are too many.
    pub combos: Option<Vec<u32>>,
}

impl CageTable {
    /// Builds the table for a cage of `cells` summing to `sum` with values 1..=`size`.
    pub fn new(cells: &[u32], sum: u32, size: u32) -> Self {
        CageTable {
            cells: cells.to_vec(),
            sum,
            combos: combinations(cells.len() as u32, sum, size, MAX_COMBOS),
        }
    }

    /// Narrows the candidates of the cage's cells in a per-cell candidate array.
    /// `Err` on a contradiction; `Ok(true)` if anything changed. Newly single
    /// cells are pushed onto `singles`.
    pub fn propagate(&self, cand: &mut [u32], singles: &mut Vec<u32>) -> Result<bool, ()> {
        let mut local = [0u32; crate::MAX_SIZE as usize];
        let local = &mut local[..self.cells.len()];
        for (l, &c) in local.iter_mut().zip(&self.cells) {
            *l = cand[c as usize];
        }
        if !self.narrow_for_search(local)? {
            return Ok(false);
        }
        for (&l, &c) in local.iter().zip(&self.cells) {
            if cand[c as usize] != l {
                cand[c as usize] = l;
                if is_single(l) {
                    singles.push(c);
                }
            }
        }
        Ok(true)
    }

    /// The digit sets that can still fill the cage's cells with candidates
    /// `local` (empty when there are too many sets to list).
    pub fn fitting(&self, local: &[u32]) -> Vec<u32> {
        let (union, singles) = union_and_singles(local);
        self.combos
            .iter()
            .flatten()
            .copied()
            .filter(|&c| fits(c, local, union, singles))
            .collect()
    }

    /// The digits every digit set still fitting `local` holds, not yet
    /// placed there (0 when none fits, or the sets are too many to list).
    pub fn required_digits(&self, local: &[u32]) -> u32 {
        let Some(combos) = &self.combos else {
            return 0;
        };
        let (union, singles) = union_and_singles(local);
        required_of_fitting(combos, local, union, singles).map_or(0, |required| required & !singles)
    }

    /// Narrows `local`, the candidates of the cage's cells in order. `Err` on a
    /// contradiction; `Ok(true)` if anything changed.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        match &self.combos {
            Some(combos) => narrow_by_combos(combos, local),
            None => narrow_by_bounds(self.sum, local),
        }
    }

    /// [`narrow`](Self::narrow) for the search: a two-cell cage is narrowed
    /// value by value (each keeps the values whose partner the other cell
    /// has), quicker than its digit sets and, where one cell has lost a
    /// partner, stronger.
    fn narrow_for_search(&self, local: &mut [u32]) -> Result<bool, ()> {
        match local {
            [a, b] if self.sum <= 33 => narrow_pair(self.sum, a, b),
            local => self.narrow(local),
        }
    }
}

/// The values of `m` mirrored around `sum / 2`: bit `v - 1` becomes bit
/// `sum - v - 1`, so `a & mirror(b, sum)` keeps the values of `a` whose partner
/// adding up to `sum` is in `b`. `sum` is at most 33 (a 32-bit mask).
fn mirror(m: u32, sum: u32) -> u32 {
    let reversed = u64::from(m.reverse_bits());
    // Bit i of m sits at 31 - i; it belongs at sum - 2 - i.
    (reversed >> (33 - sum)) as u32
}

/// A two-cell cage: each cell keeps the values whose partner (the sum less the
/// value, a different value) the other cell still has; the commonest cage,
/// narrowed in a few instructions.
fn narrow_pair(sum: u32, a: &mut u32, b: &mut u32) -> Result<bool, ()> {
    // Two equal values cannot share a cage.
    let half = if sum.is_multiple_of(2) {
        bit(sum / 2)
    } else {
        0
    };
    let na = *a & mirror(*b, sum) & !half;
    let nb = *b & mirror(na, sum) & !half;
    if na == 0 || nb == 0 {
        return Err(());
    }
    let changed = na != *a || nb != *b;
    (*a, *b) = (na, nb);
    Ok(changed)
}

/// Every candidate of the cells (`union`) and the values of the cells with one
/// candidate left (`singles`).
fn union_and_singles(local: &[u32]) -> (u32, u32) {
    local.iter().fold((0, 0), |(union, singles), &m| {
        (union | m, if is_single(m) { singles | m } else { singles })
    })
}

/// Whether the digit set `combo` can still fill cells with candidates `local`:
/// inside what they allow, holding every single, touching every cell.
#[inline]
fn fits(combo: u32, local: &[u32], union: u32, singles: u32) -> bool {
    combo & !union == 0 && singles & !combo == 0 && local.iter().all(|&m| m & combo != 0)
}

/// The values every digit set of `combos` that can still fill cells with
/// candidates `local` holds, placed ones included (`None` when none can).
pub(crate) fn required_by_combos(combos: &[u32], local: &[u32]) -> Option<u32> {
    let (union, singles) = union_and_singles(local);
    required_of_fitting(combos, local, union, singles)
}

/// [`required_by_combos`] with the cells' union and singles worked out.
fn required_of_fitting(combos: &[u32], local: &[u32], union: u32, singles: u32) -> Option<u32> {
    let mut fitting = combos
        .iter()
        .filter(|&&combo| fits(combo, local, union, singles))
        .peekable();
    fitting.peek()?;
    Some(fitting.fold(u32::MAX, |required, &combo| required & combo))
}

/// Keeps the values some feasible combination allows, and places a value every
/// feasible combination needs when it has one cell left.
fn narrow_by_combos(combos: &[u32], local: &mut [u32]) -> Result<bool, ()> {
    let (union, placed) = union_and_singles(local);
    let mut allowed = 0;
    let mut required = u32::MAX;
    for &combo in combos {
        if !fits(combo, local, union, placed) {
            continue;
        }
        allowed |= combo;
        required &= combo;
    }
    if allowed == 0 {
        return Err(());
    }
    let mut changed = false;
    for m in local.iter_mut() {
        let n = *m & allowed;
        if n != *m {
            if n == 0 {
                return Err(());
            }
            *m = n;
            changed = true;
        }
    }
    let mut need = required & !placed;
    while need != 0 {
        let v = need & need.wrapping_neg();
        need &= need - 1;
        let mut spot = None;
        for (i, &m) in local.iter().enumerate() {
            if m & v != 0 {
                if spot.is_some() {
                    spot = None;
                    break;
                }
                spot = Some(i);
            }
        }
        if let Some(i) = spot {
            if local[i] != v {
                local[i] = v;
                changed = true;
            }
        }
    }
    Ok(changed)
}

/// Keeps the values that fit between the smallest and largest sums the other
/// cells can still make (used when a cage has too many combinations to list).
fn narrow_by_bounds(sum: u32, local: &mut [u32]) -> Result<bool, ()> {
    let (mut lo, mut hi) = (0u32, 0u32);
    for &m in local.iter() {
        lo += value_of(m);
        hi += 32 - m.leading_zeros();
    }
    if lo > sum || hi < sum {
        return Err(());
    }
    let mut changed = false;
    for m in local.iter_mut() {
        let (own_lo, own_hi) = (value_of(*m), 32 - m.leading_zeros());
        let (others_lo, others_hi) = (lo - own_lo, hi - own_hi);
        let mut keep = 0;
        let mut rest = *m;
        while rest != 0 {
            let v = value_of(rest);
            rest &= rest - 1;
            if v + others_lo <= sum && v + others_hi >= sum {
                keep |= 1 << (v - 1);
            }
        }
        if keep != *m {
            if keep == 0 {
                return Err(());
            }
            *m = keep;
            changed = true;
        }
    }
    Ok(changed)
}

/// Implied cages that are largest considered: more cells have many digit
/// sets and narrow little.
const MAX_IMPLIED: usize = 4;

/// Cages the 45 rule implies over each full house of `size` cells (a house
/// holds every value once, so its cells add up to `size * (size + 1) / 2`):
/// the cells left over by the cages inside the house add up to the rest
/// ("innies"), and the cells outside it of the cages covering it add up to
/// what those cages hold beyond the house ("outies", when those cells are
/// mutually peers, so their digits differ). Only sets of at most
/// [`MAX_IMPLIED`] cells that are not already cages. The solvers narrow them
/// as any cage: they add no rule, only reach sooner what the cages imply.
/// None when two cages share a cell (their sums would be counted twice).
pub(crate) fn implied_by_houses(
    houses: &[&[u32]],
    cages: &[(&[u32], u32)],
    size: u32,
    are_peers: impl Fn(u32, u32) -> bool,
) -> Vec<CageTable> {
    // The cage of each cell; none when two cages share a cell.
    let cells = cages
        .iter()
        .flat_map(|(c, _)| c.iter())
        .chain(houses.iter().flat_map(|h| h.iter()))
        .map(|&c| c as usize + 1)
        .max()
        .unwrap_or(0);
    let mut cage_of = vec![usize::MAX; cells];
    for (i, (c, _)) in cages.iter().enumerate() {
        for &x in c.iter() {
            if cage_of[x as usize] != usize::MAX {
                return Vec::new();
            }
            cage_of[x as usize] = i;
        }
    }
    let total = size * (size + 1) / 2;
    let mut found: Vec<(Vec<u32>, u32)> = Vec::new();
    let mut add = |mut cells: Vec<u32>, sum: u32| {
        cells.sort_unstable();
        // Already a cage: all its cells in one cage of as many cells.
        let cage = cage_of[cells[0] as usize];
        let known = cage != usize::MAX
            && cages[cage].0.len() == cells.len()
            && cells.iter().all(|&c| cage_of[c as usize] == cage);
        if cells.len() <= MAX_IMPLIED && !known && !found.iter().any(|(c, _)| *c == cells) {
            found.push((cells, sum));
        }
    };
    // By cage: how many of its cells the house at hand holds.
    let mut in_house = vec![0usize; cages.len()];
    for house in houses {
        in_house.fill(0);
        for &x in house.iter() {
            if let Some(n) = in_house.get_mut(cage_of[x as usize]) {
                *n += 1;
            }
        }
        let inside = |i: usize| in_house[i] == cages[i].0.len();
        // Innies: the cells no inner cage covers.
        let inner_sum: u32 = (0..cages.len())
            .filter(|&i| inside(i))
            .map(|i| cages[i].1)
            .sum();
        let left: Vec<u32> = house
            .iter()
            .copied()
            .filter(|&x| cage_of[x as usize] == usize::MAX || !inside(cage_of[x as usize]))
            .collect();
        if !left.is_empty() && inner_sum < total {
            add(left, total - inner_sum);
        }
        // Outies: when cages cover the whole house, their cells outside it.
        if house.iter().any(|&x| cage_of[x as usize] == usize::MAX) {
            continue;
        }
        let covering = (0..cages.len()).filter(|&i| in_house[i] > 0 && !inside(i));
        let outside: Vec<u32> = covering
            .clone()
            .flat_map(|i| cages[i].0.iter().copied())
            .filter(|x| !house.contains(x))
            .collect();
        let outer_sum: u32 = covering.map(|i| cages[i].1).sum::<u32>() + inner_sum;
        let distinct = outside
            .iter()
            .enumerate()
            .all(|(i, &a)| outside[i + 1..].iter().all(|&b| are_peers(a, b)));
        if !outside.is_empty() && distinct && outer_sum > total {
            add(outside, outer_sum - total);
        }
    }
    found
        .into_iter()
        .map(|(cells, sum)| CageTable::new(&cells, sum, size))
        .collect()
}

/// Every set of `k` different values in 1..=`size` adding up to `sum`, as bitmasks,
/// or `None` if there are more than `cap`.
pub fn combinations(k: u32, sum: u32, size: u32, cap: usize) -> Option<Vec<u32>> {
    fn walk(
        next: u32,
        k: u32,
        sum: u32,
        size: u32,
        mask: u32,
        out: &mut Vec<u32>,
        cap: usize,
    ) -> bool {
        if k == 0 {
            if sum == 0 {
                out.push(mask);
            }
            return out.len() <= cap;
        }
        let mut v = next;
        while v <= size {
            // The smallest k values from v on already exceed the sum: stop.
            if k * v + k * (k - 1) / 2 > sum {
                break;
            }
            // The largest k values up to size fall short: try a larger v.
            let max_rest = k * size - k * (k - 1) / 2;
            if max_rest < sum {
                return true;
            }
            if !walk(v + 1, k - 1, sum - v, size, mask | 1 << (v - 1), out, cap) {
                return false;
            }
            v += 1;
        }
        true
    }
    let mut out = Vec::new();
    if walk(1, k, sum, size, 0, &mut out, cap) {
        Some(out)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(k: u32, sum: u32, size: u32) -> Vec<u32> {
        (0u32..1 << size)
            .filter(|m| {
                m.count_ones() == k
                    && (0..size)
                        .filter(|b| m >> b & 1 == 1)
                        .map(|b| b + 1)
                        .sum::<u32>()
                        == sum
            })
            .collect()
    }

    #[test]
    fn combinations_match_brute_force() {
        for size in [4, 6, 9] {
            for k in 1..=size {
                for sum in 0..=size * (size + 1) / 2 + 1 {
                    let mut got = combinations(k, sum, size, usize::MAX).expect("uncapped");
                    got.sort_unstable();
                    assert_eq!(got, brute(k, sum, size), "k={k} sum={sum} size={size}");
                }
            }
        }
    }

    #[test]
    fn a_pair_keeps_exactly_the_values_with_a_partner() {
        for size in [4u32, 6, 9, 16] {
            let full = (1u32 << size) - 1;
            for sum in 3..=(2 * size - 1) {
                let table = CageTable::new(&[0, 1], sum, size);
                for (a, b) in [(full, full), (0b1011, full), (full & !0b100, 0b110)] {
                    let (a, b) = (a & full, b & full);
                    let partner = |v: u32, other: u32| {
                        sum > v && sum - v != v && sum - v <= size && other & bit(sum - v) != 0
                    };
                    let want_a: u32 = (1..=size)
                        .filter(|&v| a & bit(v) != 0 && partner(v, b))
                        .map(bit)
                        .sum();
                    let want_b: u32 = (1..=size)
                        .filter(|&v| b & bit(v) != 0 && partner(v, want_a))
                        .map(bit)
                        .sum();
                    let mut local = [a, b];
                    let got = table.narrow_for_search(&mut local);
                    if want_a == 0 || want_b == 0 {
                        assert!(got.is_err(), "size {size} sum {sum} {a:b} {b:b}");
                    } else {
                        assert_eq!(local, [want_a, want_b], "size {size} sum {sum} {a:b} {b:b}");
                        assert_eq!(got, Ok(local != [a, b]));
                    }
                }
            }
        }
    }

    #[test]
    fn the_45_rule_gives_innies_and_outies() {
        // A 4-value house r1 (cells 0-3, adding up to 10): the cage {0, 1} = 3
        // inside it leaves {2, 3} = 7; the cages covering it reach out to
        // cells 6 and 7 (row r2), which hold 3 + 5 + 6 - 10 = 4.
        let house: &[u32] = &[0, 1, 2, 3];
        let cages: [(&[u32], u32); 3] = [(&[0, 1], 3), (&[2, 6], 5), (&[3, 7], 6)];
        let same_row = |a: u32, b: u32| a / 4 == b / 4;
        let implied = |peers: &dyn Fn(u32, u32) -> bool| -> Vec<(Vec<u32>, u32)> {
            implied_by_houses(&[house], &cages, 4, peers)
                .into_iter()
                .map(|t| (t.cells, t.sum))
                .collect()
        };
        assert_eq!(implied(&same_row), vec![(vec![2, 3], 7), (vec![6, 7], 4)]);
        // Outies whose digits may repeat give no cage.
        assert_eq!(implied(&|_, _| false), vec![(vec![2, 3], 7)]);
        // Cages sharing a cell imply nothing.
        let overlapping: [(&[u32], u32); 2] = [(&[0, 1], 3), (&[1, 2], 5)];
        assert!(implied_by_houses(&[house], &overlapping, 4, same_row).is_empty());
    }

    #[test]
    fn classic_killer_facts() {
        // 2 cells summing to 3 must be {1,2}; 3 cells summing to 24 must be {7,8,9}.
        assert_eq!(combinations(2, 3, 9, 99), Some(vec![0b11]));
        assert_eq!(combinations(3, 24, 9, 99), Some(vec![0b1_1100_0000]));
        assert_eq!(combinations(2, 10, 9, 99).map(|v| v.len()), Some(4));
    }

    #[test]
    fn cap_gives_none() {
        assert_eq!(combinations(12, 150, 25, 100), None);
    }
}
