// Build: `npm run build` writes dist/, which `arena serve --client client-web/dist` serves.
// Unit tests: `npm test` (Vitest) runs src/**/*.test.ts; e2e/ has its own config.
import { defineConfig } from "vitest/config";

export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  test: { include: ["src/**/*.test.ts"] },
});
