import type { Stack } from "aws-cdk-lib";
import type * as elbv2 from "aws-cdk-lib/aws-elasticloadbalancingv2";
import * as wafv2 from "aws-cdk-lib/aws-wafv2";

/**
 * Managed rule groups and a rate limit per client address, in front of both doors (added to
 * `stack`, the compute stack: the ids are its).
 */
export function doorsWaf(stack: Stack, alb: elbv2.ApplicationLoadBalancer): void {
  const managed = (name: string, priority: number) => ({
    name,
    priority,
    overrideAction: { none: {} },
    statement: { managedRuleGroupStatement: { vendorName: "AWS", name } },
    visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: name },
  });
  const acl = new wafv2.CfnWebACL(stack, "Waf", {
    scope: "REGIONAL",
    defaultAction: { allow: {} },
    visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: "flowstate-doors" },
    rules: [
      managed("AWSManagedRulesCommonRuleSet", 10),
      managed("AWSManagedRulesKnownBadInputsRuleSet", 20),
      managed("AWSManagedRulesAmazonIpReputationList", 30),
      {
        name: "RatePerAddress",
        priority: 40,
        action: { block: {} },
        statement: { rateBasedStatement: { limit: 2000, aggregateKeyType: "IP" } },
        visibilityConfig: {
          cloudWatchMetricsEnabled: true,
          sampledRequestsEnabled: true,
          metricName: "RatePerAddress",
        },
      },
    ],
  });
  new wafv2.CfnWebACLAssociation(stack, "WafOnDoors", { resourceArn: alb.loadBalancerArn, webAclArn: acl.attrArn });
}
