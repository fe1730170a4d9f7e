import { readFileSync } from "node:fs";
import type { ConsoleApp } from "../http/env.ts";

/** The one stylesheet, read once at boot; cached by browsers for an hour (it changes with a deploy). */
const CSS = readFileSync(new URL("../static/console.css", import.meta.url), "utf8");

export function mountStatic(app: ConsoleApp): void {
  app.get("/app/static/console.css", (c) =>
    c.body(CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" }),
  );
}
