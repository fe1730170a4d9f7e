import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { importGraph } from "./graph.ts";
import { renderStructure } from "./render.ts";

/** `npm run structure`: writes docs/structure.md from the code. */
const file = join(import.meta.dirname, "..", "..", "docs", "structure.md");
writeFileSync(file, renderStructure(importGraph()));
console.log(`${file}: written`);
