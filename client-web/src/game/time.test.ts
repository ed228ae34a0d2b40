import { describe, expect, it } from "vitest";
import { clock, notRankedNote } from "./time";

describe("time", () => {
  it("reads durations as a clock", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(65_999)).toBe("1:05");
    expect(clock(3_600_000 + 61_000)).toBe("1:01:01");
  });

  it("says why a finish is not ranked, with both times", () => {
    expect(notRankedNote({ time_ms: 4_200, plausible_ms: 13_500 })).toBe(
      "Your 0:04 is not ranked: faster than anyone can solve this puzzle (0:13 at the least).",
    );
  });
});
