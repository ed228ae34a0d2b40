//! Plugin conformance: every built plugin, and the SDK's worked example
//! plugins (`variants/plugin-sdk/examples/`, one per family of rules), loaded
//! through the real host (real `dlopen`), for every parameter set x
//! difficulty x several seeds. What a plugin
//! generates is verified by the engine from the puzzle file itself, never by asking
//! the plugin. Needs the plugins built first (`make test` runs `cargo build
//! --workspace`).
//!
//! `ARENA_CONFORMANCE_PLUGIN=path/to/libmy_variant.so` runs the suite on that one
//! plugin alone (beside the test-only misbehaving plugin, which the host tests
//! need): `make conformance PLUGIN=variant-my-variant` builds both and runs it,
//! with no npm, no Chromium and no other variant.

use arena_tests::built_plugin_dir;
use engine::check::check_solution;
use engine::v1::{from_v1, to_grid};
use engine::Difficulty;
use plugin_abi::{op, status};
use protocol::plugin::{
    CheckResponse, CountRequest, CountResponse, GenerateRequest, GridRequest, HintKind,
    HintResponse, Manifest, Params, SolveRequest, SolveResponse,
};
use protocol::PuzzleV1;
use server::plugins::{HostCommand, Isolation, LoadOptions, PluginError, PluginHost, TestPlugins};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BUNDLED: [&str; 14] = [
    "classic",
    "x-sudoku",
    "windoku",
    "anti-knight",
    "gattai",
    "jigsaw",
    "thermo",
    "arrow",
    "kropki",
    "xv",
    "even-odd",
    "little-killer",
    "sandwich",
    "renban-whispers",
];
const DEADLINE: Duration = Duration::from_secs(60);

/// The SDK's worked example plugins: (cargo example name, variant id).
const EXAMPLES: [(&str, &str); 2] = [
    ("non_consecutive", "example-non-consecutive"),
    ("corner_sum", "example-corner-sum"),
];

/// A directory holding the worked example plugins alone (cargo's examples
/// directory also keeps hashed copies of each, which would load twice).
fn examples_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, _) in EXAMPLES {
        let file = format!(
            "{}{name}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        );
        let from = built_plugin_dir().join("examples").join(&file);
        // A hard link where it can (a copy is 40 MB per plugin in a debug
        // build, and this directory stays behind in the system's temporary
        // directory after the run).
        let to = dir.join(&file);
        let placed =
            std::fs::hard_link(&from, &to).or_else(|_| std::fs::copy(&from, &to).map(drop));
        placed.unwrap_or_else(|e| {
            panic!(
                "{}: {e} (build it first: cargo build --workspace --examples)",
                from.display()
            )
        });
    }
    dir
}

/// The directories the suite loads: one focused plugin, or every built
/// plugin and the worked examples.
fn plugin_dirs() -> Vec<PathBuf> {
    static EXAMPLES_DIR: OnceLock<PathBuf> = OnceLock::new();
    match focus() {
        Some(p) => vec![focused_dir(&p)],
        None => vec![
            built_plugin_dir(),
            EXAMPLES_DIR.get_or_init(examples_dir).clone(),
        ],
    }
}

/// The one plugin file under test, when the suite runs on a plugin alone.
fn focus() -> Option<PathBuf> {
    std::env::var_os("ARENA_CONFORMANCE_PLUGIN").map(PathBuf::from)
}

/// A directory holding only the focused plugin and the misbehaving one.
fn focused_dir(plugin: &Path) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-conformance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let misbehave = arena_tests::plugin_file("test-misbehave");
    for (from, name) in [
        (
            plugin.to_path_buf(),
            plugin.file_name().expect("a file").to_owned(),
        ),
        (built_plugin_dir().join(&misbehave), misbehave.into()),
    ] {
        std::fs::copy(&from, dir.join(name))
            .unwrap_or_else(|e| panic!("{}: {e} (build it first)", from.display()));
    }
    dir
}

fn host() -> &'static PluginHost {
    static HOST: OnceLock<PluginHost> = OnceLock::new();
    HOST.get_or_init(|| {
        let dirs = plugin_dirs();
        let (host, refused) = PluginHost::load(&dirs, 8, TestPlugins::Load);
        // The only library meant to be refused: the ABI 2 entry of plugin_loading.
        let refused: Vec<_> = refused
            .iter()
            .filter(|r| !r.path.ends_with(arena_tests::plugin_file("test-abi2")))
            .collect();
        assert!(
            refused.is_empty(),
            "plugins refused in {dirs:?}: {refused:#?}"
        );
        let examples = EXAMPLES.map(|(_, id)| id);
        let expected: &[&str] = if focus().is_some() { &[] } else { &BUNDLED };
        let examples: &[&str] = if focus().is_some() { &[] } else { &examples };
        for id in expected.iter().chain(examples).chain(&["test-misbehave"]) {
            assert!(
                host.manifest(id).is_some(),
                "plugin '{id}' not found in {dirs:?}: run `cargo build --workspace --examples` first"
            );
        }
        assert!(
            host.manifests().count() >= 2,
            "no plugin to check in {dirs:?}"
        );
        host
    })
}

/// The same plugins in host processes, one per plugin, as `arena serve` runs
/// them: for the deadline and crash checks.
fn isolated_host() -> &'static PluginHost {
    static HOST: OnceLock<PluginHost> = OnceLock::new();
    HOST.get_or_init(|| {
        let dirs = plugin_dirs();
        let options = LoadOptions {
            workers: 1,
            test_plugins: TestPlugins::Load,
            isolation: Isolation::Processes(HostCommand {
                exe: arena_tests::built_arena(),
                memory_mb: server::plugins::process::DEFAULT_MEMORY_MB,
            }),
        };
        let (host, _) = PluginHost::load_with(&dirs, &options);
        assert_eq!(
            host.manifests().count(),
            self::host().manifests().count(),
            "every plugin also loads in a host process (is `arena` built?)"
        );
        host
    })
}

fn generate(id: &str, params: &Params, difficulty: &str, seed: &str) -> PuzzleV1 {
    let req = GenerateRequest {
        minimal: false,
        params: params.clone(),
        difficulty: difficulty.into(),
        seed: seed.into(),
    };
    host()
        .generate(id, &req, DEADLINE)
        .unwrap_or_else(|e| panic!("{id} {params:?} {difficulty} {seed}: {e}"))
}

/// The engine's own verdict on a generated puzzle, from the file alone; the clue
/// count is checked against the range the variant's manifest declares.
fn verify_with_engine(
    what: &str,
    p: &PuzzleV1,
    difficulty: &str,
    clue_range: (u32, u32),
) -> Vec<u8> {
    let loaded = from_v1(p).unwrap_or_else(|e| panic!("{what}: not a valid v1 puzzle: {e}"));
    let model = loaded.puzzle.model();
    let count = loaded.puzzle.count(2);
    assert!(count.is_unique(), "{what}: {count} solutions");
    let solution = loaded
        .solution
        .unwrap_or_else(|| panic!("{what}: no solution shipped"));
    check_solution(model, &solution)
        .unwrap_or_else(|e| panic!("{what}: solution breaks a rule: {e}"));
    assert_eq!(
        count.first.as_deref(),
        Some(&solution[..]),
        "{what}: shipped solution differs"
    );
    let d: Difficulty = difficulty.parse().expect("standard difficulty");
    // The label is the grade: published, and the logical solver's own.
    let grade = p
        .grade
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: no grade published"));
    assert_eq!(
        grade.tier, difficulty,
        "{what}: labelled {difficulty}, graded {grade:?}"
    );
    if model.cell_count() <= 81 {
        let own = engine::logic::grade(
            model,
            loaded.puzzle.givens(),
            engine::logic::Options { uniqueness: true },
        );
        assert_eq!(
            own.tier,
            Some(d),
            "{what}: the published grade is not the solver's"
        );
    }
    let (lo, hi) = (clue_range.0 as usize, clue_range.1 as usize);
    let clues = loaded.puzzle.clue_count();
    assert!(clues <= hi, "{what}: {clues} clues, band {lo}..={hi}");
    if d != Difficulty::Extreme {
        assert!(clues >= lo, "{what}: {clues} clues, band {lo}..={hi}");
    }
    solution
}

/// A grid holding one wrong entry: a cell repeating a value of its house (a
/// given's, or, in a puzzle without givens, one correct entry's, filled in
/// too). The grid and the wrong cell.
fn planted_mistake(p: &PuzzleV1, solution: &[u8]) -> (Vec<u8>, usize) {
    let loaded = from_v1(p).expect("valid");
    let (model, givens) = (loaded.puzzle.model(), loaded.puzzle.givens());
    let house = &model.houses()[0];
    let source = house
        .cells
        .iter()
        .copied()
        .find(|&c| givens[c as usize] != 0)
        .unwrap_or(house.cells[0]) as usize;
    let wrong = house
        .cells
        .iter()
        .copied()
        .find(|&c| c as usize != source && givens[c as usize] == 0)
        .expect("a house with an empty cell") as usize;
    let mut grid = givens.to_vec();
    grid[source] = solution[source];
    grid[wrong] = solution[source];
    assert_ne!(solution[wrong], solution[source]);
    (grid, wrong)
}

fn checks_and_hints(id: &str, what: &str, p: &PuzzleV1, solution: &[u8]) {
    let loaded = from_v1(p).expect("valid");
    let model = loaded.puzzle.model();
    let givens = loaded.puzzle.givens().to_vec();
    let grid_req = |values: &[u8]| GridRequest {
        puzzle: p.clone(),
        grid: to_grid(model, values),
        marks: None,
    };
    // The solution itself breaks nothing.
    let ok: CheckResponse = host()
        .call(id, op::CHECK, &grid_req(solution), DEADLINE)
        .expect("check");
    assert!(
        ok.cells.is_empty(),
        "{what}: check flags a correct grid: {:?}",
        ok.cells
    );
    // A planted repeat is found.
    let (wrong, cell) = planted_mistake(p, solution);
    let found: CheckResponse = host()
        .call(id, op::CHECK, &grid_req(&wrong), DEADLINE)
        .expect("check");
    assert!(
        found.cells.contains(&model.coord(cell)),
        "{what}: planted mistake at {:?} not found",
        model.coord(cell)
    );
    // The planted wrong value is what the hint points at.
    let h: HintResponse = host()
        .call(id, op::HINT, &grid_req(&wrong), DEADLINE)
        .expect("hint");
    let hint = h.hint.expect("a hint");
    assert_eq!(
        (hint.kind, hint.cell),
        (HintKind::Wrong, model.coord(cell)),
        "{what}"
    );
    // Following hints from the givens never contradicts the solution.
    let mut values = givens;
    for _ in 0..12 {
        let h: HintResponse = host()
            .call(id, op::HINT, &grid_req(&values), DEADLINE)
            .expect("hint");
        let Some(hint) = h.hint else { break };
        let c = model
            .cell_at(hint.cell[0], hint.cell[1])
            .expect("hint cell is active");
        assert_ne!(hint.kind, HintKind::Wrong, "{what}: no entry is wrong yet");
        assert_hint_true(&hint, model, solution, what);
        assert!(!hint.explanation.is_empty() && !hint.clue.is_empty());
        // Move on as a player would once the step is understood.
        values[c] = solution[c];
    }
    // Without a shipped solution the plugin solves the puzzle itself.
    let mut bare = p.clone();
    bare.solution = None;
    let req = GridRequest {
        puzzle: bare,
        grid: to_grid(model, loaded.puzzle.givens()),
        marks: None,
    };
    let h: HintResponse = host().call(id, op::HINT, &req, DEADLINE).expect("hint");
    let hint = h.hint.expect("a hint");
    assert_hint_true(
        &hint,
        model,
        solution,
        &format!("{what}, no shipped solution"),
    );
    // count and solve agree with the engine.
    let c: CountResponse = host()
        .call(
            id,
            op::COUNT,
            &CountRequest {
                puzzle: p.clone(),
                limit: 2,
            },
            DEADLINE,
        )
        .expect("count");
    assert_eq!(c.solutions, 1, "{what}");
    let s: SolveResponse = host()
        .call(id, op::SOLVE, &SolveRequest { puzzle: p.clone() }, DEADLINE)
        .expect("solve");
    assert!(s.unique, "{what}");
    assert_eq!(s.solution, Some(to_grid(model, solution)), "{what}");
}

/// Every loaded plugin but the deliberately broken one: a new variant crate is
/// covered as soon as it is built.
fn conforming_plugins() -> Vec<Manifest> {
    host()
        .manifests()
        .filter(|m| m.id != "test-misbehave")
        .cloned()
        .collect()
}

#[test]
fn every_built_variant_conforms() {
    for manifest in conforming_plugins() {
        let id = manifest.id.as_str();
        eprintln!("conformance: checking '{id}' ({})", manifest.name);
        assert!(!manifest.name.is_empty() && !manifest.rules.is_empty());
        for params in manifest.parameter_sets() {
            for difficulty in &manifest.difficulties_for(&params) {
                let clues = manifest.clue_range(&params, difficulty).unwrap_or_else(|| {
                    panic!("{id} {params:?} {difficulty}: no clue range declared")
                });
                for seed in ["conformance-1", "conformance-2", "2026-01-15"] {
                    let what = format!("{id} {params:?} {difficulty} {seed}");
                    let a = generate(id, &params, difficulty, seed);
                    let b = generate(id, &params, difficulty, seed);
                    assert_eq!(
                        rmp_serde::to_vec_named(&a).expect("encode"),
                        rmp_serde::to_vec_named(&b).expect("encode"),
                        "{what}: same seed, different puzzle"
                    );
                    assert_eq!(a.variant.as_deref(), Some(id));
                    let solution = verify_with_engine(&what, &a, difficulty, clues);
                    if seed == "conformance-1" {
                        checks_and_hints(id, &what, &a, &solution);
                    }
                }
            }
        }
    }
}

#[test]
fn malformed_requests_get_errors_and_unknown_ops_unsupported() {
    let sample = reference_puzzle("malformed");
    let valid = rmp_serde::to_vec_named(&SolveRequest {
        puzzle: sample.clone(),
    })
    .expect("encode");
    let mut bad_puzzle = sample.clone();
    bad_puzzle.houses[0].cells[0] = [99, 0];
    let invalid = rmp_serde::to_vec_named(&SolveRequest { puzzle: bad_puzzle }).expect("encode");
    for manifest in conforming_plugins() {
        let id = manifest.id.as_str();
        for op_code in [op::GENERATE, op::CHECK, op::COUNT, op::SOLVE, op::HINT] {
            for (name, bytes) in [
                ("garbage", vec![0xc1, 0x00, 0xff]),
                ("truncated", valid[..valid.len() / 2].to_vec()),
                ("empty", Vec::new()),
            ] {
                let answer = host()
                    .call_raw(id, op_code, bytes, DEADLINE)
                    .expect("an answer");
                assert_eq!(
                    answer.status,
                    status::BAD_REQUEST,
                    "{id} op {op_code} {name}"
                );
            }
        }
        let answer = host()
            .call_raw(id, op::SOLVE, invalid.clone(), DEADLINE)
            .expect("an answer");
        assert_eq!(answer.status, status::BAD_REQUEST, "{id}: invalid puzzle");
        let e: protocol::plugin::ErrorResponse =
            rmp_serde::from_slice(&answer.bytes).expect("error body");
        assert!(
            e.message.contains("outside the") && e.message.contains("layout"),
            "{id}: {}",
            e.message
        );
        let answer = host()
            .call_raw(id, 999, Vec::new(), DEADLINE)
            .expect("an answer");
        assert_eq!(answer.status, status::UNSUPPORTED, "{id}: unknown op");
        let bad = GenerateRequest {
            minimal: false,
            params: Params::from([("nonsense".to_string(), protocol::ParamValue::Bool(true))]),
            difficulty: "easy".into(),
            seed: "x".into(),
        };
        let err = host()
            .generate(id, &bad, DEADLINE)
            .expect_err("unknown parameter");
        assert!(err.to_string().contains("no parameter 'nonsense'"), "{err}");
    }
}

/// The plugin the host tests use as a well-behaved one: classic when loaded,
/// else the plugin under test; with its default parameters and first difficulty.
fn reference() -> (Manifest, Params, String) {
    let manifests = conforming_plugins();
    let m = manifests
        .iter()
        .find(|m| m.id == "classic")
        .or(manifests.first())
        .cloned()
        .expect("a conforming plugin");
    let params = m.with_defaults(&Params::new());
    let difficulty = m.difficulties.first().cloned().expect("a difficulty");
    (m, params, difficulty)
}

/// A puzzle from the reference plugin.
fn reference_puzzle(seed: &str) -> PuzzleV1 {
    let (m, params, difficulty) = reference();
    generate(&m.id, &params, &difficulty, seed)
}

/// Generates a puzzle with a well-behaved plugin, proving the host still serves
/// other variants.
fn another_plugin_still_works() {
    let (m, params, difficulty) = reference();
    let p = generate(&m.id, &params, &difficulty, "still-alive");
    let clues = m
        .clue_range(&params, &difficulty)
        .expect("the reference declares its clues");
    verify_with_engine("after misbehaviour", &p, &difficulty, clues);
}

#[test]
fn a_misbehaving_plugin_cannot_hurt_the_host() {
    let id = "test-misbehave";
    let req = GenerateRequest {
        minimal: false,
        params: Params::new(),
        difficulty: "easy".into(),
        seed: "x".into(),
    };
    let e = host().generate(id, &req, DEADLINE).expect_err("panics");
    assert!(
        matches!(&e, PluginError::Panicked { message, .. } if message.contains("always panics")),
        "{e}"
    );
    another_plugin_still_works();

    let sample = reference_puzzle("misbehave");
    let count = CountRequest {
        puzzle: sample.clone(),
        limit: 2,
    };
    let started = Instant::now();
    let e = host()
        .call::<_, CountResponse>(id, op::COUNT, &count, Duration::from_millis(300))
        .expect_err("hangs");
    assert!(matches!(e, PluginError::Deadline { .. }), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the host waited {:?}",
        started.elapsed()
    );
    // While that call still hangs on its worker, everything else goes on.
    another_plugin_still_works();

    let solve = SolveRequest {
        puzzle: sample.clone(),
    };
    let e = host()
        .call::<_, SolveResponse>(id, op::SOLVE, &solve, DEADLINE)
        .expect_err("garbage");
    assert!(matches!(e, PluginError::Garbage { .. }), "{e}");
    let grid = GridRequest {
        puzzle: sample.clone(),
        grid: sample.grid.clone(),
        marks: None,
    };
    let e = host()
        .call::<_, CheckResponse>(id, op::CHECK, &grid, DEADLINE)
        .expect_err("too large");
    assert!(e.to_string().contains("exceeds"), "{e}");
    let e = host()
        .call::<_, HintResponse>(id, op::HINT, &grid, DEADLINE)
        .expect_err("wrong shape");
    assert!(matches!(e, PluginError::Garbage { .. }), "{e}");
    let e = host()
        .call::<_, CountResponse>(id, 77, &count, DEADLINE)
        .expect_err("unsupported");
    assert!(matches!(e, PluginError::Unsupported(_)), "{e}");
    another_plugin_still_works();
}

/// How long past its deadline the server lets a plugin answer before it kills
/// the plugin's host (`server::plugins::process::KILL_GRACE`).
const KILL_GRACE: Duration = server::plugins::process::KILL_GRACE;

/// Held by the tests that time the isolated hosts against their deadlines and
/// by the one that makes a host spin, allocate and crash: on a two-core
/// machine a spinning host beside a plugin racing a 20 ms deadline is the
/// machine's load, not the plugin's lateness.
static TIMED_HOSTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes [`TIMED_HOSTS`] (a test that panicked holding it leaves it usable).
fn timed_hosts() -> std::sync::MutexGuard<'static, ()> {
    TIMED_HOSTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn every_plugin_answers_within_its_deadline() {
    // A deadline too short for the hardest kinds: the plugin must notice and
    // answer (a puzzle, or `DEADLINE`) before the server kills its host.
    let deadline = Duration::from_millis(20);
    let _alone = timed_hosts();
    for manifest in conforming_plugins() {
        let id = manifest.id.as_str();
        for params in manifest.parameter_sets() {
            for difficulty in &manifest.difficulties_for(&params) {
                let req = GenerateRequest {
                    minimal: false,
                    params: params.clone(),
                    difficulty: difficulty.clone(),
                    seed: "deadline".into(),
                };
                let asked = Instant::now();
                let outcome = isolated_host().generate(id, &req, deadline);
                let took = asked.elapsed();
                let what = format!("{id} {params:?} {difficulty}");
                match outcome {
                    Ok(_) | Err(PluginError::Deadline { .. }) => {}
                    Err(e) => panic!("{what}: {e}"),
                }
                let killed = isolated_host()
                    .host_stats(id)
                    .map_or(0, |s| s.killed + s.crashed);
                assert_eq!(
                    killed, 0,
                    "{what}: ignored its {deadline:?} deadline: the server killed its host \
                     (an answer is due within {KILL_GRACE:?} of the deadline; took {took:?})"
                );
            }
        }
        eprintln!("conformance: '{id}' answers within its deadline");
    }
    // A host the server killed for a late answer is counted as the server
    // moves on, which may be just after the call above returned: looked at
    // again once every plugin has been asked, none was killed.
    for manifest in conforming_plugins() {
        let stats = isolated_host().host_stats(&manifest.id);
        assert_eq!(
            stats.map(|s| s.killed + s.crashed),
            Some(0),
            "{}: a host was killed for ignoring its {deadline:?} deadline",
            manifest.id
        );
    }
}

#[test]
fn what_the_server_does_with_a_crashing_plugin() {
    // The misbehaving plugin's faults, in a host process: what an author whose
    // plugin does one of these would see. The server answers, names the
    // variant, replaces the host; the other plugins are untouched.
    let id = "test-misbehave";
    let _alone = timed_hosts();
    let (faults, _) = arena_tests::serve::misbehave_faults(isolated_host());
    assert!(faults.len() >= 6, "{faults:?}");
    for fault in &faults {
        let req = GenerateRequest {
            minimal: false,
            params: Params::new(),
            difficulty: fault.clone(),
            seed: "x".into(),
        };
        let before = isolated_host().host_stats(id).expect("isolated");
        let asked = Instant::now();
        let e = isolated_host()
            .generate(id, &req, Duration::from_millis(500))
            .expect_err("a fault");
        let took = asked.elapsed();
        // The next call waits for the replacement host (one worker).
        isolated_host()
            .call_raw(id, op::MANIFEST, Vec::new(), DEADLINE)
            .expect("the replacement answers");
        let after = isolated_host().host_stats(id).expect("isolated");
        eprintln!(
            "conformance: {fault:>14} -> answered in {took:>7.1?}: {e}; players read \"{}\"; \
             hosts started {}, crashed {}, killed {}",
            e.for_players(),
            after.started - before.started,
            after.crashed - before.crashed,
            after.killed - before.killed,
        );
        assert!(took < Duration::from_millis(1500), "{fault}: {took:?}");
        let expected = match fault.as_str() {
            "garbage" => matches!(e, PluginError::Garbage { .. }),
            "hang" | "spin" => {
                matches!(e, PluginError::Deadline { .. }) && after.killed == before.killed + 1
            }
            _ => matches!(e, PluginError::Crashed { .. }) && after.crashed == before.crashed + 1,
        };
        assert!(expected, "{fault}: {e:?} {before:?} -> {after:?}");
        assert!(
            e.for_players().contains(id),
            "{fault}: the variant is named"
        );
    }
    for m in conforming_plugins() {
        assert_eq!(
            isolated_host()
                .host_stats(&m.id)
                .map(|s| s.crashed + s.killed),
            Some(0),
            "{}: untouched",
            m.id
        );
    }
}

/// A hint's placement is the solution's value and none of its eliminations
/// removes a solution value.
fn assert_hint_true(
    hint: &protocol::plugin::Hint,
    model: &engine::Model,
    solution: &[u8],
    what: &str,
) {
    let c = model
        .cell_at(hint.cell[0], hint.cell[1])
        .expect("hint cell is active");
    if let Some(v) = hint.value {
        assert_eq!(
            v,
            u32::from(solution[c]),
            "{what}: hint contradicts the solution"
        );
    }
    for &[r, col, v] in &hint.eliminations {
        let e = model.cell_at(r, col).expect("elimination cell is active");
        assert_ne!(
            v,
            u32::from(solution[e]),
            "{what}: {} removes the solution",
            hint.technique
        );
    }
    assert!(
        hint.value.is_some() || !hint.eliminations.is_empty(),
        "{what}: a step must place or remove something"
    );
}
