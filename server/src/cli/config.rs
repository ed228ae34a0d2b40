//! `arena serve --config FILE`: the same settings as the command line's flags,
//! one per line, `name = value` with the flags' names (`bind = "0.0.0.0:8080"`,
//! `site-url = "https://sudoku.example.org/"`, `trusted-proxy = "10.0.0.1"`
//! once per value for a repeatable flag, `in-process-plugins = true` for a
//! switch); `#` starts a comment. A flag given on the command line wins over
//! the file. The file becomes flags before parsing, so clap checks every value
//! as it checks the command line's.

use anyhow::{bail, Context};
use std::ffi::OsString;

/// The process arguments with `serve --config FILE` replaced by the file's
/// settings as flags (placed right after `serve`, before the command line's
/// own, which are left out of the file's when given there).
pub fn expand(args: Vec<OsString>) -> anyhow::Result<Vec<OsString>> {
    let Some(serve) = args.iter().position(|a| a == "serve") else {
        return Ok(args);
    };
    let Some(at) = args
        .iter()
        .skip(serve)
        .position(|a| a == "--config" || a.to_string_lossy().starts_with("--config="))
    else {
        return Ok(args);
    };
    let at = serve + at;
    // `--config FILE` or `--config=FILE`: how many arguments it takes, and the file.
    let (taken, file) = match args[at].to_string_lossy().strip_prefix("--config=") {
        Some(file) => (1, OsString::from(file)),
        None => match args.get(at + 1) {
            Some(file) => (2, file.clone()),
            None => bail!("--config needs a file"),
        },
    };
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read the config file {}", file.to_string_lossy()))?;
    let given: Vec<String> = args
        .iter()
        .filter_map(|a| a.to_str())
        .filter_map(|a| a.strip_prefix("--"))
        .map(|a| a.split('=').next().unwrap_or(a).to_string())
        .collect();
    let flags = flags_of(&text)
        .with_context(|| format!("in the config file {}", file.to_string_lossy()))?
        .into_iter()
        .filter(|(name, _)| !given.contains(name))
        .flat_map(|(name, value)| {
            std::iter::once(OsString::from(format!("--{name}"))).chain(value.map(OsString::from))
        });
    let mut out: Vec<OsString> = args[..=serve].to_vec();
    out.extend(flags);
    out.extend(args[serve + 1..at].iter().cloned());
    out.extend(args[at + taken..].iter().cloned());
    Ok(out)
}

/// Each setting of a config file as a flag name and its value (`None`: a
/// switch that is on; a switch that is off is left out).
fn flags_of(text: &str) -> anyhow::Result<Vec<(String, Option<String>)>> {
    let mut flags = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            bail!("line {}: '{line}' is not `name = value`", n + 1);
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
            bail!(
                "line {}: '{name}' is not a flag's name (like site-url)",
                n + 1
            );
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        match value {
            "true" => flags.push((name.to_string(), None)),
            "false" => {}
            _ => flags.push((name.to_string(), Some(value.to_string()))),
        }
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn a_config_file_becomes_flags_and_the_command_line_wins() {
        let dir = std::env::temp_dir().join(format!("arena-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("arena.conf");
        std::fs::write(
            &file,
            "# a friend's server\nbind = \"0.0.0.0:8080\"\nsite-url = http://192.168.1.20:8080/\n\
             trusted-proxy = 10.0.0.1\ntrusted-proxy = 10.0.0.2\nin-process-plugins = true\n\
             metrics-bind = false\n",
        )
        .expect("write");
        let path = file.to_string_lossy().to_string();
        let args = os(&[
            "arena",
            "serve",
            "--config",
            &path,
            "--bind",
            "127.0.0.1:9000",
        ]);
        let expanded: Vec<String> = expand(args)
            .expect("expanded")
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            expanded,
            [
                "arena",
                "serve",
                "--site-url",
                "http://192.168.1.20:8080/",
                "--trusted-proxy",
                "10.0.0.1",
                "--trusted-proxy",
                "10.0.0.2",
                "--in-process-plugins",
                "--bind",
                "127.0.0.1:9000",
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = flags_of("bind = 1\nthis is not a setting\n").expect_err("refused");
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = flags_of("Bind = 1\n").expect_err("refused");
        assert!(e.to_string().contains("flag's name"), "{e}");
    }

    #[test]
    fn config_equals_file_reads_the_same() {
        let dir = std::env::temp_dir().join(format!("arena-config-eq-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("arena.conf");
        std::fs::write(&file, "countdown-ms = 0\n").expect("write");
        let flag = format!("--config={}", file.to_string_lossy());
        let expanded = expand(os(&["arena", "serve", &flag])).expect("expanded");
        assert_eq!(expanded, os(&["arena", "serve", "--countdown-ms", "0"]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn without_config_the_arguments_stay() {
        let args = os(&["arena", "serve", "--bind", "0.0.0.0:1"]);
        assert_eq!(expand(args.clone()).expect("same"), args);
    }
}
