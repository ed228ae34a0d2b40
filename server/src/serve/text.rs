//! Text one player types and others see — display names and chat lines. It is
//! normalised (Unicode NFC, so one name has one spelling) and refused when it
//! holds characters that hide or disguise text: controls, direction overrides
//! and isolates (which can make "Ada" read as someone else's name), zero-width
//! and other invisible characters, tag characters, and stacks of combining marks.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// Combining marks allowed on one base character (enough for any language's
/// accents; "zalgo" text stacks dozens).
const MAX_MARKS: usize = 3;

/// Whether `c` changes text direction or is invisible: such characters are
/// refused everywhere (a zero-width joiner inside an emoji is judged apart).
fn hidden_or_directional(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'                     // soft hyphen
        | '\u{034F}'                   // combining grapheme joiner
        | '\u{061C}'                   // Arabic letter mark
        | '\u{115F}' | '\u{1160}'      // Hangul fillers
        | '\u{17B4}' | '\u{17B5}'      // Khmer invisible vowels
        | '\u{180B}'..='\u{180F}'      // Mongolian selectors and vowel separator
        | '\u{200B}'..='\u{200F}'      // zero-width space/joiners, LRM, RLM
        | '\u{202A}'..='\u{202E}'      // embeddings and overrides
        | '\u{2060}'..='\u{206F}'      // word joiner, invisible operators, isolates
        | '\u{2800}'                   // blank braille pattern
        | '\u{3164}' | '\u{FFA0}'      // Hangul fillers
        | '\u{FEFF}'                   // zero-width no-break space
        | '\u{FFF9}'..='\u{FFFB}'      // interlinear annotation
        | '\u{1D173}'..='\u{1D17A}'    // musical formatting
        | '\u{E0000}'..='\u{E007F}' // tags
    )
}

/// Characters a zero-width joiner may join in chat: emoji and their modifiers.
fn emoji_like(c: char) -> bool {
    c >= '\u{1F000}' || ('\u{2600}'..='\u{27BF}').contains(&c) || c == '\u{FE0F}'
}

/// Checks every character of an NFC string; `newlines` allows line breaks and
/// `joined_emoji` zero-width joiners between emoji.
fn check(text: &str, newlines: bool, joined_emoji: bool) -> Result<(), String> {
    let chars: Vec<char> = text.chars().collect();
    let mut marks = 0;
    for (i, &c) in chars.iter().enumerate() {
        let joins_emoji = c == '\u{200D}'
            && joined_emoji
            && i > 0
            && chars.get(i + 1).is_some_and(|&n| emoji_like(n))
            && emoji_like(chars[i - 1]);
        if c.is_control() && !(newlines && c == '\n') {
            return Err(format!(
                "control character U+{:04X} is not allowed",
                c as u32
            ));
        }
        if hidden_or_directional(c) && !joins_emoji {
            return Err(format!(
                "invisible or text-direction character U+{:04X} is not allowed",
                c as u32
            ));
        }
        marks = if is_combining_mark(c) { marks + 1 } else { 0 };
        if marks > MAX_MARKS {
            return Err(format!(
                "at most {MAX_MARKS} combining marks on one character"
            ));
        }
    }
    Ok(())
}

/// A display name as others will see it: NFC, trimmed, inner runs of spaces
/// made one; 1-24 characters, something visible, nothing hidden.
pub fn clean_name(name: &str) -> Result<String, String> {
    clean_line(name, "name", MAX_NAME_CHARS)
}

/// The longest tournament name, in characters.
pub const MAX_TITLE_CHARS: usize = 40;

/// A tournament's name, as [`clean_name`] but up to 40 characters.
pub fn clean_title(title: &str) -> Result<String, String> {
    clean_line(title, "tournament name", MAX_TITLE_CHARS)
}

/// One line of `what` others will see: NFC, trimmed, inner runs of spaces
/// made one; 1 to `max` characters, something visible, nothing hidden.
fn clean_line(line: &str, what: &str, max: usize) -> Result<String, String> {
    let line: String = line.nfc().collect();
    check(&line, false, false)?;
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = line.chars().count();
    if len == 0 || len > max {
        return Err(format!("a {what} has 1-{max} characters, not {len}"));
    }
    if line.chars().all(is_combining_mark) {
        return Err(format!("a {what} needs a visible character"));
    }
    Ok(line)
}

/// A chat line as others will see it: NFC, trimmed; 1-300 characters, line
/// breaks allowed, nothing hidden.
pub fn clean_chat(text: &str) -> Result<String, String> {
    let text: String = text.trim().nfc().collect();
    let len = text.chars().count();
    if len == 0 || len > MAX_CHAT_CHARS {
        return Err(format!(
            "a chat line has 1-{MAX_CHAT_CHARS} printable characters"
        ));
    }
    check(&text, true, true)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_and_checked() {
        assert_eq!(
            clean_name("  Ada   Lovelace ").as_deref(),
            Ok("Ada Lovelace")
        );
        // "é" typed as e + combining acute becomes one character.
        assert_eq!(clean_name("Rene\u{301}").as_deref(), Ok("Ren\u{e9}"));
        assert!(clean_name("").is_err());
        assert!(clean_name(&"x".repeat(25)).is_err());
        assert!(clean_name("a\u{7}b").is_err());
        for hidden in [
            '\u{202E}',
            '\u{2066}',
            '\u{200B}',
            '\u{200D}',
            '\u{FEFF}',
            '\u{E0041}',
        ] {
            let err = clean_name(&format!("Ad{hidden}a")).expect_err("refused");
            assert!(err.contains(&format!("U+{:04X}", hidden as u32)), "{err}");
        }
        assert!(
            clean_name("\u{3164}").is_err(),
            "an invisible filler is no name"
        );
        assert!(
            clean_name("a\u{301}\u{302}\u{303}\u{304}\u{305}").is_err(),
            "zalgo"
        );
        assert_eq!(clean_name("Zoë 李").as_deref(), Ok("Zoë 李"));
        // A tab or a line break is a control character, not a space.
        for control in ["Ada\tL", "Ada\nL", "Ada\rL"] {
            let err = clean_name(control).expect_err("refused");
            assert!(err.contains("control character"), "{err}");
        }
        // Wide spaces are spaces: collapsed like the others.
        assert_eq!(clean_name("Ada\u{3000}\u{3000}L").as_deref(), Ok("Ada L"));
    }

    #[test]
    fn chat_keeps_emoji_and_line_breaks_but_not_hidden_text() {
        assert_eq!(clean_chat(" gg\nwp ").as_deref(), Ok("gg\nwp"));
        // Family emoji: people joined by zero-width joiners.
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        assert_eq!(clean_chat(family).as_deref(), Ok(family));
        assert!(
            clean_chat("a\u{200D}b").is_err(),
            "a joiner between letters hides nothing useful"
        );
        assert!(clean_chat("I won \u{202E}!ti dah").is_err());
        assert!(clean_chat("").is_err());
        assert!(clean_chat(&"x".repeat(301)).is_err());
        assert!(clean_chat("tab\there").is_err());
    }
}
