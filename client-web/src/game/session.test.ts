import { beforeEach, expect, test } from "vitest";
import { classic } from "../../test/fixtures";
import type { PlayerView, RoomSettings, RoomView, ServerMessage } from "../protocol";
import { Session, type MarkStore } from "./session";

const me: PlayerView = { id: "me", name: "Ada", filled: 0, finished_ms: null, mistakes: 0, out: false, left: false, hints: 0, ready: false, rematch: false };
const mate: PlayerView = { ...me, id: "mate", name: "Bob" };

function settings(mode: RoomSettings["mode"]): RoomSettings {
  return { variant: "classic", params: {}, difficulty: "easy", mode, public: false, max_players: 2, mistakes: { type: "none" }, hints: { type: "off" }, ghosts: false, own_best: false, quick: false, rated: false };
}

function room(mode: RoomSettings["mode"], over: Partial<RoomView> = {}): RoomView {
  const puzzle = classic(2, 2);
  puzzle.grid[0][0] = 1;
  return {
    code: "abc",
    settings: settings(mode),
    state: "playing",
    host: "me",
    players: [me, mate],
    puzzle,
    board: puzzle.grid.map((r) => [...r]),
    start_at: 1000,
    auto_start_at: null,
    spectator: false,
    boards: [],
    seq: 0,
    pencil: mode === "coop" ? puzzle.grid.map((r) => r.map(() => 0)) : null,
    authors: mode === "coop" ? puzzle.grid.map((r) => r.map(() => "")) : null,
    paused: false,
    paused_ms: 0,
    ghosts: [],
    ...over,
  };
}

let saved: Map<string, { corner: number[]; centre: number[] }>;
const marks: MarkStore = { load: (k) => saved.get(k) ?? null, save: (k, v) => saved.set(k, { corner: [...v.corner], centre: [...v.centre] }) };
beforeEach(() => (saved = new Map()));

function session(view: RoomView): Session {
  const s = new Session(marks);
  s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  s.handle({ type: "room", room: view });
  return s;
}

test("a redirect joins the room on the node it names, once welcomed there", () => {
  const s = new Session();
  s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(s.handle({ type: "redirect", code: "far", url: "ws://node-2/ws" })).toEqual([]);
  const out = s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(out).toContainEqual({ type: "join_room", code: "far", spectator: false });
});

test("welcome asks for variants, rooms, my profile and the tournaments, and rejoins the room from the link", () => {
  const s = new Session();
  s.pendingRoom = "xyz";
  const out = s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(out).toEqual([
    { type: "list_variants" },
    { type: "list_rooms", offset: 0, variant: null, joinable: false },
    { type: "profile", utc_offset_min: -new Date().getTimezoneOffset() },
    { type: "list_tournaments" },
    { type: "join_room", code: "xyz", spectator: false },
  ]);
  s.handle({ type: "error", code: "no_room", message: "no room 'xyz'", cells: [] });
  expect(s.pendingRoom).toBeUndefined();
});

test("a quick race sent to another node is asked for again there, not joined by code", () => {
  const s = new Session();
  s.quickRace("classic", {}, "easy");
  const ask = { type: "quick_race", variant: "classic", params: {}, difficulty: "easy", here: true } as const;
  s.handle({ type: "redirect", code: "abc", url: "ws://other/ws", ask });
  const out = s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(out[out.length - 1]).toEqual(ask);
  expect(out.some((m) => m.type === "join_room")).toBe(false);
  expect(s.creatingRoom).toBe(true);
  // Asked once: a later reconnection does not ask again.
  const again = s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(again.some((m) => m.type === "quick_race")).toBe(false);
});

test("race: values go to the server, marks stay local and are saved", () => {
  const s = session(room("race"));
  expect(s.enter(3)).toEqual([{ type: "move", row: 0, col: 1, value: 3 }]);
  s.game?.board.select(2);
  expect(s.enter(2, "corner")).toEqual([]);
  expect([...saved.values()][0].corner[2]).toBe(2);
  expect(s.undo()).toEqual([]);
  expect(s.undo()).toEqual([{ type: "move", row: 0, col: 1, value: 0 }]);
});

test("a reconnect snapshot restores the board and keeps the saved marks", () => {
  const s = session(room("race"));
  s.game?.board.select(2);
  s.enter(4, "centre");
  const board = room("race").board?.map((r) => [...r]) ?? [];
  board[1][1] = 2;
  const fresh = new Session(marks);
  fresh.handle({ type: "room", room: room("race", { board }) });
  expect(fresh.game?.board.values[5]).toBe(2);
  expect(fresh.game?.board.centre[2]).toBe(8);
});

test("co-op: teammates' values, marks and cursors arrive as events", () => {
  const s = session(room("coop"));
  expect(s.enter(2, "corner")).toEqual([{ type: "pencil", cells: [{ row: 0, col: 1, marks: 2 }] }]);
  const events: ServerMessage[] = [
    { type: "coop_event", seq: 1, player: "mate", change: { type: "value", row: 3, col: 3, value: 4 } },
    { type: "coop_event", seq: 2, player: "mate", change: { type: "pencil", cells: [{ row: 3, col: 2, marks: 5 }] } },
    { type: "cursor", player: "mate", row: 2, col: 2 },
  ];
  events.forEach((e) => s.handle(e));
  const paint = s.paint(() => "red");
  expect(paint?.values[15]).toBe(4);
  expect(paint?.corner[14]).toBe(5);
  expect(paint?.cursors).toEqual([{ cell: 10, colour: "red", name: "Bob" }]);
  expect(s.game?.seq).toBe(2);
  expect(s.cursorMessage()).toEqual([{ type: "cursor", row: 0, col: 1 }]);
});

test("spectators see the watched player's board and cannot play", () => {
  const board = room("race").board?.map((r) => [...r]) ?? [];
  const s = session(room("race", { spectator: true, board: null, boards: [{ player: "mate", board }] }));
  expect(s.canPlay()).toBe(false);
  expect(s.enter(2)).toEqual([]);
  s.handle({ type: "cell_changed", player: "mate", row: 1, col: 1, value: 3 });
  expect(s.paint(() => "red")?.values[5]).toBe(3);
});

test("a race spectator is told a racer's digits are hidden until that racer finishes", () => {
  const s = session(room("race", { spectator: true, board: null, boards: [] }));
  expect(s.game?.watching).toBe("me");
  expect(s.hiddenBoardNote()).toContain("Ada's board appears when they are done");
  const board = room("race").board?.map((r) => [...r]) ?? [];
  s.handle({ type: "room", room: room("race", { spectator: true, board: null, boards: [{ player: "me", board }] }) });
  expect(s.game?.watching).toBe("me");
  expect(s.hiddenBoardNote()).toBeUndefined();
  const coop = session(room("coop", { spectator: true, boards: [] }));
  expect(coop.hiddenBoardNote()).toBeUndefined();
});

test("the live penalty counts my hints (the team's in co-op) and, under penalty, my mistakes", () => {
  const race = session(room("race", { settings: { ...settings("race"), mistakes: { type: "penalty", seconds: 7 }, hints: { type: "penalty", seconds: 30 } } }));
  race.handle({ type: "progress", player: { ...me, hints: 2, mistakes: 3 } });
  race.handle({ type: "progress", player: { ...mate, hints: 5 } });
  expect(race.livePenaltyMs()).toBe((2 * 30 + 3 * 7) * 1000);
  const coop = session(room("coop", { settings: { ...settings("coop"), hints: { type: "penalty", seconds: 10 } } }));
  coop.handle({ type: "progress", player: { ...me, hints: 1 } });
  coop.handle({ type: "progress", player: { ...mate, hints: 2 } });
  expect(coop.livePenaltyMs()).toBe(30_000);
});

test("a full board that is not solved is recognised", () => {
  const s = session(room("race"));
  expect(s.fullButUnsolved()).toBe(false);
  const game = s.game;
  if (!game) throw new Error("no game");
  for (const c of game.geometry.cells) if (game.board.values[c] === 0) game.board.apply(c, { value: 1 });
  expect(s.fullButUnsolved()).toBe(true);
  s.handle({ type: "progress", player: { ...me, finished_ms: 1000 } });
  expect(s.fullButUnsolved()).toBe(false);
});

test("wrong digits are flagged only while the error check is on; results arrive", () => {
  const s = session(room("race"));
  s.enter(4);
  s.handle({ type: "move_accepted", row: 0, col: 1, value: 4, correct: false });
  expect(s.paint(() => "")?.wrong.has(1)).toBe(true);
  s.errorCheck = false;
  expect(s.paint(() => "")?.wrong.size).toBe(0);
  s.handle({ type: "progress", player: { ...me, finished_ms: 5000, filled: 16 } });
  expect(s.canPlay()).toBe(false);
  s.handle({ type: "finished", ranks: [{ rank: 1, player: "me", name: "Ada", time_ms: 5000 }], team_ms: null, contributions: [] });
  expect(s.results?.ranks).toHaveLength(1);
});

test("a rated race's changes come after the ranks and read as my rating's move", () => {
  const s = session(room("race"));
  s.handle({ type: "finished", ranks: [{ rank: 1, player: "me", name: "Ada", time_ms: 5000 }], team_ms: null, contributions: [] });
  expect(s.ratingNote()).toBeUndefined();
  s.handle({
    type: "rated",
    changes: [
      { player: "me", name: "Ada", before: 1500, after: 1532, provisional: true },
      { player: "mate", name: "Bob", before: 1500, after: 1468, provisional: true },
    ],
  });
  expect(s.ratingNote()).toBe("Rating 1500 → 1532 (+32), provisional.");
  s.results!.ratings![0] = { player: "me", name: "Ada", before: 1610, after: 1597, provisional: false };
  expect(s.ratingNote()).toBe("Rating 1610 → 1597 (−13).");
});

test("race and solo hints carry my centre marks; co-op hints do not", () => {
  const s = session(room("race"));
  expect(s.hintMessage()).toEqual([{ type: "hint" }]);
  s.enter(2, "centre");
  const [msg] = s.hintMessage();
  expect(msg.type === "hint" && msg.marks?.[0]).toEqual([0, 2, 0, 0]);
  expect(msg.type === "hint" && msg.marks?.length).toBe(4);
  const c = session(room("coop"));
  c.enter(2, "centre");
  expect(c.hintMessage()).toEqual([{ type: "hint" }]);
});

test("co-op: a mark over a selection is one pencil change; a refused one is put back and announced", () => {
  const s = session(room("coop"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  board.select(1);
  board.extend(2);
  board.extend(3);
  const out = s.enter(3, "corner");
  expect(out).toEqual([{ type: "pencil", cells: [1, 2, 3].map((c) => ({ row: 0, col: c, marks: 4 })) }]);
  expect(board.corner.slice(1, 4)).toEqual([4, 4, 4]);
  s.handle({ type: "error", code: "rate_limited", message: "too many messages; slow down", cells: [[0, 1], [0, 2], [0, 3]] });
  expect(board.corner.slice(1, 4)).toEqual([0, 0, 0]);
  expect(s.takeNotice()).toBe("Not saved, put back (r1c2, r1c3, r1c4): too many messages; slow down");
  expect(s.takeNotice()).toBeUndefined();
});

test("a refused move is put back to the server's value; an accepted one stays", () => {
  const s = session(room("race"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  s.enter(3);
  expect(board.values[1]).toBe(3);
  s.handle({ type: "move_accepted", row: 0, col: 1, value: 3, correct: null });
  s.enter(3); // typing the same digit again clears it
  s.enter(4);
  expect(board.values[1]).toBe(4);
  // The erase was refused, the 4 is still on its way: the 4 stays for now.
  s.handle({ type: "error", code: "rate_limited", message: "slow down", cells: [[0, 1]] });
  expect(board.values[1]).toBe(4);
  // Then the 4 is refused too: back to the 3 the server has.
  s.handle({ type: "error", code: "unavailable", message: "try again", cells: [[0, 1]] });
  expect(board.values[1]).toBe(3);
  expect(s.takeNotice()).toBe("Not saved, put back (r1c2): try again");
});

test("co-op: a teammate's value does not overwrite my change on its way; the server's order decides", () => {
  const s = session(room("coop"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  s.enter(2);
  s.handle({ type: "coop_event", seq: 1, player: "mate", change: { type: "value", row: 0, col: 1, value: 4 } });
  expect(board.values[1]).toBe(2);
  s.handle({ type: "coop_event", seq: 2, player: "me", change: { type: "value", row: 0, col: 1, value: 2 } });
  expect(board.values[1]).toBe(2);
  // Had mine been refused, the teammate's 4 would show.
  s.enter(3);
  s.handle({ type: "error", code: "wrong_state", message: "no", cells: [[0, 1]] });
  expect(board.values[1]).toBe(2);
});

test("changes made offline are replayed in order on top of the reconnect snapshot", () => {
  const s = session(room("race"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  const typed = [...s.enter(3)];
  board.select(2);
  typed.push(...s.enter(4));
  for (const m of typed) s.keepUnsent(m);
  expect(s.unsentCount()).toBe(2);
  expect(s.game?.ledger.pendingCells()).toEqual([]); // kept, not in flight
  const replies = s.handle({ type: "room", room: room("race") });
  expect(replies).toEqual(typed);
  expect(board.values.slice(1, 3)).toEqual([3, 4]);
  expect(s.takeNotice()).toBe("Sent 2 changes made while offline.");
  expect(s.game?.ledger.pendingCells().sort()).toEqual([1, 2]);
  // A move sent just before the connection dropped is not in the next snapshot: said so.
  s.handle({ type: "move_accepted", row: 0, col: 1, value: 3, correct: null });
  s.handle({ type: "move_accepted", row: 0, col: 2, value: 4, correct: null });
  s.enter(1);
  s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  s.handle({ type: "room", room: room("race") });
  expect(board.values[2]).toBe(0);
  expect(s.takeNotice()).toContain("1 change was not saved before the connection dropped");
});

test("a snapshot mid-play keeps a move still on its way on screen, without calling it lost", () => {
  const s = session(room("race"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  s.enter(3);
  s.handle({ type: "room", room: room("race") });
  expect(board.values[1]).toBe(3);
  expect(s.takeNotice()).toBeUndefined();
  s.handle({ type: "move_accepted", row: 0, col: 1, value: 3, correct: null });
  expect(board.values[1]).toBe(3);
  expect(s.game?.ledger.pending(1)).toBe(false);
});

test("an unknown server message is ignored, not fatal", () => {
  const s = session(room("race"));
  expect(s.handle({ type: "from_the_future" } as unknown as ServerMessage)).toEqual([]);
});

test("co-op: placing a digit sends the move and one pencil change for the marks it clears", () => {
  const s = session(room("coop"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  board.select(2);
  s.enter(3, "corner");
  board.select(3);
  s.enter(3, "corner");
  board.select(1);
  expect(s.enter(3)).toEqual([
    { type: "move", row: 0, col: 1, value: 3 },
    { type: "pencil", cells: [{ row: 0, col: 2, marks: 0 }, { row: 0, col: 3, marks: 0 }] },
  ]);
  s.clearMarks = false;
  board.select(2);
  s.enter(1, "corner");
  board.select(5);
  expect(s.enter(1)).toEqual([{ type: "move", row: 1, col: 1, value: 1 }]);
});

test("filling candidates: at once in solo and co-op; in a race only once the server charged it", () => {
  const race = session(room("race", { settings: { ...settings("race"), hints: { type: "penalty", seconds: 30 } } }));
  expect(race.canFillCandidates()).toBe(true);
  expect(race.fillCandidates()).toEqual([{ type: "fill_candidates" }]);
  expect(race.game?.board.centre.every((m) => m === 0)).toBe(true);
  race.handle({ type: "candidates_filled", penalty_ms: 30_000 });
  // r1c2 sees the given 1 in r1c1: 2, 3 and 4 remain.
  expect(race.game?.board.centre[1]).toBe(0b1110);
  expect(race.game?.board.centre[0]).toBe(0);
  expect(session(room("race")).canFillCandidates()).toBe(false);

  const coop = session(room("coop", { code: "other" }));
  expect(coop.fillCandidates()).toEqual([]);
  expect(coop.game?.board.centre[15]).toBe(0b1111);
  coop.undo();
  expect(coop.game?.board.centre[15]).toBe(0);
});

test("co-op: each value shows in its author's colour, from the snapshot and from events", () => {
  const authors = room("coop").puzzle?.grid.map((r) => r.map(() => "")) ?? [];
  const board = room("coop").board?.map((r) => [...r]) ?? [];
  board[1][1] = 2;
  authors[1][1] = "mate";
  const s = session(room("coop", { board, authors }));
  const colours = (id: string) => (id === "me" ? "blue" : "red");
  expect(s.paint(colours)?.authors?.get(5)).toBe("red");
  s.handle({ type: "coop_event", seq: 1, player: "mate", change: { type: "value", row: 3, col: 3, value: 4 } });
  s.game?.board.select(1);
  s.enter(3);
  const paint = s.paint(colours);
  expect(paint?.authors?.get(15)).toBe("red");
  expect(paint?.authors?.get(1)).toBe("blue");
  expect(paint?.authors?.has(0)).toBe(false); // a given
  expect(session(room("race")).paint(colours)?.authors).toBeUndefined();
});

test("race: an opponent's finish is announced with their place and time, with a sound cue", () => {
  const s = session(room("race"));
  s.handle({ type: "progress", player: { ...mate, finished_ms: 65_000, filled: 16 } });
  expect(s.takeNotice()).toBe("Bob finished 1st in 1:05!");
  expect(s.cues).toEqual(["finish"]);
  s.handle({ type: "progress", player: { ...me, finished_ms: 70_000, filled: 16 } });
  expect(s.takeNotice()).toBe("You finished 2nd in 1:10!");
  expect(s.cues).toEqual(["finish", "win"]);
});

test("a room being made shows as such until the room or the reason it failed", () => {
  const s = new Session(marks);
  expect(s.createRoom(settings("solo"))).toEqual([{ type: "create_room", settings: settings("solo") }]);
  expect(s.creatingRoom).toBe(true);
  s.handle({ type: "error", code: "plugin", message: "'killer' did not answer within 20 s", cells: [] });
  expect(s.creatingRoom).toBe(false);
  expect(s.createFailed).toBe("'killer' did not answer within 20 s");
  s.createRoom(settings("solo"));
  expect(s.createFailed).toBeUndefined();
  s.handle({ type: "room", room: room("solo") });
  expect(s.creatingRoom).toBe(false);
  expect(s.createFailed).toBeUndefined();
  // An error that is not an answer to a create leaves the form alone.
  s.handle({ type: "error", code: "wrong_state", message: "no", cells: [] });
  expect(s.createFailed).toBeUndefined();
});

test("the lobby keeps how many public rooms there are beside the ones listed", () => {
  const s = new Session(marks);
  const summary = { code: "abc", settings: settings("race"), players: 1, state: "waiting" as const, host: "Ada", connected: 1, rating: null };
  s.handle({ type: "rooms", rooms: [summary], total: 240, offset: 50 });
  expect(s.rooms.length).toBe(1);
  expect(s.roomsTotal).toBe(240);
  expect(s.roomsOffset).toBe(50);
  s.handle({ type: "rooms", rooms: [summary, { ...summary, code: "def" }], total: 0, offset: 0 });
  expect(s.roomsTotal).toBe(2);
  s.roomQuery = { offset: 50, variant: "killer", joinable: true };
  expect(s.listRooms()).toEqual({ type: "list_rooms", offset: 50, variant: "killer", joinable: true });
});

test("co-op spectators follow the team's board, digits and marks", () => {
  const board = room("coop").board!.map((r) => [...r]);
  board[1][1] = 3;
  const pencil = board.map((r) => r.map(() => 0));
  pencil[2][2] = 0b101;
  const s = session(room("coop", { spectator: true, board, pencil, boards: [] }));
  const paint = s.paint(() => "red");
  expect(paint?.values[1 * 4 + 1]).toBe(3);
  expect(paint?.corner[2 * 4 + 2]).toBe(0b101);
  s.handle({ type: "coop_event", seq: 1, player: "mate", change: { type: "value", row: 3, col: 3, value: 2 } });
  expect(s.paint(() => "red")?.values[3 * 4 + 3]).toBe(2);
});

test("a link to a game already under way is watched instead of refused", () => {
  const s = new Session();
  s.pendingRoom = "xyz";
  const out = s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(out).toContainEqual({ type: "join_room", code: "xyz", spectator: false });
  const retry = s.handle({ type: "error", code: "closed", message: "the game has already started; join as a spectator", cells: [] });
  expect(retry).toEqual([{ type: "join_room", code: "xyz", spectator: true }]);
  expect(s.handle({ type: "error", code: "closed", message: "no", cells: [] }), "asked once").toEqual([]);
  s.handle({ type: "room", room: room("race", { code: "xyz", spectator: true, board: null }) });
  expect(s.pendingRoom).toBeUndefined();
  expect(s.pendingWatch).toBe(false);
});

test("links start with the server's site address when it gives one, else the page's", () => {
  const s = new Session();
  s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: null });
  expect(s.siteBase("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080/");
  s.handle({ type: "welcome", player_id: "me", name: "Ada", token: "t", server_time: 0, site_url: "https://sudoku.example.org" });
  expect(s.siteBase("http://127.0.0.1:8080/")).toBe("https://sudoku.example.org/");
});

test("a page whose game another tab took over takes no more digits", () => {
  const s = session(room("race"));
  expect(s.canPlay()).toBe(true);
  s.displaced = true;
  expect(s.canPlay()).toBe(false);
  s.game?.board.select(1);
  expect(s.enter(3)).toEqual([]);
  expect(s.game?.board.values[1]).toBe(0);
});

test("applying a hint places its digit and takes its eliminations out of my marks, as one undo", () => {
  const s = session(room("race"));
  const board = s.game?.board;
  if (!board) throw new Error("no board");
  board.select(2);
  s.enter(1, "centre");
  s.enter(4, "centre");
  expect(board.centre[2]).toBe(0b1001);
  expect(s.canApplyHint()).toBe(false);
  s.handle({
    type: "hint",
    player: "me",
    penalty_ms: 30000,
    hint: { kind: "hidden_single", cell: [0, 1], value: 3, explanation: "3 goes here", technique: "Hidden Single", clue: "", cells: [], eliminations: [[0, 2, 1]] },
  });
  expect(s.canApplyHint()).toBe(true);
  const out = s.applyHint();
  expect(out).toContainEqual({ type: "move", row: 0, col: 1, value: 3 });
  expect(board.values[1]).toBe(3);
  expect(board.centre[2]).toBe(0b1000);
  expect(s.game?.hint).toBeUndefined();
  s.undo();
  expect(board.values[1]).toBe(0);
  expect(board.centre[2]).toBe(0b1001);
  // A hint that only says a digit is wrong has nothing to apply.
  s.handle({ type: "hint", player: "me", penalty_ms: 30000, hint: { kind: "wrong", cell: [0, 1], value: null, explanation: "wrong", technique: "", clue: "", cells: [], eliminations: [] } });
  expect(s.canApplyHint()).toBe(false);
});
