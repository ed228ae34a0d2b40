//! The plain-text classic format: one 9x9 puzzle per line, 81 characters row by row,
//! `.` or `0` for an empty cell, `#` comment lines, anything after column 81 ignored.

use crate::error::PuzzleError;

/// Parses one line. `Ok(None)` for a comment or blank line.
pub fn parse_line(line: &str) -> Result<Option<[u8; 81]>, PuzzleError> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let bytes = line.as_bytes();
    if bytes.len() < 81 {
        return Err(PuzzleError::new(format!(
            "line has {} characters; a classic puzzle needs 81",
            bytes.len()
        )));
    }
    let mut grid = [0u8; 81];
    for (i, &ch) in bytes[..81].iter().enumerate() {
        grid[i] = match ch {
            b'.' | b'0' => 0,
            b'1'..=b'9' => ch - b'0',
            _ => {
                return Err(PuzzleError::new(format!(
                    "character {:?} at column {} is not 1-9, '.' or '0'",
                    char::from(ch),
                    i + 1
                )))
            }
        };
    }
    Ok(Some(grid))
}

/// Writes a 9x9 grid as one 81-character line (`.` for empty).
pub fn format_line(grid: &[u8]) -> String {
    grid.iter()
        .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_dataset_lines() {
        let line = "000000010400000000020000000000050407008000300001090000300400200050100000000806000:1:extra";
        let g = parse_line(line).expect("ok").expect("puzzle");
        assert_eq!(g.iter().filter(|&&v| v != 0).count(), 17);
        assert_eq!(format_line(&g).len(), 81);
        assert_eq!(parse_line("# comment"), Ok(None));
        assert_eq!(parse_line("   "), Ok(None));
        assert!(parse_line("123").is_err());
        let bad = format!("x{}", ".".repeat(80));
        assert!(parse_line(&bad)
            .expect_err("bad char")
            .message()
            .contains("column 1"));
    }
}
