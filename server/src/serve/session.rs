//! Anonymous identities. A `welcome` hands out a random 128-bit token; the server
//! keeps only its SHA-256, so a leaked session table cannot be replayed.

use dashmap::DashMap;
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A player's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Public id (shown to others).
    pub id: String,
    /// Display name.
    pub name: String,
}

/// Identities by token hash.
#[derive(Debug, Default)]
pub struct Sessions {
    by_token: DashMap<[u8; 32], Identity>,
}

/// `n` random bytes from the operating system, as lowercase hex.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a token: what is stored.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl Sessions {
    /// A new identity and its token.
    pub fn create(&self, name: String) -> (Identity, String) {
        let identity = Identity {
            id: random_hex(8),
            name,
        };
        let token = random_hex(16);
        self.by_token.insert(hash(&token), identity.clone());
        (identity, token)
    }

    /// Restores a stored identity by its token hash.
    pub fn restore(&self, token_hash: [u8; 32], who: Identity) {
        self.by_token.insert(token_hash, who);
    }

    /// The identity a token belongs to.
    pub fn resume(&self, token: &str) -> Option<Identity> {
        self.by_token.get(&hash(token)).map(|i| i.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_resume_and_are_stored_hashed() {
        let s = Sessions::default();
        let (me, token) = s.create("Ada".into());
        assert_eq!(token.len(), 32);
        assert_eq!(s.resume(&token), Some(me));
        assert_eq!(s.resume("not-a-token"), None);
        assert!(s.by_token.iter().all(|e| e.key() != token.as_bytes()));
    }
}
