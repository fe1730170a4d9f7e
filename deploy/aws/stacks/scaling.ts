import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { Stack } from "aws-cdk-lib";
import * as appscaling from "aws-cdk-lib/aws-applicationautoscaling";
import type * as ecs from "aws-cdk-lib/aws-ecs";
import type * as elbv2 from "aws-cdk-lib/aws-elasticloadbalancingv2";
import { consumes, type DeploymentNames, shortName } from "../services.ts";

/**
 * A service's scaling, added to `stack` (the compute stack: the ids are its): doors on CPU and
 * requests per target; consumers on visible messages per running task.
 */
export function scaleService(
  stack: Stack,
  o: {
    cluster: ecs.ICluster;
    names: DeploymentNames;
    service: FlowstateServiceName;
    /** The service and, for a door, its target group (compute.ts RunningService). */
    running: { service: ecs.FargateService; targetGroup?: elbv2.ApplicationTargetGroup | undefined };
    production: boolean;
  },
): void {
  const { cluster, names, service, running, production } = o;
  const max = production ? 20 : 4;
  const min = production ? 2 : 1;
  if (running.targetGroup) {
    const count = running.service.autoScaleTaskCount({ minCapacity: min, maxCapacity: max });
    count.scaleOnCpuUtilization("Cpu", { targetUtilizationPercent: 60 });
    count.scaleOnRequestCount("Requests", { requestsPerTarget: 1000, targetGroup: running.targetGroup });
    return;
  }
  if (!consumes(service)) return;
  const target = new appscaling.ScalableTarget(stack, `Scaling-${shortName(service)}`, {
    serviceNamespace: appscaling.ServiceNamespace.ECS,
    resourceId: `service/${cluster.clusterName}/${running.service.serviceName}`,
    scalableDimension: "ecs:service:DesiredCount",
    minCapacity: min,
    maxCapacity: max,
  });
  target.node.addDependency(running.service);
  // Backlog per task (AWS's recommended SQS metric): visible messages / running tasks, kept near 100.
  new appscaling.CfnScalingPolicy(stack, `Backlog-${shortName(service)}`, {
    policyName: `${service}-backlog-per-task`,
    policyType: "TargetTrackingScaling",
    scalingTargetId: target.scalableTargetId,
    targetTrackingScalingPolicyConfiguration: {
      targetValue: 100,
      scaleInCooldown: 120,
      scaleOutCooldown: 30,
      customizedMetricSpecification: {
        metrics: [
          {
            id: "visible",
            returnData: false,
            metricStat: {
              stat: "Sum",
              metric: {
                namespace: "AWS/SQS",
                metricName: "ApproximateNumberOfMessagesVisible",
                dimensions: [{ name: "QueueName", value: queueNameOf(names, service) }],
              },
            },
          },
          {
            id: "tasks",
            returnData: false,
            metricStat: {
              stat: "Average",
              metric: {
                namespace: "ECS/ContainerInsights",
                metricName: "RunningTaskCount",
                dimensions: [
                  { name: "ClusterName", value: cluster.clusterName },
                  { name: "ServiceName", value: running.service.serviceName },
                ],
              },
            },
          },
          {
            id: "backlog",
            expression: "visible / IF(tasks > 0, tasks, 1)",
            label: "backlog per task",
            returnData: true,
          },
        ],
      },
    },
  });
}

function queueNameOf(names: DeploymentNames, service: FlowstateServiceName): string {
  const queue = names.definition.queues.find((q) => q.service === service);
  if (!queue) throw new Error(`${service} consumes events but the definition has no queue for it`);
  return queue.queueName;
}
