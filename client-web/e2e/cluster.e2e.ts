// Two real nodes on a private PostgreSQL server, two browsers. Bob's page is
// served by node 2 and opens Ada's invite link: the room lives on node 1, so
// the page is redirected there and sits down in it. Mid-race node 1 is killed:
// Bob's page loses its connection, comes back through node 2, which has taken
// the room over, and his board is as he left it; the race goes on.

import { afterAll, beforeAll, expect, test } from "vitest";
import {
  cellLabel,
  createRoom,
  emptyCells,
  lastPuzzle,
  launchBrowser,
  namedPlayer,
  screenshot,
  solve,
  startServer,
  waitForLabel,
  waitForMessage,
  WAIT,
  type Arena,
} from "./harness";
import { startPostgres, type Postgres } from "./postgres";

let pg: Postgres;
const node1 = {} as Arena;
const node2 = {} as Arena;

beforeAll(async () => {
  pg = await startPostgres();
  const database = pg.database("e2e");
  const node = (id: string) => startServer({ extra: ["--database", database, "--node-id", id, "--lease-ms", "1000"] });
  node1.server = await node("n1");
  node2.server = await node("n2");
  node1.browser = node2.browser = await launchBrowser();
});

afterAll(async () => {
  await node1.browser?.close();
  await node1.server?.stop();
  await node2.server?.stop();
  pg?.stop();
});

test("a link to a room on another node is followed there, and the room survives its node", async () => {
  const ada = await namedPlayer(node1, "Ada");
  const bob = await namedPlayer(node2, "Bob");
  const code = await createRoom(ada, { mode: "race", publicRoom: false });
  await bob.page.goto(`${node2.server.url}/#${code}`);
  await waitForMessage(bob, (m) => m.type === "redirect" && m.code === code);
  await bob.page.waitForSelector("#waiting-for-host", { timeout: WAIT });
  await ada.page.click("#start");
  for (const p of [ada, bob]) await p.page.waitForSelector("svg.board", { timeout: WAIT });
  const puzzle = lastPuzzle(bob);
  const solution = solve(node2.server, puzzle);
  const [a, b] = emptyCells(puzzle);
  await bob.page.click(`#cell-${a[0]}-${a[1]}`);
  await bob.page.keyboard.press(String(solution[a[0]][a[1]]));
  await waitForMessage(bob, (m) => m.type === "move_accepted");
  const before = await cellLabel(bob, a);

  // Node 1 dies. Bob's page reconnects to its own node, which takes the room over.
  await node1.server.kill();
  await bob.page.waitForSelector("#connection-banner:has-text('Connection lost')", { timeout: WAIT });
  await bob.page.waitForSelector("#connection-banner", { state: "hidden", timeout: WAIT });
  await waitForLabel(bob, a, "empty", true);
  expect(await cellLabel(bob, a)).toEqual(before);
  await bob.page.click(`#cell-${b[0]}-${b[1]}`);
  await bob.page.keyboard.press(String(solution[b[0]][b[1]]));
  await waitForMessage(bob, (m) => m.type === "move_accepted" && m.row === b[0] && m.col === b[1]);
  await screenshot(bob.page, "body", "cluster-after-failover");
});
