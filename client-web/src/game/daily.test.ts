import { expect, test } from "vitest";
import { dailySettings, nextDailyAt } from "./daily";

test("the next puzzles arrive at the next UTC midnight", () => {
  expect(nextDailyAt(new Date("2026-11-24T10:15:00Z")).toISOString()).toBe("2026-11-25T00:00:00.000Z");
  expect(nextDailyAt(new Date("2026-12-31T23:59:59Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  expect(nextDailyAt(new Date("2026-03-01T00:00:00Z")).toISOString()).toBe("2026-03-02T00:00:00.000Z");
});

test("a daily room is a solo room asking for today's puzzle", () => {
  const s = dailySettings("gattai", "hard");
  expect(s).toMatchObject({ variant: "gattai", difficulty: "hard", mode: "solo", max_players: 1, daily: "today" });
});
