import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/** Seconds per test file, measured in a full run (`scripts/test-durations.ts` writes it). */
const DURATIONS = new URL("./test-durations.json", import.meta.url);

/**
 * Runs the longest test files first, across every project, from durations committed with the code.
 *
 * Vitest orders files project by project (by name) and, on a fresh clone with no cache of earlier
 * results, by file size within one: a short file that waits a long time (a browser journey, the
 * fault suite, a stack started and revoked on four instances) could start last and run alone while
 * the other workers idle. In a fresh-clone CI run the seller console's 80 s browser test began at
 * 738 s of 818 s. Longest first packs the three workers (the classic LPT schedule). Files without
 * a measurement (new ones) go first, as vitest puts unknown files first.
 */
export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    let seconds: Record<string, number>;
    try {
      seconds = JSON.parse(readFileSync(DURATIONS, "utf8")) as Record<string, number>;
    } catch {
      return super.sort(files);
    }
    const root = this.ctx.config.root;
    return longestFirst(files, (spec) => relative(root, spec.moduleId), seconds);
  }
}

/** `items` by measured seconds, longest first; those not measured first of all, in their order. */
export function longestFirst<T>(items: readonly T[], path: (item: T) => string, seconds: Record<string, number>): T[] {
  const duration = (item: T) => seconds[path(item)] ?? Number.POSITIVE_INFINITY;
  return [...items].sort((a, b) => {
    const da = duration(a);
    const db = duration(b);
    return da === db ? 0 : db > da ? 1 : -1;
  });
}
