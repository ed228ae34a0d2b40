//! [`Identity`]: who a player is, as rooms, sessions and the store know them. Its
//! own module, so the store (which keeps identities) and the sessions (which
//! keep them in the store) do not import each other.

/// A player's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Public id (shown to others).
    pub id: String,
    /// Display name.
    pub name: String,
}
