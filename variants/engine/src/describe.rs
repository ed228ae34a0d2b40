//! The rules panel's words for a puzzle's constraints: one line per kind of
//! constraint it has, in the order they first appear, with how many there are
//! and what they mean — our own reading, shown beside the setter's text.

use protocol::{Axis, Constraint};

/// One line per kind of constraint in `constraints` (say "Thermometers (3):
/// digits strictly increase from the bulb."), in order of first appearance.
pub fn rule_notes(constraints: &[Constraint]) -> Vec<String> {
    let mut kinds: Vec<(&'static str, String, usize)> = Vec::new();
    for c in constraints {
        let (name, meaning) = describe(c);
        match kinds
            .iter_mut()
            .find(|(n, m, _)| *n == name && *m == meaning)
        {
            Some((_, _, count)) => *count += 1,
            None => kinds.push((name, meaning, 1)),
        }
    }
    kinds
        .into_iter()
        .map(|(name, meaning, count)| {
            if global(name) {
                format!("{name}: {meaning}")
            } else {
                format!("{name} ({count}): {meaning}")
            }
        })
        .collect()
}

/// Rules over the whole grid, which are not counted.
fn global(name: &str) -> bool {
    matches!(
        name,
        "Non-consecutive" | "Anti-king" | "Anti-knight" | "Disjoint groups" | "No other dots"
    )
}

/// A constraint's kind, as players call it, and what it means.
fn describe(c: &Constraint) -> (&'static str, String) {
    use Constraint as C;
    let said = |name, meaning: &str| (name, meaning.to_string());
    match c {
        C::Even { .. } => said("Grey squares", "the digit is even."),
        C::Odd { .. } => said("Grey circles", "the digit is odd."),
        C::Values { values, .. } => (
            "Marked cells",
            format!("each holds one of {}.", digits(values)),
        ),
        C::Thermometer { slow: false, .. } => said(
            "Thermometers",
            "digits strictly increase from the bulb along the line.",
        ),
        C::Thermometer { slow: true, .. } => said(
            "Slow thermometers",
            "digits never decrease from the bulb along the line (neighbours may be equal).",
        ),
        C::Arrow { .. } => said(
            "Arrows",
            "the digits along the arrow add up to the number in its circle (a pill reads as a \
             number); digits may repeat on an arrow.",
        ),
        C::Difference { value: 1, .. } => said(
            "White dots",
            "the two digits are consecutive (differ by 1).",
        ),
        C::Difference { value, .. } => ("White dots", format!("the two digits differ by {value}.")),
        C::Ratio { value: 2, .. } => said("Black dots", "one digit is double the other."),
        C::Ratio { value, .. } => (
            "Black dots",
            format!("one digit is {value} times the other."),
        ),
        C::Xv { sum: 10, .. } => said("X marks", "the two digits add up to 10."),
        C::Xv { sum: 5, .. } => said("V marks", "the two digits add up to 5."),
        C::Xv { sum, .. } => ("Sum marks", format!("the two digits add up to {sum}.")),
        C::LittleKiller { .. } => said(
            "Little killer clues",
            "the number outside the grid is the sum of the digits along the diagonal its \
             arrow points to; digits may repeat.",
        ),
        C::Sandwich { .. } => said(
            "Sandwich clues",
            "the number outside the grid is the sum of the digits between the 1 and the \
             highest digit of that row or column.",
        ),
        C::Cage { sum: Some(_), .. } => said(
            "Cages",
            "digits do not repeat in a cage and add up to its total.",
        ),
        C::Cage { sum: None, .. } => {
            said("Cages without a total", "digits do not repeat in a cage.")
        }
        C::Renban { .. } => said(
            "Renban lines",
            "a set of different consecutive digits in any order.",
        ),
        C::Whispers { difference: 5, .. } => said(
            "German whispers",
            "neighbouring digits along the line differ by at least 5.",
        ),
        C::Whispers { difference: 4, .. } => said(
            "Dutch whispers",
            "neighbouring digits along the line differ by at least 4.",
        ),
        C::Whispers { difference, .. } => (
            "Whisper lines",
            format!("neighbouring digits along the line differ by at least {difference}."),
        ),
        C::Palindrome { .. } => said(
            "Palindrome lines",
            "the line reads the same from both ends.",
        ),
        C::Between { .. } => said(
            "Between lines",
            "every digit on the line lies strictly between the digits in its two end circles.",
        ),
        C::Zipper { .. } => said(
            "Zipper lines",
            "digits the same distance from the middle add up to the same total (on an odd \
             line, the middle digit).",
        ),
        C::Entropic { .. } => said(
            "Entropic lines",
            "any three cells in a row along the line hold one low, one middle and one high \
             digit (the digits in thirds).",
        ),
        C::RegionSum { .. } => said(
            "Region-sum lines",
            "where the line crosses boxes, its segments in each box add up to the same total.",
        ),
        C::Minimum { .. } => said(
            "Minimum cells",
            "the digit is lower than every orthogonal neighbour.",
        ),
        C::Maximum { .. } => said(
            "Maximum cells",
            "the digit is higher than every orthogonal neighbour.",
        ),
        C::Quadruple { .. } => said(
            "Quadruples",
            "the digits in the circle appear in the four cells around it.",
        ),
        C::XSum { .. } => said(
            "X-sum clues",
            "the first digit from that side says how many digits, from that side, add up \
             to the number outside the grid.",
        ),
        C::Skyscraper { .. } => said(
            "Skyscraper clues",
            "the number outside the grid is how many digits are seen from that side, each \
             higher digit hiding the lower ones behind it.",
        ),
        C::Indexer {
            axis: Axis::Column, ..
        } => said(
            "Column indexers",
            "a digit X in column c says where c stands in its row: in column X.",
        ),
        C::Indexer {
            axis: Axis::Row, ..
        } => said(
            "Row indexers",
            "a digit X in row r says where r stands in its column: in row X.",
        ),
        C::Clone { .. } => said(
            "Clones",
            "cells of matching shaded shapes hold the same digits in the same places.",
        ),
        C::NonConsecutive => said(
            "Non-consecutive",
            "orthogonal neighbours never hold consecutive digits (except across a white dot).",
        ),
        C::AntiKing => said(
            "Anti-king",
            "cells a king's move apart (diagonal neighbours too) never hold the same digit.",
        ),
        C::AntiKnight => said(
            "Anti-knight",
            "cells a chess knight's move apart never hold the same digit.",
        ),
        C::DisjointGroups => said(
            "Disjoint groups",
            "cells in the same place of every box hold different digits.",
        ),
        C::Negative { ratio, xv } => (
            "No other dots",
            match (ratio, xv) {
                (true, true) => "every black dot, X and V is shown: neighbours without one are \
                                 neither in a black dot's ratio nor add up to 5 or 10."
                    .to_string(),
                (true, false) => "every black dot is shown: neighbours without one are not in \
                                  a black dot's ratio."
                    .to_string(),
                (false, true) => "every X and V is shown: neighbours without one do not add up \
                                  to 5 or 10."
                    .to_string(),
                (false, false) => "nothing more than the marks shown.".to_string(),
            },
        ),
        C::Table { description, .. } => ("Setter's rule", format!("{description}.")),
    }
}

/// "2, 4 or 6".
fn digits(values: &[u32]) -> String {
    let words: Vec<String> = values.iter().map(u32::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_counted_in_order_of_first_appearance() {
        let thermo = Constraint::Thermometer {
            cells: vec![[0, 0], [0, 1]],
            slow: false,
        };
        let dot = Constraint::Ratio {
            cells: [[1, 0], [1, 1]],
            value: 2,
        };
        let notes = rule_notes(&[thermo.clone(), dot, thermo, Constraint::AntiKing]);
        assert_eq!(
            notes,
            [
                "Thermometers (2): digits strictly increase from the bulb along the line.",
                "Black dots (1): one digit is double the other.",
                "Anti-king: cells a king's move apart (diagonal neighbours too) never hold the \
                 same digit.",
            ]
        );
    }

    #[test]
    fn a_marked_cell_lists_its_digits() {
        let marked = Constraint::Values {
            cells: vec![[0, 0]],
            values: vec![2, 4, 6],
        };
        assert_eq!(
            rule_notes(&[marked]),
            ["Marked cells (1): each holds one of 2, 4 or 6."]
        );
    }
}
