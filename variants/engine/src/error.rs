//! The engine's error type.

/// A puzzle or model that breaks a rule of the format, with a message saying which.
///
/// Messages name the offending element (`"house 3 (box): cell [9,1] is outside the
/// 9x9 layout"`); callers prefix the puzzle's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PuzzleError {
    message: String,
}

impl PuzzleError {
    /// Creates an error with a message.
    pub fn new(message: impl Into<String>) -> Self {
        PuzzleError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}
