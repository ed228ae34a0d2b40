// Browser benchmarks (npm run perf): not tests — each prints its table.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["perf/**/*.perf.ts"],
    fileParallelism: false,
    testTimeout: 300_000,
  },
});
