import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { LIBRARIES, libraryExports, packageImports, resolveNamed, workspacePackages } from "./exports.ts";

const packages = workspacePackages();

describe("what the packages export", () => {
  it("is named, entry by entry: no package exports a pattern (./*, ./test/*)", () => {
    const patterns = packages.flatMap((p) =>
      Object.keys(p.exports ?? {})
        .filter((entry) => entry.includes("*"))
        .map((entry) => `${p.name}: "${entry}"`),
    );
    assert.deepEqual(patterns, []);
    // No `exports` at all would make every file importable too.
    assert.deepEqual(
      packages.filter((p) => p.exports === undefined).map((p) => p.name),
      [],
    );
  });

  it("covers every @flowstate/… import in the repository, tests included, with an entry whose file exists", () => {
    const imports = packageImports();
    assert.ok(imports.length > 100, `only ${imports.length} @flowstate/… imports found: is the scan broken?`);
    const unresolved = imports.flatMap(({ file, specifier }) => {
      const r = resolveNamed(specifier, packages);
      return "problem" in r ? [`${file}: ${specifier}: ${r.problem}`] : [];
    });
    assert.deepEqual(unresolved, [], "add a named entry to the package (contracts, shared: `npm run structure`)");
  });

  it("of contracts and shared is every module, as `npm run structure` writes it", () => {
    for (const library of LIBRARIES) {
      const pkg = packages.find((p) => p.name === `@flowstate/${library}`);
      assert.deepEqual(pkg?.exports, libraryExports(library), `${library}/package.json: run \`npm run structure\``);
    }
  });
});
