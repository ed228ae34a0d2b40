// Build: `npm run build` writes dist/, which `arena serve --client client-web/dist` serves.
// Unit tests: `npm test` (Vitest) runs src/**/*.test.ts; e2e/ has its own config.
import { defineConfig } from "vitest/config";

export default defineConfig({
  // No source map: the bundle is what the server serves, and nothing more.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  test: { include: ["src/**/*.test.ts"] },
});
