//! `arena backup`: an online copy of the embedded database (see
//! `serve::store::backup`).

use crate::serve::store::backup::backup;
use std::path::Path;

/// Copies `data/arena.db` to `out` and says what the checked copy holds.
pub fn run(data: &Path, out: &Path) -> anyhow::Result<bool> {
    let copy = backup(data, out)?;
    println!(
        "backed up {} to {} ({} bytes, schema {}; rooms: {}, finished games: {}); checked",
        data.join("arena.db").display(),
        out.display(),
        copy.bytes,
        copy.schema,
        copy.rooms,
        copy.records
    );
    Ok(true)
}
