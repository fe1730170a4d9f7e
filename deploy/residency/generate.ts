/**
 * `npm run residency`: rewrites the README's data-residency section from the manifest and exits
 * non-zero when the manifest breaks the residency rule.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  renderResidencySection,
  repoRoot,
  residencyManifest,
  residencyViolations,
  withResidencySection,
} from "./manifest.ts";

const manifest = residencyManifest();
const path = join(repoRoot, "README.md");
writeFileSync(path, withResidencySection(readFileSync(path, "utf8"), renderResidencySection(manifest)));
const violations = residencyViolations(manifest);
for (const v of violations) console.error(`residency violation: ${v}`);
console.log(`README.md: data-residency section written (${manifest.length} entries)`);
process.exit(violations.length ? 1 : 0);
