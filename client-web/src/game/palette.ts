// The colour mode's palette: SudokuPad's nine colours, keys 1-9.

/** The colours, in key order. */
export const PALETTE = ["#d6d6d6", "#7c7c7c", "#3c3c3c", "#b3e5a1", "#e6a1cf", "#f3b27a", "#f26a6a", "#f9f07e", "#8ec5f5"];

/** Whether palette colour `k` (1-based) is dark enough to need light text on it. */
export function isDarkColour(k: number): boolean {
  return k === 2 || k === 3;
}
