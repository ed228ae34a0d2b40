// Build: `npm run build` writes dist/, which `arena serve --client client-web/dist` serves.
// Unit tests: `npm test` (Vitest) runs src/**/*.test.ts; e2e/ has its own config.
import { defineConfig, type Plugin } from "vitest/config";

/** The stylesheet goes inside index.html: the first paint (the welcome form on
 * a slow connection) then waits for one response, not two that share the line
 * with the app's script. It is 3 KB compressed. */
function inlineStyles(): Plugin {
  return {
    name: "inline-styles",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const page = Object.values(bundle).find((f) => f.type === "asset" && f.fileName === "index.html");
      if (!page || page.type !== "asset") return;
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type !== "asset" || !name.endsWith(".css")) continue;
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${name.replace(/[.]/g, "\\.")}"[^>]*>`);
        const html = String(page.source);
        if (!link.test(html)) continue;
        page.source = html.replace(link, () => `<style>${String(file.source)}</style>`);
        delete bundle[name];
      }
    },
  };
}

export default defineConfig({
  plugins: [inlineStyles()],
  // No source map: the bundle is what the server serves, and nothing more.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022" },
  test: { include: ["src/**/*.test.ts"] },
});
