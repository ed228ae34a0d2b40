// A newcomer on a slow phone connection (400 kbit/s, 400 ms round trips,
// emulated by Chromium): the name form shows within 1.5 s of asking for the
// page, before the app's script has arrived, and whatever they type there is
// kept when the app takes over.

import { expect, test } from "vitest";
import { screenshotScreen, useArena, WAIT } from "./harness";

const arena = useArena();

/** 400 kbit/s both ways, in bytes per second, and the round trip in ms. */
const SLOW = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

test("400 kbit/s and 400 ms: the name form shows in under 1.5 s", async () => {
  const context = await arena.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", SLOW);
  const started = Date.now();
  await page.goto(arena.server.url, { waitUntil: "commit" });
  await page.waitForSelector("#name", { state: "visible", timeout: WAIT });
  const shown = Date.now() - started;
  console.log(`name form shown after ${shown} ms`);
  await screenshotScreen(page, "slow-network-name-form");
  expect(shown).toBeLessThan(1500);
  await context.close();
});

test("the form works before the app's script arrives: a name typed and sent early is kept and sent", async () => {
  const context = await arena.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // Hold the app's script back until the newcomer has typed and pressed Play.
  let release: () => void = () => undefined;
  const held = new Promise<void>((ok) => (release = ok));
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(arena.server.url, { waitUntil: "commit" });
  await page.waitForSelector("#name", { state: "visible", timeout: WAIT });
  await page.fill("#name", "Zoe");
  await page.click("#enter");
  expect(page.url()).not.toContain("?");
  release();
  // The app takes over, keeps the name and sends it: the lobby greets Zoe.
  await page.waitForSelector("#create-room", { timeout: WAIT });
  expect(await page.evaluate(() => localStorage.getItem("arena.name"))).toBe("Zoe");
  await context.close();
});
