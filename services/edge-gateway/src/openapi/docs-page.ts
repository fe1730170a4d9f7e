import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ServiceApp } from "@flowstate/shared/http/app";

const assetsDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** Only these files are served, read once at boot: no path from a request ever reaches the file system. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

// The initializer is a file, not an inline script, so the page runs under a CSP without 'unsafe-inline' for scripts.
const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });\n`;
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Flowstate API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
// Swagger UI sets inline styles and loads the spec with fetch from this origin.
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'";

/**
 * `/docs`: Swagger UI from the installed swagger-ui-dist package (self-hosted, no CDN), pointed
 * at `/openapi.json`.
 *
 * @example
 * mountDocs(app); // GET /docs, /docs/swagger-ui-bundle.js, …
 */
export function mountDocs(app: ServiceApp): void {
  const files = new Map<string, { body: Uint8Array; type: string }>();
  for (const [name, type] of Object.entries(ASSETS))
    files.set(name, { body: readFileSync(join(assetsDir, name)), type });
  files.set("init.js", { body: Buffer.from(INIT), type: "text/javascript; charset=utf-8" });

  app.get("/docs", (c) => c.html(PAGE, 200, { "content-security-policy": CSP }));
  app.get("/docs/:file", (c) => {
    const file = files.get(c.req.param("file"));
    if (file === undefined) return c.notFound();
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": file.type,
      "cache-control": "public, max-age=3600",
    });
  });
}
