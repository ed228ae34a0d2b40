//! k-combinations of indices, visited in lexicographic order.

/// Calls `f` with each k-combination of `0..n` (ascending indices) until it
/// returns `Some`, and returns that.
pub(crate) fn first_combination<T>(
    n: usize,
    k: usize,
    mut f: impl FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    if k == 0 || k > n {
        return None;
    }
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        if let Some(found) = f(&pick) {
            return Some(found);
        }
        // Advance the rightmost index that can still move.
        let mut i = k;
        while i > 0 && pick[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return None;
        }
        pick[i - 1] += 1;
        for j in i..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_every_combination_once_in_order() {
        let mut seen = Vec::new();
        let none: Option<()> = first_combination(5, 3, |p| {
            seen.push(p.to_vec());
            None
        });
        assert!(none.is_none());
        assert_eq!(seen.len(), 10);
        assert_eq!(seen[0], vec![0, 1, 2]);
        assert_eq!(seen[9], vec![2, 3, 4]);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            first_combination(4, 2, |p| (p == [1, 3]).then_some(7)),
            Some(7)
        );
        assert_eq!(first_combination::<()>(2, 3, |_| None), None);
    }
}
