// End-to-end tests: the real server binary, real plugins, Debian's Chromium.
// One file at a time (2 cores); each file starts its own server.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
