//! Marks over a range of keys (cells, candidates) that a search sets one by
//! one and clears all at once.

/// Marks over a range of keys, cleared all at once by moving to a new stamp.
pub(crate) struct Stamps {
    /// By key: the stamp it was last marked with.
    pub marks: Vec<u32>,
    stamp: u32,
}

impl Stamps {
    /// Marks for `keys` keys, none set.
    pub fn new(keys: usize) -> Stamps {
        Stamps {
            marks: vec![0; keys],
            stamp: 0,
        }
    }

    /// Clears every mark.
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
    }

    /// Marks `k`; whether it was unmarked.
    pub fn mark(&mut self, k: usize) -> bool {
        let fresh = self.marks[k] != self.stamp;
        self.marks[k] = self.stamp;
        fresh
    }

    /// Whether `k` is marked.
    pub fn is_marked(&self, k: usize) -> bool {
        self.marks[k] == self.stamp
    }
}
