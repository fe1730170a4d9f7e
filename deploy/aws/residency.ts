import { DATA_REGION } from "@flowstate/shared/aws/clients";
import type { Template } from "aws-cdk-lib/assertions";
import { PARTNER_ALLOWED_TYPES } from "./stacks/partner.ts";

export interface SynthesizedStack {
  name: string;
  region: string;
  template: Template;
}

/**
 * The residency rule over synthesized CloudFormation: every stack in eu-central-1 but the partner
 * stack, whose resources are all of the allowed kinds (PARTNER_ALLOWED_TYPES: nothing that stores
 * data). Empty means the deployment keeps the promise of the README's residency section.
 */
export function templateResidencyViolations(stacks: readonly SynthesizedStack[], partnerStack: string): string[] {
  const violations: string[] = [];
  for (const s of stacks) {
    if (s.region === DATA_REGION && s.name !== partnerStack) continue;
    if (s.name !== partnerStack) {
      violations.push(`stack ${s.name} is in ${s.region}: only ${partnerStack} may leave ${DATA_REGION}`);
    }
    const resources = s.template.toJSON().Resources as Record<string, { Type: string }>;
    for (const [id, r] of Object.entries(resources)) {
      if (!(PARTNER_ALLOWED_TYPES as readonly string[]).includes(r.Type))
        violations.push(`${s.name}/${id}: ${r.Type} in ${s.region} is not an allowed kind`);
    }
  }
  return violations;
}
