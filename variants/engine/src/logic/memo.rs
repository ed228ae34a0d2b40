//! What one solve learns between its steps. A search over the places of one
//! value (a finned fish, say) depends on nothing but those places: if it found
//! nothing for a value, it finds nothing again while that value's places in
//! every row and column stay as they were. Each step removes candidates of one
//! or two values, so most values' searches are skipped at the next step.

use std::collections::HashMap;

/// Memo ids of the searches: finned fish (plus the size), chains of strong
/// links (plus the length), simple colours, multi-colours.
pub(crate) const FINNED: u8 = 10;
/// See [`FINNED`].
pub(crate) const STRONG_LINKS: u8 = 20;
/// See [`FINNED`].
pub(crate) const COLOURS: u8 = 30;
/// See [`FINNED`].
pub(crate) const MULTI_COLOURS: u8 = 31;

/// Searches that found nothing, by (search, value), with the places they saw.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    fruitless: HashMap<(u8, u8), Vec<u32>>,
}

impl Memo {
    /// Whether search `search` found nothing for `value` when its places were
    /// `places`.
    pub fn is_fruitless(&self, search: u8, value: u8, places: &[u32]) -> bool {
        self.fruitless
            .get(&(search, value))
            .is_some_and(|seen| seen.as_slice() == places)
    }

    /// Records that search `search` found nothing for `value` at `places`.
    pub fn note_fruitless(&mut self, search: u8, value: u8, places: Vec<u32>) {
        self.fruitless.insert((search, value), places);
    }
}
