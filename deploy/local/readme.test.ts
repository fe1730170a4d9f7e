import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serviceCatalog, serviceNames, urlVariable } from "@flowstate/contracts/services/catalog";
import { describe, it } from "vitest";
import { DEFAULT_METRICS_PORTS } from "./environment.ts";

const root = join(import.meta.dirname, "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const section = (heading: string) => {
  const from = readme.indexOf(`## ${heading}`);
  assert.ok(from >= 0, `README has a "${heading}" section`);
  const next = readme.indexOf("\n## ", from + 3);
  return readme.slice(from, next < 0 ? undefined : next);
};
const row = (variable: string) => readme.split("\n").find((l) => l.startsWith(`| \`${variable}\``)) ?? "";

/** The README's promises about the system, held to the services catalog (issue 23: "the README is true again"). */
describe("the README", () => {
  it("shows every service of the catalog in npm start's summary, at its default port", () => {
    const start = section("Two commands on a fresh machine");
    for (const name of serviceNames) {
      const port = serviceCatalog[name].port;
      assert.match(start, new RegExp(`\\n\\s+${name}\\s+http://127\\.0\\.0\\.1:${port}\\s+healthy`), name);
    }
  });

  it("names every service's port and URL variable in the configuration table", () => {
    for (const name of serviceNames) {
      assert.ok(row("PORT").includes(`${name} ${serviceCatalog[name].port}`), `PORT: ${name}`);
      const variable = urlVariable(name);
      const urls = readme.split("\n").find((l) => l.startsWith("| `IDENTITY_URL`")) ?? "";
      assert.ok(urls.includes(`\`${variable}\``), `URL variables: ${variable}`);
    }
    for (const [name, port] of Object.entries(DEFAULT_METRICS_PORTS))
      assert.ok(row("METRICS_PORT").includes(`${name} ${port}`), `METRICS_PORT: ${name}`);
  });

  it("lists every folder of the repository and every service in its layout", () => {
    const layout = section("Layout");
    const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
    const folders = new Set(tracked.filter((f) => f.includes("/")).map((f) => f.slice(0, f.indexOf("/"))));
    for (const folder of folders) assert.ok(layout.includes(`${folder}/`), `layout: ${folder}/`);
    const deploy = new Set(tracked.filter((f) => f.startsWith("deploy/")).map((f) => f.split("/")[1]!));
    for (const folder of deploy)
      if (!folder.includes(".")) assert.ok(layout.includes(`deploy/${folder}/`), `deploy/${folder}/`);
    for (const name of serviceNames)
      assert.match(layout, new RegExp(`\\n\\s+${name}/\\s`), `layout: services/${name}/`);
  });
});
