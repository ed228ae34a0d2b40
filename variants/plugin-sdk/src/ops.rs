//! The plugin operations, implemented once for every variant on top of the engine.
//!
//! `generate` needs the variant's model; `check`, `count`, `solve` and `hint` read
//! every rule from the v1 puzzle they are given, so they never depend on the
//! variant's own code.

use crate::context::{GenerateContext, GenerateError};
use crate::{label, params, Plugin};
use engine::check::{check_solution, conflicting_cells};
use engine::logic::{
    self,
    explain::{cell_name, clue, explain, house_cells},
};
use engine::v1::{from_v1, grid_marks, grid_values, to_grid, to_v1, Loaded};
use engine::{Difficulty, Solution};
use plugin_abi::{op, status};
use protocol::plugin::{
    CheckResponse, CountRequest, CountResponse, GenerateRequest, GenerateResponse, GridRequest,
    Hint, HintKind, HintResponse, SolveRequest, SolveResponse,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::time::Instant;

/// The most solutions `count` will look for.
pub const MAX_COUNT_LIMIT: u32 = 10_000;

/// Why an operation produced no answer: a [`status`] code and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// One of [`plugin_abi::status`].
    pub status: i32,
    /// For the host's logs and, where safe, the player.
    pub message: String,
}

impl Failure {
    fn bad(message: impl ToString) -> Failure {
        Failure {
            status: status::BAD_REQUEST,
            message: message.to_string(),
        }
    }

    fn error(message: impl ToString) -> Failure {
        Failure {
            status: status::ERROR,
            message: message.to_string(),
        }
    }
}

/// Runs operation `op` on `request` (MessagePack) and returns the encoded answer.
pub fn handle(
    plugin: &Plugin,
    op_code: u32,
    request: &[u8],
    deadline: Option<Instant>,
) -> Result<Vec<u8>, Failure> {
    match op_code {
        op::MANIFEST => encode(plugin.manifest()),
        op::GENERATE => encode(&generate(plugin, &decode(request)?, deadline)?),
        op::CHECK => encode(&check(&decode(request)?)?),
        op::COUNT => encode(&count(&decode(request)?)?),
        op::SOLVE => encode(&solve(&decode(request)?)?),
        op::HINT => encode(&hint(&decode(request)?)?),
        other => Err(Failure {
            status: status::UNSUPPORTED,
            message: format!("unsupported operation {other}"),
        }),
    }
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Failure> {
    rmp_serde::from_slice(bytes).map_err(|e| Failure::bad(format!("malformed request: {e}")))
}

fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, Failure> {
    rmp_serde::to_vec_named(value).map_err(|e| Failure::error(format!("cannot encode answer: {e}")))
}

/// How many more seeds (`seed~1`, `seed~2`, …) `generate` derives when a
/// puzzle's proved tier is not the one asked for, before it gives up. A tier
/// offered at all is reached by the first seed nearly always (see the labels
/// table in docs/benchmarks.md); the tries are bounded by the deadline too.
const RESEEDS: usize = 32;

/// A unique puzzle for the request's parameters, difficulty and seed, made by
/// the variant's `generate` hook, whose proved tier is the one asked for: its
/// label is its grade. A puzzle that misses is made again from a seed derived
/// from the request's (a seed that hits keeps its puzzle), up to [`RESEEDS`]
/// times.
pub fn generate(
    plugin: &Plugin,
    req: &GenerateRequest,
    deadline: Option<Instant>,
) -> Result<GenerateResponse, Failure> {
    let manifest = plugin.manifest();
    let params = params::resolve(manifest, &req.params).map_err(Failure::bad)?;
    if !manifest.offers(&params, &req.difficulty) {
        return Err(Failure::bad(format!(
            "{} does not offer difficulty '{}' for these parameters ({})",
            manifest.id,
            req.difficulty,
            manifest.difficulties_for(&params).join(", ")
        )));
    }
    let difficulty: Difficulty = req.difficulty.parse().map_err(Failure::bad)?;
    let (lo, hi) = manifest
        .clue_range(&params, &req.difficulty)
        .ok_or_else(|| {
            Failure::error(format!(
                "{} declares no clue range for {} with {params:?}",
                manifest.id, req.difficulty
            ))
        })?;
    let mut missed = Vec::new();
    for attempt in 0..=RESEEDS {
        let seed = match attempt {
            0 => req.seed.clone(),
            n => format!("{}~{n}", req.seed),
        };
        let ctx = GenerateContext::new(
            params.clone(),
            difficulty,
            seed,
            deadline,
            (lo as usize, hi as usize),
        );
        let g = plugin.variant().generate(&ctx).map_err(|e| match e {
            GenerateError::Deadline => expired(label::Expired),
            GenerateError::Failed(message) => Failure::error(message),
        })?;
        let kept = ctx.kept_grade(g.puzzle.givens());
        let mut verdict = label::verdict(&g.puzzle, kept, deadline).map_err(expired)?;
        let mut made = g.puzzle;
        if verdict.tier == Some(difficulty) && req.minimal {
            match minimal_at_tier(&made, difficulty, deadline).map_err(expired)? {
                Some((minimal, minimal_verdict)) => (made, verdict) = (minimal, minimal_verdict),
                None => verdict.tier = None,
            }
        }
        if verdict.tier != Some(difficulty) {
            missed.push(verdict.tier.map_or(
                if req.minimal {
                    "not minimal"
                } else {
                    "unproved"
                },
                |t| t.as_str(),
            ));
            if engine::deadline_passed(deadline) {
                break;
            }
            continue;
        }
        let mut puzzle = to_v1(&made, Some(&g.solution));
        puzzle.grade = verdict.grade;
        puzzle.variant = Some(manifest.id.clone());
        puzzle.params = params;
        puzzle.difficulty = Some(req.difficulty.clone());
        puzzle.seed = Some(req.seed.clone());
        return Ok(GenerateResponse { puzzle });
    }
    Err(Failure::error(format!(
        "could not make a {} puzzle: {} tries graded {}",
        req.difficulty,
        missed.len(),
        missed.join(", ")
    )))
}

/// What a generation the deadline cut short answers.
fn expired(_: label::Expired) -> Failure {
    Failure {
        status: status::DEADLINE,
        message: "deadline passed while generating".into(),
    }
}

/// `puzzle` made minimal at `tier` (every given needed for uniqueness, the
/// tier kept), with its verdict; `None` if no clue order keeps the tier.
/// Gives up once `until` has passed.
fn minimal_at_tier(
    puzzle: &engine::Puzzle,
    tier: Difficulty,
    until: Option<Instant>,
) -> Result<Option<(engine::Puzzle, label::Verdict)>, label::Expired> {
    let model = puzzle.model_arc();
    let of = |givens: &[u8]| {
        let p = engine::Puzzle::new(std::sync::Arc::clone(model), givens.to_vec()).ok()?;
        Some(label::verdict(&p, None, until).map(|v| (p, v)))
    };
    // A verdict the deadline cut short keeps the clue, and the whole answer
    // is then thrown away.
    let cut_short = std::cell::Cell::new(false);
    let keeps = |givens: &[u8]| match of(givens) {
        Some(Ok((_, v))) => v.tier == Some(tier),
        Some(Err(label::Expired)) => {
            cut_short.set(true);
            false
        }
        None => false,
    };
    let givens = engine::generate::minimal_keeping(model, puzzle.givens(), keeps);
    if cut_short.get() {
        return Err(label::Expired);
    }
    givens.and_then(|g| of(&g)).transpose()
}

/// Reads the puzzle and the player's grid; the player's values never override givens.
fn puzzle_and_values(req: &GridRequest) -> Result<(Loaded, Vec<u8>), Failure> {
    let loaded = from_v1(&req.puzzle).map_err(|e| Failure::bad(format!("puzzle: {e}")))?;
    let entries = grid_values(loaded.puzzle.model(), &req.grid).map_err(Failure::bad)?;
    let values = loaded
        .puzzle
        .givens()
        .iter()
        .zip(&entries)
        .map(|(&g, &e)| if g != 0 { g } else { e })
        .collect();
    Ok((loaded, values))
}

/// The cells of the player's grid that break a rule.
pub fn check(req: &GridRequest) -> Result<CheckResponse, Failure> {
    let (loaded, values) = puzzle_and_values(req)?;
    let model = loaded.puzzle.model();
    let cells = conflicting_cells(model, &values)
        .into_iter()
        .map(|c| model.coord(c))
        .collect();
    Ok(CheckResponse { cells })
}

/// Solutions up to the limit.
pub fn count(req: &CountRequest) -> Result<CountResponse, Failure> {
    if req.limit == 0 || req.limit > MAX_COUNT_LIMIT {
        return Err(Failure::bad(format!(
            "limit {} is outside 1..={MAX_COUNT_LIMIT}",
            req.limit
        )));
    }
    let loaded = from_v1(&req.puzzle).map_err(|e| Failure::bad(format!("puzzle: {e}")))?;
    let c = loaded.puzzle.count(req.limit as usize);
    Ok(CountResponse {
        solutions: c.solutions as u32,
        limit: req.limit,
    })
}

/// A solution, and whether it is unique.
pub fn solve(req: &SolveRequest) -> Result<SolveResponse, Failure> {
    let loaded = from_v1(&req.puzzle).map_err(|e| Failure::bad(format!("puzzle: {e}")))?;
    let model = loaded.puzzle.model();
    Ok(match loaded.puzzle.solve() {
        Solution::None => SolveResponse {
            solution: None,
            unique: false,
        },
        Solution::Unique(s) => SolveResponse {
            solution: Some(to_grid(model, &s)),
            unique: true,
        },
        Solution::Several(s) => SolveResponse {
            solution: Some(to_grid(model, &s)),
            unique: false,
        },
    })
}

/// One next step for the player's grid, towards the puzzle's shipped solution
/// when it is valid, else towards the solution the engine finds (which must be
/// unique).
pub fn hint(req: &GridRequest) -> Result<HintResponse, Failure> {
    let (loaded, values) = puzzle_and_values(req)?;
    let model = loaded.puzzle.model();
    // A shipped solution that keeps every rule and the givens is used as is:
    // re-proving uniqueness of a near-minimal 25x25 on every hint can take seconds.
    let shipped = loaded.solution.as_ref().filter(|s| {
        check_solution(model, s).is_ok()
            && loaded
                .puzzle
                .givens()
                .iter()
                .zip(s.iter())
                .all(|(&g, &v)| g == 0 || g == v)
    });
    let solution = match shipped {
        Some(s) => s.clone(),
        None => match loaded.puzzle.solve() {
            Solution::Unique(s) => s,
            _ => {
                return Err(Failure::bad(
                    "hints need a puzzle with exactly one solution",
                ))
            }
        },
    };
    let marks = match &req.marks {
        Some(m) => Some(grid_marks(model, m).map_err(|e| Failure::bad(e.to_string()))?),
        None => None,
    };
    let hint = logic::hint(model, &solution, &values, marks.as_deref())
        .map(|h| to_protocol_hint(model, &h));
    Ok(HintResponse { hint })
}

/// A logical hint as the protocol carries it.
fn to_protocol_hint(model: &engine::Model, hint: &logic::Hint) -> Hint {
    let at = |cell: u32| model.coord(cell as usize);
    let sym = |v: u8| model.symbols()[usize::from(v) - 1];
    // A hint about one cell, with no technique behind it.
    let about = |kind, cell: u32, value: Option<u8>, explanation: String, clue: String| Hint {
        kind,
        cell: at(cell),
        value: value.map(u32::from),
        explanation,
        technique: String::new(),
        clue,
        cells: vec![at(cell)],
        eliminations: Vec::new(),
    };
    match hint {
        logic::Hint::WrongValue { cell } => about(
            HintKind::Wrong,
            *cell,
            None,
            format!(
                "{} is wrong: its value is not the solution's.",
                cell_name(model, *cell)
            ),
            format!("Check {}.", cell_name(model, *cell)),
        ),
        logic::Hint::WrongMarks { cell } => about(
            HintKind::WrongMarks,
            *cell,
            None,
            format!(
                "The pencil marks of {} leave out its value: mark it again.",
                cell_name(model, *cell)
            ),
            format!("Check the pencil marks of {}.", cell_name(model, *cell)),
        ),
        logic::Hint::Reveal { placement } => about(
            HintKind::Reveal,
            placement.cell,
            Some(placement.value),
            format!(
                "No technique this solver knows applies here; {} is {}.",
                cell_name(model, placement.cell),
                sym(placement.value)
            ),
            format!("Try {}.", cell_name(model, placement.cell)),
        ),
        logic::Hint::Step(step) => {
            let kind = match step.technique {
                logic::Technique::NakedSingle => HintKind::NakedSingle,
                logic::Technique::HiddenSingle | logic::Technique::FullHouse => {
                    HintKind::HiddenSingle
                }
                _ => HintKind::Technique,
            };
            let first = step
                .placements
                .first()
                .or(step.pattern.first())
                .or(step.eliminations.first());
            // Where to look: the houses the step works in (the pattern itself
            // would give the answer away), else the pattern's cells.
            let mut cells: Vec<_> = if step.houses.is_empty() {
                step.pattern.iter().map(|c| at(c.cell)).collect()
            } else {
                step.houses
                    .iter()
                    .flat_map(|&h| house_cells(model, h).iter().map(|&c| at(c)))
                    .collect()
            };
            cells.sort_unstable();
            cells.dedup();
            Hint {
                kind,
                cell: first.map_or([0, 0], |c| at(c.cell)),
                value: step.placements.first().map(|p| u32::from(p.value)),
                explanation: explain(model, step),
                technique: step.technique.name().to_string(),
                clue: clue(model, step),
                cells,
                eliminations: step
                    .eliminations
                    .iter()
                    .map(|e| {
                        let [r, c] = at(e.cell);
                        [r, c, u32::from(e.value)]
                    })
                    .collect(),
            }
        }
    }
}
