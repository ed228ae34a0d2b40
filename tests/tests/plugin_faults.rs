//! A plugin can never take the server down: with plugins in host processes (as
//! `arena serve` runs them), a plugin that segfaults, aborts, overflows its
//! stack, allocates without end, hangs or answers garbage — in `generate` and in
//! `hint` — costs the asker a clear error within its deadline, while another
//! player's game of another variant goes on, and its host is replaced.

use arena_tests::serve::{http_get, isolated_plugins, misbehave_faults, start_server_on};
use arena_tests::solving_moves;
use arena_tests::ws::{race_settings, started_room, Client};
use protocol::plugin::Params;
use protocol::wire::{ClientMessage, ErrorCode, HintPolicy, Mode, RoomSettings, ServerMessage};
use server::serve::Config;
use std::time::{Duration, Instant};

/// How long a generation may take on this test's server.
const GENERATE_DEADLINE: Duration = Duration::from_secs(3);

/// How long a hint may take (the server's fixed hint deadline).
const HINT_DEADLINE: Duration = Duration::from_secs(5);

/// What an asker may wait beyond the deadline.
const SLACK: Duration = Duration::from_secs(1);

fn misbehaving(difficulty: &str) -> RoomSettings {
    RoomSettings {
        variant: "test-misbehave".into(),
        params: Params::new(),
        difficulty: difficulty.into(),
        mode: Mode::Solo,
        max_players: 1,
        public: false,
        hints: HintPolicy::Penalty { seconds: 10 },
        ..race_settings(1)
    }
}

/// A solo classic 9x9 game with hints, the innocent bystander.
fn classic_solo() -> RoomSettings {
    RoomSettings {
        params: Params::new(),
        mode: Mode::Solo,
        max_players: 1,
        public: false,
        hints: HintPolicy::Penalty { seconds: 10 },
        ..race_settings(1)
    }
}

/// The player-facing message says which variant failed and shows no internals.
fn names_the_variant_only(message: &str) {
    assert!(message.contains("test-misbehave"), "{message}");
    for internal in ["panicked", "signal", "SIG", "bytes", "decode", "index"] {
        assert!(!message.contains(internal), "internals shown: {message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crashing_hanging_and_babbling_plugins_cost_their_asker_only() {
    let plugins = isolated_plugins(2);
    let config = Config {
        countdown: Duration::ZERO,
        generate_deadline: GENERATE_DEADLINE,
        ..Config::default()
    };
    let addr = start_server_on(plugins.clone(), config).await;

    // Ada plays classic 9x9 (with a hint) the whole time.
    let mut ada = Client::connect(addr, "Ada").await;
    let (_, puzzle) = started_room(&mut ada, &mut [], classic_solo()).await;
    let mut moves = solving_moves(&puzzle).into_iter();

    // The plugin's manifest names its faults: in generate, and (hint-*) in hint.
    let (generate_faults, hint_faults) = misbehave_faults(&plugins);
    assert_eq!(generate_faults.len(), 7, "{generate_faults:?}");
    assert_eq!(hint_faults.len(), 4, "{hint_faults:?}");

    let mut bob = Client::connect(addr, "Bob").await;
    for fault in &generate_faults {
        let asked = Instant::now();
        bob.send(&ClientMessage::CreateRoom {
            settings: misbehaving(fault),
        })
        .await;
        let (code, message) = bob.error_message().await;
        assert_eq!(code, ErrorCode::Plugin, "{fault}: {message}");
        names_the_variant_only(&message);
        assert!(
            asked.elapsed() < GENERATE_DEADLINE + SLACK,
            "{fault}: answered after {:?}",
            asked.elapsed()
        );
        if let Some(m) = moves.next() {
            ada.play(&m).await;
        }
    }

    for fault in &hint_faults {
        let (_, _) = started_room(&mut bob, &mut [], misbehaving(fault)).await;
        let asked = Instant::now();
        bob.send(&ClientMessage::Hint { marks: None }).await;
        let (code, message) = bob.error_message().await;
        assert_eq!(code, ErrorCode::Plugin, "{fault}: {message}");
        names_the_variant_only(&message);
        assert!(
            asked.elapsed() < HINT_DEADLINE + SLACK,
            "{fault}: answered after {:?}",
            asked.elapsed()
        );
        // Bob's connection survived the fault (a 40 KB answer included).
        bob.send(&ClientMessage::LeaveRoom).await;
        bob.until(|m| matches!(m, ServerMessage::Rooms { .. }).then_some(()))
            .await;
        ada.send(&ClientMessage::Hint { marks: None }).await;
        ada.until(|m| matches!(m, ServerMessage::Hint { .. }).then_some(()))
            .await;
    }

    let stats = plugins.host_stats("test-misbehave").expect("isolated");
    // segfault, abort, stack overflow, allocation; the hint's segfault.
    assert!(stats.crashed >= 5, "{stats:?}");
    // A generation that hung or spun was killed (the hung hint's host may still be
    // in its grace period: `a_hung_host_is_killed_and_replaced_within_a_second`).
    assert!(stats.killed >= 1, "{stats:?}");
    assert!(
        stats.started > stats.crashed + stats.killed,
        "every dead host was replaced: {stats:?}"
    );
    assert_eq!(
        plugins.host_stats("classic").map(|s| s.crashed + s.killed),
        Some(0),
        "the innocent variant's hosts were never touched"
    );

    // The operator sees it too; the node stays ready (other variants work).
    let (status, body) = http_get(addr, "/readyz").await;
    assert_eq!(status, 200, "{body}");
    let report: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let hosts = &report["variants"]["test-misbehave"]["hosts"];
    assert_eq!(hosts["crashed"].as_u64(), Some(stats.crashed), "{body}");

    // Ada finishes her game; classic still generates for anyone.
    for m in moves {
        ada.play(&m).await;
    }
    bob.send(&ClientMessage::CreateRoom {
        settings: classic_solo(),
    })
    .await;
    bob.until(|m| matches!(m, ServerMessage::Room { .. }).then_some(()))
        .await;
}

/// A `generate` request of `difficulty` for the misbehaving plugin.
fn generate(difficulty: &str) -> Vec<u8> {
    rmp_serde::to_vec_named(&protocol::plugin::GenerateRequest {
        minimal: false,
        params: Params::new(),
        difficulty: difficulty.into(),
        seed: "s".into(),
    })
    .expect("encode")
}

#[test]
fn a_crashed_host_is_replaced_within_a_second() {
    let plugins = isolated_plugins(1);
    let deadline = Duration::from_secs(5);
    let op = plugin_abi::op::GENERATE;
    let crashed = plugins
        .call_raw("test-misbehave", op, generate("crash-segfault"), deadline)
        .expect_err("the host dies");
    assert!(
        crashed.to_string().contains("SIGSEGV"),
        "the log says how: {crashed}"
    );
    let died = Instant::now();
    plugins
        .call_raw(
            "test-misbehave",
            plugin_abi::op::MANIFEST,
            Vec::new(),
            deadline,
        )
        .expect("the replacement answers");
    assert!(
        died.elapsed() < Duration::from_secs(1),
        "replaced in {:?}",
        died.elapsed()
    );
    let stats = plugins.host_stats("test-misbehave").expect("isolated");
    assert_eq!((stats.started, stats.crashed, stats.killed), (2, 1, 0));
}

#[test]
fn a_hung_host_is_killed_and_replaced_within_a_second() {
    // One worker: the next call waits behind the hung one until its host is
    // killed and replaced.
    let plugins = isolated_plugins(1);
    let deadline = Duration::from_millis(500);
    let asked = Instant::now();
    let hung = plugins
        .call_raw(
            "test-misbehave",
            plugin_abi::op::GENERATE,
            generate("hang"),
            deadline,
        )
        .expect_err("no answer");
    assert!(
        matches!(hung, server::plugins::PluginError::Deadline { .. }),
        "{hung}"
    );
    let answered = asked.elapsed();
    assert!(answered < deadline + SLACK, "answered after {answered:?}");
    let late = Instant::now();
    plugins
        .call_raw(
            "test-misbehave",
            plugin_abi::op::MANIFEST,
            Vec::new(),
            deadline * 4,
        )
        .expect("the replacement answers");
    assert!(
        late.elapsed() < Duration::from_secs(1),
        "replaced in {:?}",
        late.elapsed()
    );
    let stats = plugins.host_stats("test-misbehave").expect("isolated");
    assert_eq!((stats.started, stats.crashed, stats.killed), (2, 0, 1));
}

#[test]
fn hosts_outlive_the_thread_that_loaded_them() {
    // A host dies with the thread that started it (PR_SET_PDEATHSIG): hosts
    // must be started by the plugin's workers, not by whoever loads the plugins.
    let plugins = std::thread::spawn(|| isolated_plugins(1))
        .join()
        .expect("loaded");
    plugins
        .call_raw(
            "classic",
            plugin_abi::op::MANIFEST,
            Vec::new(),
            Duration::from_secs(5),
        )
        .expect("the host still answers");
    let stats = plugins.host_stats("classic").expect("isolated");
    assert_eq!((stats.started, stats.crashed), (1, 0));
}

#[test]
fn a_host_past_its_memory_or_cpu_limit_is_stopped_by_the_kernel() {
    use server::plugins::pipe::{self, Reply, Request};
    use std::io::BufReader;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    // A host started as the server starts one, driven frame by frame with
    // nobody to kill it: only its own limits can stop it.
    let host = |difficulty: &str| {
        let mut child = Command::new(arena_tests::built_arena())
            .args(["plugin-host", "--memory-mb", "4096"])
            .arg(arena_tests::built_plugin_dir().join(arena_tests::plugin_file("test-misbehave")))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("a host");
        let mut output = BufReader::new(child.stdout.take().expect("stdout"));
        let ready = pipe::read_reply(&mut output, 1 << 20).expect("read");
        assert!(matches!(ready, Some(Reply::Ready(_))), "{ready:?}");
        let request = Request {
            op: plugin_abi::op::GENERATE,
            deadline_ms: 1,
            body: generate(difficulty),
        };
        let mut input = child.stdin.take().expect("stdin");
        pipe::write_request(&mut input, &request).expect("write");
        // Should the limit fail, the test fails instead of hanging: SIGKILL.
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let pid = child.id().to_string();
        let watchdog = std::thread::spawn(move || {
            if finished.recv_timeout(Duration::from_secs(30)).is_err() {
                let _ = Command::new("kill").args(["-9", &pid]).status();
            }
        });
        let reply = pipe::read_reply(&mut output, 1 << 20);
        let signal = child.wait().expect("exits").signal();
        let _ = done.send(());
        let _ = watchdog.join();
        assert!(matches!(reply, Ok(None) | Err(_)), "no answer: {reply:?}");
        signal
    };
    // 6 GiB is more than the 4 GiB address space: the allocation fails, the
    // process aborts (unlimited, it would succeed and answer).
    assert_eq!(host("crash-alloc"), Some(SIGABRT));
    // A 1 ms deadline buys 3 s of CPU; spinning past it is SIGXCPU.
    let started = Instant::now();
    assert_eq!(host("spin"), Some(SIGXCPU));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// Signal numbers on Linux.
const SIGABRT: i32 = 6;
const SIGXCPU: i32 = 24;

#[test]
fn a_library_a_host_refuses_is_refused_with_the_same_reason_as_in_process() {
    use server::plugins::{HostCommand, Isolation, LoadOptions, PluginHost, TestPlugins};
    let dir = arena_tests::built_plugin_dir();
    let refusals = |isolation| {
        let options = LoadOptions {
            workers: 1,
            test_plugins: TestPlugins::Skip,
            isolation,
        };
        let (_, refused) = PluginHost::load_with(std::slice::from_ref(&dir), &options);
        let mut reasons: Vec<(String, String)> = refused
            .into_iter()
            .map(|r| (r.path.display().to_string(), r.reason))
            .collect();
        reasons.sort();
        reasons
    };
    let isolated = refusals(Isolation::Processes(HostCommand {
        exe: arena_tests::built_arena(),
        memory_mb: server::plugins::process::DEFAULT_MEMORY_MB,
    }));
    // The ABI 2 library and the test-only one, each for its own reason.
    assert!(
        isolated.iter().any(
            |(path, why)| path.ends_with(&arena_tests::plugin_file("test-abi2"))
                && why.contains("ABI major 2")
        ),
        "{isolated:?}"
    );
    assert_eq!(isolated, refusals(Isolation::InProcess));
}
