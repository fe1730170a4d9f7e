import { readFileSync } from "node:fs";
import { relative } from "node:path";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/** Seconds per test file, measured in a full run (`scripts/test-durations.ts` writes it). */
const DURATIONS = new URL("./test-durations.json", import.meta.url);

/**
 * Runs the projects with the most measured time first, and within each project its longest files
 * first, from durations committed with the code.
 *
 * Vitest orders files project by project (by name) and, on a fresh clone with no cache of earlier
 * results, by file size within one: a long file (the seller console's browser journey) could start
 * last and run alone while the other workers idle. The files of a project stay together: workers
 * keep their modules between files (`isolate: false`) only within one project, and interleaving
 * projects (an earlier sequencer, longest first across all files) measured 465 s against 411.
 * Files without a measurement (new ones) go first in their project.
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
    return longestFirst(
      files,
      (spec) => relative(root, spec.moduleId),
      (spec) => spec.project.name,
      seconds,
    );
  }
}

/**
 * `items` grouped by project, the projects by their measured seconds summed (most first), each
 * project's items longest first; an unmeasured item counts as the longest of its project.
 */
export function longestFirst<T>(
  items: readonly T[],
  path: (item: T) => string,
  project: (item: T) => string,
  seconds: Record<string, number>,
): T[] {
  const duration = (item: T) => seconds[path(item)] ?? Number.POSITIVE_INFINITY;
  const total = new Map<string, number>();
  for (const item of items) total.set(project(item), (total.get(project(item)) ?? 0) + (seconds[path(item)] ?? 0));
  const byDesc = (a: number, b: number) => (a === b ? 0 : b > a ? 1 : -1);
  return [...items].sort(
    (a, b) =>
      byDesc(total.get(project(a))!, total.get(project(b))!) ||
      project(a).localeCompare(project(b)) ||
      byDesc(duration(a), duration(b)),
  );
}
