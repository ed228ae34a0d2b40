//! What can go wrong with the store, by kind: a caller tells a refused write
//! (`Stale`, `PoolTaken`) from a failed database and from a corrupt row
//! without reading messages. Cloneable, since one failed commit answers every
//! write in its batch.

/// A store operation that did not succeed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The database failed or refused a statement: its message (PostgreSQL's
    /// with its SQLSTATE code first).
    #[error("{0}")]
    Database(String),
    /// The database could not be opened, or is not one this server can use
    /// (damaged, written by a newer server, unreachable).
    #[error("{place}: {why}")]
    Open {
        /// The file or the (password-free) server address.
        place: String,
        /// What is wrong with it.
        why: String,
    },
    /// This node no longer owns the room: another node took it over.
    #[error("room {room} is served by another node now (this node's lease or epoch is stale)")]
    Stale {
        /// The room's code.
        room: String,
    },
    /// A pool puzzle another node took first.
    #[error("pool puzzle {seed} was already taken")]
    PoolTaken {
        /// The puzzle's seed.
        seed: String,
    },
    /// A value could not be encoded for storage.
    #[error("cannot encode for storage: {0}")]
    Encode(String),
    /// A stored row does not read back (hostile or corrupt): which, and why.
    #[error("stored {what} does not read: {why}")]
    Corrupt {
        /// The row, e.g. "event 12 of room abc".
        what: String,
        /// What is wrong with it.
        why: String,
    },
    /// The writer thread, or a task reading the database, is gone.
    #[error("the database writer has stopped")]
    Stopped,
}

impl StoreError {
    /// An [`StoreError::Open`] error for `place`.
    pub fn open(place: impl std::fmt::Display, why: impl std::fmt::Display) -> StoreError {
        StoreError::Open {
            place: place.to_string(),
            why: why.to_string(),
        }
    }

    /// A [`StoreError::Corrupt`] error for the row `what`.
    pub fn corrupt(what: impl std::fmt::Display, why: impl std::fmt::Display) -> StoreError {
        StoreError::Corrupt {
            what: what.to_string(),
            why: why.to_string(),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Database(match e.as_db_error() {
            Some(db) => format!("{}: {}", db.code().code(), db.message()),
            None => e.to_string(),
        })
    }
}
