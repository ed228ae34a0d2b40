//! What one solve learns between its steps. A search over the places of one
//! value (a finned fish, say) depends on nothing but those places: if it found
//! nothing for a value, it finds nothing again while that value's places in
//! every row and column stay as they were. Each step removes candidates of one
//! or two values, so most values' searches are skipped at the next step.
//! Likewise what a cage (real or virtual) gives depends on nothing but its
//! cells' candidates and values — or, for cage pointing, on those and on
//! candidates outside it, which a solve only ever removes: a cage that pointed
//! at nothing points at nothing while its cells stay as they were.

use std::any::Any;
use std::collections::HashMap;
use std::rc::Rc;

/// Memo ids of the searches: finned fish (plus the size), chains of strong
/// links (plus the length), simple colours, multi-colours, basic fish (plus
/// the size).
pub(crate) const FINNED: u8 = 10;
/// See [`FINNED`].
pub(crate) const STRONG_LINKS: u8 = 20;
/// See [`FINNED`].
pub(crate) const COLOURS: u8 = 30;
/// See [`FINNED`].
pub(crate) const MULTI_COLOURS: u8 = 31;
/// See [`FINNED`]: basic fish (plus the size).
pub(crate) const BASIC_FISH: u8 = 60;
/// Memo ids of searches over the whole grid whose every instance reads only
/// a few cells' candidates ([`Memo::fruitless_grid`]): aligned exclusion
/// (plus the number of cells).
pub(crate) const ALIGNED: u8 = 40;
/// See [`ALIGNED`]: ALS-wings (plus the ALS size).
pub(crate) const ALS_WING: u8 = 50;
/// What is built once per position ([`Memo::built`] for the whole grid):
/// the real grid's links and reachability (`static_chains::GridLinks`).
pub(crate) const GRID_LINKS: u8 = 80;

/// Searches over one group's cells with a memo of them: the cage
/// combinations and cage pointing of each group, the 45 rule of each virtual
/// cage, naked and hidden subsets in each group.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GroupSearch {
    /// Cage combinations (`killer::combinations`), by group.
    Combinations = 0,
    /// The 45 rule (`killer::rule_45` and over lines), by virtual cage.
    Rule45 = 1,
    /// Cage pointing (`killer::required_values`), by group.
    Pointing = 2,
    /// Naked pairs (`subsets::naked`), by group; triples and quads below.
    NakedPair = 3,
    NakedTriple = 4,
    NakedQuad = 5,
    /// Hidden pairs (`subsets::hidden`), by full group; triples and quads
    /// below.
    HiddenPair = 6,
    HiddenTriple = 7,
    HiddenQuad = 8,
    /// Direct hidden pairs, by full group; triples below.
    DirectHiddenPair = 9,
    DirectHiddenTriple = 10,
}

/// How many kinds of [`GroupSearch`] there are.
const GROUP_SEARCHES: usize = 11;

/// Searches that found nothing, by (search, value), with the places they saw.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    fruitless: HashMap<(u8, u8), Vec<u32>>,
    /// By group search, then group index: its cells' states (candidates and
    /// value, [`cell_state`]) when it last found nothing there (empty: never).
    groups: [Vec<Vec<u32>>; GROUP_SEARCHES],
    /// By whole-grid search: every cell's candidates when it last found
    /// nothing.
    grids: HashMap<u8, Vec<u32>>,
    /// By (search, value): what the search built from the value's places
    /// (its strong links, say), with those places; value 0: from every
    /// cell's candidates.
    built: HashMap<(u8, u8), Built>,
}

/// What a search built from a value's places, with those places.
#[derive(Debug)]
struct Built {
    places: Vec<u32>,
    it: Rc<dyn Any>,
}

/// What a group search reads of a cell: its candidates and its value.
pub(crate) fn cell_state(cand: u32, value: u8) -> u32 {
    cand | u32::from(value) << 27
}

impl Memo {
    /// Every cell's candidates when whole-grid search `search` last found
    /// nothing, if it ever did.
    pub fn fruitless_grid(&self, search: u8) -> Option<&[u32]> {
        self.grids.get(&search).map(Vec::as_slice)
    }

    /// Records that whole-grid search `search` found nothing with these
    /// candidates.
    pub fn note_fruitless_grid(&mut self, search: u8, cand: &[u32]) {
        let seen = self.grids.entry(search).or_default();
        seen.clear();
        seen.extend_from_slice(cand);
    }

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

    /// What `search` built for `value` when its places were `places`, if it
    /// was built from these places and is a `T`.
    pub fn built<T: 'static>(&self, search: u8, value: u8, places: &[u32]) -> Option<Rc<T>> {
        let built = self.built.get(&(search, value))?;
        (built.places == places)
            .then(|| built.it.clone().downcast().ok())
            .flatten()
    }

    /// Keeps what `search` built for `value` from its places `places`.
    pub fn keep_built(&mut self, search: u8, value: u8, places: Vec<u32>, built: Rc<dyn Any>) {
        self.built
            .insert((search, value), Built { places, it: built });
    }

    /// Whether `search` found nothing at group `index` when its cells were in
    /// the states `now` gives, in order.
    pub fn is_group_fruitless(
        &self,
        search: GroupSearch,
        index: usize,
        now: impl ExactSizeIterator<Item = u32>,
    ) -> bool {
        self.groups[search as usize]
            .get(index)
            .is_some_and(|seen| seen.len() == now.len() && seen.iter().copied().eq(now))
    }

    /// Records that `search` found nothing at group `index` in the states `now`.
    pub fn note_group_fruitless(
        &mut self,
        search: GroupSearch,
        index: usize,
        now: impl Iterator<Item = u32>,
    ) {
        let seen = &mut self.groups[search as usize];
        if seen.len() <= index {
            seen.resize(index + 1, Vec::new());
        }
        seen[index].clear();
        seen[index].extend(now);
    }
}
