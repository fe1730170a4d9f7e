import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/**
 * The import graph of Flowstate's production code, read from the sources (`import … from`,
 * `export … from`, `import("…")`): one node per module, one edge per import of another module of
 * the repository. Tests and test helpers (`*.test.ts`, `testing/`, `test/`) are not production
 * code and are left out: they may start the whole system.
 */

const repoRoot = join(import.meta.dirname, "..", "..");

/** The layers, lowest first: a module may import its own layer's packages or lower ones, never higher. */
export const LAYERS = ["contracts", "shared", "services", "deploy, scripts, bench"] as const;

/** The package (unit of the drawing) a repository file belongs to: `contracts`, `shared`, `services/x`, `deploy/x`, … */
export function packageOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "services" || parts[0] === "deploy") return parts.slice(0, 2).join("/");
  return parts[0]!;
}

export function layerOf(pkg: string): number {
  if (pkg === "contracts") return 0;
  if (pkg === "shared") return 1;
  if (pkg.startsWith("services/")) return 2;
  return 3;
}

export const isProduction = (file: string) =>
  file.includes("/") &&
  file.endsWith(".ts") &&
  !file.endsWith(".test.ts") &&
  !file.endsWith(".d.ts") &&
  !/(^|\/)(testing|test|testdata)\//.test(file) &&
  !file.includes(".fixture.");

const SPECIFIER = /(?:^|\s)(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

/**
 * `@flowstate/<pkg>/<path>` → the file it names, through each package's `exports` map, and whether
 * it went through a named entry (`"./pipeline": …`) rather than a pattern (`"./*"`).
 */
function resolvePackage(
  spec: string,
  packages: Map<string, { dir: string; exports: Record<string, string> }>,
): { file: string; named: boolean } | undefined {
  const m = /^@flowstate\/([^/]+)(\/.*)?$/.exec(spec);
  if (!m) return undefined;
  const pkg = packages.get(m[1]!);
  if (!pkg) return undefined;
  const sub = `.${m[2] ?? ""}`;
  if (Object.hasOwn(pkg.exports, sub)) return { file: normalize(join(pkg.dir, pkg.exports[sub]!)), named: true };
  for (const [pattern, target] of Object.entries(pkg.exports)) {
    if (pattern.endsWith("/*") && sub.startsWith(pattern.slice(0, -1))) {
      const rest = sub.slice(pattern.length - 1);
      return { file: normalize(join(pkg.dir, target.replace("*", rest))), named: false };
    }
  }
  return undefined;
}

export interface ImportGraph {
  /** Production modules, repository-relative. */
  modules: string[];
  /** module → the repository modules it imports. */
  edges: Map<string, Set<string>>;
  /** `from → to` of the imports that went through a package's named export (its public interface). */
  named: Set<string>;
}

/** Builds the graph from the files git knows (tracked and new, not ignored). */
export function importGraph(root = repoRoot): ImportGraph {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => f && existsSync(join(root, f)));
  const packages = new Map<string, { dir: string; exports: Record<string, string> }>();
  for (const f of files.filter((f) => f.endsWith("package.json") && !f.includes("node_modules"))) {
    const json = JSON.parse(readFileSync(join(root, f), "utf8")) as { name?: string; exports?: Record<string, string> };
    if (json.name?.startsWith("@flowstate/") && json.exports)
      packages.set(json.name.slice("@flowstate/".length), { dir: dirname(f), exports: json.exports });
  }
  const modules = files.filter(isProduction);
  const known = new Set(files);
  const edges = new Map<string, Set<string>>();
  const named = new Set<string>();
  for (const file of modules) {
    const out = new Set<string>();
    const text = readFileSync(join(root, file), "utf8").replace(/^\s*(\/\/|\*).*$/gm, "");
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2]!;
      const resolved = spec.startsWith(".")
        ? { file: normalize(join(dirname(file), spec)), named: false }
        : resolvePackage(spec, packages);
      if (!resolved || !known.has(resolved.file)) continue;
      const target = relative(".", resolved.file);
      out.add(target);
      if (resolved.named) named.add(`${file} → ${target}`);
    }
    edges.set(file, out);
  }
  return { modules, edges, named };
}

/** Module-level import cycles (strongly connected components of more than one module, or a self-import). */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.edges.get(v) ?? []) {
      if (!graph.edges.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.edges.get(v)?.has(v)) found.push(scc.sort());
    }
  };
  for (const m of graph.modules) if (!idx.has(m)) visit(m);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The package-level drawing: package → packages it imports (production code), without self-edges. */
export function packageEdges(graph: ImportGraph): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [from, targets] of graph.edges) {
    const p = packageOf(from);
    const set = out.get(p) ?? new Set<string>();
    for (const t of targets) if (packageOf(t) !== p) set.add(packageOf(t));
    out.set(p, set);
  }
  return out;
}

/**
 * Every arrow the layering forbids: to a higher layer (shared → a service, a service → deploy/,
 * anything → bench/), and between two services except through the other package's named exports
 * (a service uses another over HTTP or events; what one process runs of another, like the edge
 * pipeline inside mcp-gateway, is a module that package exports by name).
 */
export function forbiddenArrows(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph.edges) {
    const p = packageOf(from);
    for (const t of targets) {
      const q = packageOf(t);
      if (p === q) continue;
      const up = layerOf(q) > layerOf(p);
      const sideways = layerOf(p) === 2 && layerOf(q) === 2 && !graph.named.has(`${from} → ${t}`);
      const intoBench = q === "bench" && p !== "bench";
      if (up || sideways || intoBench) found.push(`${from} → ${t}`);
    }
  }
  return found.sort();
}
