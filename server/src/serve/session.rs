//! Anonymous identities. A `welcome` hands out a random 128-bit token; the server
//! keeps only its SHA-256, so a leaked session table cannot be replayed. With a
//! database, identities live there and are read when their token comes back.
//!
//! A player moves an identity to another device with a one-time sync code: short,
//! random, valid for [`SYNC_CODE_LIFE`], kept by the store (in memory on one
//! node, where a restart voids it; in the shared database on several), and spent
//! by its first use, which mints the other device a token of its own for the
//! same identity.

use super::store::{MemoryCodes, Store, Write};
use dashmap::DashMap;
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;

pub use super::identity::Identity;

/// Identities by token hash: in the database when there is one (looked up when a
/// token comes back, so memory does not grow with every identity ever made),
/// else in memory.
#[derive(Debug)]
pub struct Sessions {
    store: Option<Arc<Store>>,
    by_token: DashMap<[u8; 32], Identity>,
    /// Sync codes not yet used, without a store.
    sync_codes: MemoryCodes,
}

/// How long a sync code can be used.
pub const SYNC_CODE_LIFE: Duration = Duration::from_secs(10 * 60);

/// Sync code characters: no 0/O or 1/I to misread.
const SYNC_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Characters in a sync code (32^10: guessing one in its life is hopeless under
/// the per-address limit).
const SYNC_LENGTH: usize = 10;

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
    /// Sessions kept in `store`, or in memory without one; sync codes in the
    /// database shared by several nodes, if there is one.
    pub fn new(store: Option<Arc<Store>>) -> Sessions {
        Sessions {
            store,
            by_token: DashMap::new(),
            sync_codes: MemoryCodes::default(),
        }
    }

    /// A new identity called `name` and its token, stored before it is returned.
    pub async fn create(&self, name: String) -> Result<(Identity, String), String> {
        let identity = Identity {
            id: random_hex(8),
            name,
        };
        let token = self.new_token(&identity).await?;
        Ok((identity, token))
    }

    /// A fresh token for `identity`, stored before it is returned.
    async fn new_token(&self, identity: &Identity) -> Result<String, String> {
        let token = random_hex(16);
        match &self.store {
            Some(store) => {
                let write = Write::Session {
                    token_hash: hash(&token),
                    who: identity.clone(),
                };
                store.write(write).await.map_err(|e| e.to_string())?;
            }
            None => {
                self.by_token.insert(hash(&token), identity.clone());
            }
        }
        Ok(token)
    }

    /// A one-time code that moves `who` to another device (replacing any code
    /// `who` had); valid for [`SYNC_CODE_LIFE`].
    pub async fn sync_code(&self, who: &Identity) -> Result<String, String> {
        let code: String = (0..SYNC_LENGTH)
            .map(|_| char::from(SYNC_ALPHABET[OsRng.next_u32() as usize % SYNC_ALPHABET.len()]))
            .collect();
        match &self.store {
            Some(store) => store
                .put_sync_code(&code, who, SYNC_CODE_LIFE)
                .await
                .map_err(|e| e.to_string())?,
            None => self.sync_codes.put(&code, who, SYNC_CODE_LIFE),
        }
        Ok(code)
    }

    /// Spends a sync code: the identity it was made for and a new token of its
    /// own for this device. Spaces and case do not matter.
    pub async fn redeem(&self, code: &str) -> Result<(Identity, String), String> {
        let code: String = code
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect::<String>()
            .to_uppercase();
        let found = match &self.store {
            Some(store) => store
                .take_sync_code(&code)
                .await
                .map_err(|e| e.to_string())?,
            None => self.sync_codes.take(&code),
        };
        let Some((who, valid)) = found else {
            return Err("no such sync code (a code works once)".into());
        };
        if !valid {
            return Err("this sync code has expired; ask for a new one".into());
        }
        let token = self.new_token(&who).await?;
        Ok((who, token))
    }

    /// The identity a token belongs to (`None` for an unknown token, or when the
    /// database cannot be read: the player then starts afresh).
    pub async fn resume(&self, token: &str) -> Option<Identity> {
        let key = hash(token);
        let Some(store) = &self.store else {
            return self.by_token.get(&key).map(|i| i.clone());
        };
        match store.session(&key).await {
            Ok(found) => found,
            Err(e) => {
                tracing::error!(error = %e, "cannot read a session");
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

    #[tokio::test]
    async fn a_sync_code_moves_the_identity_once() {
        let s = Sessions::new(None);
        let (me, token) = s.create("Ada".into()).await.expect("create");
        let first = s.sync_code(&me).await.expect("code");
        let code = s.sync_code(&me).await.expect("code");
        assert_eq!(code.len(), SYNC_LENGTH);
        assert!(
            s.redeem(&first).await.is_err(),
            "a newer code replaces the older"
        );
        let spaced = format!("{} {}", &code[..5], code[5..].to_lowercase());
        let (who, other) = s.redeem(&spaced).await.expect("redeem");
        assert_eq!(who, me);
        assert_ne!(other, token, "the other device has a token of its own");
        assert_eq!(s.resume(&other).await, Some(me.clone()));
        assert_eq!(s.resume(&token).await, Some(me));
        assert!(s.redeem(&code).await.is_err(), "a code works once");
    }
}
