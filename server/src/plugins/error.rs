//! [`PluginError`]: why a plugin call produced no answer — in full for the log,
//! and ([`PluginError::for_players`]) in one sentence for a player.

/// Why a call produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PluginError {
    /// No plugin has this id.
    #[error("no variant '{0}' is loaded")]
    UnknownVariant(String),
    /// Every worker of this plugin is busy and its queue is full.
    #[error("{0}: every worker of this plugin is busy")]
    Busy(String),
    /// No answer within the deadline.
    #[error("{id}: no answer within {millis} ms")]
    Deadline {
        /// The plugin.
        id: String,
        /// The deadline.
        millis: u128,
    },
    /// The plugin does not know the operation.
    #[error("{0}: unsupported operation")]
    Unsupported(String),
    /// The plugin refused the request.
    #[error("{id}: {message}")]
    Rejected {
        /// The plugin.
        id: String,
        /// Its reason.
        message: String,
    },
    /// The plugin panicked (and caught it).
    #[error("{id}: the plugin panicked: {message}")]
    Panicked {
        /// The plugin.
        id: String,
        /// The panic message.
        message: String,
    },
    /// The plugin's host process died during the call (a crash, an abort, a
    /// limit), or keeps dying and is waiting to be started again.
    #[error("{id}: {detail}")]
    Crashed {
        /// The plugin.
        id: String,
        /// How it died.
        detail: String,
    },
    /// The answer could not be read (not MessagePack, wrong shape, too large…).
    #[error("{id}: unusable answer: {detail}")]
    Garbage {
        /// The plugin.
        id: String,
        /// What was wrong.
        detail: String,
    },
    /// A generated puzzle failed validation.
    #[error("{id}: generated an invalid puzzle: {detail}")]
    InvalidPuzzle {
        /// The plugin.
        id: String,
        /// What was wrong.
        detail: String,
    },
}

impl PluginError {
    /// The variant the error is about.
    pub fn variant(&self) -> &str {
        match self {
            PluginError::UnknownVariant(id)
            | PluginError::Busy(id)
            | PluginError::Unsupported(id)
            | PluginError::Deadline { id, .. }
            | PluginError::Rejected { id, .. }
            | PluginError::Panicked { id, .. }
            | PluginError::Crashed { id, .. }
            | PluginError::Garbage { id, .. }
            | PluginError::InvalidPuzzle { id, .. } => id,
        }
    }

    /// What a player is told: the variant and what went wrong, in one short
    /// sentence, without the plugin's internals (those go to the log).
    pub fn for_players(&self) -> String {
        let id = self.variant();
        match self {
            PluginError::UnknownVariant(_) => format!("no variant '{id}' is available here"),
            PluginError::Busy(_) => format!("'{id}' is busy right now; try again in a moment"),
            PluginError::Deadline { millis, .. } => {
                format!("'{id}' did not answer within {} s", millis.div_ceil(1000))
            }
            PluginError::Unsupported(_) => format!("'{id}' does not offer this"),
            PluginError::Rejected { message, .. } => format!("'{id}' refused: {message}"),
            PluginError::Panicked { .. }
            | PluginError::Crashed { .. }
            | PluginError::Garbage { .. }
            | PluginError::InvalidPuzzle { .. } => {
                format!("'{id}' failed (the server's log has the details)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_read_the_variant_and_what_happened_never_the_internals() {
        let crashed = PluginError::Crashed {
            id: "killer".into(),
            detail: "crashed: killed by signal 11 (SIGSEGV: invalid memory access)".into(),
        };
        assert!(crashed.to_string().contains("SIGSEGV"), "the log has it");
        assert_eq!(
            crashed.for_players(),
            "'killer' failed (the server's log has the details)"
        );
        let panicked = PluginError::Panicked {
            id: "killer".into(),
            message: "index out of bounds: the len is 0 but the index is 19".into(),
        };
        assert!(!panicked.for_players().contains("index"));
        let late = PluginError::Deadline {
            id: "classic".into(),
            millis: 20_000,
        };
        assert_eq!(late.for_players(), "'classic' did not answer within 20 s");
        assert_eq!(late.variant(), "classic");
    }
}
