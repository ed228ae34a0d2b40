import { expect, test } from "vitest";
import { recentText, stateAt, timeLine, tournamentFromHash, tournamentLink } from "./tournament";

test("a tournament's link names it; nothing else does", () => {
  expect(tournamentLink("https://x.org", "/", "abcdefABCDE1")).toBe("https://x.org/#tournament-abcdefABCDE1");
  expect(tournamentFromHash("#tournament-abcdefABCDE1")).toBe("abcdefABCDE1");
  for (const h of ["#tournament-x", "#review-abcdefABCDE1", "#abcdefABCDE1", ""]) expect(tournamentFromHash(h)).toBeUndefined();
});

test("its state and time by the clock: scheduled, running, over", () => {
  const t = { starts_at_ms: 100_000, ends_at_ms: 700_000 };
  expect(stateAt(t, 0)).toBe("scheduled");
  expect(timeLine(t, 0)).toBe("Starts in 1:40");
  expect(stateAt(t, 100_000)).toBe("running");
  expect(timeLine(t, 300_000)).toBe("6:40 left");
  expect(stateAt(t, 700_000)).toBe("finished");
  expect(timeLine(t, 800_000)).toBe("Over");
});

test("recent places in a row, a race not finished as a dash", () => {
  expect(recentText([1, 1, 2, 0])).toBe("1 1 2 –");
  expect(recentText([])).toBe("");
});
