// The lobby creates and joins rooms; two browser contexts race to the end,
// typing with the keyboard only, and both see the ranks.

import { expect, test } from "vitest";
import { seatColour } from "../src/game/colours";
import { createRoom, lastPuzzle, namedPlayer, screenshot, solve, startGame, typeSolution, useArena, waitForMessage, WAIT } from "./harness";

const arena = useArena();

test("two players meet in the lobby, race to the end and both see the ranks", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const bob = await namedPlayer(arena, "Bob");

  const code = await createRoom(ada, { mode: "race", publicRoom: true });
  // The page has an icon, and copying the invite link says so.
  expect(await ada.page.getAttribute("link[rel='icon']", "href")).toMatch(/^data:image\/svg\+xml/);
  await ada.context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await ada.page.click("#copy-link");
  await ada.page.waitForSelector("#copy-link:text-is('Copied!')", { timeout: WAIT });
  expect(await ada.page.evaluate(() => navigator.clipboard.readText())).toContain(`#${code}`);
  // Bob finds the room in the public list and joins from there.
  await bob.page.click("button:text('Refresh')");
  const row = bob.page.locator(`tr[data-code="${code}"]`);
  await row.waitFor({ timeout: WAIT });
  expect(await row.locator("td.host").textContent()).toBe("Ada");
  await row.locator("button:text('Join')").click();
  await bob.page.waitForSelector("#waiting-for-host", { timeout: WAIT });
  await ada.page.waitForSelector("#waiting-players li:nth-child(2)", { timeout: WAIT });
  expect(await ada.page.textContent("#waiting-players")).toContain("Bob");
  await bob.page.click("#ready");
  await ada.page.waitForSelector("#ready-count:has-text('1 of 1 ready')", { timeout: WAIT });
  // Bob turns sound on (off by default); his page counts the tones it plays.
  expect(await bob.page.getAttribute("#sound", "aria-pressed")).toBe("false");
  await bob.page.evaluate(() => {
    const Original = window.AudioContext;
    const w = window as unknown as { tones: number };
    w.tones = 0;
    window.AudioContext = class extends Original {
      createOscillator() {
        w.tones++;
        return super.createOscillator();
      }
    };
  });
  await bob.page.click("#sound");
  expect(await bob.page.getAttribute("#sound", "aria-pressed")).toBe("true");
  // In words: an emoji drew a box where the system has no emoji font.
  expect(await bob.page.textContent("#sound")).toBe("Sound on");

  await ada.page.click("#start");
  // The countdown draws the eye: a big number, a second at a time.
  await bob.page.waitForSelector("#countdown.pop", { timeout: WAIT });
  expect(await bob.page.textContent("#countdown")).toMatch(/^(\d|Go!)$/);
  for (const p of [ada, bob]) await p.page.waitForSelector("svg.board", { timeout: WAIT });
  const puzzle = lastPuzzle(ada);
  const solution = solve(arena.server, puzzle);
  const tones = () => bob.page.evaluate(() => (window as unknown as { tones: number }).tones);
  expect(await tones()).toBeGreaterThan(0);
  // Live places while racing; each racer's bar in the colour of their dot.
  await ada.page.waitForSelector("#people .place", { timeout: WAIT });
  const colours = await ada.page.evaluate(() =>
    [...document.querySelectorAll("#people li[data-player]")].map((li) => {
      const dot = li.querySelector(".dot");
      const bar = li.querySelector("progress");
      return [dot ? getComputedStyle(dot).backgroundColor : "", bar ? getComputedStyle(bar).accentColor : ""];
    }),
  );
  expect(colours).toHaveLength(2);
  for (const [dot, bar] of colours) expect(bar).toBe(dot);
  expect(colours[0][1]).not.toBe(colours[1][1]);
  expect(puzzle.solution ?? null, "the server never sends the solution").toBeNull();

  const before = await tones();
  await typeSolution(ada, puzzle, solution);
  await ada.page.waitForSelector("#win:has-text('Solved')", { timeout: WAIT });
  // Bob sees Ada's progress bar full before he is done, hears it, and is told.
  await bob.page.waitForFunction(() => document.querySelector("#people")?.textContent?.includes("✓"), null, { timeout: WAIT });
  await bob.page.waitForSelector("#toast:has-text('Ada finished 1st')", { state: "attached", timeout: WAIT });
  // The news never covers the board (at 1280x800 it sat over row 9).
  await bob.page.setViewportSize({ width: 1280, height: 800 });
  const overlap = await bob.page.evaluate(() => {
    const toast = document.querySelector<HTMLElement>("#toast");
    const board = document.querySelector("svg.board")?.getBoundingClientRect();
    if (!toast || !board) return null;
    const hidden = toast.hidden;
    toast.hidden = false;
    const t = toast.getBoundingClientRect();
    toast.hidden = hidden;
    return t.left < board.right && board.left < t.right && t.top < board.bottom && board.top < t.bottom;
  });
  expect(overlap, "the toast leaves the board visible").toBe(false);
  await bob.page.setViewportSize({ width: 1200, height: 900 });
  expect(await bob.page.textContent(`#people li[data-player] .place`)).toBe("1st");
  await expect.poll(tones, { timeout: WAIT }).toBeGreaterThan(before);
  await typeSolution(bob, puzzle, solution);

  for (const p of [ada, bob]) {
    await waitForMessage(p, (m) => m.type === "finished");
    await p.page.waitForSelector("#ranks", { timeout: WAIT });
    const ranks = await p.page.locator("#ranks tbody tr").allTextContents();
    expect(ranks).toHaveLength(2);
    expect(ranks[0]).toContain("Ada");
    expect(ranks[1]).toContain("Bob");
    // The results card: time, mistakes and hints per racer.
    expect(await p.page.locator("#ranks thead th").allTextContents()).toEqual(["#", "Player", "Time", "Mistakes", "Hints"]);
  }
  expect(await ada.page.textContent("#results-title")).toContain("You won");
  expect(await bob.page.textContent("#results-title")).toContain("Rank 2");
  // The results name the puzzle's tier and hardest technique (the logical solver's grade).
  const grade = puzzle.grade;
  expect(grade?.tier).toMatch(/^(easy|medium|hard|extreme)$/);
  expect(await ada.page.textContent("#puzzle-grade")).toContain(`hardest step: ${grade?.hardest}`);
  await screenshot(ada.page, "main", "race-results");

  // Rematch is a vote of everyone, not the host's alone: Bob asks first.
  await bob.page.click("#rematch");
  await bob.page.waitForSelector("#rematch:has-text('1 of 2 ready')", { timeout: WAIT });
  await ada.page.waitForSelector("#rematch-vote:has-text('Bob wants a rematch')", { timeout: WAIT });
  await screenshot(ada.page, "#results", "race-rematch-vote");
  await ada.page.click("#rematch");
  for (const p of [ada, bob]) await waitForMessage(p, (m) => m.type === "room" && m.room.state === "waiting" && m.room.players.every((q) => !q.rematch));
  await ada.page.waitForSelector("#start", { timeout: WAIT });
});

test("a racer who leaves forfeits: the others see 'left' in their own colour and the race ends without them", async () => {
  const ada = await namedPlayer(arena, "Ada");
  const bob = await namedPlayer(arena, "Bob");
  const code = await createRoom(ada, { mode: "race", publicRoom: false });
  await bob.page.fill("#join-code", code);
  await bob.page.click("button:text('Join')");
  await ada.page.waitForSelector("#waiting-players li:nth-child(2)", { timeout: WAIT });
  const { puzzle, solution } = await startGame(arena, ada, [bob]);
  await bob.page.click("#leave");
  await bob.page.waitForSelector("#leave-confirm:has-text('forfeits the race')", { timeout: WAIT });
  await screenshot(bob.page, "main", "race-leave-confirm");
  await bob.page.click("#leave-anyway");
  await ada.page.waitForFunction(() => document.querySelector("#people")?.textContent?.includes("left"), null, { timeout: WAIT });
  // Two players, two colours: each seat's own (not a hash of the id, which can collide).
  const seats = [seatColour(0), seatColour(1)];
  const [dots, expected] = await ada.page.evaluate((wanted) => {
    const css = (colour: string) => {
      const probe = document.createElement("span");
      probe.style.background = colour;
      document.body.append(probe);
      const rgb = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return rgb;
    };
    const shown = [...document.querySelectorAll("#people .dot")].map((e) => getComputedStyle(e).backgroundColor);
    return [shown, wanted.map(css)];
  }, seats);
  expect(dots).toEqual(expected);
  expect(dots[0]).not.toBe(dots[1]);
  await screenshot(ada.page, "main", "race-opponent-left");
  await typeSolution(ada, puzzle, solution);
  await waitForMessage(ada, (m) => m.type === "finished");
  await ada.page.waitForSelector("#ranks", { timeout: WAIT });
  const ranks = await ada.page.locator("#ranks tbody tr").allTextContents();
  expect(ranks).toHaveLength(1);
  expect(ranks[0]).toContain("Ada");
  await screenshot(ada.page, "main", "race-won-after-forfeit");
});

test("a name the server refuses brings back the name form with the reason", async () => {
  const context = await arena.browser.newContext();
  await context.addInitScript(() => {
    if (!sessionStorage.getItem("seeded")) {
      sessionStorage.setItem("seeded", "1");
      localStorage.setItem("arena.name", "bell\u0007");
    }
  });
  const page = await context.newPage();
  await page.goto(arena.server.url);
  await page.waitForSelector("#connection-banner:has-text('control character U+0007')", { timeout: WAIT });
  await page.waitForSelector("#name-form", { timeout: WAIT });
  await page.fill("#name", "Bell");
  await page.click("#enter");
  await page.waitForSelector("#create-room", { timeout: WAIT });
  await page.waitForSelector("#connection-banner", { state: "hidden", timeout: WAIT });
  await context.close();
});
