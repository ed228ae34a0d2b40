//! The four difficulties. A difficulty is a technique tier (see
//! [`crate::logic`] and docs/techniques.md); generation also keeps each
//! difficulty's clue-count band: the daily archive's 9x9 bands, scaled to the
//! number of active cells.
//!
//! Larger grids need proportionally more clues to be unique at all: a random
//! minimal puzzle holds about 30% of the cells on 9x9, 37% on 16x16 and 43% on
//! 25x25 (measured with this generator). For N > 9 the bands are stretched by that
//! ratio, so "hard" sits as far from minimal on 25x25 as it does on 9x9.

use std::fmt;
use std::str::FromStr;

/// A difficulty level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// 40-45 clues on 9x9.
    Easy,
    /// 32-39 clues on 9x9.
    Medium,
    /// 26-31 clues on 9x9.
    Hard,
    /// 17-25 clues on 9x9.
    Extreme,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Extreme,
    ];

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Extreme => "extreme",
        }
    }

    /// The tier just below, if any.
    pub fn easier(self) -> Option<Difficulty> {
        match self {
            Difficulty::Easy => None,
            Difficulty::Medium => Some(Difficulty::Easy),
            Difficulty::Hard => Some(Difficulty::Medium),
            Difficulty::Extreme => Some(Difficulty::Hard),
        }
    }

    /// The 9x9 band, inclusive.
    fn band9(self) -> (usize, usize) {
        match self {
            Difficulty::Easy => (40, 45),
            Difficulty::Medium => (32, 39),
            Difficulty::Hard => (26, 31),
            Difficulty::Extreme => (17, 25),
        }
    }

    /// The clue band (inclusive) for `cells` active cells holding values 1..=`size`.
    pub fn clue_band(self, cells: usize, size: u32) -> (usize, usize) {
        let (lo, hi) = self.band9();
        // Per-mille stretch: 1000 up to N = 9, then +27.5 per extra value.
        let stretch = 1000 + 55 * (size.saturating_sub(9) as usize) / 2;
        let scale = |n: usize| ((n * cells * stretch + 40_500) / 81_000).min(cells);
        (scale(lo).max(1), scale(hi).max(1))
    }

    /// The clue count generation aims at: the middle of the band.
    pub fn target_clues(self, cells: usize, size: u32) -> usize {
        let (lo, hi) = self.clue_band(cells, size);
        (lo + hi) / 2
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown difficulty '{s}' (easy, medium, hard, extreme)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands() {
        assert_eq!(Difficulty::Hard.clue_band(81, 9), (26, 31));
        assert_eq!(Difficulty::Extreme.target_clues(81, 9), 21);
        assert_eq!(Difficulty::Easy.clue_band(16, 4), (8, 9));
        assert_eq!(Difficulty::Hard.clue_band(256, 16), (98, 117));
        assert_eq!(Difficulty::Hard.clue_band(625, 25), (289, 344));
        assert_eq!("Medium".parse(), Ok(Difficulty::Medium));
        assert!("impossible".parse::<Difficulty>().is_err());
    }
}
