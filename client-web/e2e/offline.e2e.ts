// Installable and opening offline: the web app manifest and its icons are
// served; the service worker keeps the page, so with the network gone the page
// still opens, on the lobby, and says it is offline; back online it connects.

import { expect, test } from "vitest";
import { namedPlayer, screenshotScreen, useArena, WAIT } from "./harness";

const arena = useArena();

test("the page is installable and opens without the network, saying so", async () => {
  const ada = await namedPlayer(arena, "Offline");
  const page = ada.page;

  // The manifest names the app and its icons, which are there.
  const manifest = await page.request.get(`${arena.server.url}/manifest.webmanifest`);
  expect(manifest.ok()).toBe(true);
  const app = (await manifest.json()) as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string }> };
  expect(app.name).toBe("Sudoku Arena");
  expect(app.display).toBe("standalone");
  expect(app.icons.map((i) => i.sizes).sort()).toEqual(["192x192", "512x512"]);
  for (const icon of app.icons) {
    const got = await page.request.get(`${arena.server.url}${icon.src}`);
    expect(got.ok() && got.headers()["content-type"]).toBe("image/png");
  }
  expect(await page.getAttribute("link[rel=manifest]", "href")).toBe("/manifest.webmanifest");

  // The worker takes the page over; a reload goes through it (and keeps the scripts).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: WAIT });
  await page.waitForSelector("#create-room", { timeout: WAIT });

  // No network: the page still opens and says why nothing moves.
  await ada.context.setOffline(true);
  await page.reload();
  await page.waitForSelector("#app header h1", { timeout: WAIT });
  await page.waitForSelector("#connection-banner:has-text('You are offline')", { timeout: WAIT });
  await screenshotScreen(page, "offline-lobby");

  // Back online, it connects again without a reload.
  await ada.context.setOffline(false);
  await page.waitForSelector("#connection-banner", { state: "hidden", timeout: WAIT });
});
