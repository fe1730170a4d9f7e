// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${…} here are Terraform expressions as hcl2json prints them
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "@cdktf/hcl2json";
import {
  EXTERNAL_ID_CHARS,
  EXTERNAL_ID_MAX,
  EXTERNAL_ID_MIN,
  INLINE_POLICY_NAME,
  ROLE_NAME,
} from "@flowstate/shared/marketplace/connector-role/policies";
import { afterAll, describe, it } from "vitest";
import { readTemplate, resolveIntrinsics } from "./template-eval.ts";
import { renderTemplate } from "./terraform.ts";

const moduleDir = new URL("terraform/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, moduleDir), "utf8");
// biome-ignore lint/suspicious/noExplicitAny: hcl2json answers untyped JSON
const hcl: Record<string, any> = {};
for (const file of readdirSync(moduleDir).filter((f) => f.endsWith(".tf"))) {
  for (const [block, body] of Object.entries(await parse(file, read(file)))) hcl[block] = { ...hcl[block], ...body };
}

/** `${templatefile("${path.module}/FILE", { k = expr ... })}` → the file and the variable map. */
function templatefileCall(expression: string): { file: string; vars: Record<string, string> } {
  const match = /^\$\{templatefile\("\$\{path\.module\}\/([\w.-]+)", \{([^}]*)\}\)\}$/.exec(expression);
  assert.ok(match, `not a templatefile() call: ${expression}`);
  const vars = Object.fromEntries(
    match[2]!
      .trim()
      .split("\n")
      .map((line) => line.split("=").map((part) => part.trim()) as [string, string]),
  );
  return { file: match[1]!, vars };
}

const cfn = readTemplate("current");
const principalArns = [
  "arn:aws:iam::111122223333:role/flowstate-prod-backend",
  "arn:aws:iam::111122223333:role/flowstate-prod-mcp-execution",
];

describe("the Terraform module", () => {
  it("requires hashicorp/aws ~> 6.0", () => {
    assert.deepEqual(hcl.terraform[0].required_providers[0].aws, { source: "hashicorp/aws", version: "~> 6.0" });
  });

  it('takes flowstate_principal_arns as list(string), rejected when empty or containing "undefined"', () => {
    const variable = hcl.variable.flowstate_principal_arns[0];
    assert.equal(variable.type, "${list(string)}");
    assert.equal(variable.nullable, false);
    assert.deepEqual(
      variable.validation.map((v: { condition: string }) => v.condition),
      [
        "${length(var.flowstate_principal_arns) > 0}",
        '${!contains(var.flowstate_principal_arns, "undefined") && !contains(var.flowstate_principal_arns, "")}',
      ],
    );
  });

  it("takes external_id as a sensitive string checked with STS's rule (length apart: RE2 caps repeats at 1000)", () => {
    const variable = hcl.variable.external_id[0];
    assert.equal(variable.type, "${string}");
    assert.equal(variable.sensitive, true);
    const hclClass = EXTERNAL_ID_CHARS.replaceAll("\\", "\\\\");
    assert.equal(
      variable.validation[0].condition,
      `\${length(var.external_id) >= ${EXTERNAL_ID_MIN} && length(var.external_id) <= ${EXTERNAL_ID_MAX} && can(regex("^${hclClass}+$", var.external_id))}`,
    );
  });

  it("creates the role MarketplaceConnector and the inline policy MarketplaceCatalogAccess, and outputs role_arn", () => {
    const role = hcl.resource.aws_iam_role.marketplace_connector[0];
    const policy = hcl.resource.aws_iam_role_policy.marketplace_catalog_access[0];
    assert.equal(role.name, ROLE_NAME);
    assert.equal(policy.name, INLINE_POLICY_NAME);
    assert.equal(policy.role, "${aws_iam_role.marketplace_connector.id}");
    assert.deepEqual(Object.keys(hcl.resource).sort(), ["aws_iam_role", "aws_iam_role_policy"]);
    assert.deepEqual(hcl.output.role_arn[0].value, "${aws_iam_role.marketplace_connector.arn}");
    assert.equal(role.lifecycle[0].precondition[0].condition, '${data.aws_region.current.region == "us-east-1"}');
  });

  it("has the same trust policy as the CloudFormation template, once the variables are put in", () => {
    const call = templatefileCall(hcl.resource.aws_iam_role.marketplace_connector[0].assume_role_policy);
    assert.deepEqual(call, {
      file: "trust-policy.json.tftpl",
      vars: { principal_arns: "var.flowstate_principal_arns", external_id: "var.external_id" },
    });
    const externalId = randomUUID();
    const terraform = JSON.parse(
      renderTemplate(read(call.file), { principal_arns: principalArns, external_id: externalId }),
    );
    const parameters = { FlowstatePrincipalArns: principalArns, ExternalId: externalId };
    const cloudformation = resolveIntrinsics(
      cfn.Resources.MarketplaceConnectorRole.Properties.AssumeRolePolicyDocument,
      {
        parameters,
        partition: "aws",
        accountId: "210987654321",
      },
    );
    assert.deepEqual(terraform, cloudformation);
  });

  it("has the same inline policy as the CloudFormation template in every partition", () => {
    const call = templatefileCall(hcl.resource.aws_iam_role_policy.marketplace_catalog_access[0].policy);
    assert.deepEqual(call, {
      file: "marketplace-catalog-access.json.tftpl",
      vars: {
        partition: "data.aws_partition.current.partition",
        account_id: "data.aws_caller_identity.current.account_id",
      },
    });
    assert.ok(hcl.data.aws_partition.current && hcl.data.aws_caller_identity.current);
    for (const partition of ["aws", "aws-us-gov", "aws-cn"]) {
      const accountId = "210987654321";
      const terraform = JSON.parse(renderTemplate(read(call.file), { partition, account_id: accountId }));
      const document = cfn.Resources.MarketplaceCatalogAccessPolicy.Properties.PolicyDocument;
      assert.deepEqual(terraform, resolveIntrinsics(document, { parameters: {}, partition, accountId }));
    }
  });

  it("documents init and apply for us-east-1 and the init -upgrade migration in its README", () => {
    const readme = read("README.md");
    for (const needle of [
      "terraform init",
      "terraform apply",
      "us-east-1",
      "terraform init -upgrade",
      "flowstate_principal_arns",
      "external_id",
      "role_arn",
    ]) {
      assert.ok(readme.includes(needle), `README.md lacks ${needle}`);
    }
  });
});

// The real Terraform CLI, when this machine has it: it evaluates templates and validations
// offline (no provider download), which proves renderTemplate() and the conditions above mean
// what Terraform means.
const cli = spawnSync("terraform", ["version"], { encoding: "utf8" });
const skip =
  cli.status === 0
    ? false
    : "no terraform CLI on PATH: install Terraform to run fmt, templatefile() and the variable validations for real";
// it.skipIf carries no reason, so the reason goes to the run's output once, beside the skipped count.
if (skip) console.warn(`terraform CLI tests skipped: ${skip}`);
const env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1" };
const workDir = mkdtempSync(join(tmpdir(), "connector-role-tf-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function console_(expression: string, args: string[] = []) {
  const run = spawnSync("terraform", ["console", "-no-color", ...args], {
    cwd: workDir,
    env,
    input: expression,
    encoding: "utf8",
  });
  return { ok: run.status === 0, out: run.stdout.trim(), err: run.stderr };
}

// Skipped per test, not per suite, so the run's summary counts them as skipped.
describe("the Terraform module, evaluated by the terraform CLI (skipped, with the reason, where it is not installed)", () => {
  it.skipIf(!!skip)("is formatted as terraform fmt wants", () => {
    const fmt = spawnSync("terraform", ["fmt", "-check", "-recursive", moduleDir.pathname], { env, encoding: "utf8" });
    assert.equal(fmt.status, 0, fmt.stdout + fmt.stderr);
  });

  it.skipIf(!!skip)("renders both policy templates exactly as the tests' renderer does", () => {
    for (const file of ["trust-policy.json.tftpl", "marketplace-catalog-access.json.tftpl"])
      cpSync(new URL(file, moduleDir), join(workDir, file));
    const vars = {
      principal_arns: principalArns,
      external_id: "abc+=,.@:/-_9",
      partition: "aws",
      account_id: "210987654321",
    };
    const tfVars = `{ principal_arns = ${JSON.stringify(principalArns)}, external_id = "${vars.external_id}", partition = "aws", account_id = "210987654321" }`;
    for (const file of ["trust-policy.json.tftpl", "marketplace-catalog-access.json.tftpl"]) {
      // jsondecode proves the rendered text is valid JSON; jsonencode prints it on one line.
      const run = console_(`jsonencode(jsondecode(templatefile("${file}", ${tfVars})))\n`);
      assert.ok(run.ok, run.err);
      assert.deepEqual(JSON.parse(JSON.parse(run.out)), JSON.parse(renderTemplate(read(file), vars)));
    }
  });

  it.skipIf(!!skip)(
    'applies the variable validations: empty list, "undefined", bad external IDs refused; good values accepted',
    () => {
      cpSync(new URL("variables.tf", moduleDir), join(workDir, "variables.tf"));
      const check = (arns: string, externalId: string) =>
        console_("var.flowstate_principal_arns\n", [
          `-var=flowstate_principal_arns=${arns}`,
          `-var=external_id=${externalId}`,
        ]);
      const good = JSON.stringify(principalArns);
      const accepted = check(good, randomUUID());
      assert.ok(accepted.ok, accepted.err);
      assert.ok(check(good, "x".repeat(1224)).ok);
      assert.match(check("[]", randomUUID()).err, /at least one/);
      assert.match(check('["arn:aws:iam::111122223333:role/a","undefined"]', randomUUID()).err, /"undefined"/);
      for (const bad of ["a", "x".repeat(1225), "has space", "semi;colon"])
        assert.match(check(good, bad).err, /external_id must be/, bad);
    },
  );
});
