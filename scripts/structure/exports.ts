import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/**
 * What each workspace package exports, by name. A package's `exports` map is its public
 * interface: a pattern (`"./*"`) would make every file public, so that any module of a service
 * could be imported by another and the layering checked in graph.ts would rest on good manners.
 *
 * contracts and shared are libraries: every module of theirs is public (tests and test data
 * aside), and their maps are generated (`npm run structure`). A service exports only what another
 * package uses, written by hand in its package.json: the module that another process runs of it
 * (edge-gateway's `./pipeline`) and the test stacks other packages' tests start (`./testing/…`).
 */

const repoRoot = join(import.meta.dirname, "..", "..");

/** The packages whose every module is public. */
export const LIBRARIES = ["contracts", "shared"] as const;

function trackedFiles(root: string): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => f && existsSync(join(root, f)));
}

/** A library's module that is not part of its interface: tests, their data and fixtures. */
const isLibraryModule = (file: string) =>
  file.endsWith(".ts") &&
  !file.endsWith(".test.ts") &&
  !file.endsWith(".d.ts") &&
  !file.includes(".fixture.") &&
  !/(^|\/)testdata(\/|\.ts$)/.test(file);

/** The generated `exports` map of a library: `"./http/app": "./src/http/app.ts"` per module, sorted. */
export function libraryExports(library: (typeof LIBRARIES)[number], root = repoRoot): Record<string, string> {
  const prefix = `${library}/src/`;
  const modules = trackedFiles(root)
    .filter((f) => f.startsWith(prefix) && isLibraryModule(f))
    .map((f) => f.slice(prefix.length, -".ts".length))
    .sort();
  return Object.fromEntries(modules.map((m) => [`./${m}`, `./src/${m}.ts`]));
}

export interface WorkspacePackage {
  name: string;
  /** Repository-relative directory. */
  dir: string;
  exports: Record<string, string> | undefined;
}

/** Every `@flowstate/…` package of the repository. */
export function workspacePackages(root = repoRoot): WorkspacePackage[] {
  return trackedFiles(root)
    .filter((f) => f.endsWith("package.json") && !f.includes("node_modules"))
    .map((f) => ({ f, json: JSON.parse(readFileSync(join(root, f), "utf8")) as Partial<WorkspacePackage> }))
    .filter(({ json }) => json.name?.startsWith("@flowstate/"))
    .map(({ f, json }) => ({ name: json.name!, dir: dirname(f), exports: json.exports }));
}

const SPECIFIER =
  /(?:^|\s)(?:import|export)\s[^;]*?\sfrom\s+["'](@flowstate\/[^"']+)["']|import\(\s*["'](@flowstate\/[^"']+)["']\s*\)/gm;

/** Every `@flowstate/…` specifier in the repository's TypeScript, tests included, with where it is written. */
export function packageImports(root = repoRoot): { file: string; specifier: string }[] {
  const found: { file: string; specifier: string }[] = [];
  for (const file of trackedFiles(root).filter((f) => f.endsWith(".ts") && !f.includes("node_modules"))) {
    const text = readFileSync(join(root, file), "utf8").replace(/^\s*(\/\/|\*).*$/gm, "");
    for (const m of text.matchAll(SPECIFIER)) found.push({ file, specifier: m[1] ?? m[2]! });
  }
  return found;
}

/**
 * The file a specifier names through a named entry of its package's `exports`, or why it does not
 * resolve (no such package, no such entry, the entry's file missing).
 */
export function resolveNamed(
  specifier: string,
  packages: readonly WorkspacePackage[],
  root = repoRoot,
): { file: string } | { problem: string } {
  const m = /^(@flowstate\/[^/]+)(\/.*)?$/.exec(specifier);
  const pkg = packages.find((p) => p.name === m?.[1]);
  if (!m || !pkg) return { problem: "no such workspace package" };
  const entry = `.${m[2] ?? ""}`;
  const target = pkg.exports && Object.hasOwn(pkg.exports, entry) ? pkg.exports[entry] : undefined;
  if (target === undefined) return { problem: `${pkg.dir}/package.json has no "${entry}" in exports` };
  const file = normalize(join(pkg.dir, target));
  if (!existsSync(join(root, file))) return { problem: `"${entry}" names ${file}, which does not exist` };
  return { file };
}
