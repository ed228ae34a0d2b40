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

/// A new id for something shared by link (a race review, a tournament): 12
/// letters and digits, unguessable, so the link is the permission to see it.
pub fn link_id() -> String {
    use rand::distributions::{Alphanumeric, DistString};
    Alphanumeric.sample_string(&mut rand::rngs::OsRng, 12)
}

/// Whether `id` could be a [`link_id`] (what a client sends is checked before
/// it reaches the store).
pub fn is_link_id(id: &str) -> bool {
    id.len() == 12 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}
