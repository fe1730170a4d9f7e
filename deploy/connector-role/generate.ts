/**
 * Writes every artifact derived from shared/src/marketplace/connector-role/ (policies.ts,
 * cloudformation-template.ts): the two CloudFormation templates, the Terraform policy templates and
 * the JSON blocks of console.md. Run after changing a policy:
 * `node deploy/connector-role/generate.ts` (the tests fail until the files match).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { POLICY_VERSIONS } from "@flowstate/shared/marketplace/connector-role/policies";
import { connectorTemplateYaml, TEMPLATE_FILES } from "./cloudformation.ts";
import { CONSOLE_GUIDE_FILE, syncConsoleGuide } from "./console.ts";
import { permissionPolicyTemplate, TERRAFORM_TEMPLATE_FILES, trustPolicyTemplate } from "./terraform.ts";

/** Path (relative to this directory) → exact content, for everything fully generated. */
export function generatedFiles(): Record<string, string> {
  const files: Record<string, string> = {
    [TERRAFORM_TEMPLATE_FILES.trust]: trustPolicyTemplate(),
    [TERRAFORM_TEMPLATE_FILES.permission]: permissionPolicyTemplate(),
  };
  for (const version of POLICY_VERSIONS) files[TEMPLATE_FILES[version]] = connectorTemplateYaml(version);
  return files;
}

if (import.meta.main) {
  const here = (path: string) => new URL(path, import.meta.url);
  for (const [path, content] of Object.entries(generatedFiles())) {
    mkdirSync(dirname(here(path).pathname), { recursive: true });
    writeFileSync(here(path), content);
    console.log(`wrote deploy/connector-role/${path}`);
  }
  const guide = readFileSync(here(CONSOLE_GUIDE_FILE), "utf8");
  writeFileSync(here(CONSOLE_GUIDE_FILE), syncConsoleGuide(guide));
  console.log(`synced the JSON blocks of deploy/connector-role/${CONSOLE_GUIDE_FILE}`);
}
