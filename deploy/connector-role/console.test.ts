import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { PolicyDocument, Statement } from "@flowstate/shared/marketplace/connector-role/policies";
import { ACCOUNT_PLACEHOLDER } from "@flowstate/shared/marketplace/connector-role/policies";
import { describe, it } from "vitest";
import { CONSOLE_GUIDE_FILE, markedBlocks } from "./console.ts";
import { readTemplate, resolveIntrinsics } from "./template-eval.ts";
import { renderTemplate } from "./terraform.ts";

const guide = readFileSync(new URL(CONSOLE_GUIDE_FILE, import.meta.url), "utf8");
/** A block of the guide as the seller pastes it: placeholders replaced, then parsed. */
function pasted(key: string, replacements: Record<string, string>) {
  const block = markedBlocks(guide).find((b) => b.key === key);
  assert.ok(block, `console.md has no block ${key}`);
  let text = block.json;
  for (const [placeholder, value] of Object.entries(replacements)) text = text.replaceAll(placeholder, value);
  assert.doesNotMatch(text, /<[A-Z_]+>/, `a placeholder is left in ${key}`);
  return JSON.parse(text);
}

const accountId = "210987654321";
const backend = "arn:aws:iam::111122223333:role/flowstate-prod-backend";
const mcp = "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution";
const terraformFile = (file: string) => readFileSync(new URL(`terraform/${file}`, import.meta.url), "utf8");

describe("the console guide", () => {
  it("shows the inline policy that CloudFormation and Terraform create, once <YOUR_ACCOUNT_ID> is filled in", () => {
    const consolePolicy = pasted("permission-current", { [ACCOUNT_PLACEHOLDER]: accountId });
    const cfnPolicy = resolveIntrinsics(
      readTemplate("current").Resources.MarketplaceCatalogAccessPolicy.Properties.PolicyDocument,
      {
        parameters: {},
        partition: "aws",
        accountId,
      },
    );
    const tfPolicy = JSON.parse(
      renderTemplate(terraformFile("marketplace-catalog-access.json.tftpl"), {
        partition: "aws",
        account_id: accountId,
      }),
    );
    assert.deepEqual(consolePolicy, cfnPolicy);
    assert.deepEqual(consolePolicy, tfPolicy);
  });

  it("shows the trust policy that CloudFormation and Terraform create, with both principals and the external ID", () => {
    const externalId = randomUUID();
    const consoleTrust = pasted("trust", {
      "<FLOWSTATE_BACKEND_ROLE_ARN>": backend,
      "<FLOWSTATE_MCP_EXECUTION_ROLE_ARN>": mcp,
      "<EXTERNAL_ID>": externalId,
    });
    const cfnTrust = resolveIntrinsics(
      readTemplate("current").Resources.MarketplaceConnectorRole.Properties.AssumeRolePolicyDocument,
      {
        parameters: { FlowstatePrincipalArns: [backend, mcp], ExternalId: externalId },
        partition: "aws",
        accountId,
      },
    );
    const tfTrust = JSON.parse(
      renderTemplate(terraformFile("trust-policy.json.tftpl"), {
        principal_arns: [backend, mcp],
        external_id: externalId,
      }),
    );
    assert.deepEqual(consoleTrust, cfnTrust);
    assert.deepEqual(consoleTrust, tfTrust);
  });

  it("shows the legacy policy that the legacy CloudFormation template creates", () => {
    const legacy = resolveIntrinsics(
      readTemplate("legacy").Resources.MarketplaceCatalogAccessPolicy.Properties.PolicyDocument,
      {
        parameters: {},
        partition: "aws",
        accountId,
      },
    );
    assert.deepEqual(pasted("permission-legacy", { [ACCOUNT_PLACEHOLDER]: accountId }), legacy);
  });

  it("migrates by two additions that keep every existing statement and end at the current policy", () => {
    const replacements = { [ACCOUNT_PLACEHOLDER]: accountId };
    const policy: PolicyDocument = pasted("permission-legacy", replacements);
    const kept = structuredClone(policy.Statement);
    // Step 1: the Seller ARN into MarketplaceCatalogManage's Resource list. Step 2: the new statement.
    const manage = policy.Statement.find((s) => s.Sid === "MarketplaceCatalogManage")!;
    (manage.Resource as string[]).push(pasted("migration-seller-resource", replacements));
    policy.Statement.push(pasted("migration-agreement-statement", replacements) as Statement);

    assert.deepEqual(policy, pasted("permission-current", replacements));
    for (const statement of kept) assert.ok(policy.Statement.some((s) => s.Sid === statement.Sid));
  });

  it("walks through the console steps of interface.md §5.3 and the migration of every path", () => {
    for (const needle of [
      "us-east-1",
      "Another AWS account",
      "Require external ID",
      "select no managed policy",
      "`MarketplaceConnector`",
      "`MarketplaceCatalogAccess`",
      "<YOUR_ACCOUNT_ID>",
      "Trust relationships",
      "lists **both** ARNs",
      "role ARN",
      "update the existing stack with the current template",
      "terraform init -upgrade",
      "Terraform with copied files",
      "keep\n  every existing statement",
    ]) {
      assert.ok(guide.includes(needle), `console.md lacks ${JSON.stringify(needle)}`);
    }
  });
});
