//! One logical step: the technique, the pattern that proves it, and what it
//! places or eliminates.

use crate::difficulty::Difficulty;
use protocol::Constraint;

/// A value in a cell: a placement, an elimination or part of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// Active-cell index.
    pub cell: u32,
    /// The value, 1..=N.
    pub value: u8,
}

impl Candidate {
    /// `value` in `cell`.
    pub fn new(cell: u32, value: u8) -> Candidate {
        Candidate { cell, value }
    }
}

/// The solving techniques, easiest family first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a house.
    FullHouse,
    /// A value with one place left in a house.
    HiddenSingle,
    /// A locked candidate whose eliminations leave a hidden single (pointing).
    DirectPointing,
    /// A locked candidate whose eliminations leave a hidden single (claiming).
    DirectClaiming,
    /// A hidden pair whose eliminations leave a hidden single.
    DirectHiddenPair,
    /// A cell with one candidate left.
    NakedSingle,
    /// A hidden triple whose eliminations leave a hidden single.
    DirectHiddenTriple,
    /// A cage's candidates narrowed to the digit sets of its size and sum.
    CageCombination,
    /// A cell rule (even, odd, an allowed set, minimum, maximum) ruling out
    /// candidates of its cells.
    CellRule,
    /// A thermometer's order (strict or slow) ruling out candidates along it.
    Thermometer,
    /// An arrow's sum: the shaft adds up to the circle.
    ArrowSum,
    /// A mark between two cells, or the negative constraint of marks: Kropki
    /// dots, X and V, non-consecutive neighbours.
    DotPair,
    /// A line's rule: renban, whispers, palindrome, between, zipper,
    /// entropic and region-sum lines.
    LineRule,
    /// A clue outside the grid: little killer, sandwich, X-sum, skyscraper.
    OutsideClue,
    /// Any other local rule: quadruples, indexers, clones, a plugin's table.
    LocalRule,
    /// The 45 rule over two or three adjacent rows or columns.
    Rule45Lines,
    /// A value every digit set of a cage needs, confined to cells a house (or
    /// other cell) sees all of.
    CagePointing,
    /// A value a line must hold (every run of digits a renban can still
    /// take holds it), confined to cells another cell sees all of.
    LinePointing,
    /// The 45 rule on one house: the cells outside its inner cages form a
    /// virtual cage.
    Rule45,
    /// A value confined, in a box, to one line (or other house).
    Pointing,
    /// A value confined, in a line, to one box (or other house).
    Claiming,
    /// Two cells of a house holding the same two candidates only.
    NakedPair,
    /// Three cells of a house holding three candidates between them.
    NakedTriple,
    /// Four cells of a house holding four candidates between them.
    NakedQuad,
    /// Two values of a house with the same two places only.
    HiddenPair,
    /// Three values of a house confined to three cells.
    HiddenTriple,
    /// Four values of a house confined to four cells.
    HiddenQuad,
    /// A value confined to two columns in two rows (or the reverse).
    XWing,
    /// The three-line fish.
    Swordfish,
    /// The four-line fish.
    Jellyfish,
    /// Two parallel strong links joined at one end.
    Skyscraper,
    /// A row and a column strong link joined in a box.
    TwoStringKite,
    /// Two strong links joined through a box link.
    TurbotFish,
    /// A box whose candidates for a value lie on one row and one column, with a
    /// strong link beyond it.
    EmptyRectangle,
    /// A value's places in a house all see a cell (through a variant's
    /// houses or different-pairs), which loses it.
    GeneralizedIntersection,
    /// A skyscraper whose strong links end in a group: a box segment of a
    /// line, or a box's candidates on two of its lines.
    GroupedSkyscraper,
    /// A 2-string kite with a grouped end.
    GroupedTwoStringKite,
    /// A turbot fish with a grouped end.
    GroupedTurbotFish,
    /// A bivalue pivot with two bivalue pincers.
    XyWing,
    /// A trivalue pivot with two bivalue pincers.
    XyzWing,
    /// An X-Wing with extra places (fins) in one box.
    FinnedXWing,
    /// A finned X-Wing missing one corner.
    SashimiXWing,
    /// A Swordfish with fins in one box.
    FinnedSwordfish,
    /// A finned Swordfish one of whose lines keeps one cell besides its fins.
    SashimiSwordfish,
    /// A Jellyfish with fins in one box.
    FinnedJellyfish,
    /// A finned Jellyfish one of whose lines keeps one cell besides its fins.
    SashimiJellyfish,
    /// Two cells with the same two values, joined by a strong link on one.
    WWing,
    /// A cell seeing both colours of one value's strong-link cluster.
    ColourTrap,
    /// Two cells of one colour see each other: that colour is false.
    ColourWrap,
    /// Two clusters touching: a cell seeing both opposite colours loses the value.
    MultiColours1,
    /// A colour seeing both colours of another cluster is false.
    MultiColours2,
    /// A chain of three or more strong links on one value (X-chain).
    XChain,
    /// Two strong links whose ends share a house: a loop, each weak link a
    /// strong one too (Sudoku Explainer's X-Loop).
    XLoop,
    /// Three or more strong links closing a loop.
    LongXLoop,
    /// Four cells, two values, two houses of each kind: one extra candidate must
    /// be true, or the puzzle would have two solutions.
    UniqueRectangle,
    /// A unique rectangle's longer cousin: a loop of six or more cells.
    UniqueLoop,
    /// Every cell but one would be bivalue: the extra candidate is true.
    BugPlusOne,
    /// A BUG whose extra candidates are one value in several cells.
    BugType2,
    /// A BUG whose extra candidates form a naked set with other cells.
    BugType3,
    /// A three-cell almost locked set and a bivalue cell (ALS-XZ).
    WxyzWing,
    /// A larger almost locked set and a bivalue cell (ALS-XZ).
    AlsWing,
    /// Two cells whose candidate combinations other cells rule out.
    AlignedPairExclusion,
    /// Three cells whose candidate combinations other cells rule out.
    AlignedTripleExclusion,
    /// A loop of strong and weak links on one value (X-cycle).
    XCycle,
    /// A loop through bivalue cells (XY-cycle).
    XyCycle,
    /// A loop mixing house and cell links (AIC loop).
    AicLoop,
    /// An assumption on one value that implies its own negation (forcing X-chain).
    ForcingXChain,
    /// An assumption that implies its own negation through house and cell links
    /// (forcing chain, AIC).
    ForcingChain,
    /// An assumption that leads to a contradiction on house links alone, each
    /// elimination feeding the next (Nishio).
    NishioForcingChain,
    /// Every value of a cell, or every place of a value in a house, implies the
    /// same (cell and house forcing chains).
    MultipleForcingChain,
    /// Forcing chains in which each elimination feeds the next.
    DynamicForcingChain,
    /// Dynamic forcing chains helped by intersections, pairs and X-Wings.
    DynamicForcingChainPlus,
    /// Dynamic forcing chains helped, inside, by forcing chains too (Sudoku
    /// Explainer's nested forcing chains, levels 2 to 4).
    NestedForcingChain,
}

impl Technique {
    /// The technique a constraint's own narrowing is named for.
    pub(crate) fn of_constraint(c: &Constraint) -> Technique {
        match c {
            Constraint::Even { .. }
            | Constraint::Odd { .. }
            | Constraint::Values { .. }
            | Constraint::Minimum { .. }
            | Constraint::Maximum { .. } => Technique::CellRule,
            Constraint::Thermometer { .. } => Technique::Thermometer,
            Constraint::Arrow { .. } => Technique::ArrowSum,
            Constraint::Difference { .. }
            | Constraint::Ratio { .. }
            | Constraint::Xv { .. }
            | Constraint::NonConsecutive
            | Constraint::Negative { .. }
            | Constraint::AntiKing
            | Constraint::AntiKnight => Technique::DotPair,
            Constraint::Renban { .. }
            | Constraint::Whispers { .. }
            | Constraint::Palindrome { .. }
            | Constraint::Between { .. }
            | Constraint::Zipper { .. }
            | Constraint::Entropic { .. }
            | Constraint::RegionSum { .. } => Technique::LineRule,
            Constraint::LittleKiller { .. }
            | Constraint::Sandwich { .. }
            | Constraint::XSum { .. }
            | Constraint::Skyscraper { .. } => Technique::OutsideClue,
            Constraint::Cage { .. }
            | Constraint::Quadruple { .. }
            | Constraint::Indexer { .. }
            | Constraint::Clone { .. }
            | Constraint::DisjointGroups
            | Constraint::Table { .. } => Technique::LocalRule,
        }
    }

    /// Every technique, in the enum's order.
    pub const ALL: &'static [Technique] = &[
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::CageCombination,
        Technique::CellRule,
        Technique::Thermometer,
        Technique::ArrowSum,
        Technique::DotPair,
        Technique::LineRule,
        Technique::OutsideClue,
        Technique::LocalRule,
        Technique::Rule45Lines,
        Technique::CagePointing,
        Technique::LinePointing,
        Technique::Rule45,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::NakedTriple,
        Technique::NakedQuad,
        Technique::HiddenPair,
        Technique::HiddenTriple,
        Technique::HiddenQuad,
        Technique::XWing,
        Technique::Swordfish,
        Technique::Jellyfish,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::GeneralizedIntersection,
        Technique::GroupedSkyscraper,
        Technique::GroupedTwoStringKite,
        Technique::GroupedTurbotFish,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::FinnedXWing,
        Technique::SashimiXWing,
        Technique::FinnedSwordfish,
        Technique::SashimiSwordfish,
        Technique::FinnedJellyfish,
        Technique::SashimiJellyfish,
        Technique::WWing,
        Technique::ColourTrap,
        Technique::ColourWrap,
        Technique::MultiColours1,
        Technique::MultiColours2,
        Technique::XChain,
        Technique::XLoop,
        Technique::LongXLoop,
        Technique::UniqueRectangle,
        Technique::UniqueLoop,
        Technique::BugPlusOne,
        Technique::BugType2,
        Technique::BugType3,
        Technique::WxyzWing,
        Technique::AlsWing,
        Technique::AlignedPairExclusion,
        Technique::AlignedTripleExclusion,
        Technique::XCycle,
        Technique::XyCycle,
        Technique::AicLoop,
        Technique::ForcingXChain,
        Technique::ForcingChain,
        Technique::NishioForcingChain,
        Technique::MultipleForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
    ];

    /// The technique's name as players know it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "Full House",
            Technique::HiddenSingle => "Hidden Single",
            Technique::DirectPointing => "Direct Pointing",
            Technique::DirectClaiming => "Direct Claiming",
            Technique::DirectHiddenPair => "Direct Hidden Pair",
            Technique::NakedSingle => "Naked Single",
            Technique::DirectHiddenTriple => "Direct Hidden Triple",
            Technique::CageCombination => "Cage Combination",
            Technique::CellRule => "Cell Rule",
            Technique::Thermometer => "Thermometer",
            Technique::ArrowSum => "Arrow Sum",
            Technique::DotPair => "Dot Pair",
            Technique::LineRule => "Line Rule",
            Technique::OutsideClue => "Outside Clue",
            Technique::LocalRule => "Local Rule",
            Technique::Rule45 => "45 Rule",
            Technique::Rule45Lines => "45 Rule over Several Lines",
            Technique::CagePointing => "Cage Pointing",
            Technique::LinePointing => "Line Pointing",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::NakedPair => "Naked Pair",
            Technique::NakedTriple => "Naked Triple",
            Technique::NakedQuad => "Naked Quad",
            Technique::HiddenPair => "Hidden Pair",
            Technique::HiddenTriple => "Hidden Triple",
            Technique::HiddenQuad => "Hidden Quad",
            Technique::XWing => "X-Wing",
            Technique::Swordfish => "Swordfish",
            Technique::Jellyfish => "Jellyfish",
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::TurbotFish => "Turbot Fish",
            Technique::EmptyRectangle => "Empty Rectangle",
            Technique::GeneralizedIntersection => "Generalized Intersection",
            Technique::GroupedSkyscraper => "Grouped Skyscraper",
            Technique::GroupedTwoStringKite => "Grouped 2-String Kite",
            Technique::GroupedTurbotFish => "Grouped Turbot Fish",
            Technique::XyWing => "XY-Wing",
            Technique::XyzWing => "XYZ-Wing",
            Technique::FinnedXWing => "Finned X-Wing",
            Technique::SashimiXWing => "Sashimi X-Wing",
            Technique::FinnedSwordfish => "Finned Swordfish",
            Technique::SashimiSwordfish => "Sashimi Swordfish",
            Technique::FinnedJellyfish => "Finned Jellyfish",
            Technique::SashimiJellyfish => "Sashimi Jellyfish",
            Technique::WWing => "W-Wing",
            Technique::ColourTrap => "Simple Colours (Trap)",
            Technique::ColourWrap => "Simple Colours (Wrap)",
            Technique::MultiColours1 => "Multi-Colours",
            Technique::MultiColours2 => "Multi-Colours (Type 2)",
            Technique::XChain => "X-Chain",
            Technique::XLoop => "X-Loop",
            Technique::LongXLoop => "Long X-Loop",
            Technique::UniqueRectangle => "Unique Rectangle",
            Technique::UniqueLoop => "Unique Loop",
            Technique::BugPlusOne => "BUG+1",
            Technique::BugType2 => "BUG Type 2",
            Technique::BugType3 => "BUG Type 3",
            Technique::WxyzWing => "WXYZ-Wing",
            Technique::AlsWing => "ALS-XZ",
            Technique::AlignedPairExclusion => "Aligned Pair Exclusion",
            Technique::AlignedTripleExclusion => "Aligned Triple Exclusion",
            Technique::XCycle => "X-Cycle",
            Technique::XyCycle => "XY-Cycle",
            Technique::AicLoop => "AIC Loop",
            Technique::ForcingXChain => "Forcing X-Chain",
            Technique::ForcingChain => "Forcing Chain",
            Technique::NishioForcingChain => "Nishio Forcing Chain",
            Technique::MultipleForcingChain => "Cell/House Forcing Chain",
            Technique::DynamicForcingChain => "Dynamic Forcing Chain",
            Technique::DynamicForcingChainPlus => "Dynamic Forcing Chain (+)",
            Technique::NestedForcingChain => "Nested Forcing Chain",
        }
    }

    /// Whether the technique assumes the puzzle has one solution.
    pub fn needs_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::UniqueRectangle
                | Technique::UniqueLoop
                | Technique::BugPlusOne
                | Technique::BugType2
                | Technique::BugType3
        )
    }

    /// A direct technique (Direct Pointing and Claiming, Direct Hidden Pair
    /// and Triple): as in Sudoku Explainer, the step makes only its
    /// placement. Its eliminations are the reason for the placement, shown
    /// but not made, so later steps meet the candidates a player who took
    /// that shortcut still has.
    pub fn places_only(self) -> bool {
        use Technique::*;
        matches!(
            self,
            DirectPointing | DirectClaiming | DirectHiddenPair | DirectHiddenTriple
        )
    }

    /// Whether this is a constraint's own narrowing (a thermometer's order,
    /// an arrow's sum, …), one of the rungs of the modern vocabulary.
    pub fn is_constraint_rule(self) -> bool {
        use Technique::*;
        matches!(
            self,
            CellRule | Thermometer | ArrowSum | DotPair | LineRule | OutsideClue | LocalRule
        )
    }

    /// The tier a puzzle needing this technique belongs to: `easy` = singles;
    /// `medium` = intersections, pairs and triples; `hard` = quads, fish,
    /// single-digit patterns, wings, colouring and uniqueness; `extreme` = chains.
    pub fn tier(self) -> Difficulty {
        use Technique::*;
        match self {
            FullHouse | HiddenSingle | NakedSingle | CellRule | Thermometer | ArrowSum
            | DotPair | LineRule | OutsideClue | LocalRule => Difficulty::Easy,
            DirectPointing
            | DirectClaiming
            | DirectHiddenPair
            | DirectHiddenTriple
            | CageCombination
            | CagePointing
            | LinePointing
            | Rule45
            | Pointing
            | Claiming
            | GeneralizedIntersection
            | NakedPair
            | NakedTriple
            | HiddenPair
            | HiddenTriple => Difficulty::Medium,
            NakedQuad | HiddenQuad | Rule45Lines | XWing | Swordfish | Jellyfish | Skyscraper
            | TwoStringKite | TurbotFish | EmptyRectangle | GroupedSkyscraper
            | GroupedTwoStringKite | GroupedTurbotFish | XyWing | XyzWing | WxyzWing
            | UniqueRectangle | UniqueLoop | BugPlusOne | BugType2 | BugType3 | FinnedXWing
            | SashimiXWing | FinnedSwordfish | SashimiSwordfish | FinnedJellyfish
            | SashimiJellyfish | WWing | ColourTrap | ColourWrap | MultiColours1
            | MultiColours2 | XLoop => Difficulty::Hard,
            XChain
            | LongXLoop
            | AlsWing
            | AlignedPairExclusion
            | AlignedTripleExclusion
            | XCycle
            | XyCycle
            | AicLoop
            | ForcingXChain
            | ForcingChain
            | NishioForcingChain
            | MultipleForcingChain
            | DynamicForcingChain
            | DynamicForcingChainPlus
            | NestedForcingChain => Difficulty::Extreme,
        }
    }
}

/// A rating on Sudoku Explainer's scale, in tenths (`23` is 2.3).
pub type Rating = u16;

/// Formats a rating as Sudoku Explainer prints it (`2.3`).
pub fn format_rating(rating: Rating) -> String {
    format!("{}.{}", rating / 10, rating % 10)
}

/// One logical step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// Its rating for this instance, in tenths on Sudoku Explainer's scale.
    pub rating: Rating,
    /// The candidates that make the pattern (for a single: the placed value).
    pub pattern: Vec<Candidate>,
    /// Values the step places.
    pub placements: Vec<Candidate>,
    /// Candidates the step removes.
    pub eliminations: Vec<Candidate>,
    /// Indices into the model's houses the pattern lives in.
    pub houses: Vec<usize>,
    /// For a killer step: the cage (or the 45 rule's derived cage) it reads.
    pub cage: Option<CageFacts>,
    /// For a constraint step: the index of the model's constraint it reads.
    pub constraint: Option<usize>,
}

/// The cage a killer step reads, for its explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageFacts {
    /// Every cell of the cage (or of the derived cage), placed ones included.
    pub cells: Vec<u32>,
    /// What they add up to.
    pub sum: u32,
    /// The digit sets (value bitmasks) that can still fill it; empty where two
    /// cells of a derived cage may repeat a value.
    pub sets: Vec<u32>,
}

impl Step {
    /// A step with no placements or eliminations yet.
    pub(crate) fn new(technique: Technique, rating: Rating) -> Step {
        Step {
            technique,
            rating,
            pattern: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            houses: Vec::new(),
            cage: None,
            constraint: None,
        }
    }
}
