// End-to-end support: starts the real `arena serve` (the cargo-built binary, the
// bundled variant plugins loaded through dlopen, a fresh SQLite file, this
// client's dist/), launches Debian's Chromium through playwright-core, watches the
// WebSocket frames a page receives, and solves puzzles with `arena solve` — the
// way a player would work them out, never through a door in the server.

import { decode } from "@msgpack/msgpack";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { geometryOf } from "../src/game/geometry";
import type { PuzzleV1, ServerMessage } from "../src/protocol";

const here = dirname(fileURLToPath(import.meta.url));
/** The client-web directory. */
export const clientDir = resolve(here, "..");
/** Where screenshots go (kept by CI as artifacts). */
export const artifacts = resolve(here, "artifacts");
/** How long any single wait may take. */
export const WAIT = 20_000;
// Toasts hide after 4 s but keep their text: tests wait for a toast's text with
// `state: "attached"`, so a slow machine that looks late still sees what was said.

/** The cargo profile directory holding `arena` and the plugins: $ARENA_BIN_DIR, else the debug one. */
function profileDir(): string {
  if (process.env.ARENA_BIN_DIR) return process.env.ARENA_BIN_DIR;
  return resolve(process.env.CARGO_TARGET_DIR ?? resolve(clientDir, "..", "target"), "debug");
}

/** The `arena` binary and a directory holding only the bundled variant plugins (and, with `misbehave`, the test plugin that misbehaves on purpose). */
export function builtArena(misbehave = false): { arena: string; plugins: string } {
  const dir = profileDir();
  const arena = join(dir, "arena");
  if (!existsSync(arena)) throw new Error(`${arena} is missing: run \`cargo build --workspace\` first`);
  const plugins = mkdtempSync(join(tmpdir(), "arena-plugins-"));
  const wanted = misbehave ? /^lib(variant_.*|test_misbehave)\.(so|dylib)$/ : /^libvariant_.*\.(so|dylib)$/;
  const libs = readdirSync(dir).filter((f) => wanted.test(f));
  if (libs.length === 0) throw new Error(`no variant plugins in ${dir}`);
  for (const lib of libs) symlinkSync(join(dir, lib), join(plugins, lib));
  return { arena, plugins };
}

/** A running `arena serve`. */
export interface Server {
  url: string;
  arena: string;
  plugins: string;
  /** Its data directory (SQLite). */
  data: string;
  /** Stops it (SIGTERM, as an operator would); `keep` leaves the data directory for a restart. */
  stop(keep?: boolean): Promise<void>;
  /** Kills it at once (SIGKILL: no goodbye to anyone) and waits for it to be gone. */
  kill(): Promise<void>;
}

/** Where and on what the server runs; by default an ephemeral port and a fresh data directory. */
export interface ServerOptions {
  bind?: string;
  data?: string;
  /** More `arena serve` arguments (e.g. `--database`, `--node-id`). */
  extra?: string[];
  /** Also load the test plugin that crashes, hangs and babbles on purpose. */
  misbehave?: boolean;
}

/** Starts `arena serve`. */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const { arena, plugins } = builtArena(options.misbehave);
  const data = options.data ?? mkdtempSync(join(tmpdir(), "arena-data-"));
  const dist = join(clientDir, "dist");
  if (!existsSync(join(dist, "index.html"))) throw new Error("client-web/dist is missing: run `npm run build` first");
  const child: ChildProcess = spawn(
    arena,
    ["--plugins", plugins, "serve", "--bind", options.bind ?? "127.0.0.1:0", "--data", data, "--client", dist, "--countdown-ms", "300", "--pool-size", "0",
      // Scripted players solve in seconds: rank them (unless a test sets the floor itself).
      ...(options.extra?.includes("--fastest-cell-ms") ? [] : ["--fastest-cell-ms", "0"]),
      // Every browser connects from loopback: rate them against each other.
      "--rate-shared-addresses",
      // Every browser of a test run connects from loopback: one address, many new players.
      "--address-hello-burst", "1000", ...(options.misbehave ? ["--test-plugins"] : []), ...(options.extra ?? [])],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const url = await new Promise<string>((ok, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error(`arena serve did not start:\n${seen}`)), WAIT);
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      // Only a whole line: a chunk can end inside the address (seen: "http://127",
      // which the browser then loads as 0.0.0.127 — the old "app did not start" flake).
      const m = /serving on (http:\/\/\S+)[^\S\n]*\n/.exec(seen);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on("exit", (code) => fail(new Error(`arena serve exited (${code}):\n${seen}`)));
  });
  return {
    url,
    arena,
    plugins,
    data,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((ok) => child.on("exit", ok));
      child.kill("SIGKILL");
      await exited;
    },
    stop: async (keep = false) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((ok) => child.on("exit", ok));
        child.kill("SIGTERM");
        await exited;
      }
      if (!keep) rmSync(data, { recursive: true, force: true });
      rmSync(plugins, { recursive: true, force: true });
    },
  };
}

/** Launches Debian's Chromium, headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/** One server and one browser for a test file; filled in by its beforeAll, torn down by its afterAll. */
export interface Arena {
  server: Server;
  browser: Browser;
}

/** Registers the hooks that start a server (with `options`) and a browser for the calling test file. */
export function useArena(options: ServerOptions = {}): Arena {
  const arena = {} as Arena;
  beforeAll(async () => {
    arena.server = await startServer(options);
    arena.browser = await launchBrowser();
  });
  afterAll(async () => {
    await arena.browser?.close();
    await arena.server?.stop();
  });
  return arena;
}

/** A browser page with the frames it sent and received over the game WebSocket. */
export interface Player {
  context: BrowserContext;
  page: Page;
  /** Every server message, decoded, in order. */
  received: ServerMessage[];
  /** Every client message type sent, in order. */
  sent: string[];
  /** Called with each server message as it arrives. */
  listeners: Set<(m: ServerMessage) => void>;
}

/** A new browser context (own storage) opened on the server, with its frames recorded
 * (`ignoreHTTPSErrors` for a test's own TLS proxy and its local certificate). */
export async function openPlayer(
  browser: Browser,
  url: string,
  viewport = { width: 1200, height: 900 },
  options: { ignoreHTTPSErrors?: boolean } = {},
): Promise<Player> {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const player: Player = { context, page, received: [], sent: [], listeners: new Set() };
  page.on("websocket", (ws) => {
    ws.on("framereceived", ({ payload }) => {
      if (typeof payload === "string") return;
      const message = decode(payload) as ServerMessage;
      player.received.push(message);
      for (const listener of player.listeners) listener(message);
    });
    ws.on("framesent", ({ payload }) => {
      if (typeof payload !== "string") player.sent.push((decode(payload) as { type: string }).type);
    });
  });
  page.on("pageerror", (e) => console.error("page error:", e));
  const failed: string[] = [];
  page.on("requestfailed", (r) => failed.push(`${r.url()}: ${r.failure()?.errorText ?? "failed"}`));
  page.on("response", (r) => r.status() >= 400 && failed.push(`${r.url()}: HTTP ${r.status()}`));
  await page.goto(url);
  // Rarely (twice in a dozen `make test` runs, never alone) the page loaded but the
  // app never drew itself. Say what the page had, then load it once more, so the
  // next occurrence explains itself instead of failing every test of the file.
  const drawn = () => page.waitForSelector("#app > *", { state: "attached", timeout: 10_000 });
  if (!(await drawn().then(() => true, () => false))) {
    const html = (await page.content()).slice(0, 500);
    console.error(`the app did not start at ${url}; failed requests: ${JSON.stringify(failed)}; page: ${html}`);
    await page.reload();
    await drawn();
  }
  return player;
}

/** A new player on the server's page who has entered `name` and sees the lobby. */
export async function namedPlayer(arena: Arena, name: string, viewport?: { width: number; height: number }): Promise<Player> {
  const p = await openPlayer(arena.browser, arena.server.url, viewport);
  await enterName(p, name);
  return p;
}

/** Enters a name on the welcome screen and waits for the lobby. */
export async function enterName(p: Player, name: string) {
  await p.page.fill("#name", name);
  await p.page.click("#enter");
  await p.page.waitForSelector("#create-room", { timeout: WAIT });
  await p.page.waitForSelector("#variant option", { state: "attached", timeout: WAIT });
}

/** Shows a board of the lobby's records card: `kind` is a leaderboard's
 * (daily, weekly, all_time) or "ratings". */
export async function showBoard(p: Player, kind: string, variant = "classic", difficulty = "easy") {
  await p.page.selectOption("#board-kind", kind);
  await p.page.selectOption("#board-variant", variant);
  await p.page.selectOption("#board-difficulty", difficulty);
  await p.page.click("#show-board");
}

/** The settings form's fields. */
export interface CreateOptions {
  variant?: string;
  params?: Record<string, string>;
  difficulty?: string;
  mode?: "solo" | "race" | "coop";
  publicRoom?: boolean;
  mistakes?: "none" | "penalty" | "lives";
}

/** Fills the New game form and creates the room; returns its code. */
export async function createRoom(p: Player, o: CreateOptions = {}): Promise<string> {
  const page = p.page;
  await page.selectOption("#variant", o.variant ?? "classic");
  for (const [key, value] of Object.entries(o.params ?? {})) {
    await page.selectOption(`#param-${key}`, JSON.stringify(value));
  }
  await page.selectOption("#difficulty", o.difficulty ?? "easy");
  await page.selectOption("#mode", o.mode ?? "solo");
  if (o.publicRoom !== undefined) await page.setChecked("#public", o.publicRoom);
  if (o.mistakes) await page.selectOption("#mistakes", o.mistakes);
  await page.click("#create-room");
  if ((o.mode ?? "solo") === "solo") {
    // A solo game starts at once: no waiting room, straight to the board.
    await page.waitForSelector("svg.board", { timeout: WAIT });
    return new URL(page.url()).hash.slice(1);
  }
  await page.waitForSelector("#room-link", { timeout: WAIT });
  const link = await page.inputValue("#room-link");
  return link.split("#")[1];
}

/**
 * Ada creates a private room with `options` and Bob (on `bobViewport`) joins it
 * by its invite link; both are then in the waiting room.
 */
export async function meetByLink(arena: Arena, options: CreateOptions, bobViewport?: { width: number; height: number }): Promise<[Player, Player]> {
  const ada = await namedPlayer(arena, "Ada");
  const bob = await namedPlayer(arena, "Bob", bobViewport);
  const code = await createRoom(ada, { ...options, publicRoom: false });
  await bob.page.goto(`${arena.server.url}/#${code}`);
  await bob.page.waitForSelector("#waiting-for-host", { timeout: WAIT });
  return [ada, bob];
}

/** The puzzle of the last room snapshot this page received. */
export function lastPuzzle(p: Player): PuzzleV1 {
  for (let i = p.received.length - 1; i >= 0; i--) {
    const m = p.received[i];
    if (m.type === "room" && m.room.puzzle) return m.room.puzzle;
  }
  throw new Error("no puzzle received yet");
}

/** Waits until a server message matches (one already received counts). */
export function waitForMessage(p: Player, match: (m: ServerMessage) => boolean): Promise<ServerMessage> {
  const earlier = p.received.find(match);
  if (earlier) return Promise.resolve(earlier);
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      p.listeners.delete(listener);
      // Say what the server refused meanwhile: a timeout is usually a refusal.
      const refusals = p.received.filter((m) => m.type === "error").slice(-5).map((m) => (m.type === "error" ? `${m.code}: ${m.message}` : ""));
      fail(new Error(`timed out waiting for a server message; the last errors: ${JSON.stringify(refusals)}`));
    }, WAIT);
    const listener = (m: ServerMessage) => {
      if (!match(m)) return;
      clearTimeout(timer);
      p.listeners.delete(listener);
      ok(m);
    };
    p.listeners.add(listener);
  });
}

/** A cell as [row, column]. */
export type RC = [number, number];

/** A game in progress: the puzzle the page received and its solution (from `arena solve`). */
export interface Game {
  puzzle: PuzzleV1;
  solution: number[][];
}

/** The host starts the room's game (solo games start themselves); waits until every player's page shows the board. */
export async function startGame(arena: Arena, host: Player, others: Player[] = []): Promise<Game> {
  // A solo game started by itself.
  if ((await host.page.locator("svg.board").count()) === 0) await host.page.click("#start");
  for (const p of [host, ...others]) await p.page.waitForSelector("svg.board", { timeout: WAIT });
  const puzzle = lastPuzzle(host);
  return { puzzle, solution: solve(arena.server, puzzle) };
}

/** The empty cells of a puzzle, in reading order. */
export function emptyCells(puzzle: PuzzleV1): RC[] {
  const active = new Set((puzzle.cells ?? []).map(([r, c]) => `${r},${c}`));
  const isActive = (r: number, c: number) => puzzle.cells == null || active.has(`${r},${c}`);
  const out: RC[] = [];
  puzzle.grid.forEach((row, r) => row.forEach((v, c) => v === 0 && isActive(r, c) && out.push([r, c])));
  return out;
}

/** What a screen reader hears for a cell. */
export function cellLabel(p: Player, [r, c]: RC): Promise<string | null> {
  return p.page.getAttribute(`#cell-${r}-${c}`, "aria-label");
}

/** Waits until a cell's label holds `text` (or, with `absent`, no longer does). */
export async function waitForLabel(p: Player, [r, c]: RC, text: string, absent = false) {
  await p.page.waitForFunction(
    ([sel, want, gone]) => {
      const label = document.querySelector(sel)?.getAttribute("aria-label") ?? "";
      return label.includes(want) !== gone;
    },
    [`#cell-${r}-${c}`, text, absent] as const,
    { timeout: WAIT },
  );
}

/** Solves `puzzle` with `arena solve` (the rules travel in the puzzle; no server involved). */
export function solve(server: Pick<Server, "arena" | "plugins">, puzzle: PuzzleV1): number[][] {
  const dir = mkdtempSync(join(tmpdir(), "arena-solve-"));
  const file = join(dir, "puzzle.json");
  writeFileSync(file, JSON.stringify(puzzle));
  const out = execFileSync(server.arena, ["--plugins", server.plugins, "solve", file], { encoding: "utf8" });
  rmSync(dir, { recursive: true, force: true });
  const solved = JSON.parse(out.trim().split("\n")[0]) as PuzzleV1;
  if (!solved.solution) throw new Error("arena solve gave no solution");
  return solved.solution;
}

/**
 * Types the solution with the keyboard only: the board has focus once the game
 * starts (Tab reaches it otherwise); from the cursor, arrows walk every cell in
 * reading order (wrapping) and symbols fill the empty ones. Stops after `limit` entries.
 */
export async function typeSolution(p: Player, puzzle: PuzzleV1, solution: number[][], limit = Infinity) {
  const page = p.page;
  for (let tab = 0; tab < 30 && !(await page.evaluate(() => document.activeElement?.matches("svg.board"))); tab++) {
    await page.keyboard.press("Tab");
  }
  const cursor = await page.getAttribute("svg.board", "aria-activedescendant");
  const at = /^cell-(\d+)-(\d+)$/.exec(cursor ?? "");
  if (!at) throw new Error(`no cursor on the board (${cursor})`);
  const { symbols } = geometryOf(puzzle);
  const { rows, cols } = puzzle.layout;
  const first = Number(at[1]) * cols + Number(at[2]);
  let typed = 0;
  for (let k = 0; k < rows * cols && typed < limit; k++) {
    const cell = (first + k) % (rows * cols);
    const [r, c] = [Math.floor(cell / cols), cell % cols];
    if (puzzle.grid[r][c] === 0 && solution[r][c] !== 0) {
      await page.keyboard.press(symbols[solution[r][c] - 1]);
      typed++;
    }
    if (c === cols - 1) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
  }
}

/**
 * Types the solution into `cells` (default: every empty active cell) by clicking
 * each cell and pressing its symbol: works on any layout, holes and zoomed
 * (scrolling) boards included.
 */
export async function fillByClicks(p: Player, puzzle: PuzzleV1, solution: number[][], cells = emptyCells(puzzle)) {
  const { symbols } = geometryOf(puzzle);
  for (const [r, c] of cells) {
    await p.page.click(`#cell-${r}-${c}`);
    await p.page.keyboard.press(symbols[solution[r][c] - 1]);
  }
}

/**
 * Saves what the screen shows (the viewport) as an artifact: what a phone player
 * sees, with the zoomed board scrolled where it is (an element screenshot taller
 * than the screen re-lays the page out and loses inner scroll positions).
 */
export async function screenshotScreen(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`) });
}

/** Saves a screenshot of an element as an artifact. */
export async function screenshot(page: Page, selector: string, name: string) {
  mkdirSync(artifacts, { recursive: true });
  await page.locator(selector).screenshot({ path: join(artifacts, `${name}.png`) });
}

/**
 * Leaves the game with the Leave button; where leaving costs the game (a solo
 * game ends, a race is forfeited) the page asks first, and this confirms.
 */
export async function leaveGame(p: Player) {
  await p.page.click("#leave");
  const asked = await p.page.waitForSelector("#leave-confirm:visible, #create-room", { timeout: WAIT });
  if ((await asked.getAttribute("id")) === "leave-confirm") await p.page.click("#leave-anyway");
  await p.page.waitForSelector("#create-room", { timeout: WAIT });
}
