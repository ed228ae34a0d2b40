// The lobby with more public rooms than one page: the player sees which rooms of
// how many are shown, pages through them, and narrows the list to one variant or
// to rooms with a free seat — the server does the filtering and paging.

import { encode, decode } from "@msgpack/msgpack";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createRoom, enterName, launchBrowser, openPlayer, screenshot, startServer, WAIT, type Arena } from "./harness";
import type { ClientMessage, RoomSettings, ServerMessage } from "../src/protocol";

const arena = {} as Arena;

/** Where the players of this test's server are told to open it. */
const SITE = "https://sudoku.example.org/";

beforeAll(async () => {
  // 52 hosts from one address make 52 rooms at once; the server is told the
  // address players open it at.
  arena.server = await startServer({ extra: ["--address-join-burst", "1000", "--site-url", SITE] });
  arena.browser = await launchBrowser();
});

afterAll(async () => {
  await arena.browser?.close();
  await arena.server?.stop();
});

/** Public 4-player race settings for a variant (4x4 classic is quick to make). */
function race(variant: string): RoomSettings {
  return {
    variant,
    params: variant === "classic" ? { box: "2x2" } : {},
    difficulty: "easy",
    mode: "race",
    public: true,
    max_players: 4,
    mistakes: { type: "none" },
    hints: { type: "off" },
    daily: null,
    ghosts: false,
    own_best: false,
    quick: false,
    rated: false,
  };
}

/**
 * Opens one WebSocket per room from a page of their own (hosts who stay in their
 * rooms, so the rooms stay listed) and waits until every room exists.
 */
async function openRooms(variants: string[]) {
  const context = await arena.browser.newContext();
  const page = await context.newPage();
  let made = 0;
  const allMade = new Promise<void>((done, fail) => {
    page.on("websocket", (ws) =>
      ws.on("framereceived", ({ payload }) => {
        if (typeof payload === "string") return;
        const m = decode(payload) as ServerMessage;
        if (m.type === "error") fail(new Error(`a host was refused: ${m.message}`));
        if (m.type === "room" && ++made === variants.length) done();
      }),
    );
  });
  const frames = (m: ClientMessage) => Array.from(encode(m));
  const hosts = variants.map((v, i) => [
    frames({ type: "hello", version: 1, name: `Host ${i}`, token: null }),
    frames({ type: "create_room", settings: race(v) }),
  ]);
  await page.goto(arena.server.url);
  await page.evaluate(
    ({ url, hosts }) => {
      const held: WebSocket[] = [];
      (window as unknown as { hosts: WebSocket[] }).hosts = held;
      for (const [hello, create] of hosts) {
        const ws = new WebSocket(url);
        ws.binaryType = "arraybuffer";
        ws.onopen = () => {
          ws.send(new Uint8Array(hello));
          ws.send(new Uint8Array(create));
        };
        held.push(ws);
      }
    },
    { url: arena.server.url.replace(/^http/, "ws") + "/ws", hosts },
  );
  await allMade;
}

test("a lobby with more rooms than a page shows which of how many, pages, and filters", async () => {
  const variants = [...Array(50).fill("classic"), "x-sudoku", "x-sudoku"];
  await openRooms(variants);
  const p = await openPlayer(arena.browser, arena.server.url);
  await enterName(p, "Ada");
  const page = p.page;
  const count = () => page.textContent("#room-count");
  const rows = () => page.locator("table.rooms tbody tr[data-code]").count();

  await page.waitForFunction(() => document.querySelector("#room-count")?.textContent?.includes("of 52"), undefined, { timeout: WAIT });
  expect(await count()).toBe("Rooms 1–50 of 52, rooms with a free seat first.");
  expect(await rows()).toBe(50);
  expect(await page.isVisible("#rooms-more")).toBe(true);
  expect(await page.isVisible("#rooms-back")).toBe(false);

  await page.click("#rooms-more");
  await page.waitForFunction(() => document.querySelector("#room-count")?.textContent?.startsWith("Rooms 51–52"), undefined, { timeout: WAIT });
  expect(await rows()).toBe(2);
  expect(await page.isVisible("#rooms-more")).toBe(false);
  await page.click("#rooms-back");
  await page.waitForFunction(() => document.querySelector("#room-count")?.textContent?.startsWith("Rooms 1–50"), undefined, { timeout: WAIT });

  // One variant: its two rooms fit one page, so no count and no paging.
  await page.selectOption("#room-variant", "x-sudoku");
  await page.waitForFunction(() => document.querySelectorAll("table.rooms tbody tr[data-code]").length === 2, undefined, { timeout: WAIT });
  expect(await count()).toBe("");
  expect(await page.isVisible("#rooms-more")).toBe(false);
  await screenshot(page, "section.card:has(#room-variant)", "lobby-filtered");

  // A variant nobody plays right now, free seats only: said in words.
  await page.selectOption("#room-variant", "killer");
  await page.check("#room-joinable");
  await page.waitForFunction(() => document.querySelector("table.rooms tbody")?.textContent === "No public rooms like that.", undefined, { timeout: WAIT });
  await p.context.close();
});

test("invite links start with the server's site address, not the host's own", async () => {
  const p = await openPlayer(arena.browser, arena.server.url);
  await enterName(p, "Host");
  const code = await createRoom(p, { mode: "race", publicRoom: false });
  expect(await p.page.inputValue("#room-link")).toBe(`${SITE}#${code}`);
  await p.context.close();
});
