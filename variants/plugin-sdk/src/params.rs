//! Resolving request parameters against a manifest.

use protocol::plugin::{Manifest, Params};

/// Fills defaults and refuses unknown keys or values outside `allowed`.
pub fn resolve(manifest: &Manifest, given: &Params) -> Result<Params, String> {
    for key in given.keys() {
        if !manifest.params.iter().any(|p| &p.key == key) {
            let known: Vec<&str> = manifest.params.iter().map(|p| p.key.as_str()).collect();
            return Err(format!(
                "{} has no parameter '{key}' (known: {})",
                manifest.id,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
    }
    let mut out = Params::new();
    for spec in &manifest.params {
        let value = given.get(&spec.key).unwrap_or(&spec.default);
        if !spec.allowed.contains(value) {
            let allowed: Vec<String> = spec.allowed.iter().map(|v| v.to_string()).collect();
            return Err(format!(
                "{}={value} is not offered; choose one of {}",
                spec.key,
                allowed.join(", ")
            ));
        }
        out.insert(spec.key.clone(), value.clone());
    }
    Ok(out)
}

/// The text value of a resolved parameter (e.g. `box` = `"3x3"`).
pub fn text<'p>(params: &'p Params, key: &str) -> Result<&'p str, engine::PuzzleError> {
    match params.get(key) {
        Some(protocol::ParamValue::Text(s)) => Ok(s),
        other => Err(engine::PuzzleError::new(format!(
            "parameter '{key}' should be text, got {other:?}"
        ))),
    }
}

/// The boolean value of a resolved parameter (e.g. `diagonals` = `true`).
pub fn flag(params: &Params, key: &str) -> Result<bool, engine::PuzzleError> {
    match params.get(key) {
        Some(protocol::ParamValue::Bool(b)) => Ok(*b),
        other => Err(engine::PuzzleError::new(format!(
            "parameter '{key}' should be true or false, got {other:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::plugin::ParamSpec;
    use protocol::ParamValue;

    fn manifest() -> Manifest {
        Manifest {
            id: "t".into(),
            name: "T".into(),
            rules: String::new(),
            params: vec![ParamSpec {
                key: "diagonals".into(),
                name: "Diagonals".into(),
                default: ParamValue::Bool(false),
                allowed: vec![ParamValue::Bool(false), ParamValue::Bool(true)],
                labels: Vec::new(),
            }],
            difficulties: vec![],
            clues: Vec::new(),
        }
    }

    #[test]
    fn defaults_unknown_and_disallowed() {
        let m = manifest();
        let p = resolve(&m, &Params::new()).expect("defaults");
        assert_eq!(p.get("diagonals"), Some(&ParamValue::Bool(false)));
        let bad = Params::from([("size".into(), ParamValue::Int(3))]);
        assert!(resolve(&m, &bad)
            .expect_err("unknown")
            .contains("no parameter 'size'"));
        let bad = Params::from([("diagonals".into(), ParamValue::Text("yes".into()))]);
        assert!(resolve(&m, &bad)
            .expect_err("value")
            .contains("diagonals=yes is not offered"));
    }
}
