// Generated from the Rust types in protocol/ by tests/tests/typescript.rs.
// Do not edit: run `UPDATE_TS=1 cargo test -p arena-tests --test typescript`.
// Frames are MessagePack with named fields; `Params` is a string-keyed map.

export type Params = { [key: string]: ParamValue };

export type ParamValue = boolean | number | string;

export type Layout = { 
/**
 * Number of rows.
 */
rows: number, 
/**
 * Number of columns.
 */
cols: number, };

export type HouseKind = "row" | "column" | "box" | "region" | "diagonal" | "window" | "extra" | "unknown";

export type House = { 
/**
 * How the house is drawn.
 */
kind: HouseKind, 
/**
 * The cells of the house.
 */
cells: Array<[number, number]>, };

export type Cage = { 
/**
 * The cells of the cage.
 */
cells: Array<[number, number]>, 
/**
 * The sum of the cage's values.
 */
sum: number, };

export type Axis = "row" | "column";

export type Constraint = { "type": "even", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "odd", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "values", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * The digits it allows (or holds).
 */
values: Array<number>, } | { "type": "thermometer", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * Whether equal neighbours are allowed (a slow thermometer).
 */
slow: boolean, } | { "type": "arrow", 
/**
 * The circle (one cell) or pill (2-3 cells).
 */
circle: Array<[number, number]>, 
/**
 * The shaft's cells, without the circle.
 */
line: Array<[number, number]>, } | { "type": "difference", 
/**
 * The cells it covers, in order.
 */
cells: [[number, number], [number, number]], 
/**
 * The difference or ratio.
 */
value: number, } | { "type": "ratio", 
/**
 * The cells it covers, in order.
 */
cells: [[number, number], [number, number]], 
/**
 * The difference or ratio.
 */
value: number, } | { "type": "xv", 
/**
 * The cells it covers, in order.
 */
cells: [[number, number], [number, number]], 
/**
 * What the digits add up to.
 */
sum: number, } | { "type": "littleKiller", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * What the digits add up to.
 */
sum: number, 
/**
 * Where the clue is drawn, outside the grid.
 */
clue?: [number, number] | null, } | { "type": "sandwich", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * What the digits add up to.
 */
sum: number, 
/**
 * Where the clue is drawn, outside the grid.
 */
clue?: [number, number] | null, } | { "type": "cage", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * What the digits add up to.
 */
sum?: number | null, } | { "type": "renban", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "whispers", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * The least difference between neighbours.
 */
difference: number, } | { "type": "palindrome", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "between", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "zipper", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "entropic", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "regionSum", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "minimum", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "maximum", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, } | { "type": "quadruple", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * The digits it allows (or holds).
 */
values: Array<number>, } | { "type": "xSum", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * What the digits add up to.
 */
sum: number, 
/**
 * Where the clue is drawn, outside the grid.
 */
clue?: [number, number] | null, } | { "type": "skyscraper", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * How many digits are seen.
 */
count: number, 
/**
 * Where the clue is drawn, outside the grid.
 */
clue?: [number, number] | null, } | { "type": "indexer", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * Whether it indexes along rows or columns.
 */
axis: Axis, } | { "type": "clone", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * The cells copying `cells`, in the same order.
 */
clones: Array<[number, number]>, } | { "type": "nonConsecutive" } | { "type": "antiKing" } | { "type": "antiKnight" } | { "type": "disjointGroups" } | { "type": "negative", 
/**
 * Whether the negative ratio constraint holds.
 */
ratio: boolean, 
/**
 * Whether the negative XV constraint holds.
 */
xv: boolean, } | { "type": "table", 
/**
 * The cells it covers, in order.
 */
cells: Array<[number, number]>, 
/**
 * The allowed tuples, one digit per cell each.
 */
tuples: Array<Array<number>>, 
/**
 * The rule in words.
 */
description: string, };

export type ShapeKind = "circle" | "square";

export type Drawing = { "type": "line", 
/**
 * The cells it passes through.
 */
cells: Array<[number, number]>, 
/**
 * Its colour.
 */
color: string, 
/**
 * Its thickness.
 */
thickness: number, 
/**
 * Whether it ends in an arrowhead (an arrow's shaft).
 */
arrow: boolean, } | { "type": "shape", 
/**
 * The cells it covers.
 */
cells: Array<[number, number]>, 
/**
 * Circle or square.
 */
shape: ShapeKind, 
/**
 * The fill colour, if filled.
 */
fill?: string | null, 
/**
 * The outline colour, if outlined.
 */
stroke?: string | null, 
/**
 * Its size.
 */
size: number, 
/**
 * Whether it is one shape around every cell.
 */
joined: boolean, } | { "type": "dot", 
/**
 * The two cells.
 */
cells: [[number, number], [number, number]], 
/**
 * Its fill colour.
 */
fill: string, 
/**
 * Text inside it, if any (a value other than the usual one).
 */
text?: string | null, } | { "type": "letter", 
/**
 * The two cells.
 */
cells: [[number, number], [number, number]], 
/**
 * What it says.
 */
text: string, } | { "type": "corner", 
/**
 * The four cells around the point.
 */
cells: [[number, number], [number, number], [number, number], [number, number]], 
/**
 * Its fill colour.
 */
fill: string, 
/**
 * What it says (may be empty).
 */
text: string, } | { "type": "cage", 
/**
 * The cells it surrounds.
 */
cells: Array<[number, number]>, 
/**
 * The label (a sum), if any.
 */
label?: string | null, } | { "type": "clue", 
/**
 * Where it stands (may be -1, or the row/column count).
 */
at: [number, number], 
/**
 * What it says.
 */
text: string, 
/**
 * The way it points, as a row and column step (e.g. `[1, -1]`
 * down-left for a little killer); `None`: straight into the grid.
 */
direction?: [number, number] | null, } | { "type": "text", 
/**
 * The cell.
 */
cell: [number, number], 
/**
 * What it says.
 */
text: string, };

export type PuzzleGrade = { 
/**
 * The technique tier: `easy`, `medium`, `hard` or `extreme`.
 */
tier: string, 
/**
 * The hardest step's rating on Sudoku Explainer's scale, e.g. `3.2`;
 * empty when only the tier is proved (a grid too big to grade in full,
 * shown extreme because the hard techniques cannot finish it).
 */
rating: string, 
/**
 * The hardest step's technique, e.g. `X-Wing`; empty when only the tier
 * is proved.
 */
hardest: string, };

export type PuzzleV1 = { 
/**
 * [`PUZZLE_FORMAT_V1`], or [`PUZZLE_FORMAT_V2`] when it has constraints.
 */
format: string, 
/**
 * Variant id (informational, e.g. `"killer"`).
 */
variant?: string | null, 
/**
 * Variant parameters (informational, e.g. `{"box": "3x3"}`).
 */
params?: { [key in string]: ParamValue }, 
/**
 * Difficulty label (informational).
 */
difficulty?: string | null, 
/**
 * The seed string the puzzle was generated from, if any.
 */
seed?: string | null, 
/**
 * Publication date `YYYY-MM-DD`, if any.
 */
date?: string | null, 
/**
 * The setter's title, when the puzzle came with one (a pasted f-puzzles
 * or corpus puzzle).
 */
title?: string | null, 
/**
 * The setter, when known.
 */
author?: string | null, 
/**
 * The setter's rules, as written (the constraints say the same to the
 * solvers).
 */
rules?: string | null, 
/**
 * Number of values N: cells hold 1..=N.
 */
size: number, 
/**
 * Display symbols, one character per value; default `1`-`9` then `A`-`Z`.
 */
symbols?: string | null, 
/**
 * The bounding layout.
 */
layout: Layout, 
/**
 * Active cells; `None` means every cell of the layout.
 */
cells?: Array<[number, number]> | null, 
/**
 * Groups of cells whose values are all different.
 */
houses: Array<House>, 
/**
 * Killer cages: all different and adding up to `sum`.
 */
cages?: Array<Cage>, 
/**
 * Pairs of cells that must not hold the same value.
 */
different?: Array<[[number, number], [number, number]]>, 
/**
 * Rules of the modern vocabulary (format v2 only).
 */
constraints?: Array<Constraint>, 
/**
 * How to draw the constraints (informational: the server fills it in
 * for clients; readers ignore it).
 */
drawings?: Array<Drawing>, 
/**
 * The setter's cosmetic marks (f-puzzles' lines, circles, rectangles,
 * text and cages without a total): drawn as given, read by no rule.
 */
decorations?: Array<Drawing>, 
/**
 * What each kind of constraint means, a line per kind ("Thermometers
 * (3): digits strictly increase from the bulb …"; informational: the
 * server fills it in for clients' rules panels; readers ignore it).
 */
ruleNotes?: Array<string>, 
/**
 * `rows x cols` values: 0 = empty (or inactive), 1..=N = given.
 */
grid: Array<Array<number>>, 
/**
 * Number of givens (informational; checked when present).
 */
clueCount?: number | null, 
/**
 * The solution, `rows x cols`, 0 in inactive cells.
 */
solution?: Array<Array<number>> | null, 
/**
 * How a person solves it (informational; the logical solver's verdict).
 */
grade?: PuzzleGrade | null, };

export type SetterDraft = { 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters (missing ones take their defaults).
 */
params: { [key in string]: ParamValue }, 
/**
 * `rows x cols` givens: 0 = empty.
 */
grid: Array<Array<number>>, 
/**
 * Killer cages with their totals.
 */
cages: Array<Cage>, 
/**
 * Jigsaw regions: `rows x cols` region numbers (1 and up; 0 in inactive
 * cells), replacing the template's regions; empty keeps them.
 */
regions: Array<Array<number>>, 
/**
 * Constraints of the modern vocabulary (lines, dots, cells, global rules).
 */
constraints: Array<Constraint>, };

export type PuzzleCheck = { 
/**
 * Solutions found: 0, 1 or 2 (two means "two or more").
 */
solutions: number, 
/**
 * The count ran out of its budget before it could say (`solutions` is
 * then what it found so far).
 */
gave_up: boolean, 
/**
 * With two solutions or more: the cells where two of them differ.
 */
differing: Array<[number, number]>, 
/**
 * Once unique (and small enough to grade quickly): how a person solves it.
 */
grade: PuzzleGrade | null, 
/**
 * The puzzle as built from the draft, its constraints' drawings and rule
 * notes filled in (never a solution); absent when it cannot be built.
 */
puzzle: PuzzleV1 | null, 
/**
 * Why the puzzle cannot be read (a constraint off the layout, a given out
 * of range, …), naming what is wrong; then nothing was counted.
 */
problem: string | null, };

export type AnalysisStep = { 
/**
 * The technique ("Hidden Single", "X-Wing", "Innie/Outie", …).
 */
technique: string, 
/**
 * Its rating on Sudoku Explainer's scale, as written (`"2.6"`).
 */
rating: string, 
/**
 * The step in words.
 */
explanation: string, 
/**
 * Where to look: the cells of the houses it works in.
 */
cells: Array<[number, number]>, 
/**
 * The candidates that make its pattern: `[row, col, value]`.
 */
pattern: Array<[number, number, number]>, 
/**
 * Values it places: `[row, col, value]`.
 */
placements: Array<[number, number, number]>, 
/**
 * Candidates it removes: `[row, col, value]`.
 */
eliminations: Array<[number, number, number]>, 
/**
 * A killer step's cage, real or virtual (the 45 rule's): its cells.
 */
cage: Array<[number, number]>, 
/**
 * That cage's sum (0 without a cage).
 */
cage_sum: number, 
/**
 * Every cell the step changes, as it is afterwards: `[row, col, value,
 * candidates]` (value 0 while empty; candidates bit `v - 1` for `v`).
 */
after: Array<[number, number, number, number]>, };

export type Analysis = { 
/**
 * Every active cell at the start: `[row, col, value, candidates]`.
 */
start: Array<[number, number, number, number]>, 
/**
 * The steps, in order.
 */
steps: Array<AnalysisStep>, 
/**
 * Whether the steps solve it (false: the techniques ran out; the last
 * position is where a person would have to guess).
 */
solved: boolean, 
/**
 * The grade of the whole solve, when solved.
 */
grade: PuzzleGrade | null, };

export type ParamSpec = { 
/**
 * Key in [`Params`].
 */
key: string, 
/**
 * Display name.
 */
name: string, 
/**
 * Value used when the parameter is not given.
 */
default: ParamValue, 
/**
 * Every value accepted.
 */
allowed: Array<ParamValue>, 
/**
 * Display names of the allowed values, in the same order (since ABI 1.1;
 * where missing, a value is shown as itself), e.g. `Horizon` for `twin-nw`.
 */
labels?: Array<string>, };

export type ClueRange = { 
/**
 * The parameters this range is for: each key given here must have this
 * value (an empty map applies to every parameter set).
 */
when: { [key in string]: ParamValue }, 
/**
 * One of the manifest's difficulties.
 */
difficulty: string, 
/**
 * The fewest givens.
 */
min: number, 
/**
 * The most givens.
 */
max: number, };

export type Manifest = { 
/**
 * Stable variant id, e.g. `"x-sudoku"`.
 */
id: string, 
/**
 * Display name, e.g. `"X-Sudoku"`.
 */
name: string, 
/**
 * The rules, in a few sentences for players.
 */
rules: string, 
/**
 * The parameters the variant accepts.
 */
params: Array<ParamSpec>, 
/**
 * Difficulties it can generate, easiest first: for some parameter sets
 * only those with a clue range ([`Manifest::offers`]).
 */
difficulties: Array<string>, 
/**
 * The clue policy: how many givens a puzzle of each difficulty has (since
 * ABI 1.1; empty from older plugins). The first range that applies to a
 * parameter set and difficulty is the one its puzzles keep to; a
 * difficulty with no range for a parameter set is not offered for it.
 */
clues: Array<ClueRange>, };

export type HintKind = "wrong" | "naked_single" | "hidden_single" | "reveal" | "technique" | "wrong_marks" | "unknown";

export type Hint = { 
/**
 * Which reasoning the step uses.
 */
kind: HintKind, 
/**
 * The cell concerned.
 */
cell: [number, number], 
/**
 * The value to place (none for [`HintKind::Wrong`] and for steps that
 * only remove candidates).
 */
value: number | null, 
/**
 * A short explanation for the player.
 */
explanation: string, 
/**
 * The technique's name ("Hidden Single", "X-Wing", ...); empty for a wrong
 * entry or a reveal.
 */
technique: string, 
/**
 * The first stage of the hint: the technique and where to look, without
 * the answer.
 */
clue: string, 
/**
 * Where to look, to highlight: the houses the step works in, or the
 * cells of its pattern when it names no house.
 */
cells: Array<[number, number]>, 
/**
 * The candidates the step removes: `[row, col, value]`.
 */
eliminations: Array<[number, number, number]>, };

export type Mode = "race" | "solo" | "coop";

export type MistakePolicy = { "type": "none" } | { "type": "penalty", 
/**
 * Seconds per wrong digit.
 */
seconds: number, } | { "type": "lives", 
/**
 * Wrong digits allowed before being out.
 */
lives: number, };

export type HintPolicy = { "type": "off" } | { "type": "penalty", 
/**
 * Seconds per hint.
 */
seconds: number, };

export type RoomSettings = { 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters.
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * Race or solo.
 */
mode: Mode, 
/**
 * Listed in the lobby.
 */
public: boolean, 
/**
 * Player limit (1 for solo).
 */
max_players: number, 
/**
 * What a wrong digit costs.
 */
mistakes: MistakePolicy, 
/**
 * Whether hints are offered, and at what cost.
 */
hints: HintPolicy, 
/**
 * The puzzle of the day: a client asking for it sends any value (`"today"`);
 * the server plays the puzzle of its current UTC date for the variant,
 * parameters and difficulty, and puts that date (`YYYY-MM-DD`) here. Every
 * server agrees on it without talking. A daily room has no rematch.
 */
daily?: string | null, 
/**
 * A daily solo game against ghosts: the recorded games of up to five
 * players who finished the same puzzle of the day, fastest to slowest,
 * replayed as progress bars in real time (the room's `ghosts`).
 */
ghosts: boolean, 
/**
 * A daily solo game against my own best recorded game of the same puzzle
 * of the day, as a ghost named "Your best" (with `ghosts`, beside the
 * others'): a rematch against myself.
 */
own_best: boolean, 
/**
 * A puzzle the players bring, as pasted: an 81-character line (dots or
 * zeros for empty cells), a v1 puzzle or a daily archive file (JSON), or a
 * killer in the reference solver's text form (or `draft`, from the
 * setter). The server checks it (well
 * formed, exactly one solution) and the room plays it, under the variant it
 * names (`classic` for a plain line); `variant`, `params` and `difficulty`
 * are then the puzzle's. Never in a room view.
 */
puzzle?: string | null, 
/**
 * A puzzle set in the browser, played like a pasted one (never in a
 * room view).
 */
draft?: SetterDraft | null, 
/**
 * A quick race: opened by `quick_race` (never by `create_room`), public,
 * it starts by itself when full or a short wait after its second player,
 * and has no rematch (the next quick race is one click).
 */
quick: boolean, 
/**
 * A race whose result moves its racers' ratings (as a quick race's
 * does), marked so by its host when it is made. Races only.
 */
rated: boolean, 
/**
 * The arena tournament this race belongs to (its id): set by the server
 * on the races a tournament pairs, never by a client.
 */
tournament?: string | null, };

export type RoomState = "waiting" | "countdown" | "playing" | "finished";

export type RoomSummary = { 
/**
 * Join code.
 */
code: string, 
/**
 * Settings.
 */
settings: RoomSettings, 
/**
 * Players in it.
 */
players: number, 
/**
 * Its state.
 */
state: RoomState, 
/**
 * The host's display name.
 */
host: string, 
/**
 * Players connected right now (the lobby lists only rooms with someone in).
 */
connected: number, 
/**
 * A quick race: its racers' mean rating of its kind (a newcomer counts
 * 1500); null for other rooms.
 */
rating: number | null, };

export type PlayerView = { 
/**
 * Public player id.
 */
id: string, 
/**
 * Display name.
 */
name: string, 
/**
 * Cells filled on their board.
 */
filled: number, 
/**
 * Finish time in ms from the start (penalties included), once finished.
 */
finished_ms: number | null, 
/**
 * Wrong digits entered (counted under `penalty` and `lives`).
 */
mistakes: number, 
/**
 * Out of lives.
 */
out: boolean, 
/**
 * Race: left the running game (or stayed away past the grace window) and
 * forfeited; not ranked.
 */
left: boolean, 
/**
 * Hints taken.
 */
hints: number, 
/**
 * Said they are ready (waiting rooms; the host starts when they like).
 */
ready: boolean, 
/**
 * After a game: has voted for a rematch.
 */
rematch: boolean, };

export type PlayerBoard = { 
/**
 * Player id.
 */
player: string, 
/**
 * Rows x cols, 0 = empty, givens included.
 */
board: Array<Array<number>>, };

export type RoomView = { 
/**
 * Join code.
 */
code: string, 
/**
 * Settings.
 */
settings: RoomSettings, 
/**
 * State.
 */
state: RoomState, 
/**
 * The host's player id.
 */
host: string, 
/**
 * Everyone in the room.
 */
players: Array<PlayerView>, 
/**
 * The puzzle: geometry and givens, never the solution.
 */
puzzle: PuzzleV1 | null, 
/**
 * This player's board (rows x cols, 0 = empty), givens included; co-op:
 * the shared board (players and spectators). None before play and while paused.
 */
board: Array<Array<number>> | null, 
/**
 * The start instant on the server clock (ms since the Unix epoch).
 */
start_at: number | null, 
/**
 * A quick race waiting for players: when it starts by itself (ms since
 * the Unix epoch; the countdown follows), once it has two players.
 */
auto_start_at: number | null, 
/**
 * Whether this view is a spectator's.
 */
spectator: boolean, 
/**
 * The boards a spectator may see, once playing: in a race only those of
 * racers who are done (finished or out) until the game is over.
 */
boards: Array<PlayerBoard>, 
/**
 * Co-op: the last applied sequence number; events after it follow.
 */
seq: number, 
/**
 * Co-op: pencil marks of the shared board (rows x cols bitmasks).
 */
pencil: Array<Array<number>> | null, 
/**
 * Co-op: who put each value of the shared board (rows x cols of player
 * ids; "" for a given or an empty cell), so each shows in its author's colour.
 */
authors: Array<Array<string>> | null, 
/**
 * Solo: the clock is stopped and the board hidden.
 */
paused: boolean, 
/**
 * Solo: time spent paused so far, ms (the clock shows now - start_at - paused_ms).
 */
paused_ms: number, 
/**
 * A ghost race (`settings.ghosts`), once playing: the recorded games it
 * replays.
 */
ghosts: Array<GhostRun>, 
/**
 * Once playing: the puzzle as links other sites open (f-puzzles,
 * SudokuPad), to share it; empty when they cannot hold it.
 */
links?: Array<ShareLink>, };

export type Rank = { 
/**
 * 1 for the winner.
 */
rank: number, 
/**
 * Player id.
 */
player: string, 
/**
 * Display name.
 */
name: string, 
/**
 * Time from the start, ms.
 */
time_ms: number, };

export type BoardRow = { 
/**
 * 1 for the fastest.
 */
rank: number, 
/**
 * Display name.
 */
name: string, 
/**
 * Time the server measured, penalties included, ms.
 */
time_ms: number, 
/**
 * Of which penalties, ms.
 */
penalty_ms: number, 
/**
 * Whether this row is the asking player's.
 */
me: boolean, };

export type FlaggedTime = { 
/**
 * The solving time the server measured, penalties aside, ms.
 */
time_ms: number, 
/**
 * The puzzle's fastest plausible time, ms.
 */
plausible_ms: number, };

export type RatingChange = { 
/**
 * Player id.
 */
player: string, 
/**
 * Display name.
 */
name: string, 
/**
 * The rating before the race (1500 for a first race).
 */
before: number, 
/**
 * The rating after it.
 */
after: number, 
/**
 * Fewer than 5 rated races of this kind so far.
 */
provisional: boolean, };

export type RaceReview = { 
/**
 * Its id (the share link's `#review-<id>`).
 */
id: string, 
/**
 * Variant id.
 */
variant: string, 
/**
 * Every parameter, defaults filled in.
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * When the race ended (ms since the Unix epoch).
 */
at_ms: number, 
/**
 * The puzzle raced, solution included.
 */
puzzle: PuzzleV1, 
/**
 * The racers, winner first, then those who did not finish.
 */
racers: Array<ReviewRacer>, };

export type ReviewAct = "placed" | "mistake" | "erased" | "hint" | "candidates";

export type ReviewRacer = { 
/**
 * Display name.
 */
name: string, 
/**
 * 1 for the winner; none for a racer who did not finish.
 */
place: number | null, 
/**
 * Finish time from the start, penalties included, ms.
 */
time_ms: number | null, 
/**
 * Of which penalties (mistakes and hints), ms.
 */
penalty_ms: number, 
/**
 * Wrong digits.
 */
mistakes: number, 
/**
 * Hints taken.
 */
hints: number, 
/**
 * Left the race.
 */
forfeited: boolean, 
/**
 * Everything they did, in order.
 */
steps: Array<ReviewStep>, 
/**
 * Their right digits' time by tier, easiest first.
 */
by_tier: Array<TierTime>, };

export type ReviewStep = { 
/**
 * Milliseconds from the start.
 */
at_ms: number, 
/**
 * Milliseconds since the racer's previous step (or the start).
 */
took_ms: number, 
/**
 * What it was.
 */
act: ReviewAct, 
/**
 * Row (layout coordinates); 0 for `candidates`.
 */
row: number, 
/**
 * Column; 0 for `candidates`.
 */
col: number, 
/**
 * The digit put (`placed`, `mistake`); 0 otherwise.
 */
value: number, 
/**
 * For a right digit: the easiest technique that placed it from the
 * racer's board at that moment ("Hidden Single", "X-Wing", …); none
 * where the techniques here do not reach it (a guess, or a digit
 * the analysis had no time for).
 */
technique: string | null, 
/**
 * That technique's tier (`easy` … `extreme`).
 */
tier: string | null, };

export type TierTime = { 
/**
 * `easy` … `extreme`, or empty for digits no technique here reaches.
 */
tier: string, 
/**
 * Right digits of that tier.
 */
digits: number, 
/**
 * The time they took (each digit's `took_ms`), ms.
 */
ms: number, };

export type StandingRow = { 
/**
 * 1 for the leader (ties share a rank).
 */
rank: number, 
/**
 * Display name.
 */
name: string, 
/**
 * Points: by place (1st 4, 2nd 2, any other finish 1), doubled while on
 * a streak.
 */
points: number, 
/**
 * Races finished or not.
 */
races: number, 
/**
 * Races won.
 */
wins: number, 
/**
 * Two wins in a row: the next race's points count double.
 */
on_fire: boolean, 
/**
 * Their last places, newest last (0: did not finish).
 */
recent: Array<number>, 
/**
 * Whether this row is the asking player's.
 */
me: boolean, };

export type TournamentState = "scheduled" | "running" | "finished";

export type TournamentSummary = { 
/**
 * Its id.
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * Variant id.
 */
variant: string, 
/**
 * Every parameter, defaults filled in.
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * When it starts and ends (ms since the Unix epoch).
 */
starts_at_ms: number, 
/**
 * When no new race starts.
 */
ends_at_ms: number, 
/**
 * Where it is now.
 */
state: TournamentState, 
/**
 * Players in it.
 */
players: number, 
/**
 * The leader's name, once someone scored.
 */
leader: string | null, };

export type TournamentView = { 
/**
 * Its id (the link's `#tournament-<id>`).
 */
id: string, 
/**
 * Its name.
 */
name: string, 
/**
 * Variant id.
 */
variant: string, 
/**
 * Every parameter, defaults filled in.
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * Who created it.
 */
host: string, 
/**
 * When it starts and ends (ms since the Unix epoch).
 */
starts_at_ms: number, 
/**
 * When no new race starts.
 */
ends_at_ms: number, 
/**
 * Where it is now.
 */
state: TournamentState, 
/**
 * Races played so far.
 */
races: number, 
/**
 * The standings, leader first (the top 50 and my own row).
 */
standings: Array<StandingRow>, 
/**
 * Players in it.
 */
players: number, };

export type RatingRow = { 
/**
 * 1 for the highest.
 */
rank: number, 
/**
 * Display name.
 */
name: string, 
/**
 * The rating.
 */
rating: number, 
/**
 * Rated races of this kind.
 */
games: number, 
/**
 * Whether this row is the asking player's.
 */
me: boolean, };

export type GhostRun = { 
/**
 * The player's display name.
 */
name: string, 
/**
 * Their finish time, penalties included, ms.
 */
time_ms: number, 
/**
 * The cells to fill.
 */
cells: number, 
/**
 * `[ms from the start, cells right]` after each of their moves, in order.
 */
points: Array<[number, number]>, };

export type ShareLink = { 
/**
 * The site's name: `f-puzzles`, `SudokuPad`.
 */
site: string, 
/**
 * The whole link.
 */
url: string, };

export type BoardKind = "daily" | "weekly" | "all_time";

export type StatRow = { 
/**
 * Variant id.
 */
variant: string, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * Games finished (race and solo).
 */
solved: number, 
/**
 * Best time, ms.
 */
best_ms: number, 
/**
 * Average time, ms.
 */
average_ms: number, 
/**
 * The last (up to 10) times, oldest first: the trend.
 */
recent_ms: Array<number>, };

export type Contribution = { 
/**
 * Player id.
 */
player: string, 
/**
 * Display name.
 */
name: string, 
/**
 * Cells of the final board they filled.
 */
cells: number, };

export type CellMarks = { 
/**
 * Row.
 */
row: number, 
/**
 * Column.
 */
col: number, 
/**
 * Candidate bitmask.
 */
marks: number, };

export type CoopChange = { "type": "value", 
/**
 * Row.
 */
row: number, 
/**
 * Column.
 */
col: number, 
/**
 * 1..=N or 0.
 */
value: number, } | { "type": "pencil", 
/**
 * The cells and their marks.
 */
cells: Array<CellMarks>, };

export type ErrorCode = "malformed" | "not_introduced" | "version" | "invalid" | "no_room" | "closed" | "not_host" | "wrong_state" | "given" | "plugin" | "unsupported" | "rate_limited" | "spectator" | "unavailable" | "too_many";

export type ClientMessage = { "type": "hello", 
/**
 * [`PROTOCOL_VERSION`].
 */
version: number, 
/**
 * Display name (1-24 characters).
 */
name: string, 
/**
 * A session token to resume.
 */
token: string | null, } | { "type": "list_rooms", 
/**
 * Rooms of the ordered list to skip (a multiple of the page size, 50).
 */
offset: number, 
/**
 * Only rooms of this variant id.
 */
variant: string | null, 
/**
 * Only rooms waiting for players with a free seat.
 */
joinable: boolean, } | { "type": "list_variants" } | { "type": "ready", 
/**
 * Ready or not.
 */
ready: boolean, } | { "type": "leave_room" } | { "type": "create_room", 
/**
 * The room's settings.
 */
settings: RoomSettings, } | { "type": "quick_race", 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters (missing ones take their defaults).
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * Only a race on this node (what a `redirect` asks for there: never
 * sent on again). On a server of several nodes, a request without
 * it is sent to the node whose open race of the kind it would join.
 */
here?: boolean, } | { "type": "ratings", 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters (missing ones take their defaults).
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, } | { "type": "create_tournament", 
/**
 * Its name (1-40 characters).
 */
name: string, 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters (missing ones take their defaults).
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * How long it runs: 10 to 60 minutes.
 */
minutes: number, 
/**
 * When it starts: 0 (now) to 1440 minutes from now.
 */
starts_in_minutes: number, } | { "type": "list_tournaments" } | { "type": "watch_tournament", 
/**
 * Its id.
 */
id: string, } | { "type": "tournament_race", 
/**
 * Its id.
 */
id: string, } | { "type": "race_review", 
/**
 * The review's id.
 */
id: string, } | { "type": "join_room", 
/**
 * The room code (from a link or the lobby).
 */
code: string, 
/**
 * Watch instead of play.
 */
spectator: boolean, } | { "type": "start" } | { "type": "move", 
/**
 * Row in the layout.
 */
row: number, 
/**
 * Column in the layout.
 */
col: number, 
/**
 * 1..=N, or 0 to erase.
 */
value: number, } | { "type": "pencil", 
/**
 * The cells and their new marks (1 to the number of cells, each cell once).
 */
cells: Array<CellMarks>, } | { "type": "cursor", 
/**
 * Row.
 */
row: number, 
/**
 * Column.
 */
col: number, } | { "type": "rematch" } | { "type": "hint", 
/**
 * Race and solo: my candidate marks (rows x cols, bit `v - 1` for value
 * `v`, 0 for a cell without marks), so the hint reasons from them and
 * points out a mark that leaves out a cell's value. Co-op hints use
 * the team's marks, which the server has.
 */
marks?: Array<Array<number>> | null, } | { "type": "fill_candidates" } | { "type": "pause" } | { "type": "resume" } | { "type": "chat", 
/**
 * The text.
 */
text: string, } | { "type": "leaderboard", 
/**
 * Which board.
 */
board: BoardKind, 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters (missing ones take their defaults).
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * The daily board's `YYYY-MM-DD`; absent: the server's today (UTC).
 */
date?: string | null, } | { "type": "profile", 
/**
 * My local time's offset from UTC in minutes (e.g. 60 for UTC+1), which
 * decides my local dates; clamped to ±14 h.
 */
utc_offset_min: number, } | { "type": "sync_code" } | { "type": "redeem_sync", 
/**
 * The code, as shown (spaces and case do not matter).
 */
code: string, } | { "type": "hide_from_boards", 
/**
 * Whether to hide.
 */
hidden: boolean, } | { "type": "ping", 
/**
 * The client's clock, in ms.
 */
client_time: number, } | { "type": "setter_template", 
/**
 * Variant id.
 */
variant: string, 
/**
 * Variant parameters (missing ones take their defaults).
 */
params: { [key in string]: ParamValue }, } | { "type": "check_puzzle", 
/**
 * The puzzle being set.
 */
draft: SetterDraft, } | { "type": "analyse", 
/**
 * The puzzle being set, or none for the room's.
 */
draft?: SetterDraft | null, } | { "type": "unknown" };

export type ServerMessage = { "type": "welcome", 
/**
 * Public player id.
 */
player_id: string, 
/**
 * Display name.
 */
name: string, 
/**
 * Session token for `hello` after a reconnect.
 */
token: string, 
/**
 * The server clock (ms since the Unix epoch).
 */
server_time: number, 
/**
 * Where players open this server (`--site-url`, e.g.
 * `https://sudoku.example.org/`): invite links start with it. Null
 * when the server was not told; the page's own address is used then.
 */
site_url: string | null, } | { "type": "error", 
/**
 * Machine-readable reason.
 */
code: ErrorCode, 
/**
 * For people.
 */
message: string, 
/**
 * A refused `move` or `pencil`: the cells it would have changed, as
 * `[row, col]`, so the client puts them back as the server has them.
 * Empty for any other request.
 */
cells: Array<[number, number]>, } | { "type": "rooms", 
/**
 * One entry per room shown.
 */
rooms: Array<RoomSummary>, 
/**
 * Matching public rooms in all (`rooms` shows at most one page).
 */
total: number, 
/**
 * Where this page starts in the ordered list.
 */
offset: number, } | { "type": "variants", 
/**
 * One manifest per loaded plugin: name, rules, parameters, difficulties.
 */
variants: Array<Manifest>, } | { "type": "room", 
/**
 * The snapshot.
 */
room: RoomView, } | { "type": "move_accepted", 
/**
 * Row.
 */
row: number, 
/**
 * Column.
 */
col: number, 
/**
 * Value (0 = erased).
 */
value: number, 
/**
 * Whether the digit is right (only under `penalty` and `lives`).
 */
correct: boolean | null, } | { "type": "cell_changed", 
/**
 * Player id.
 */
player: string, 
/**
 * Row.
 */
row: number, 
/**
 * Column.
 */
col: number, 
/**
 * Value (0 = erased).
 */
value: number, } | { "type": "coop_event", 
/**
 * Room sequence number.
 */
seq: number, 
/**
 * Author's id.
 */
player: string, 
/**
 * What changed.
 */
change: CoopChange, } | { "type": "candidates_filled", 
/**
 * What it added to the time, ms.
 */
penalty_ms: number, } | { "type": "hint", 
/**
 * Who asked.
 */
player: string, 
/**
 * The step.
 */
hint: Hint, 
/**
 * What it added to the time, ms.
 */
penalty_ms: number, } | { "type": "cursor", 
/**
 * Player id.
 */
player: string, 
/**
 * Row.
 */
row: number, 
/**
 * Column.
 */
col: number, } | { "type": "chat", 
/**
 * Sender's id.
 */
from: string, 
/**
 * Sender's name.
 */
name: string, 
/**
 * The text.
 */
text: string, 
/**
 * Server time (ms since the Unix epoch).
 */
at: number, } | { "type": "progress", 
/**
 * The player as others see them.
 */
player: PlayerView, } | { "type": "finished", 
/**
 * Race: everyone who finished, fastest first.
 */
ranks: Array<Rank>, 
/**
 * Co-op: the team's time from the start, ms.
 */
team_ms: number | null, 
/**
 * Co-op: who filled which share of the final board.
 */
contributions: Array<Contribution>, } | { "type": "leaderboard", 
/**
 * Which board.
 */
board: BoardKind, 
/**
 * Daily: the day; weekly: the Monday (UTC) the week began; all-time: empty.
 */
date: string, 
/**
 * Variant id.
 */
variant: string, 
/**
 * Every parameter, defaults filled in.
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * Players on the board.
 */
total: number, 
/**
 * The fastest (up to 10).
 */
top: Array<BoardRow>, 
/**
 * My row, if I am on the board.
 */
mine: BoardRow | null, 
/**
 * My row and the rows around it.
 */
around: Array<BoardRow>, 
/**
 * The share of the other players on the board I was faster than, %.
 */
faster_than_pct: number | null, 
/**
 * My finish that counts here but was faster than the puzzle's
 * fastest plausible time: kept, not ranked.
 */
flagged: FlaggedTime | null, } | { "type": "rated", 
/**
 * One per rated racer, in their places' order.
 */
changes: Array<RatingChange>, } | { "type": "tournament", 
/**
 * The tournament.
 */
tournament: TournamentView, } | { "type": "tournaments", 
/**
 * Running first, then scheduled (soonest first), then just over.
 */
tournaments: Array<TournamentSummary>, } | { "type": "review_ready", 
/**
 * The review's id.
 */
id: string, } | { "type": "race_review", 
/**
 * The review.
 */
review: RaceReview, } | { "type": "ratings", 
/**
 * Variant id.
 */
variant: string, 
/**
 * Every parameter, defaults filled in.
 */
params: { [key in string]: ParamValue }, 
/**
 * Difficulty.
 */
difficulty: string, 
/**
 * Players with an established (not provisional) rating.
 */
total: number, 
/**
 * The highest established ratings (up to 10).
 */
top: Array<RatingRow>, 
/**
 * My rating, if I have raced this kind rated.
 */
rating: number | null, 
/**
 * Whether mine is still provisional (fewer than 5 rated races).
 */
provisional: boolean, 
/**
 * My rated races of this kind.
 */
games: number, 
/**
 * My rating after each of my last rated races (up to 30), oldest first.
 */
history: Array<number>, } | { "type": "sync_code", 
/**
 * The code.
 */
code: string, 
/**
 * How long it stays valid, ms.
 */
expires_in_ms: number, } | { "type": "profile", 
/**
 * Consecutive local days, up to today or yesterday, with a solved
 * puzzle of the day.
 */
streak: number, 
/**
 * The longest such run ever.
 */
best_streak: number, 
/**
 * Whether today (local) already has one.
 */
played_today: boolean, 
/**
 * Whether my name is hidden from public leaderboards.
 */
hidden: boolean, 
/**
 * Per variant and difficulty played.
 */
stats: Array<StatRow>, } | { "type": "redirect", 
/**
 * The room.
 */
code: string, 
/**
 * Where its node takes WebSocket connections.
 */
url: string, 
/**
 * What to send there instead of `join_room` for `code`.
 */
ask?: ClientMessage | null, } | { "type": "setter_template", 
/**
 * Variant id.
 */
variant: string, 
/**
 * Every parameter, defaults filled in.
 */
params: { [key in string]: ParamValue }, 
/**
 * Layout and houses; no givens, cages, constraints or solution.
 */
puzzle: PuzzleV1, } | { "type": "puzzle_check", 
/**
 * The verdict.
 */
check: PuzzleCheck, } | { "type": "analysis", 
/**
 * The steps and the board they start from.
 */
analysis: Analysis, } | { "type": "pong", 
/**
 * Echo of the client's clock.
 */
client_time: number, 
/**
 * The server clock (ms since the Unix epoch).
 */
server_time: number, };
