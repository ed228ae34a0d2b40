//! `docs/protocol-reference.md` — every wire type, variant and field with its type
//! and doc comment — is generated from the Rust types, by way of
//! `client-web/src/protocol.ts` (itself generated from them and kept in step by
//! `tests/typescript.rs`). This test fails when the committed reference drifts.
//! Regenerate with `UPDATE_TS=1 cargo test -p arena-tests --test protocol_reference`.

use std::path::Path;

/// One field of an object type.
struct Field {
    name: String,
    ty: String,
    doc: String,
}

/// Splits `s` at `sep` where no bracket is open.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '{' | '[' | '<' | '(' => depth += 1,
            '}' | ']' | '>' | ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// A doc comment as one line of Markdown: `[`X`]` links become `X`.
fn doc_text(comment: &str) -> String {
    comment
        .lines()
        .map(|l| l.trim().trim_start_matches("/**").trim_end_matches("*/"))
        .map(|l| l.trim().trim_start_matches('*').trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .replace("[`", "`")
        .replace("`]", "`")
}

/// The fields of an object body (between its braces), the `type` tag apart.
fn fields(body: &str) -> (Option<String>, Vec<Field>) {
    let (mut tag, mut out) = (None, Vec::new());
    let mut rest = body.trim();
    while !rest.is_empty() {
        let mut doc = String::new();
        if let Some(after) = rest.strip_prefix("/**") {
            let end = after.find("*/").expect("a closed doc comment");
            doc = doc_text(&after[..end]);
            rest = after[end + 2..].trim_start();
        }
        let entry = split_top(rest, ',')[0];
        rest = rest[entry.len()..].trim_start_matches(',').trim_start();
        let Some((name, ty)) = entry.split_once(':') else {
            continue;
        };
        let (name, ty) = (name.trim().trim_matches('"'), ty.trim());
        if name == "type" {
            tag = Some(ty.trim_matches('"').to_string());
        } else {
            out.push(Field {
                name: name.to_string(),
                ty: ty.to_string(),
                doc,
            });
        }
    }
    (tag, out)
}

/// A Markdown table of fields.
fn table(fields: &[Field]) -> String {
    if fields.is_empty() {
        return "No fields.\n".into();
    }
    let mut out = String::from("| field | type | meaning |\n|---|---|---|\n");
    for f in fields {
        let optional = f.name.ends_with('?');
        let name = f.name.trim_end_matches('?');
        let ty = f.ty.replace('|', "\\|");
        let absent = if optional { " (may be absent)" } else { "" };
        out.push_str(&format!("| `{name}` | `{ty}`{absent} | {} |\n", f.doc));
    }
    out
}

/// The reference, from the TypeScript declarations.
fn reference(ts: &str) -> String {
    let mut out = String::from(
        "# Protocol reference (generated)\n\n\
         Every type of the wire protocol, generated from the Rust types (`protocol::wire`,\n\
         `protocol::plugin`, `protocol::puzzle`) by `tests/tests/protocol_reference.rs`.\n\
         Do not edit: run `UPDATE_TS=1 cargo test -p arena-tests --test protocol_reference`.\n\
         How the messages are used is in [protocol.md](protocol.md). Types are written as\n\
         TypeScript: `number` is an integer, except times in ms since the Unix epoch\n\
         (`server_time`, `client_time`, `start_at`, `at`), which are floats; `T | null` is\n\
         MessagePack nil when there is no value; `Array<T>` is a MessagePack array;\n\
         `[number, number]` is a `[row, column]` pair.\n",
    );
    for decl in ts.split("export type ").skip(1) {
        let (name, body) = decl.split_once(" = ").expect("a declaration");
        let body = body.trim().trim_end_matches(';').trim();
        out.push_str(&format!("\n## `{name}`\n\n"));
        let alternatives = split_top(body, '|');
        if body.starts_with("{ [") {
            out.push_str(&format!("A map: `{body}`.\n"));
        } else if body.starts_with('{') {
            let objects: Vec<_> = alternatives
                .iter()
                .map(|a| {
                    let a = a.trim();
                    fields(&a[1..a.len() - 1])
                })
                .collect();
            if let [(None, only)] = objects.as_slice() {
                out.push_str(&table(only));
                continue;
            }
            out.push_str("A map tagged by its string field `type`, one of:\n");
            for (tag, fields) in objects {
                let tag = tag.expect("a tagged variant");
                out.push_str(&format!("\n### `type`: `{tag}`\n\n{}", table(&fields)));
            }
        } else if alternatives.iter().all(|a| a.trim().starts_with('"')) {
            let values: Vec<String> = alternatives
                .iter()
                .map(|a| format!("`{}`", a.trim().trim_matches('"')))
                .collect();
            out.push_str(&format!("A string, one of: {}.\n", values.join(", ")));
        } else {
            out.push_str(&format!("`{}`\n", body.replace('|', "\\|")));
        }
    }
    out
}

#[test]
fn the_protocol_reference_matches_the_wire_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ts = std::fs::read_to_string(root.join("client-web/src/protocol.ts")).expect("protocol.ts");
    let fresh = reference(&ts);
    for must in [
        "## `RoomView`",
        "### `type`: `join_room`",
        "`paused_ms`",
        "`too_many`",
    ] {
        assert!(fresh.contains(must), "the reference lacks {must}");
    }
    let path = root.join("docs/protocol-reference.md");
    if std::env::var_os("UPDATE_TS").is_some() {
        std::fs::write(&path, &fresh).expect("write the reference");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is out of date: run `UPDATE_TS=1 cargo test -p arena-tests --test protocol_reference`",
        path.display()
    );
}
