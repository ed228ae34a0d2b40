import { afterEach, expect, test, vi } from "vitest";
import { throttled } from "./throttle";

afterEach(() => {
  vi.useRealTimers();
});

test("runs at once, then folds the calls of each interval into one at its end", () => {
  vi.useFakeTimers();
  let runs = 0;
  const call = throttled(() => runs++, 100);
  call();
  expect(runs).toBe(1);
  for (let i = 0; i < 10; i++) call();
  expect(runs).toBe(1);
  vi.advanceTimersByTime(100);
  expect(runs).toBe(2);
  vi.advanceTimersByTime(100);
  expect(runs).toBe(2);
  vi.advanceTimersByTime(100);
  call();
  expect(runs).toBe(3);
});
