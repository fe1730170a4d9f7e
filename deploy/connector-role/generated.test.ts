import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { connectorTemplate } from "@flowstate/shared/marketplace/connector-role/cloudformation-template";
import { POLICY_VERSIONS } from "@flowstate/shared/marketplace/connector-role/policies";
import { describe, it } from "vitest";
import { parse } from "yaml";
import { TEMPLATE_FILES } from "./cloudformation.ts";
import { CONSOLE_GUIDE_FILE, consoleBlocks, markedBlocks, syncConsoleGuide } from "./console.ts";
import { generatedFiles } from "./generate.ts";
import { readTemplate } from "./template-eval.ts";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("the committed artifacts", () => {
  it("are byte for byte what generate.ts renders from policies.ts (run it after changing the policies)", () => {
    for (const [path, expected] of Object.entries(generatedFiles())) {
      assert.equal(read(path), expected, `${path} is stale: node deploy/connector-role/generate.ts`);
    }
  });

  it("include the console guide, whose JSON blocks are the rendered documents, each shown once", () => {
    const guide = read(CONSOLE_GUIDE_FILE);
    assert.equal(guide, syncConsoleGuide(guide), "console.md is stale: node deploy/connector-role/generate.ts");
    assert.deepEqual(
      markedBlocks(guide)
        .map((b) => b.key)
        .sort(),
      Object.keys(consoleBlocks()).sort(),
    );
    for (const { key, json } of markedBlocks(guide)) assert.equal(json, consoleBlocks()[key]);
  });

  it("have no unmarked JSON block in the console guide (each one is checked)", () => {
    const guide = read(CONSOLE_GUIDE_FILE);
    const jsonFences = guide.match(/```json/g) ?? [];
    assert.equal(jsonFences.length, markedBlocks(guide).length);
  });

  it("parse as plain YAML into the template objects, with strings that YAML 1.1 parsers would turn into dates kept as strings", () => {
    for (const version of POLICY_VERSIONS) {
      assert.deepEqual(readTemplate(version), connectorTemplate(version));
      const yaml11 = parse(read(TEMPLATE_FILES[version]), { version: "1.1" });
      assert.equal(yaml11.AWSTemplateFormatVersion, "2010-09-09");
      assert.equal(yaml11.Resources.MarketplaceCatalogAccessPolicy.Properties.PolicyDocument.Version, "2012-10-17");
    }
  });
});
