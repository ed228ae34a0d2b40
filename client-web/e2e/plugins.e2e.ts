// A plugin that hangs or crashes costs its asker a clear message, never the
// page: the New game form shows progress while the server makes the puzzle, then
// says which variant failed and how, in words, and the same form goes on.

import { afterAll, beforeAll, expect, test } from "vitest";
import { createRoom, enterName, launchBrowser, openPlayer, screenshot, startServer, WAIT, type Arena } from "./harness";

const arena = {} as Arena;

beforeAll(async () => {
  arena.server = await startServer({ misbehave: true, extra: ["--generate-deadline-ms", "2000"] });
  arena.browser = await launchBrowser();
});

afterAll(async () => {
  await arena.browser?.close();
  await arena.server?.stop();
});

test("making a room shows progress, and a failing variant is named with what went wrong", async () => {
  const p = await openPlayer(arena.browser, arena.server.url);
  await enterName(p, "Ada");
  const page = p.page;
  await page.selectOption("#variant", "test-misbehave");
  await page.selectOption("#difficulty", "hang");
  await page.selectOption("#mode", "solo");
  await page.click("#create-room");
  // While the server waits on the plugin: the button says so and cannot be pressed twice.
  await page.waitForSelector("#create-room[aria-busy=true]:disabled", { timeout: WAIT });
  expect(await page.textContent("#create-room")).toBe("Making the puzzle…");
  expect(await page.textContent("#create-status")).toContain("Making a unique puzzle");
  await screenshot(page, "form#create", "create-room-in-progress");

  // The plugin never answers: after the deadline, the reason, without internals.
  await page.waitForSelector("#create-status.failed", { timeout: WAIT });
  expect(await page.textContent("#create-status")).toBe(
    "Could not make this game: 'test-misbehave' did not answer within 2 s. Try again, or pick another variant.",
  );
  expect(await page.isEnabled("#create-room")).toBe(true);
  await screenshot(page, "form#create", "create-room-failed");

  // Its host crashes: the same, in other words; nothing of the crash reaches the page.
  await page.selectOption("#difficulty", "crash-segfault");
  await page.click("#create-room");
  await page.waitForFunction(
    () => document.querySelector("#create-status.failed")?.textContent?.includes("'test-misbehave' failed (the server's log has the details)"),
    undefined,
    { timeout: WAIT },
  );
  expect(await page.textContent("body")).not.toMatch(/SIGSEGV|signal|panicked/);

  // The server and the page go on: a classic game is made and shown.
  await createRoom(p, { variant: "classic", difficulty: "easy", mode: "solo" });
  expect(await page.locator("#create-status").count()).toBe(0);
  await p.context.close();
});
