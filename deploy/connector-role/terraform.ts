// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${…} here are Terraform template interpolations, not JS
import {
  permissionPolicy,
  policyJson,
  trustPolicyDocument,
} from "@flowstate/shared/marketplace/connector-role/policies";

/**
 * The Terraform module keeps both policy documents as `templatefile()` templates beside its `.tf`
 * files, rendered here from the single source. Keeping them as files (not `jsonencode` blocks in
 * HCL) is what lets a tenant with copied files migrate by replacing one file (interface.md §9).
 */
export const TERRAFORM_TEMPLATE_FILES = {
  trust: "terraform/trust-policy.json.tftpl",
  permission: "terraform/marketplace-catalog-access.json.tftpl",
} as const;

// Markers that survive JSON.stringify and are swapped for raw template interpolations afterwards:
// lists and quoted strings must come from jsonencode() to stay valid JSON for any value.
const PRINCIPALS = "\u0000principal_arns";
const EXTERNAL_ID = "\u0000external_id";

/** `trust-policy.json.tftpl`; variables `principal_arns` (list) and `external_id`. */
export function trustPolicyTemplate(): string {
  return `${policyJson(trustPolicyDocument(PRINCIPALS, EXTERNAL_ID))
    .replace(JSON.stringify(PRINCIPALS), "${jsonencode(principal_arns)}")
    .replace(JSON.stringify(EXTERNAL_ID), "${jsonencode(external_id)}")}\n`;
}

/** `marketplace-catalog-access.json.tftpl`; variables `partition` and `account_id`. */
export function permissionPolicyTemplate(): string {
  return `${policyJson(permissionPolicy({ partition: "${partition}", accountId: "${account_id}" }))}\n`;
}

/**
 * Renders a template of this module the way Terraform's `templatefile()` does for the only two
 * forms used here (`${name}` and `${jsonencode(name)}`); anything else is refused, so a template
 * that grows a directive cannot silently pass the equality tests.
 *
 * @example
 * renderTemplate(permissionPolicyTemplate(), { partition: "aws", account_id: "123456789012" });
 */
export function renderTemplate(template: string, vars: Record<string, unknown>): string {
  if (template.includes("%{")) throw new Error("template directives are not supported");
  return template.replace(/\$\{([^}]*)\}/g, (_, expression: string) => {
    const encoded = /^jsonencode\((\w+)\)$/.exec(expression);
    const name = encoded ? encoded[1]! : expression;
    if (!/^\w+$/.test(name) || !(name in vars)) throw new Error(`unsupported interpolation \${${expression}}`);
    return encoded ? JSON.stringify(vars[name]) : String(vars[name]);
  });
}
