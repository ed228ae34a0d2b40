//! Groups of cells that all add up to one total nobody states (a zipper
//! line's pairs and its middle cell, a region-sum line's runs). The total is
//! a hidden variable: each group's possible sums are listed as a bit set,
//! the totals every group can make are kept, and a cell keeps a value only
//! if its group can still reach one of those totals with it. That reads
//! the rule exactly (generalized arc consistency on the shared total), where
//! a chain of two-group sums bounds it only through minima and maxima.
//! Groups lying whole in one house must make the total together with
//! different digits: the totals they cannot are dropped too (see
//! [`EqualSums::sharing_houses`]).

use crate::mask::{distinct_bounds, values_of};

/// The most cells a group has to be listed value by value; a longer group's
/// sums are found by adding the cells' sets (repeats allowed: looser, never
/// wrong).
const LISTED_CELLS: usize = 4;

/// The most assignments one group's listing visits before it adds sets
/// instead. Small on purpose: listing is exact but runs at every narrowing,
/// and on the corpus's zipper and region-sum puzzles a listing of up to 24
/// counted them 1.3-1.9x faster than one of up to 4,096 (the added sets,
/// bounded by different digits' least and most, prune nearly as well).
const LISTED_ASSIGNMENTS: u32 = 24;

/// Sums are bits of a `u128`: every group must add up to less than this.
pub(crate) const SUM_LIMIT: u32 = 128;

/// One group: a range of [`EqualSums::cells`].
#[derive(Clone, Debug)]
struct Group {
    start: usize,
    len: usize,
    /// Its cells share a house (their digits differ).
    distinct: bool,
}

/// Every group adds up to the same total.
#[derive(Clone, Debug)]
pub(crate) struct EqualSums {
    /// The groups' cells, one group after another.
    pub cells: Vec<u32>,
    groups: Vec<Group>,
    /// The totals the groups sharing a house leave (bit `t`: total `t`);
    /// see [`EqualSums::sharing_houses`].
    totals: u128,
    /// The groups lying whole in one house, two or more (their digits all
    /// differ).
    clusters: Vec<Vec<usize>>,
}

thread_local! {
    /// Each group's sums and one group's support, kept between narrowings
    /// (a search narrows thousands of times: no allocation each time).
    static SCRATCH: std::cell::RefCell<(Vec<u128>, Support)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// For each cell of a group (up to [`LISTED_CELLS`] listed, or any number
/// added), for each value (bit), the sums the group can make with it.
type Support = Vec<[u128; 32]>;

impl EqualSums {
    /// The groups, each with whether its cells share a house. `None` when a
    /// group could add up to [`SUM_LIMIT`] or more with digits up to `size`
    /// (the caller states the rule another way), or there are fewer than two
    /// groups.
    pub fn new(groups: Vec<(Vec<u32>, bool)>, size: u32) -> Option<EqualSums> {
        if groups.len() < 2 || groups.iter().any(|(g, _)| g.is_empty()) {
            return None;
        }
        let mut cells = Vec::new();
        let mut out = Vec::new();
        for (group, distinct) in groups {
            if group.len() as u32 * size >= SUM_LIMIT {
                return None;
            }
            out.push(Group {
                start: cells.len(),
                len: group.len(),
                distinct,
            });
            cells.extend(group);
        }
        Some(EqualSums {
            cells,
            groups: out,
            totals: u128::MAX,
            clusters: Vec::new(),
        })
    }

    /// Each group's cells.
    pub fn groups(&self) -> impl Iterator<Item = &[u32]> {
        self.groups
            .iter()
            .map(|g| &self.cells[g.start..g.start + g.len])
    }

    /// The groups (index and cells) lying whole in `house`.
    pub fn groups_inside<'a>(
        &'a self,
        house: &'a [u32],
    ) -> impl Iterator<Item = (usize, &'a [u32])> {
        self.groups().enumerate().filter(|(_, g)| lies_in(g, house))
    }

    /// Keeps only the totals that the groups lying whole in one of `houses`
    /// can all make at once with different digits of `1..=size` — the
    /// setters' first look at such a line: four zipper pairs in one box
    /// leave only totals 9, 10 and 11 (four pairs of different digits) —
    /// and has each narrowing check those groups together again, from their
    /// candidates.
    pub fn sharing_houses(mut self, houses: &[Vec<u32>], size: u32) -> EqualSums {
        for house in houses {
            let (mut indices, mut cells) = (Vec::new(), Vec::<u32>::new());
            for (i, group) in self.groups_inside(house) {
                indices.push(i);
                cells.extend_from_slice(group);
            }
            let count = cells.len();
            cells.sort_unstable();
            cells.dedup();
            if indices.len() >= 2 && cells.len() == count {
                // Any digit anywhere: what the shared house alone leaves.
                let any = vec![crate::mask::full_mask(size); self.cells.len()];
                self.totals &= self.joint_totals(&indices, &any, u128::MAX);
                if !self.clusters.contains(&indices) {
                    self.clusters.push(indices);
                }
            }
        }
        self
    }

    /// Keeps each cell's values with which its group reaches a total every
    /// group can make; again until nothing changes. `Err` when no total is
    /// left.
    pub fn narrow(&self, local: &mut [u32]) -> Result<bool, ()> {
        SCRATCH.with(|scratch| {
            let (sums, support) = &mut *scratch.borrow_mut();
            self.narrow_with(local, sums, support)
        })
    }

    /// [`EqualSums::narrow`] with the thread's scratch space.
    fn narrow_with(
        &self,
        local: &mut [u32],
        sums: &mut Vec<u128>,
        support: &mut Support,
    ) -> Result<bool, ()> {
        let mut changed = false;
        sums.clear();
        sums.resize(self.groups.len(), 0);
        loop {
            let mut totals = self.totals;
            for (g, sums) in self.groups.iter().zip(sums.iter_mut()) {
                *sums = group_sums(&local[g.start..g.start + g.len], g.distinct, None);
                totals &= *sums;
                if totals == 0 {
                    return Err(());
                }
            }
            for cluster in &self.clusters {
                totals = self.joint_totals(cluster, local, totals);
                if totals == 0 {
                    return Err(());
                }
            }
            let mut narrowed = false;
            for (g, &sums) in self.groups.iter().zip(sums.iter()) {
                if sums & !totals == 0 {
                    // Every sum it makes is a total: each value it lists
                    // stays.
                    continue;
                }
                let masks = &mut local[g.start..g.start + g.len];
                if let Some(kept) = small_group_kept(masks, g.distinct, totals) {
                    if kept[..g.len] != *masks {
                        masks.copy_from_slice(&kept[..g.len]);
                        narrowed = true;
                    }
                    continue;
                }
                support.clear();
                support.resize(g.len, [0; 32]);
                group_sums(masks, g.distinct, Some(support));
                for (mask, sums) in masks.iter_mut().zip(support.iter()) {
                    let kept = values_of(*mask)
                        .filter(|&v| sums[usize::from(v) - 1] & totals != 0)
                        .fold(0u32, |m, v| m | 1 << (v - 1));
                    if kept != *mask {
                        *mask = kept;
                        narrowed = true;
                    }
                }
            }
            if !narrowed {
                break;
            }
            changed = true;
            if local.contains(&0) {
                return Err(());
            }
        }
        Ok(changed)
    }

    /// Of `totals`, those the groups of `cluster` can all make at once with
    /// different digits from their cells' candidates `local` (a total whose
    /// search runs out of tries stands). Only the totals: listing every
    /// joint assignment to narrow the cells as well cut the corpus's search
    /// trees further but cost more than it saved.
    fn joint_totals(&self, cluster: &[usize], local: &[u32], totals: u128) -> u128 {
        let mut joint = Joint::default();
        for &i in cluster {
            let g = &self.groups[i];
            for (k, &mask) in local[g.start..g.start + g.len].iter().enumerate() {
                if joint.n == joint.masks.len() {
                    return totals;
                }
                (joint.masks[joint.n], joint.ends[joint.n]) = (mask, k + 1 == g.len);
                joint.n += 1;
            }
        }
        let mut kept = 0u128;
        let mut bits = totals;
        while bits != 0 {
            let total = bits.trailing_zeros();
            bits &= bits - 1;
            joint.tries = JOINT_TRIES;
            if joint.fill(0, total, 0, 0) || joint.tries == 0 {
                kept |= 1 << total;
            }
        }
        kept
    }
}

/// The most digits [`Joint::fill`] tries for one total before it lets the
/// total stand.
const JOINT_TRIES: u32 = 10_000;

/// The cells of one cluster of groups, one group after another.
struct Joint {
    n: usize,
    /// Candidates, and whether the cell ends its group.
    masks: [u32; 32],
    ends: [bool; 32],
    tries: u32,
}

impl Default for Joint {
    fn default() -> Joint {
        Joint {
            n: 0,
            masks: [0; 32],
            ends: [false; 32],
            tries: JOINT_TRIES,
        }
    }
}

impl Joint {
    /// Whether the cells from `i` on can take different digits outside
    /// `used`, each group adding up to `total` (`sum`: the current group's
    /// so far).
    fn fill(&mut self, i: usize, total: u32, sum: u32, used: u32) -> bool {
        if i == self.n {
            return true;
        }
        let open = self.masks[i] & !used;
        if self.ends[i] {
            // The group's last cell holds what its total still needs.
            let need = total.checked_sub(sum).filter(|&v| (1..=32).contains(&v));
            return need.is_some_and(|v| {
                open & 1 << (v - 1) != 0 && self.fill(i + 1, total, 0, used | 1 << (v - 1))
            });
        }
        for v in values_of(open) {
            if self.tries == 0 {
                return false;
            }
            self.tries -= 1;
            let s = sum + u32::from(v);
            if s < total && self.fill(i + 1, total, s, used | 1 << (v - 1)) {
                return true;
            }
        }
        false
    }
}

/// Whether every cell of `group` is in `house`.
pub fn lies_in(group: &[u32], house: &[u32]) -> bool {
    group.iter().all(|c| house.contains(c))
}

/// The sums `masks` can make (digits differing when `distinct`), and with
/// `support` each cell's sums by value.
fn group_sums(masks: &[u32], distinct: bool, support: Option<&mut Support>) -> u128 {
    if let [one] = masks {
        return cell_sums(*one, support);
    }
    if let [a, b] = masks {
        return pair_sums([*a, *b], distinct, support);
    }
    let assignments = masks
        .iter()
        .try_fold(1u32, |n, m| n.checked_mul(m.count_ones()));
    match assignments {
        Some(n) if masks.len() <= LISTED_CELLS && n <= LISTED_ASSIGNMENTS => {
            let mut listing = Listing {
                masks,
                distinct,
                chosen: [0; LISTED_CELLS],
                sums: 0,
                support,
            };
            listing.walk(0, 0, 0);
            listing.sums
        }
        _ => added_sums(masks, distinct, support),
    }
}

/// What each cell of a group of one or two cells keeps for the `totals`
/// left (bit `t`: total `t`), straight from the masks: a single cell its
/// values that are totals, a pair's cell each `x` with a partner `y` in the
/// other (not `x` when they differ) such that `x + y` is a total. `None`
/// for longer groups.
fn small_group_kept(masks: &[u32], distinct: bool, totals: u128) -> Option<[u32; 2]> {
    match *masks {
        [one] => Some([one & (totals >> 1) as u32, 0]),
        [a, b] => {
            // Bit y - 1 of `(totals >> (x + 1))` is the total x + y.
            let keep = |own: u32, other: u32| {
                values_of(own)
                    .map(u32::from)
                    .filter(|&x| {
                        let partners = if distinct {
                            other & !(1 << (x - 1))
                        } else {
                            other
                        };
                        (totals >> (x + 1)) as u32 & partners != 0
                    })
                    .fold(0u32, |m, x| m | 1 << (x - 1))
            };
            Some([keep(a, b), keep(b, a)])
        }
        _ => None,
    }
}

/// The sums of a group of one cell: its values; each value's, itself.
fn cell_sums(mask: u32, support: Option<&mut Support>) -> u128 {
    if let Some(support) = support {
        for v in values_of(mask) {
            support[0][usize::from(v) - 1] = 1 << v;
        }
    }
    u128::from(mask) << 1
}

/// The sums of a pair, exactly, by shifting: with `x` in one cell, the
/// other's values (without `x` when the two differ) moved up by `x` (a
/// zipper line is mostly pairs: no listing).
fn pair_sums(masks: [u32; 2], distinct: bool, mut support: Option<&mut Support>) -> u128 {
    let mut sums = 0u128;
    for (cell, other) in [(0, 1), (1, 0)] {
        for x in values_of(masks[cell]) {
            let bit = 1u32 << (x - 1);
            let partners = if distinct {
                masks[other] & !bit
            } else {
                masks[other]
            };
            let with_x = (u128::from(partners) << 1) << x;
            sums |= with_x;
            if let Some(support) = support.as_deref_mut() {
                support[cell][usize::from(x) - 1] = with_x;
            }
        }
    }
    sums
}

/// A listing of one small group's assignments.
struct Listing<'a> {
    masks: &'a [u32],
    distinct: bool,
    chosen: [u8; LISTED_CELLS],
    sums: u128,
    support: Option<&'a mut Support>,
}

impl Listing<'_> {
    fn walk(&mut self, i: usize, sum: u32, used: u32) {
        if i == self.masks.len() {
            let bit = 1u128 << sum;
            self.sums |= bit;
            if let Some(support) = self.support.as_deref_mut() {
                for (cell, &v) in support.iter_mut().zip(&self.chosen[..i]) {
                    cell[usize::from(v) - 1] |= bit;
                }
            }
            return;
        }
        let open = if self.distinct { !used } else { u32::MAX };
        for v in values_of(self.masks[i] & open) {
            self.chosen[i] = v;
            self.walk(i + 1, sum + u32::from(v), used | 1 << (v - 1));
        }
    }
}

/// The sums of one value per cell found by adding the cells' sets (repeats
/// allowed), kept, when the digits differ, between the least and the most
/// as many different digits of the cells' values add up to; with `support`,
/// each cell's sums by value (the other cells' sums shifted by it).
fn added_sums(masks: &[u32], distinct: bool, support: Option<&mut Support>) -> u128 {
    // Every sum fits one machine word when the cells' highest values do.
    let highest: u32 = masks.iter().map(|&m| u32::BITS - m.leading_zeros()).sum();
    let add = |sums: u128, mask: u32| {
        if highest < u64::BITS {
            let sums = sums as u64;
            u128::from(values_of(mask).fold(0u64, |acc, v| acc | sums << v))
        } else {
            values_of(mask).fold(0u128, |acc, v| acc | sums << u32::from(v))
        }
    };
    // The sums `k` different digits of `union` can reach at all.
    let reach = |union: u32, k: usize| -> u128 {
        if !distinct {
            return u128::MAX;
        }
        match distinct_bounds(union, k) {
            Some((least, most)) => between(least, most),
            None => 0,
        }
    };
    let union = masks.iter().fold(0, |u, &m| u | m);
    let total = masks.iter().fold(1u128, |s, &m| add(s, m)) & reach(union, masks.len());
    if let Some(support) = support {
        for (i, cell) in support.iter_mut().enumerate() {
            let others = || masks.iter().enumerate().filter(move |&(j, _)| j != i);
            let sums = others().fold(1u128, |s, (_, &m)| add(s, m));
            let others_union = others().fold(0, |u, (_, &m)| u | m);
            for v in values_of(masks[i]) {
                let rest = reach(others_union & !(1 << (v - 1)), masks.len() - 1);
                cell[usize::from(v) - 1] = (sums & rest) << u32::from(v);
            }
        }
    }
    total
}

/// The bits `least..=most`.
fn between(least: u32, most: u32) -> u128 {
    if least > most || least >= SUM_LIMIT {
        return 0;
    }
    let upto = |n: u32| -> u128 {
        if n >= 127 {
            u128::MAX
        } else {
            (1u128 << (n + 1)) - 1
        }
    };
    upto(most) & !(upto(least) >> 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(values: &[u32]) -> u32 {
        values.iter().fold(0, |m, v| m | 1 << (v - 1))
    }

    #[test]
    fn a_zipper_pair_follows_its_middle() {
        // Pair (a, b) and the middle m: a + b = m; m is 3 or 4.
        let rule = EqualSums::new(vec![(vec![0, 1], false), (vec![2], false)], 9).expect("fits");
        let mut local = [0x1ff, 0x1ff, mask(&[3, 4])];
        assert_eq!(rule.narrow(&mut local), Ok(true));
        assert_eq!(local, [mask(&[1, 2, 3]), mask(&[1, 2, 3]), mask(&[3, 4])]);
    }

    #[test]
    fn distinct_runs_reach_only_totals_both_make() {
        // Two runs of a region-sum line, two different digits each, the second
        // run holding a 9: totals 10..=17; the first run then has no 1.
        let rule = EqualSums::new(vec![(vec![0, 1], true), (vec![2, 3], true)], 9).expect("fits");
        let mut local = [mask(&[1, 2, 8]), mask(&[1, 2]), mask(&[9]), 0x1ff];
        assert_eq!(rule.narrow(&mut local), Ok(true));
        // 8 + 1 or 8 + 2 = 9 or 10 — only 10 is a total (9 + 1).
        assert_eq!(local, [mask(&[8]), mask(&[2]), mask(&[9]), mask(&[1])]);
    }

    #[test]
    fn single_cells_are_checked_exactly() {
        let rule = EqualSums::new(vec![(vec![0, 1], true), (vec![2], false)], 9).expect("fits");
        assert_eq!(
            rule.narrow(&mut [mask(&[2]), mask(&[5]), mask(&[7])]),
            Ok(false)
        );
        assert_eq!(
            rule.narrow(&mut [mask(&[2]), mask(&[5]), mask(&[8])]),
            Err(())
        );
        // A distinct group holding one digit twice makes no sum.
        assert_eq!(
            rule.narrow(&mut [mask(&[3]), mask(&[3]), mask(&[6])]),
            Err(())
        );
    }

    #[test]
    fn long_groups_are_added_and_agree_with_listing_on_totals() {
        let masks = [
            mask(&[1, 2]),
            mask(&[3, 5]),
            mask(&[2, 9]),
            mask(&[4]),
            mask(&[6, 7]),
        ];
        let mut listed = 0u128;
        for a in [1, 2] {
            for b in [3, 5] {
                for c in [2, 9] {
                    for e in [6, 7] {
                        listed |= 1 << (a + b + c + 4 + e);
                    }
                }
            }
        }
        assert_eq!(group_sums(&masks, false, None), listed);
        // Five different digits of 1..=9 add up to 15..=35.
        let full = [0x1ff; 5];
        assert_eq!(group_sums(&full, true, None), between(15, 35));
        assert_eq!(group_sums(&full, false, None), between(5, 45));
    }

    #[test]
    fn four_pairs_in_one_house_leave_totals_nine_to_eleven() {
        let pairs = (0..4).map(|i| (vec![2 * i, 2 * i + 1], true)).collect();
        let rule = EqualSums::new(pairs, 9).expect("fits");
        let shared = rule.clone().sharing_houses(&[(0..8).collect()], 9);
        assert_eq!(shared.totals, 0b111 << 9);
        // A middle digit and a pair: the pair's digits differ from it.
        let zipper = vec![(vec![0, 1], true), (vec![2], false)];
        let zipper = EqualSums::new(zipper, 9).expect("fits");
        assert_eq!(
            zipper.sharing_houses(&[vec![0, 1, 2]], 9).totals,
            between(3, 9)
        );
        // One pair holding 4 and 8: 12 is not a total four pairs can share.
        let mut local = [0x1ff; 8];
        (local[0], local[1]) = (mask(&[4]), mask(&[8]));
        assert_eq!(shared.narrow(&mut local.clone()), Err(()));
        assert_eq!(rule.narrow(&mut local), Ok(true));
    }

    #[test]
    fn groups_in_one_house_of_the_largest_grid_keep_their_totals() {
        let pairs = vec![(vec![0, 1], true), (vec![2, 3], true)];
        let rule = EqualSums::new(pairs, 32).expect("fits");
        let shared = rule.sharing_houses(&[vec![0, 1, 2, 3]], 32);
        // Two pairs of different digits of 1..=32: totals 5 ({1,4}, {2,3}) to 61.
        assert_eq!(shared.totals, between(5, 61));
        assert_eq!(shared.narrow(&mut [u32::MAX; 4]), Ok(false));
    }

    #[test]
    fn groups_in_one_house_make_their_total_with_different_digits() {
        // Both pairs can add up to 5 alone, but not both with 1 and 4.
        let pairs = vec![(vec![0, 1], true), (vec![2, 3], true)];
        let rule = EqualSums::new(pairs, 9).expect("fits");
        let local = [mask(&[1]), mask(&[4]), mask(&[1, 4]), mask(&[1, 4])];
        assert_eq!(rule.narrow(&mut local.clone()), Ok(false));
        let shared = rule.sharing_houses(&[vec![0, 1, 2, 3]], 9);
        assert_eq!(shared.narrow(&mut local.clone()), Err(()));
    }

    #[test]
    fn pairs_and_single_cells_sum_as_listed() {
        let masks = [mask(&[1, 3, 4]), mask(&[3, 4, 9])];
        for distinct in [false, true] {
            let mut shifted = vec![[0u128; 32]; 2];
            let mut listed = vec![[0u128; 32]; 2];
            let sums = pair_sums(masks, distinct, Some(&mut shifted));
            let mut listing = Listing {
                masks: &masks,
                distinct,
                chosen: [0; LISTED_CELLS],
                sums: 0,
                support: Some(&mut listed),
            };
            listing.walk(0, 0, 0);
            assert_eq!(sums, listing.sums, "distinct {distinct}");
            assert_eq!(shifted, listed, "distinct {distinct}");
        }
        let mut support = vec![[0u128; 32]; 1];
        assert_eq!(
            cell_sums(mask(&[2, 7]), Some(&mut support)),
            1 << 2 | 1 << 7
        );
        assert_eq!((support[0][1], support[0][6]), (1 << 2, 1 << 7));
    }

    /// A group of one or two cells keeps straight from its masks what the
    /// sums by value (the support) keep, for every kind of totals.
    #[test]
    fn small_groups_keep_what_their_support_keeps() {
        use rand::Rng;
        let mut rng = crate::seed::rng_for("small groups");
        for _ in 0..5_000 {
            let len = rng.gen_range(1..=2);
            let masks: Vec<u32> = (0..len).map(|_| rng.gen_range(1..0x200u32)).collect();
            let totals: u128 = rng.gen::<u128>() & rng.gen::<u128>();
            let distinct = rng.gen_bool(0.5);
            let mut support = vec![[0u128; 32]; len];
            group_sums(&masks, distinct, Some(&mut support));
            let expected: Vec<u32> = masks
                .iter()
                .zip(&support)
                .map(|(&m, sums)| {
                    values_of(m)
                        .filter(|&v| sums[usize::from(v) - 1] & totals != 0)
                        .fold(0u32, |k, v| k | 1 << (v - 1))
                })
                .collect();
            let kept = small_group_kept(&masks, distinct, totals).expect("small");
            assert_eq!(
                kept[..len],
                expected[..],
                "{masks:?} {distinct} {totals:#x}"
            );
        }
        assert_eq!(small_group_kept(&[1, 1, 1], false, u128::MAX), None);
    }

    #[test]
    fn groups_too_large_for_the_bits_are_refused() {
        assert!(EqualSums::new(vec![(vec![0; 8], true), (vec![1], false)], 16).is_none());
        assert!(EqualSums::new(vec![(vec![0, 1], true)], 9).is_none());
    }
}
