//! An online backup of the embedded database: `arena backup` copies
//! `DATA/arena.db` to one self-contained file while the server runs (SQLite's
//! `VACUUM INTO` reads one consistent snapshot, write-ahead log included, and
//! never blocks the server's writer), then opens the copy and checks it.

use super::error::StoreError;
use super::sqlite::SCHEMA_VERSION;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// What a finished backup holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backup {
    /// The copy's schema version.
    pub schema: i64,
    /// Stored rooms.
    pub rooms: i64,
    /// Recorded finished games.
    pub records: i64,
    /// The copy's size in bytes.
    pub bytes: u64,
}

/// Copies the database in `data_dir` to `out` (which must not exist yet) and
/// checks the copy: SQLite's integrity check, and a schema this server reads.
pub fn backup(data_dir: &Path, out: &Path) -> Result<Backup, StoreError> {
    let source = data_dir.join("arena.db");
    if !source.is_file() {
        return Err(StoreError::open(
            source.display(),
            "no database here (see --data)",
        ));
    }
    if out.exists() {
        return Err(StoreError::open(
            out.display(),
            "already exists; a backup never overwrites a file",
        ));
    }
    let conn = Connection::open_with_flags(
        &source,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::open(source.display(), e))?;
    // A writer holds the lock for a few milliseconds per commit.
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let target = out
        .to_str()
        .ok_or_else(|| StoreError::open(out.display(), "the path is not UTF-8"))?;
    conn.execute("VACUUM INTO ?1", [target])
        .map_err(|e| StoreError::open(out.display(), e))?;
    check(out)
}

/// Opens a backup read-only and says what it holds, or why it is no good.
fn check(path: &Path) -> Result<Backup, StoreError> {
    let bad = |why: String| StoreError::open(path.display(), why);
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| bad(e.to_string()))?;
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| bad(e.to_string()))?;
    if integrity != "ok" {
        return Err(bad(format!(
            "the copy fails its integrity check: {integrity}"
        )));
    }
    let schema: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if schema > SCHEMA_VERSION {
        return Err(bad(format!(
            "schema version {schema}, newer than this server's {SCHEMA_VERSION}"
        )));
    }
    let count = |table: &str| -> Result<i64, StoreError> {
        Ok(conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?)
    };
    Ok(Backup {
        schema,
        rooms: count("rooms")?,
        records: count("records")?,
        bytes: std::fs::metadata(path)
            .map_err(|e| bad(e.to_string()))?
            .len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-backup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn a_backup_is_refused_without_a_database_or_over_a_file() {
        let dir = temp("refused");
        let err = backup(&dir, &dir.join("copy.db")).expect_err("no database");
        assert!(err.to_string().contains("no database here"), "{err}");
        std::fs::write(dir.join("arena.db"), b"").expect("write");
        std::fs::write(dir.join("copy.db"), b"keep me").expect("write");
        let err = backup(&dir, &dir.join("copy.db")).expect_err("exists");
        assert!(err.to_string().contains("never overwrites"), "{err}");
        assert_eq!(
            std::fs::read(dir.join("copy.db")).expect("read"),
            b"keep me"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_database_is_named_not_copied_as_good() {
        let dir = temp("damaged");
        std::fs::write(dir.join("arena.db"), vec![7u8; 8192]).expect("write");
        let err = backup(&dir, &dir.join("copy.db")).expect_err("not a database");
        assert!(matches!(err, StoreError::Open { .. }), "{err:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
