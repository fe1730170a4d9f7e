import { Duration, Fn, Stack, type StackProps } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as ec2 from "aws-cdk-lib/aws-ec2";
import * as ecs from "aws-cdk-lib/aws-ecs";
import * as events from "aws-cdk-lib/aws-events";
import * as iam from "aws-cdk-lib/aws-iam";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";
import { serviceEnvironment } from "../environment.ts";
import { acknowledge } from "../nag.ts";
import { type DeploymentNames, entryOf, partnerServices, shortName } from "../services.ts";
import { type DeploySettings, regions } from "../settings.ts";
import { DOCKERFILE, ECR_TOKEN_REASON, readyzCheck, repoRoot, serviceCommand } from "./compute.ts";
import { taskRoleName } from "./identity.ts";
import { allowRules, queueTarget } from "./messaging.ts";
import { queueMaximum } from "./observability.ts";

/**
 * The CloudFormation resource types the us-east-1 stack may hold: buses, rules, the transit queue
 * and its policy, the handler's network, cluster and service. No bucket, table, database, log
 * group, key, secret or parameter: nothing that keeps data (ADR 0003). The residency test checks
 * the synthesized template against this list.
 */
export const PARTNER_ALLOWED_TYPES = [
  "AWS::Events::EventBus",
  "AWS::Events::Rule",
  "AWS::SQS::Queue",
  "AWS::SQS::QueuePolicy",
  "AWS::EC2::VPC",
  "AWS::EC2::Subnet",
  "AWS::EC2::RouteTable",
  "AWS::EC2::SubnetRouteTableAssociation",
  "AWS::EC2::Route",
  "AWS::EC2::InternetGateway",
  "AWS::EC2::VPCGatewayAttachment",
  "AWS::EC2::EIP",
  "AWS::EC2::NatGateway",
  "AWS::EC2::SecurityGroup",
  "AWS::EC2::SecurityGroupIngress",
  "AWS::EC2::VPCEndpoint",
  "AWS::EC2::FlowLog",
  "AWS::ECS::Cluster",
  "AWS::ECS::TaskDefinition",
  "AWS::ECS::Service",
  "AWS::IAM::Role",
  "AWS::IAM::Policy",
  "Custom::VpcRestrictDefaultSG",
  "AWS::Lambda::Function",
  // The transit DLQ's alarms and their topic: an alarm must live in its metric's region, and an alarm
  // action's topic in the alarm's. They hold alarm states and notifications (queue name, counts), no
  // event content.
  "AWS::CloudWatch::Alarm",
  "AWS::SNS::Topic",
  "AWS::SNS::TopicPolicy",
  "AWS::SNS::Subscription",
] as const;

/**
 * A dead letter older than this raises the transit DLQ's age alarm: six hours of the one day it is
 * kept (the eu-central-1 DLQs keep 14 days and alarm at 2).
 */
export const PARTNER_DLQ_AGE_ALARM_SECONDS = 6 * 3600;

export interface PartnerStackProps extends StackProps {
  settings: DeploySettings;
  names: DeploymentNames;
}

/**
 * us-east-1: the shard buses tenants forward AWS Partner Central events to, one rule per bus into
 * the transit queue (one day's retention, a DLQ), and partner-inbound on Fargate, which writes every
 * result to eu-central-1 (its logs included: the awslogs driver ships them to eu-central-1). The
 * buses' policies are partner-inbound's to write as connectors come and go (ADR 0003), so the stack
 * leaves them empty. connector-svc is reached over cross-region PrivateLink.
 */
export class PartnerStack extends Stack {
  readonly queue: sqs.Queue;
  readonly dlq: sqs.Queue;
  readonly buses: events.CfnEventBus[] = [];
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: PartnerStackProps) {
    super(scope, id, props);
    const { settings, names } = props;
    const def = names.partner;
    const transit = {
      retentionPeriod: Duration.seconds(def.retentionSeconds),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    };
    this.dlq = new sqs.Queue(this, "TransitDlq", { queueName: def.dlqName, ...transit });
    this.queue = new sqs.Queue(this, "Transit", {
      queueName: def.queueName,
      receiveMessageWaitTime: Duration.seconds(def.receiveWaitSeconds),
      visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: def.maxReceiveCount },
      ...transit,
    });
    const rules = def.buses.map((name, i) => {
      const bus = new events.CfnEventBus(this, `Bus${i}`, { name });
      this.buses.push(bus);
      return new events.CfnRule(this, `Rule${i}`, {
        name: def.ruleName,
        eventBusName: bus.attrName,
        description: "Partner Central events",
        eventPattern: def.eventPattern,
        state: "ENABLED",
        targets: [queueTarget(this.queue, this.dlq)],
      });
    });
    allowRules(
      this.queue,
      rules.map((r) => r.attrArn),
    );
    allowRules(
      this.dlq,
      rules.map((r) => r.attrArn),
    );
    for (const service of partnerServices) this.handler(settings, names, service);
    this.dlqAlarms(settings, def.dlqName);
  }

  /**
   * The transit DLQ's depth and age alarms (§7 check 20; issue 24: nothing read this DLQ, and an
   * eu-central-1 EventBridge outage of a few minutes moves events there to expire after a day). In
   * us-east-1 with a topic of their own, which the alarm e-mail subscribes to like the main one.
   */
  private dlqAlarms(settings: DeploySettings, dlqName: string) {
    const topic = new sns.Topic(this, "Alarms", {
      topicName: `${settings.prefix}-${settings.stage}-partner-alarms`,
      enforceSSL: true,
    });
    acknowledge(
      topic,
      "AwsSolutions-SNS2",
      "the topic carries alarm state changes only (alarm and queue names, counts), no event content; a KMS key would be a store in us-east-1, which the residency rule forbids",
    );
    if (settings.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    const runbook = "runbook docs/runbooks/redrive-a-dlq.md (us-east-1) (docs/runbooks/respond-to-an-alarm.md)";
    const alarm = (id: string, metric: cloudwatch.IMetric, threshold: number, description: string) => {
      const a = new cloudwatch.Alarm(this, id, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: `${description}: ${runbook}`,
      });
      a.addAlarmAction(new actions.SnsAction(topic));
      this.alarms.push(a);
    };
    alarm(
      "Dlq-partner-inbound",
      queueMaximum(dlqName, "ApproximateNumberOfMessagesVisible", 1),
      0,
      `A message is in ${dlqName}`,
    );
    alarm(
      "DlqAge-partner-inbound",
      queueMaximum(dlqName, "ApproximateAgeOfOldestMessage", 5),
      PARTNER_DLQ_AGE_ALARM_SECONDS,
      `A message has waited in ${dlqName} over 6 hours (kept 1 day)`,
    );
  }

  private handler(settings: DeploySettings, names: DeploymentNames, service: (typeof partnerServices)[number]) {
    const vpc = new ec2.Vpc(this, "Vpc", {
      maxAzs: 2,
      natGateways: 1,
      subnetConfiguration: [
        { name: "public", subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: "private", subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      ipAddresses: ec2.IpAddresses.cidr("10.1.0.0/16"),
    });
    acknowledge(
      vpc,
      "AwsSolutions-VPC7",
      "flow logs would be a log store in us-east-1; the handler keeps nothing here",
    );
    const group = new ec2.SecurityGroup(this, "Handler", { vpc, description: `${service} tasks` });
    // connector-svc's internal API, offered from eu-central-1 over PrivateLink (compute stack output).
    let connectorUrl = "http://connector-svc.invalid";
    if (settings.connectorEndpointService) {
      const endpointGroup = new ec2.SecurityGroup(this, "ConnectorEndpoint", {
        vpc,
        description: "connector-svc over PrivateLink",
      });
      endpointGroup.addIngressRule(group, ec2.Port.tcp(entryOf("connector-svc").port), "partner-inbound");
      const endpoint = new ec2.InterfaceVpcEndpoint(this, "Connector", {
        vpc,
        service: new ec2.InterfaceVpcEndpointService(settings.connectorEndpointService, entryOf("connector-svc").port),
        serviceRegion: regions.data,
        securityGroups: [endpointGroup],
        privateDnsEnabled: false,
      });
      connectorUrl = `http://${fnFirstDnsName(endpoint)}:${entryOf("connector-svc").port}`;
    }
    const cluster = new ecs.Cluster(this, "Cluster", {
      vpc,
      clusterName: `${settings.prefix}-${settings.stage}-partner`,
      containerInsightsV2: ecs.ContainerInsights.DISABLED,
    });
    acknowledge(
      cluster,
      "AwsSolutions-ECS4",
      "Container Insights would keep metrics and logs in us-east-1; the handler's logs go to eu-central-1",
    );
    const entry = entryOf(service);
    const task = new ecs.FargateTaskDefinition(this, "Task", {
      family: `${settings.prefix}-${settings.stage}-${service}`,
      cpu: 256,
      memoryLimitMiB: 512,
      taskRole: iam.Role.fromRoleName(this, "TaskRole", taskRoleName(settings, service), { mutable: false }),
    });
    const logGroup = names.logGroup(service);
    task.addContainer("app", {
      image: ecs.ContainerImage.fromAsset(repoRoot, {
        file: DOCKERFILE,
        exclude: ["**/node_modules", ".git", ".local", "**/*.log", "**/.terraform"],
      }),
      command: serviceCommand(service),
      environment: serviceEnvironment(settings, names, service, connectorUrl),
      portMappings: [{ containerPort: entry.port }],
      // Logs are data: shipped to the eu-central-1 log group (compute stack), never kept here.
      logging: new ecs.GenericLogDriver({
        logDriver: "awslogs",
        options: {
          "awslogs-group": logGroup,
          "awslogs-region": regions.data,
          "awslogs-stream-prefix": shortName(service),
        },
      }),
      healthCheck: {
        command: readyzCheck(entry.port),
        interval: Duration.seconds(15),
        startPeriod: Duration.seconds(60),
      },
      user: "node",
    });
    task.addToExecutionRolePolicy(
      new iam.PolicyStatement({
        sid: "ShipLogsToEuCentral1",
        actions: ["logs:CreateLogStream", "logs:PutLogEvents"],
        resources: [`arn:aws:logs:${regions.data}:${settings.account}:log-group:${logGroup}:*`],
      }),
    );
    acknowledge(task, "AwsSolutions-ECS2", "these variables are names and URLs only; the handler holds no credential");
    acknowledge(task, "AwsSolutions-IAM5[Resource::*]", ECR_TOKEN_REASON);
    acknowledge(
      task.executionRole!,
      `AwsSolutions-IAM5[Resource::arn:aws:logs:${regions.data}:${settings.account}:log-group:${logGroup}:*]`,
      "log streams of this one log group are named by ECS at run time",
    );
    new ecs.FargateService(this, "Service", {
      cluster,
      serviceName: service,
      taskDefinition: task,
      // Without the PrivateLink endpoint the handler could not build its tenant map: nothing runs yet.
      desiredCount: settings.connectorEndpointService ? 2 : 0,
      minHealthyPercent: 100,
      circuitBreaker: { enable: true, rollback: true },
      securityGroups: [group],
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
    });
  }
}

/** The regional DNS name of an interface endpoint (its first entry is "<zone id>:<name>"). */
function fnFirstDnsName(endpoint: ec2.InterfaceVpcEndpoint): string {
  return Fn.select(1, Fn.split(":", Fn.select(0, endpoint.vpcEndpointDnsEntries)));
}
