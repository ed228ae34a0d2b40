//! Plain-language text for a step: a clue (the technique and where to look) and
//! the full explanation, with cells named `r1c1` as players write them.

use crate::logic::step::{Candidate, Step, Technique};
use crate::model::Model;
use protocol::HouseKind;
use std::collections::BTreeMap;

/// A cell's name, `r4c7` (1-based layout row and column).
pub fn cell_name(model: &Model, cell: u32) -> String {
    let [r, c] = model.coord(cell as usize);
    format!("r{}c{}", r + 1, c + 1)
}

/// A constraint in words, by its kind and where it lies: "the thermometer
/// r9c1-r7c1", "the white dot r1c1-r1c2", "the little killer 14 r1c4-r4c1".
pub fn constraint_name(c: &protocol::Constraint) -> String {
    use protocol::Constraint as C;
    let span = |cells: &[protocol::Coord]| match (cells.first(), cells.last()) {
        (Some(&[r1, c1]), Some(&[r2, c2])) if cells.len() > 1 => {
            format!("r{}c{}-r{}c{}", r1 + 1, c1 + 1, r2 + 1, c2 + 1)
        }
        (Some(&[r, c]), _) => format!("r{}c{}", r + 1, c + 1),
        _ => String::new(),
    };
    match c {
        C::Even { cells } => format!("the even cells {}", span(cells)),
        C::Odd { cells } => format!("the odd cells {}", span(cells)),
        C::Values { cells, .. } => format!("the digit set of {}", span(cells)),
        C::Thermometer { cells, slow } => {
            let kind = if *slow {
                "slow thermometer"
            } else {
                "thermometer"
            };
            format!("the {kind} {}", span(cells))
        }
        C::Arrow { circle, line } => {
            format!("the arrow from {} along {}", span(circle), span(line))
        }
        C::Difference { cells, value } if *value == 1 => format!("the white dot {}", span(cells)),
        C::Difference { cells, value } => format!("the difference {value} dot {}", span(cells)),
        C::Ratio { cells, value } if *value == 2 => format!("the black dot {}", span(cells)),
        C::Ratio { cells, value } => format!("the ratio {value} dot {}", span(cells)),
        C::Xv { cells, sum } => {
            let mark = match sum {
                10 => "X".to_string(),
                5 => "V".to_string(),
                s => format!("sum {s}"),
            };
            format!("the {mark} between {}", span(cells))
        }
        C::LittleKiller { cells, sum, .. } => format!("the little killer {sum} {}", span(cells)),
        C::Sandwich { cells, sum, .. } => format!("the sandwich {sum} {}", span(cells)),
        C::Cage { cells, .. } => format!("the cage {}", span(cells)),
        C::Renban { cells } => format!("the renban line {}", span(cells)),
        C::Whispers { cells, difference } => format!(
            "the whispers line {} (neighbours {difference} apart or more)",
            span(cells)
        ),
        C::Palindrome { cells } => format!("the palindrome {}", span(cells)),
        C::Between { cells } => format!("the between line {}", span(cells)),
        C::Zipper { cells } => format!("the zipper line {}", span(cells)),
        C::Entropic { cells } => format!("the entropic line {}", span(cells)),
        C::RegionSum { cells } => format!("the region-sum line {}", span(cells)),
        C::Minimum { cells } => format!("the minimum {}", span(cells)),
        C::Maximum { cells } => format!("the maximum {}", span(cells)),
        C::Quadruple { cells, .. } => format!("the quadruple {}", span(cells)),
        C::XSum { cells, sum, .. } => format!("the X-sum {sum} {}", span(cells)),
        C::Skyscraper { cells, count, .. } => format!("the skyscraper {count} {}", span(cells)),
        C::Indexer { cells, .. } => format!("the indexer {}", span(cells)),
        C::Clone { cells, clones } => format!("the clones {} and {}", span(cells), span(clones)),
        C::NonConsecutive => "the non-consecutive rule".into(),
        C::AntiKing => "the anti-king rule".into(),
        C::AntiKnight => "the anti-knight rule".into(),
        C::DisjointGroups => "the disjoint groups".into(),
        C::Negative { .. } => "the negative constraint".into(),
        C::Table {
            cells, description, ..
        } => format!("the rule \"{description}\" on {}", span(cells)),
    }
}

/// A value's symbol.
fn sym(model: &Model, value: u8) -> char {
    model.symbols()[usize::from(value) - 1]
}

/// The cells of a house a step names: one of the model's, or, numbered after
/// them, a house the rules imply (Windoku's hidden windows).
pub fn house_cells(model: &Model, house: usize) -> &[u32] {
    model.logic_layout().house_cells(model, house)
}

/// A house's name: "row 4", "column 7", "box 5", "the main diagonal", ...;
/// an implied house by its corners: "the hidden window r1c2-r9c4" (in a
/// model with windows) or "the implied house r1c2-r9c4".
pub fn house_name(model: &Model, house: usize) -> String {
    let Some(h) = model.houses().get(house) else {
        let cells = house_cells(model, house);
        let (first, last) = (cells.first().copied(), cells.last().copied());
        let what = if model.houses().iter().any(|h| h.kind == HouseKind::Window) {
            "the hidden window"
        } else {
            "the implied house"
        };
        return match (first, last) {
            (Some(a), Some(b)) => format!("{what} {}-{}", cell_name(model, a), cell_name(model, b)),
            _ => what.to_string(),
        };
    };
    let nth = |kind: HouseKind| {
        model.houses()[..house]
            .iter()
            .filter(|o| o.kind == kind)
            .count()
            + 1
    };
    let first = model.coord(h.cells[0] as usize);
    match h.kind {
        HouseKind::Row => format!("row {}", first[0] + 1),
        HouseKind::Column => format!("column {}", first[1] + 1),
        HouseKind::Box => format!("box {}", nth(HouseKind::Box)),
        HouseKind::Region => format!("region {}", nth(HouseKind::Region)),
        HouseKind::Diagonal => {
            let last = model.coord(h.cells[h.cells.len() - 1] as usize);
            if last[1] > first[1] {
                "the main diagonal".to_string()
            } else {
                "the anti-diagonal".to_string()
            }
        }
        HouseKind::Window => format!("window {}", nth(HouseKind::Window)),
        HouseKind::Extra | HouseKind::Unknown => format!("group {}", house + 1),
    }
}

/// Cells as a list: "r1c2, r1c3 and r1c9".
fn cells(model: &Model, list: impl IntoIterator<Item = u32>) -> String {
    let mut names: Vec<String> = Vec::new();
    for c in list {
        let name = cell_name(model, c);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    join(&names)
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Values as a list: "3 and 7".
fn values(model: &Model, list: impl IntoIterator<Item = u8>) -> String {
    let mut vs: Vec<u8> = list.into_iter().collect();
    vs.sort_unstable();
    vs.dedup();
    join(
        &vs.iter()
            .map(|&v| sym(model, v).to_string())
            .collect::<Vec<_>>(),
    )
}

/// Values in order, three or more in a row as a range: ["1-4", "6", "8"].
fn runs(model: &Model, values: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            out.push(format!(
                "{}-{}",
                sym(model, values[i]),
                sym(model, values[j])
            ));
        } else {
            out.extend(values[i..=j].iter().map(|&v| sym(model, v).to_string()));
        }
        i = j + 1;
    }
    out
}

/// What each cell a step narrows keeps: "r9c1 only 1-3 and r8c1 only 2-4"
/// (its pattern's candidates less its eliminations).
fn what_is_left(model: &Model, step: &Step) -> String {
    let mut narrowed: Vec<u32> = step.eliminations.iter().map(|e| e.cell).collect();
    narrowed.dedup();
    let parts: Vec<String> = narrowed
        .iter()
        .map(|&cell| {
            let kept: Vec<u8> = step
                .pattern
                .iter()
                .filter(|p| p.cell == cell && !step.eliminations.contains(p))
                .map(|p| p.value)
                .collect();
            let left = runs(model, &kept);
            let left = match left.as_slice() {
                [] => "nothing".to_string(),
                [rest @ .., last] if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => left.join(""),
            };
            format!("{} only {left}", cell_name(model, cell))
        })
        .collect();
    join(&parts)
}

/// "remove 7 from r5c3 and r6c3; remove 2 from r1c1"; values leaving the
/// same cells go together ("remove 4, 6 and 9 from r1c1 and r2c1").
fn removals(model: &Model, eliminations: &[Candidate]) -> String {
    let mut by_value: BTreeMap<u8, Vec<u32>> = BTreeMap::new();
    for e in eliminations {
        by_value.entry(e.value).or_default().push(e.cell);
    }
    let mut groups: Vec<(Vec<u32>, Vec<u8>)> = Vec::new();
    for (v, mut cs) in by_value {
        cs.sort_unstable();
        match groups.iter_mut().find(|(cells, _)| *cells == cs) {
            Some((_, vs)) => vs.push(v),
            None => groups.push((cs, vec![v])),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(cs, vs)| format!("remove {} from {}", values(model, vs), cells(model, cs)))
        .collect();
    parts.join("; ")
}

/// "only 1235 does it" / "only 1289 or 3479 do", digit sets as a player writes them.
fn sets_phrase(model: &Model, sets: &[u32]) -> String {
    let written: Vec<String> = sets
        .iter()
        .map(|&m| crate::mask::values_of(m).map(|v| sym(model, v)).collect())
        .collect();
    match written.as_slice() {
        [] => "no digit set can still do".to_string(),
        [one] => format!("only {one} does"),
        many if many.len() <= 6 => {
            let (last, rest) = many
                .split_last()
                .map_or((String::new(), &[][..]), |(l, r)| (l.clone(), r));
            format!("only {} or {last} do", rest.join(", "))
        }
        many => format!("{} digit sets still do", many.len()),
    }
}

/// What the step achieves: placements, then eliminations.
fn outcome(model: &Model, step: &Step) -> String {
    let mut parts = Vec::new();
    for p in &step.placements {
        parts.push(format!(
            "{} is {}",
            cell_name(model, p.cell),
            sym(model, p.value)
        ));
    }
    if !step.eliminations.is_empty() && !step.technique.places_only() {
        parts.push(removals(model, &step.eliminations));
    }
    parts.join("; ")
}

fn houses(model: &Model, step: &Step) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for &h in &step.houses {
        let name = house_name(model, h);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

fn pattern_values(step: &Step) -> Vec<u8> {
    step.pattern.iter().map(|c| c.value).collect()
}

fn pattern_cells(step: &Step) -> Vec<u32> {
    step.pattern.iter().map(|c| c.cell).collect()
}

/// The first stage of a hint: the technique and where to look, without the
/// answer.
pub fn clue(model: &Model, step: &Step) -> String {
    let name = step.technique.name();
    let article = if name.starts_with(['A', 'E', 'I', 'O', 'U', 'X']) {
        "an"
    } else {
        "a"
    };
    let where_ = match houses(model, step).as_slice() {
        [] => match step.pattern.first() {
            Some(c) => format!(" around {}", cell_name(model, c.cell)),
            None => String::new(),
        },
        [only] => format!(" in {only}"),
        many => format!(" in {}", join(many)),
    };
    match step.technique {
        Technique::NakedSingle => format!(
            "Look at {}: count what its houses already hold.",
            cells(model, pattern_cells(step))
        ),
        _ => format!("Look for {article} {name}{where_}."),
    }
}

/// The whole step in plain words, e.g. "Hidden single: in box 5, 7 fits only
/// in r4c6."
pub fn explain(model: &Model, step: &Step) -> String {
    use Technique::*;
    let name = step.technique.name();
    let hs = houses(model, step);
    let pc = cells(model, pattern_cells(step));
    let pv = values(model, pattern_values(step));
    let result = outcome(model, step);
    let body = match step.technique {
        FullHouse => format!("{pc} is the last empty cell of {}", join(&hs)),
        HiddenSingle => format!("in {}, {pv} fits only in {pc}", join(&hs)),
        NakedSingle => format!("every other value is already seen by {pc}"),
        DirectPointing | DirectClaiming | Pointing | Claiming => {
            let (a, b) = (hs.first().cloned(), hs.get(1).cloned());
            let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
            format!("in {a}, {pv} can only go in {pc}, all of them in {b}; so {b} has no other {pv}")
        }
        GeneralizedIntersection => format!(
            "in {}, {pv} can only go in {pc}, and every cell that sees all of them loses {pv}",
            join(&hs)
        ),
        NakedPair | NakedTriple | NakedQuad => format!(
            "{pc} hold only {pv} between them, so those values go nowhere else that sees all of them"
        ),
        HiddenPair | HiddenTriple | HiddenQuad | DirectHiddenPair | DirectHiddenTriple => format!(
            "in {}, {pv} fit only in {pc}, so those cells hold nothing else",
            join(&hs)
        ),
        XWing | Swordfish | Jellyfish => format!(
            "{pv} is confined to the same lines across {}: each of the crossing lines gets its {pv} here",
            join(&hs)
        ),
        FinnedXWing | SashimiXWing | FinnedSwordfish | SashimiSwordfish | FinnedJellyfish
        | SashimiJellyfish => format!(
            "{pv} is confined to the same lines across {} but for a fin: either the fish holds or a fin is {pv}, and each removed candidate sees every fin",
            join(&hs)
        ),
        WWing => format!(
            "{pc} hold the same two values, and a strong link joins them: one of the wing cells takes the other value, so a cell seeing both cannot"
        ),
        ColourTrap | ColourWrap | MultiColours1 | MultiColours2 => format!(
            "colour the cells joined by strong links on {pv} ({pc}) in two colours, one of which is all {pv}: a cell that sees both colours, or a colour that sees itself, is ruled out"
        ),
        Skyscraper | TwoStringKite | TurbotFish | EmptyRectangle | GroupedSkyscraper
        | GroupedTwoStringKite | GroupedTurbotFish | XChain => format!(
            "a chain of strong links on {pv} through {pc}: one end or the other is {pv}, so a cell seeing both ends is not"
        ),
        XLoop | LongXLoop => format!(
            "a loop of strong links on {pv} through {pc}: {pv} takes every other cell of it, so in each house joining two of its cells one of them is {pv}, and a cell seeing both is not"
        ),
        XyWing | XyzWing => format!(
            "the pivot and pincers {pc} (values {pv}): whichever value the pivot takes, a pincer holds the shared value, so a cell seeing them all cannot"
        ),
        WxyzWing | AlsWing => format!(
            "the cells {pc} hold one value more than cells (values {pv}) and a bivalue cell links to them: the shared value is in one of them"
        ),
        UniqueRectangle | UniqueLoop => format!(
            "the cells {pc} would let {pv} swap places and give a second solution, so the extra candidates must break the pattern"
        ),
        BugPlusOne | BugType2 | BugType3 => format!(
            "without the extra candidates in {pc}, every cell would be bivalue and the puzzle would have two solutions"
        ),
        CellRule | Thermometer | ArrowSum | DotPair | LineRule | OutsideClue | LocalRule => {
            let what = step
                .constraint
                .and_then(|i| model.constraints().get(i))
                .map_or_else(|| "a constraint".to_string(), constraint_name);
            format!("{what} leaves {}", what_is_left(model, step))
        }
        CageCombination => match &step.cage {
            Some(cage) => format!(
                "the cage {} adds up to {} in {} cells, which {}",
                cells(model, cage.cells.iter().copied()),
                cage.sum,
                cage.cells.len(),
                sets_phrase(model, &cage.sets)
            ),
            None => format!(
                "the digit sets that fill the cage {pc} with its sum leave only some of their candidates"
            ),
        },
        CagePointing => match &step.cage {
            Some(cage) => format!(
                "the cage {} adds up to {}, which {}: every one holds {pv}, and only {pc} may hold it there",
                cells(model, cage.cells.iter().copied()),
                cage.sum,
                sets_phrase(model, &cage.sets)
            ),
            None => format!(
                "every digit set that can fill its cage holds {pv}, and only {pc} may hold it there"
            ),
        },
        LinePointing => {
            let what = step
                .constraint
                .and_then(|i| model.constraints().get(i))
                .map_or_else(|| "a line".to_string(), constraint_name);
            format!(
                "every run of digits {what} can still hold has {pv} in it, and only {pc} may hold it there"
            )
        }
        Rule45 | Rule45Lines => {
            let houses = step.houses.len().max(1) as u32;
            let total = houses * model.size() * (model.size() + 1) / 2;
            let (verb, it) = if houses > 1 { ("add", "them") } else { ("adds", "it") };
            match &step.cage {
                Some(cage) => {
                    let inside = cage.cells.iter().all(|c| {
                        step.houses
                            .iter()
                            .any(|&h| house_cells(model, h).contains(c))
                    });
                    let named = cells(model, cage.cells.iter().copied());
                    let sets = if cage.sets.is_empty() {
                        String::new()
                    } else {
                        format!(", which {}", sets_phrase(model, &cage.sets))
                    };
                    if inside {
                        format!(
                            "{} {verb} up to {total} and the cages wholly inside to {}, so the rest, {named}, add up to {}{sets}",
                            join(&hs),
                            total - cage.sum,
                            cage.sum
                        )
                    } else {
                        format!(
                            "{} {verb} up to {total} and the cages in or reaching into {it} to {}, so their cells outside {it}, {named}, add up to {}{sets}",
                            join(&hs),
                            total + cage.sum,
                            cage.sum
                        )
                    }
                }
                None => format!(
                    "{} {verb} up to {total}; with the sums of the cages inside and across, {pc} have a known sum",
                    join(&hs)
                ),
            }
        }
        AlignedPairExclusion | AlignedTripleExclusion => format!(
            "every combination of values for these cells is ruled out by the cells that see them all ({pc}) except those kept"
        ),
        XCycle | XyCycle | AicLoop => format!(
            "a loop of alternating links through {pc}: in either direction it holds, so candidates seeing both kinds of link are false"
        ),
        ForcingXChain | ForcingChain => format!(
            "following the links from {pc} back to the start shows the assumption contradicts itself"
        ),
        NishioForcingChain | MultipleForcingChain | DynamicForcingChain
        | DynamicForcingChainPlus | NestedForcingChain => format!(
            "every possibility for the starting cell or house leads through {pc} to the same conclusion (or a contradiction)"
        ),
    };
    format!("{name}: {body}. So {result}.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::classic;

    #[test]
    fn names_cells_houses_and_steps() {
        let m = classic(3, 3).expect("9x9");
        assert_eq!(cell_name(&m, 0), "r1c1");
        assert_eq!(cell_name(&m, 80), "r9c9");
        assert_eq!(house_name(&m, 3), "row 4");
        assert_eq!(house_name(&m, 12), "column 4");
        assert_eq!(house_name(&m, 22), "box 5");
        let mut step = Step::new(Technique::HiddenSingle, 12);
        step.pattern.push(Candidate::new(40, 7));
        step.placements.push(Candidate::new(40, 7));
        step.houses.push(22);
        assert_eq!(
            explain(&m, &step),
            "Hidden Single: in box 5, 7 fits only in r5c5. So r5c5 is 7."
        );
        assert_eq!(clue(&m, &step), "Look for a Hidden Single in box 5.");
        let mut pair = Step::new(Technique::NakedPair, 30);
        pair.pattern = vec![
            Candidate::new(0, 3),
            Candidate::new(0, 7),
            Candidate::new(4, 3),
            Candidate::new(4, 7),
        ];
        pair.eliminations = vec![
            Candidate::new(8, 3),
            Candidate::new(7, 3),
            Candidate::new(8, 7),
        ];
        pair.houses.push(0);
        assert_eq!(
            explain(&m, &pair),
            "Naked Pair: r1c1 and r1c5 hold only 3 and 7 between them, so those values go nowhere else that sees all of them. So remove 3 from r1c8 and r1c9; remove 7 from r1c9."
        );
    }
}
