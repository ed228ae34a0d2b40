//! The ladder: every rung in the order Sudoku Explainer tries its rules
//! (roughly by rating), each with the finder the solver climbs, the plain
//! reference finder it is checked against where the family has one
//! (`reference.rs`), its tier, and whether Sudoku Explainer rates it and it
//! relies on uniqueness. When a rung runs is the schedule's (`schedule.rs`).

use crate::difficulty::Difficulty;
use crate::logic::grid::{Grid, Layout};
use crate::logic::reference::{self, Reference};
use crate::logic::schedule::{Climb, When};
use crate::logic::step::Step;
use crate::logic::{
    aligned, als, chains, colouring, constraint_rule, fish, intersections, killer, links, memo,
    singles, static_chains, subsets, uniqueness, wings, Ctx,
};
use std::cell::RefCell;

/// A technique finder.
pub(crate) type Finder = fn(&Ctx) -> Option<Step>;

/// One rung of the ladder.
pub(crate) struct Rung {
    /// What the solver climbs.
    pub find: Finder,
    /// The plain finder of the same family it must agree with, if written.
    pub reference: Option<Reference>,
    /// Whether it relies on the puzzle having one solution.
    pub unique: bool,
    /// Whether Sudoku Explainer has it (ratings replay only those).
    pub rated: bool,
    /// The highest tier of the techniques it finds.
    pub tier: Difficulty,
    /// When it runs, beyond its tier.
    pub when: When,
}

/// A rung Sudoku Explainer has, with nothing special about it.
const fn rung(find: Finder, tier: Difficulty) -> Rung {
    Rung {
        find,
        reference: None,
        unique: false,
        rated: true,
        tier,
        when: When::ALWAYS,
    }
}

/// `r`, checked against the plain finder `reference`.
const fn checked(r: Rung, reference: Reference) -> Rung {
    Rung {
        reference: Some(reference),
        ..r
    }
}

/// A rung that relies on the puzzle having one solution.
const fn unique(find: Finder, tier: Difficulty) -> Rung {
    Rung {
        unique: true,
        ..rung(find, tier)
    }
}

/// A technique Sudoku Explainer finds only as a chain (finned fish, W-Wing,
/// colouring): it counts for tiers and hints, where its own name teaches more,
/// but ratings follow Sudoku Explainer's steps.
const fn named(find: Finder, tier: Difficulty) -> Rung {
    Rung {
        rated: false,
        ..rung(find, tier)
    }
}

/// `r`, a forcing chain rung whose deductions the last rung (dynamic forcing
/// chains plus) also finds ([`When::subsumed`]).
const fn subsumed(r: Rung) -> Rung {
    Rung {
        when: When {
            subsumed: true,
            ..r.when
        },
        ..r
    }
}

/// `r`, tried first of its tier in tier checks ([`When::eager`]).
const fn eager(r: Rung) -> Rung {
    Rung {
        when: When {
            eager: true,
            ..r.when
        },
        ..r
    }
}

/// `r`, the direct form of a later rung ([`When::direct`]).
const fn direct(r: Rung) -> Rung {
    Rung {
        when: When {
            direct: true,
            ..r.when
        },
        ..r
    }
}

/// A dynamic forcing chain rung ([`When::dynamic`]).
const fn dynamic(find: Finder) -> Rung {
    Rung {
        when: When {
            dynamic: true,
            ..When::ALWAYS
        },
        ..rung(find, Extreme)
    }
}

/// A nested forcing chain: past the dynamic ones, for the hardest puzzles
/// known; climbed by full grades only, never by hints, tier checks (generation
/// offers no puzzle that needs one) nor by a grade a player's request asks for
/// (`grade_without_nested_chains`: seconds a puzzle).
const fn nested(find: Finder) -> Rung {
    Rung {
        when: When {
            dynamic: true,
            nested: true,
            ..When::ALWAYS
        },
        ..rung(find, Extreme)
    }
}

use Difficulty::{Easy, Extreme, Hard, Medium};

/// The ladder, in the order Sudoku Explainer tries its rules (roughly by
/// rating).
pub(crate) static LADDER: &[Rung] = &[
    checked(rung(singles::full_house, Easy), reference::full_house),
    checked(rung(singles::hidden_single, Easy), reference::hidden_single),
    checked(
        direct(rung(intersections::direct, Medium)),
        reference::direct_locked,
    ),
    checked(
        direct(rung(|cx| subsets::hidden(cx, 2, true), Medium)),
        |l, g, s| reference::direct_hidden(2, l, g, s),
    ),
    checked(rung(singles::naked_single, Easy), reference::naked_single),
    rung(constraint_rule::narrowing, Easy),
    checked(
        rung(killer::combinations, Medium),
        reference::cage_combinations,
    ),
    checked(
        direct(rung(|cx| subsets::hidden(cx, 3, true), Medium)),
        |l, g, s| reference::direct_hidden(3, l, g, s),
    ),
    checked(rung(intersections::locked, Medium), reference::locked),
    checked(
        rung(killer::required_values, Medium),
        reference::cage_pointing,
    ),
    rung(constraint_rule::line_pointing, Medium),
    checked(rung(killer::rule_45, Medium), |l, g, s| {
        reference::rule_45(false, l, g, s)
    }),
    checked(
        rung(intersections::generalized, Medium),
        reference::generalized,
    ),
    checked(rung(|cx| subsets::naked(cx, 2), Medium), |l, g, s| {
        reference::naked(2, l, g, s)
    }),
    checked(rung(|cx| fish::basic(cx, 2), Hard), |l, g, s| {
        reference::fish(2, l, g, s)
    }),
    checked(rung(killer::rule_45_lines, Hard), |l, g, s| {
        reference::rule_45(true, l, g, s)
    }),
    checked(
        rung(|cx| subsets::hidden(cx, 2, false), Medium),
        |l, g, s| reference::hidden(2, l, g, s),
    ),
    checked(rung(|cx| subsets::naked(cx, 3), Medium), |l, g, s| {
        reference::naked(3, l, g, s)
    }),
    checked(rung(|cx| fish::basic(cx, 3), Hard), |l, g, s| {
        reference::fish(3, l, g, s)
    }),
    checked(
        rung(|cx| subsets::hidden(cx, 3, false), Medium),
        |l, g, s| reference::hidden(3, l, g, s),
    ),
    checked(rung(|cx| links::chain(cx, 2), Hard), |l, g, s| {
        reference::strong_link_chain(2, l, g, s)
    }),
    checked(rung(|cx| wings::xy(cx, false), Hard), |l, g, s| {
        reference::wing(false, l, g, s)
    }),
    checked(rung(|cx| wings::xy(cx, true), Hard), |l, g, s| {
        reference::wing(true, l, g, s)
    }),
    checked(unique(uniqueness::rectangle, Hard), reference::unique_loops),
    checked(rung(|cx| subsets::naked(cx, 4), Hard), |l, g, s| {
        reference::naked(4, l, g, s)
    }),
    checked(rung(|cx| fish::basic(cx, 4), Hard), |l, g, s| {
        reference::fish(4, l, g, s)
    }),
    checked(rung(|cx| subsets::hidden(cx, 4, false), Hard), |l, g, s| {
        reference::hidden(4, l, g, s)
    }),
    checked(rung(|cx| links::chain(cx, 3), Extreme), |l, g, s| {
        reference::strong_link_chain(3, l, g, s)
    }),
    checked(rung(|cx| als::wing(cx, 3), Hard), |l, g, s| {
        reference::als(3, l, g, s)
    }),
    checked(unique(uniqueness::bug, Hard), reference::bug),
    // Named techniques, last of the hard tier: they matter only when the
    // rated hard rungs are stuck.
    checked(named(|cx| fish::finned(cx, 2), Hard), |l, g, s| {
        reference::finned_fish(2, l, g, s)
    }),
    checked(named(wings::w_wing, Hard), reference::w_wing),
    checked(named(|cx| fish::finned(cx, 3), Hard), |l, g, s| {
        reference::finned_fish(3, l, g, s)
    }),
    checked(named(colouring::simple, Hard), reference::simple_colours),
    checked(named(colouring::multi, Hard), reference::multi_colours),
    checked(named(|cx| fish::finned(cx, 4), Hard), |l, g, s| {
        reference::finned_fish(4, l, g, s)
    }),
    checked(rung(|cx| links::chain(cx, 4), Extreme), |l, g, s| {
        reference::strong_link_chain(4, l, g, s)
    }),
    checked(rung(|cx| als::wing(cx, 4), Extreme), |l, g, s| {
        reference::als(4, l, g, s)
    }),
    checked(rung(|cx| aligned::exclusion(cx, 2), Extreme), |l, g, s| {
        reference::aligned_exclusion(2, l, g, s)
    }),
    checked(rung(|cx| als::wing(cx, 5), Extreme), |l, g, s| {
        reference::als(5, l, g, s)
    }),
    checked(
        rung(static_chains::cycles_and_forcing, Extreme),
        reference::static_forcing,
    ),
    checked(rung(|cx| als::wing(cx, 6), Extreme), |l, g, s| {
        reference::als(6, l, g, s)
    }),
    checked(rung(|cx| aligned::exclusion(cx, 3), Extreme), |l, g, s| {
        reference::aligned_exclusion(3, l, g, s)
    }),
    eager(subsumed(rung(
        |cx| chains::multiple(cx, chains::Mode::Nishio),
        Extreme,
    ))),
    checked(
        subsumed(rung(
            |cx| chains::multiple(cx, chains::Mode::Multiple),
            Extreme,
        )),
        reference::multiple_forcing,
    ),
    subsumed(dynamic(|cx| chains::multiple(cx, chains::Mode::Dynamic))),
    dynamic(|cx| chains::multiple(cx, chains::Mode::DynamicPlus)),
    nested(|cx| chains::multiple(cx, chains::Mode::Nested)),
    nested(|cx| chains::multiple(cx, chains::Mode::NestedMultiple)),
    nested(|cx| chains::multiple(cx, chains::Mode::NestedDynamic)),
];

/// What a solve sees each rung it runs give: the rung, the finder's view and
/// its step (`None`: it found nothing).
pub(crate) type Watch<'w> = &'w mut dyn FnMut(&Rung, &Ctx, Option<&Step>);

/// The easiest step from `grid` among the rungs `climb` allows, in its
/// schedule's order, each rung's outcome shown to `watch`.
pub(crate) fn easiest(
    layout: &Layout,
    grid: &Grid,
    climb: Climb,
    memo: &RefCell<memo::Memo>,
    watch: Watch,
) -> Option<Step> {
    let cx = Ctx {
        memo: Some(memo),
        first: climb.first,
        until: climb.until,
        ..Ctx::ladder(layout, grid)
    };
    let allowed = || {
        LADDER
            .iter()
            .filter(|r| climb.allows(r.tier, r.unique, r.rated, r.when))
    };
    let passes = if climb.first { 3 } else { 1 };
    for pass in 0..passes {
        for r in allowed().filter(|r| climb.pass(r.tier, r.when) == pass) {
            if climb.expired() {
                return None;
            }
            let found = (r.find)(&cx);
            watch(r, &cx, found.as_ref());
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
