//! HoDoKu's technique regression library (`techniques/hodoku-reglib-1.3.txt`):
//! each case a candidate grid and what one technique does there, for the
//! techniques this solver has under HoDoKu's definition.

use crate::read_dataset;
use engine::logic::{Candidate, Technique};
use std::collections::BTreeSet;

/// HoDoKu's codes for the techniques this solver has under the same definition.
pub fn technique(code: &str) -> Option<Technique> {
    Some(match code {
        "0000" => Technique::FullHouse,
        "0002" => Technique::HiddenSingle,
        "0003" => Technique::NakedSingle,
        "0100" => Technique::Pointing,
        "0101" => Technique::Claiming,
        "0110" | "0200" => Technique::NakedPair,
        "0111" | "0201" => Technique::NakedTriple,
        "0202" => Technique::NakedQuad,
        "0210" => Technique::HiddenPair,
        "0211" => Technique::HiddenTriple,
        "0212" => Technique::HiddenQuad,
        "0300" => Technique::XWing,
        "0301" => Technique::Swordfish,
        "0302" => Technique::Jellyfish,
        "0310" => Technique::FinnedXWing,
        "0311" => Technique::FinnedSwordfish,
        "0312" => Technique::FinnedJellyfish,
        "0320" => Technique::SashimiXWing,
        "0321" => Technique::SashimiSwordfish,
        "0322" => Technique::SashimiJellyfish,
        "0400" => Technique::Skyscraper,
        "0401" => Technique::TwoStringKite,
        "0402" => Technique::EmptyRectangle,
        "0403" => Technique::TurbotFish,
        "0500" => Technique::ColourTrap,
        "0501" => Technique::ColourWrap,
        "0502" => Technique::MultiColours1,
        "0503" => Technique::MultiColours2,
        "0600" | "0601" | "0602" | "0603" => Technique::UniqueRectangle,
        "0610" => Technique::BugPlusOne,
        "0800" => Technique::XyWing,
        "0801" => Technique::XyzWing,
        "0701" => Technique::XChain,
        "0803" => Technique::WWing,
        _ => return None,
    })
}

/// "193 198" → r9c3 and r9c8 for value 1.
pub fn candidates(field: &str) -> BTreeSet<Candidate> {
    field
        .split_whitespace()
        .filter_map(|t| {
            let b = t.as_bytes();
            (b.len() == 3).then(|| {
                let (v, r, c) = (b[0] - b'0', u32::from(b[1] - b'1'), u32::from(b[2] - b'1'));
                Candidate::new(r * 9 + c, v)
            })
        })
        .collect()
}

/// One library case: the position and what the technique must do.
pub struct Case {
    /// The library's line.
    pub line: String,
    /// The technique it shows.
    pub technique: Technique,
    /// The placed values (row-major, 0 = empty).
    pub values: Vec<u8>,
    /// Each cell's candidates (bit `v - 1`).
    pub cand: Vec<u32>,
    /// What the technique removes.
    pub eliminations: BTreeSet<Candidate>,
    /// What it places.
    pub placements: BTreeSet<Candidate>,
    /// A fail case ("-x"): the technique must not be found at all.
    pub absent: bool,
}

/// Every case of the library whose technique the solver has.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for line in read_dataset("techniques/hodoku-reglib-1.3.txt").lines() {
        let f: Vec<&str> = line.split(':').collect();
        if !line.starts_with(':') || f.len() < 7 {
            continue;
        }
        // "0610-x" marks a case where the technique must not be found; other
        // variants ("0402-1") keep the base technique.
        let (code, variant) = f[1].split_once('-').unwrap_or((f[1], ""));
        let Some(technique) = technique(code) else {
            continue;
        };
        let mut values = Vec::with_capacity(81);
        for ch in f[3].chars().filter(|&c| c != '+') {
            values.push(ch.to_digit(10).map_or(0, |d| d as u8));
        }
        assert_eq!(values.len(), 81, "{line}");
        let mut cand: Vec<u32> = (0..81)
            .map(|c| {
                if values[c] != 0 {
                    return 0;
                }
                let (r, col) = (c / 9, c % 9);
                let mut m = 0x1FF;
                for (o, &v) in values.iter().enumerate() {
                    let (or, oc) = (o / 9, o % 9);
                    let peer =
                        o != c && (or == r || oc == col || (or / 3 == r / 3 && oc / 3 == col / 3));
                    if peer && v != 0 {
                        m &= !(1 << (v - 1));
                    }
                }
                m
            })
            .collect();
        for d in candidates(f[4]) {
            cand[d.cell as usize] &= !(1 << (d.value - 1));
        }
        out.push(Case {
            line: line.to_string(),
            technique,
            values,
            cand,
            eliminations: candidates(f[5]),
            placements: candidates(f[6]),
            absent: variant == "x",
        });
    }
    out
}
