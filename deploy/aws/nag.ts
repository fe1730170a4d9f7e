import { Validations } from "aws-cdk-lib";
import type { IConstruct } from "constructs";

/**
 * Acknowledges one cdk-nag finding on a construct (and its children) with the reason it does not
 * apply. cdk-nag 3 uses CDK's own acknowledgements (`Validations.of(x).acknowledge`); a reason of
 * a few words is refused here, so every suppression says why.
 *
 * @example
 * acknowledge(alb, "AwsSolutions-EC23", "the doors are public: 443 from anywhere is their purpose");
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  if (reason.trim().split(/\s+/).length < 6)
    throw new Error(`the acknowledgement of ${id} needs a reason, not "${reason}"`);
  Validations.of(scope).acknowledge({ id, reason });
}
