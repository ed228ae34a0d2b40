//! Anonymous identities. A `welcome` hands out a random 128-bit token; the server
//! keeps only its SHA-256, so a leaked session table cannot be replayed. With a
//! database, identities live there and are read when their token comes back.

use super::store::{Store, Write};
use dashmap::DashMap;
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// A player's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Public id (shown to others).
    pub id: String,
    /// Display name.
    pub name: String,
}

/// Identities by token hash: in the database when there is one (looked up when a
/// token comes back, so memory does not grow with every identity ever made),
/// else in memory.
#[derive(Debug)]
pub struct Sessions {
    store: Option<Arc<Store>>,
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
    /// Sessions kept in `store`, or in memory without one.
    pub fn new(store: Option<Arc<Store>>) -> Sessions {
        Sessions {
            store,
            by_token: DashMap::new(),
        }
    }

    /// A new identity called `name` and its token, stored before it is returned.
    pub async fn create(&self, name: String) -> Result<(Identity, String), String> {
        let identity = Identity {
            id: random_hex(8),
            name,
        };
        let token = random_hex(16);
        match &self.store {
            Some(store) => {
                let write = Write::Session {
                    token_hash: hash(&token),
                    who: identity.clone(),
                };
                store.write(write).await?;
            }
            None => {
                self.by_token.insert(hash(&token), identity.clone());
            }
        }
        Ok((identity, token))
    }

    /// The identity a token belongs to (`None` for an unknown token, or when the
    /// database cannot be read: the player then starts afresh).
    pub async fn resume(&self, token: &str) -> Option<Identity> {
        let key = hash(token);
        let Some(store) = &self.store else {
            return self.by_token.get(&key).map(|i| i.clone());
        };
        let store = Arc::clone(store);
        match tokio::task::spawn_blocking(move || store.session(&key)).await {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                tracing::error!(error = %e, "cannot read a session");
                None
            }
            Err(e) => {
                tracing::error!(error = %e, "session lookup failed");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tokens_resume_and_are_stored_hashed() {
        let s = Sessions::new(None);
        let (me, token) = s.create("Ada".into()).await.expect("create");
        assert_eq!(token.len(), 32);
        assert_eq!(s.resume(&token).await, Some(me));
        assert_eq!(s.resume("not-a-token").await, None);
        assert!(s.by_token.iter().all(|e| e.key() != token.as_bytes()));
    }
}
