import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LIBRARIES, libraryExports } from "./exports.ts";
import { importGraph } from "./graph.ts";
import { renderStructure } from "./render.ts";

/**
 * `npm run structure`: writes contracts' and shared's `exports` maps (one named entry per module)
 * and docs/structure.md from the code. The exports first: the drawing reads them.
 */
const root = join(import.meta.dirname, "..", "..");
for (const library of LIBRARIES) {
  const file = join(root, library, "package.json");
  const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  json.exports = libraryExports(library);
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`${file}: exports written`);
}
const file = join(root, "docs", "structure.md");
writeFileSync(file, renderStructure(importGraph()));
console.log(`${file}: written`);
