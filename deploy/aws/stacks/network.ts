import type { AwsClientName, FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { CfnOutput, Stack, type StackProps } from "aws-cdk-lib";
import * as ec2 from "aws-cdk-lib/aws-ec2";
import * as logs from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { acknowledge } from "../nag.ts";
import { dataServices, entryOf, shortName } from "../services.ts";

/**
 * The interface endpoint of each AWS client a eu-central-1 service may build (the catalog's `aws`
 * lists), so none of that traffic crosses the NAT; the Marketplace clients and the seller's STS are
 * us-east-1 only and leave through the NAT. S3 is a gateway endpoint (free, route-table based).
 */
const CLIENT_ENDPOINTS: Record<string, ec2.InterfaceVpcEndpointAwsService | "gateway"> = {
  eventbridge: ec2.InterfaceVpcEndpointAwsService.EVENTBRIDGE,
  kms: ec2.InterfaceVpcEndpointAwsService.KMS,
  s3: "gateway",
  secretsmanager: ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
  sesv2: ec2.InterfaceVpcEndpointAwsService.EMAIL,
  sqs: ec2.InterfaceVpcEndpointAwsService.SQS,
  sts: ec2.InterfaceVpcEndpointAwsService.STS,
};
/** What Fargate itself needs to start a task in a private subnet: image pulls and logs. */
const PLATFORM_ENDPOINTS = {
  ecr: ec2.InterfaceVpcEndpointAwsService.ECR,
  "ecr-docker": ec2.InterfaceVpcEndpointAwsService.ECR_DOCKER,
  logs: ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS,
  monitoring: ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_MONITORING,
};

/** The endpoint names the eu-central-1 services' clients need, from the catalog. */
export function endpointClients(): string[] {
  const used = new Set(dataServices.flatMap((s) => [...entryOf(s).aws]));
  return Object.keys(CLIENT_ENDPOINTS).filter((c) => used.has(c as AwsClientName));
}

export interface NetworkStackProps extends StackProps {
  natGateways: number;
}

/**
 * VPC over three AZs: public subnets (the ALB, the NAT), private subnets with egress (the tasks),
 * isolated subnets (Aurora). Security groups live here so the database can admit exactly the
 * services with a database, and no one else, without a cycle between the data and compute stacks.
 */
export class NetworkStack extends Stack {
  readonly vpc: ec2.Vpc;
  readonly serviceGroups = new Map<FlowstateServiceName, ec2.SecurityGroup>();
  /** Every service is a member: it admits callers to each service's port. */
  readonly mesh: ec2.SecurityGroup;
  readonly albGroup: ec2.SecurityGroup;
  readonly databaseGroup: ec2.SecurityGroup;
  /** The one-off database-users task's group (runbooks: `aws ecs run-task … securityGroups=<this>`). */
  readonly adminGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: NetworkStackProps) {
    super(scope, id, props);
    this.vpc = new ec2.Vpc(this, "Vpc", {
      maxAzs: 3,
      natGateways: props.natGateways,
      subnetConfiguration: [
        { name: "public", subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: "private", subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 20 },
        { name: "database", subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
      ],
      flowLogs: {
        rejected: {
          destination: ec2.FlowLogDestination.toCloudWatchLogs(
            new logs.LogGroup(this, "FlowLogs", { retention: logs.RetentionDays.THREE_MONTHS }),
          ),
          trafficType: ec2.FlowLogTrafficType.REJECT,
        },
      },
    });
    const endpointGroup = new ec2.SecurityGroup(this, "Endpoints", {
      vpc: this.vpc,
      description: "Interface endpoints: HTTPS from inside the VPC",
      allowAllOutbound: false,
    });
    endpointGroup.addIngressRule(ec2.Peer.ipv4(this.vpc.vpcCidrBlock), ec2.Port.tcp(443), "AWS APIs from the tasks");
    acknowledge(
      endpointGroup,
      "AwsSolutions-EC23",
      "the source is the VPC's own CIDR (a token cdk-nag cannot read), not the internet",
    );
    const subnets = { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS };
    for (const client of endpointClients()) {
      const service = CLIENT_ENDPOINTS[client]!;
      if (service === "gateway") this.vpc.addGatewayEndpoint("S3", { service: ec2.GatewayVpcEndpointAwsService.S3 });
      else this.vpc.addInterfaceEndpoint(client, { service, subnets, securityGroups: [endpointGroup] });
    }
    for (const [id, service] of Object.entries(PLATFORM_ENDPOINTS))
      this.vpc.addInterfaceEndpoint(id, { service, subnets, securityGroups: [endpointGroup] });

    this.albGroup = new ec2.SecurityGroup(this, "Alb", { vpc: this.vpc, description: "The doors load balancer" });
    this.albGroup.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), "HTTPS from anywhere");
    this.albGroup.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(80), "HTTP, redirected to HTTPS");
    this.mesh = new ec2.SecurityGroup(this, "Mesh", {
      vpc: this.vpc,
      description: "Flowstate services calling each other",
    });
    this.databaseGroup = new ec2.SecurityGroup(this, "Database", {
      vpc: this.vpc,
      description: "Aurora: PostgreSQL from the services with a database only",
      allowAllOutbound: false,
    });
    this.adminGroup = new ec2.SecurityGroup(this, "DatabaseAdmin", {
      vpc: this.vpc,
      description: "The one-off database-users task",
    });
    this.databaseGroup.addIngressRule(this.adminGroup, ec2.Port.tcp(5432), "creates the services' logins");
    for (const service of dataServices) {
      const entry = entryOf(service);
      const group = new ec2.SecurityGroup(this, `Svc-${shortName(service)}`, {
        vpc: this.vpc,
        description: `${service} tasks`,
      });
      group.addIngressRule(this.mesh, ec2.Port.tcp(entry.port), "internal calls from other services");
      if (entry.kind === "door") group.addIngressRule(this.albGroup, ec2.Port.tcp(entry.port), "the load balancer");
      if (entry.database) this.databaseGroup.addIngressRule(group, ec2.Port.tcp(5432), `${service}'s own schema`);
      this.serviceGroups.set(service, group);
    }
    // identity-svc pushes every revoking call's invalidations to each door task's internal listener
    // before it answers (ADR 0011): that port is open to identity-svc's tasks and nothing else.
    const identity = this.serviceGroups.get("identity-svc");
    for (const service of dataServices) {
      const entry = entryOf(service);
      if (identity === undefined || entry.kind !== "door" || entry.metricsPort === undefined) continue;
      this.serviceGroups
        .get(service)!
        .addIngressRule(identity, ec2.Port.tcp(entry.metricsPort), "identity-svc's invalidation push (ADR 0011)");
    }
    // What `aws ecs run-task` needs for the one-off database-users task (docs/runbooks/first-deploy.md).
    new CfnOutput(this, "PrivateSubnets", { value: this.vpc.privateSubnets.map((x) => x.subnetId).join(",") });
    new CfnOutput(this, "DatabaseAdminGroup", { value: this.adminGroup.securityGroupId });
  }
}
