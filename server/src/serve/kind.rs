//! [`Kind`]: a variant, every parameter and a difficulty — the key puzzles are
//! made, pooled and played under. Its own module, so that the generator (which
//! makes a kind) and the pool (which keeps kinds, and uses the generator) do
//! not import each other.

use protocol::plugin::{Manifest, Params};

/// One kind of puzzle: what the pool keeps, a room plays, a generation makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Variant id.
    pub variant: String,
    /// Every parameter, defaults filled in.
    pub params: Params,
    /// Difficulty.
    pub difficulty: String,
}

impl Kind {
    /// The kind a room of `settings` plays, every parameter filled in from the
    /// variant's `manifest` (as the pool keys it).
    pub fn of(
        settings: &protocol::wire::RoomSettings,
        manifest: &protocol::plugin::Manifest,
    ) -> Kind {
        Kind {
            variant: settings.variant.clone(),
            params: manifest.with_defaults(&settings.params),
            difficulty: settings.difficulty.clone(),
        }
    }

    /// The pool's key for this kind.
    pub fn key(&self) -> String {
        serde_json::to_string(&(&self.variant, &self.params, &self.difficulty)).unwrap_or_default()
    }
}

/// Every parameter is one the variant has, with a value it allows.
pub fn check_params(params: &Params, manifest: &Manifest) -> Result<(), String> {
    for (key, value) in params {
        let Some(spec) = manifest.params.iter().find(|p| &p.key == key) else {
            return Err(format!("'{}' has no parameter '{key}'", manifest.id));
        };
        if !spec.allowed.contains(value) {
            return Err(format!("parameter '{key}' does not allow {value:?}"));
        }
    }
    Ok(())
}
