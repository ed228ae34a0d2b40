//! What the host refuses when loading plugins, with real libraries: a file that is
//! not a library, a library without the entry symbol, a library exporting another
//! ABI major's entry, a test-only plugin on a real server, a second plugin with a
//! taken id, and headers with bad magic, another ABI major version, `panic=abort`,
//! or none at all (the test plugin swaps its header on `ARENA_TEST_HEADER`; this file
//! is its own test process, and its tests that load the test plugin hold
//! `TEST_HEADER_ENV`, so the variable never reaches a load that does not expect it).

use arena_tests::{built_plugin_dir, plugin_file};
use server::plugins::{PluginHost, TestPlugins};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Held by every test here that loads the test plugin: one test sets
/// `ARENA_TEST_HEADER`, and the test harness runs the others on parallel threads.
static TEST_HEADER_ENV: Mutex<()> = Mutex::new(());

/// Takes `TEST_HEADER_ENV`, whether or not a test that held it failed.
fn hold_test_header_env() -> std::sync::MutexGuard<'static, ()> {
    TEST_HEADER_ENV
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A fresh directory holding copies of the given files under new names.
fn plugin_dir(name: &str, files: &[(&Path, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-plugins-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (from, to) in files {
        std::fs::copy(from, dir.join(to)).expect("copy plugin");
    }
    dir
}

fn built(crate_name: &str) -> PathBuf {
    built_plugin_dir().join(plugin_file(crate_name))
}

#[test]
fn refuses_non_plugins_and_duplicate_ids() {
    let classic = built("variant-classic");
    let dir = plugin_dir(
        "dupes",
        &[
            (&classic, "libaaa_classic.so"),
            (&classic, "libbbb_classic_again.so"),
        ],
    );
    std::fs::write(dir.join("libjunk.so"), b"not an ELF file").expect("write junk");
    // A real shared library that is not a plugin: the test plugin's own deps are
    // static, so use a copy of the C math library the toolchain links against.
    if let Some(libm) = [
        "/lib/x86_64-linux-gnu/libm.so.6",
        "/usr/lib/x86_64-linux-gnu/libm.so.6",
        "/lib64/libm.so.6",
    ]
    .iter()
    .map(Path::new)
    .find(|p| p.exists())
    {
        std::fs::copy(libm, dir.join("libmath_copy.so")).expect("copy libm");
    }
    let (host, refused) = PluginHost::load(std::slice::from_ref(&dir), 2, TestPlugins::Load);
    let ids: Vec<&str> = host.manifests().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["classic"]);
    let reason = |file: &str| {
        refused
            .iter()
            .find(|r| r.path.ends_with(file))
            .map(|r| r.reason.clone())
            .unwrap_or_else(|| panic!("{file} was not refused: {refused:#?}"))
    };
    assert!(reason("libbbb_classic_again.so").contains("already provided by"));
    assert!(reason("libjunk.so").contains("cannot open"));
    if dir.join("libmath_copy.so").exists() {
        assert!(reason("libmath_copy.so").contains("no sudoku_arena_plugin_v1 symbol"));
    }
}

#[test]
fn refuses_bad_headers() {
    let _env = hold_test_header_env();
    let misbehave = built("test-misbehave");
    for (mode, expected) in [
        ("bad-magic", "bad magic"),
        ("abi-2", "plugin ABI 2.1, this server speaks 1.x"),
        ("panic-abort", "panic=abort"),
        ("short", "header size 16 is smaller than ABI 1.0's"),
        ("null", "null header"),
    ] {
        // A fresh copy per mode: the header is read once, at load.
        let dir = plugin_dir(
            mode,
            &[(
                &misbehave,
                &format!("libheader_{}.so", mode.replace('-', "_")),
            )],
        );
        std::env::set_var("ARENA_TEST_HEADER", mode);
        let (host, refused) = PluginHost::load(&[dir], 2, TestPlugins::Load);
        std::env::remove_var("ARENA_TEST_HEADER");
        assert_eq!(host.manifests().count(), 0, "{mode}");
        assert_eq!(refused.len(), 1, "{mode}");
        assert!(
            refused[0].reason.contains(expected),
            "{mode}: {}",
            refused[0].reason
        );
    }
}

#[test]
fn names_another_abi_major_and_skips_test_only_plugins() {
    let _env = hold_test_header_env();
    let dir = plugin_dir(
        "majors",
        &[
            (&built("test-abi2"), "libfuture.so"),
            (&built("test-misbehave"), "libmisbehave.so"),
            (&built("variant-classic"), "libclassic.so"),
        ],
    );
    std::fs::write(dir.join("README.txt"), b"not a library").expect("write");
    let (host, refused) = PluginHost::load(std::slice::from_ref(&dir), 2, TestPlugins::Skip);
    let ids: Vec<&str> = host.manifests().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["classic"]);
    let reasons: Vec<(String, &str)> = refused
        .iter()
        .map(|r| (r.path.display().to_string(), r.reason.as_str()))
        .collect();
    assert_eq!(refused.len(), 2, "{reasons:#?}");
    assert!(
        reasons[0].0.ends_with("libfuture.so")
            && reasons[0]
                .1
                .contains("ABI major 2 (sudoku_arena_plugin_v2), this server speaks 1.x"),
        "{reasons:#?}"
    );
    assert!(
        reasons[1].0.ends_with("libmisbehave.so") && reasons[1].1.contains("test-only"),
        "{reasons:#?}"
    );
    // The test suite's own host loads the test plugin.
    let (host, _) = PluginHost::load(&[dir], 2, TestPlugins::Load);
    assert!(host.manifest("test-misbehave").is_some());
}
