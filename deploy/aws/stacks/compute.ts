import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import * as ec2 from "aws-cdk-lib/aws-ec2";
import { DockerImageAsset } from "aws-cdk-lib/aws-ecr-assets";
import * as ecs from "aws-cdk-lib/aws-ecs";
import * as elbv2 from "aws-cdk-lib/aws-elasticloadbalancingv2";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { serviceEnvironment } from "../environment.ts";
import { acknowledge } from "../nag.ts";
import { type Grant, openSecretsGrant } from "../permissions.ts";
import { type DeploymentNames, dataServices, entryOf, shortName } from "../services.ts";
import type { DeploySettings } from "../settings.ts";
import type { DataStack } from "./data.ts";
import type { NetworkStack } from "./network.ts";
import { scaleService } from "./scaling.ts";
import { doorsWaf } from "./waf.ts";

export const repoRoot = join(import.meta.dirname, "..", "..", "..");
export const DOCKERFILE = "deploy/local/Dockerfile";
/** What the image build never sees (BuildKit reads <Dockerfile>.dockerignore; the asset hash reads the same list). */
const dockerIgnore = () =>
  readFileSync(join(repoRoot, `${DOCKERFILE}.dockerignore`), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));

/** The command of each service's container: the entry that assembles DATABASE_URL, then its main.ts. */
export const serviceCommand = (service: string) => [
  "node",
  "deploy/aws/container/entry.ts",
  `services/${service}/src/main.ts`,
];
/** ECS's own health check, like the Dockerfile's HEALTHCHECK: the service's /readyz on its port. */
export const readyzCheck = (port: number) => [
  "CMD",
  "node",
  "-e",
  `fetch('http://127.0.0.1:${port}/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`,
];

/** The execution role's only `*`: ECR's GetAuthorizationToken has no resource-level permission. */
export const ECR_TOKEN_REASON =
  "ecr:GetAuthorizationToken cannot be scoped to a resource; image pulls are scoped to the asset repository";

export interface ComputeStackProps extends StackProps {
  settings: DeploySettings;
  names: DeploymentNames;
  network: NetworkStack;
  data: DataStack;
  taskRoles: Map<FlowstateServiceName, iam.IRole>;
  accessLogs: s3.IBucket;
  production: boolean;
}

export interface RunningService {
  service: ecs.FargateService;
  logGroup: logs.LogGroup;
  targetGroup?: elbv2.ApplicationTargetGroup;
}

/**
 * ECS on Fargate: one service per eu-central-1 service of the catalog, all from one image built
 * from the repository's Dockerfile with a command per service; the two doors behind one ALB (TLS,
 * AWS WAF managed rules), everything else private and found through Cloud Map. Doors scale on CPU
 * and requests, consumers on their queue's backlog per task. connector-svc is also offered over
 * PrivateLink to us-east-1, where partner-inbound runs.
 */
export class ComputeStack extends Stack {
  readonly cluster: ecs.Cluster;
  readonly services = new Map<FlowstateServiceName, RunningService>();
  readonly alb: elbv2.ApplicationLoadBalancer;
  readonly image: ecs.ContainerImage;
  readonly connectorEndpointService: ec2.VpcEndpointService;
  private readonly names: DeploymentNames;

  constructor(scope: Construct, id: string, props: ComputeStackProps) {
    super(scope, id, props);
    const { settings, names, network } = props;
    this.names = names;
    const vpc = network.vpc;
    this.cluster = new ecs.Cluster(this, "Cluster", {
      vpc,
      clusterName: `${settings.prefix}-${settings.stage}`,
      containerInsightsV2: ecs.ContainerInsights.ENHANCED,
      defaultCloudMapNamespace: { name: names.namespace, useForServiceConnect: false, vpc },
    });
    // One asset, fingerprinted once: ContainerImage.fromAsset makes an asset per task definition it
    // is bound to, each hashing the repository anew, and a file written between two hashes (a test
    // run writes coverage and logs) gave two services two images.
    this.image = ecs.ContainerImage.fromDockerImageAsset(
      new DockerImageAsset(this, "Image", { directory: repoRoot, file: DOCKERFILE, exclude: dockerIgnore() }),
    );

    this.alb = new elbv2.ApplicationLoadBalancer(this, "Doors", {
      vpc,
      internetFacing: true,
      securityGroup: network.albGroup,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      dropInvalidHeaderFields: true,
    });
    this.alb.logAccessLogs(props.accessLogs, "alb");
    acknowledge(
      network.albGroup,
      "AwsSolutions-EC23",
      "the doors are the public API: HTTPS from anywhere is their purpose, WAF filters it",
    );
    this.alb.addListener("Http", {
      port: 80,
      defaultAction: elbv2.ListenerAction.redirect({ protocol: "HTTPS", port: "443", permanent: true }),
    });
    const https = this.alb.addListener("Https", {
      port: 443,
      certificates: [elbv2.ListenerCertificate.fromArn(settings.certificateArn)],
      sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
      defaultAction: elbv2.ListenerAction.fixedResponse(404, { contentType: "application/json", messageBody: "{}" }),
    });
    doorsWaf(this, this.alb);

    const publicHosts: Partial<Record<FlowstateServiceName, string>> = {
      "edge-gateway": settings.apiDomain,
      "mcp-gateway": settings.mcpDomain,
    };
    const publicSubnetCidrs = Fn.join(
      ",",
      vpc.publicSubnets.map((s) => s.ipv4CidrBlock),
    );
    let priority = 10;
    for (const service of dataServices) {
      const entry = entryOf(service);
      const running = this.service(props, service);
      if (entry.kind === "door") {
        running.service.taskDefinition.defaultContainer!.addEnvironment("TRUSTED_PROXIES", publicSubnetCidrs);
        const host = publicHosts[service];
        if (!host) throw new Error(`door ${service} has no public host name in the settings`);
        running.targetGroup = https.addTargets(shortName(service), {
          priority: priority++,
          conditions: [elbv2.ListenerCondition.hostHeaders([host])],
          port: entry.port,
          protocol: elbv2.ApplicationProtocol.HTTP,
          targets: [running.service],
          healthCheck: { path: "/readyz", healthyHttpCodes: "200", interval: Duration.seconds(15) },
          deregistrationDelay: Duration.seconds(30),
        });
      }
      this.services.set(service, running);
      scaleService(this, { cluster: this.cluster, names: this.names, service, running, production: props.production });
    }
    this.connectorEndpointService = this.offerConnector(props);
    this.databaseUsersTask(props);
    // The partner stack's `-c connectorEndpointService=…`, and where the doors' DNS names point.
    new CfnOutput(this, "ConnectorEndpointService", { value: this.connectorEndpointService.vpcEndpointServiceName });
    new CfnOutput(this, "DoorsDnsName", { value: this.alb.loadBalancerDnsName });
  }

  private service(props: ComputeStackProps, service: FlowstateServiceName): RunningService {
    const { settings, names, network, data } = props;
    const entry = entryOf(service);
    const id = shortName(service);
    const logGroup = new logs.LogGroup(this, `Logs-${id}`, {
      logGroupName: names.logGroup(service),
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const task = new ecs.FargateTaskDefinition(this, `Task-${id}`, {
      family: `${settings.prefix}-${settings.stage}-${service}`,
      cpu: entry.kind === "door" ? 1024 : 512,
      memoryLimitMiB: entry.kind === "door" ? 2048 : 1024,
      taskRole: props.taskRoles.get(service)!,
      runtimePlatform: {
        cpuArchitecture: ecs.CpuArchitecture.X86_64,
        operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
      },
    });
    const secrets: Record<string, ecs.Secret> = {};
    for (const login of data.logins.get(service) ?? []) {
      secrets[`${login.variable}_USERNAME`] = ecs.Secret.fromSecretsManager(login.secret, "username");
      secrets[`${login.variable}_PASSWORD`] = ecs.Secret.fromSecretsManager(login.secret, "password");
    }
    const environment = serviceEnvironment(settings, names, service, "");
    if (entry.database) {
      environment.DATABASE_HOST = data.cluster.clusterEndpoint.hostname;
      environment.DATABASE_PORT = String(data.cluster.clusterEndpoint.port);
    }
    task.addContainer("app", {
      image: this.image,
      command: serviceCommand(service),
      environment,
      secrets,
      portMappings: [{ containerPort: entry.port, name: "http" }],
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: id }),
      healthCheck: {
        command: readyzCheck(entry.port),
        interval: Duration.seconds(15),
        startPeriod: Duration.seconds(60),
      },
      readonlyRootFilesystem: false,
      user: "node",
    });
    if (secrets.DATABASE_PASSWORD) this.openLogins(task, settings, names);
    acknowledge(
      task,
      "AwsSolutions-ECS2",
      "these variables are names and URLs only; every credential comes from Secrets Manager",
    );
    acknowledge(task, "AwsSolutions-IAM5[Resource::*]", ECR_TOKEN_REASON);
    const fargate = new ecs.FargateService(this, `Service-${id}`, {
      cluster: this.cluster,
      serviceName: service,
      taskDefinition: task,
      desiredCount: props.production ? 2 : 1,
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { enable: true, rollback: true },
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
      securityGroups: [network.serviceGroups.get(service)!, network.mesh],
      cloudMapOptions: { name: service, dnsTtl: Duration.seconds(10) },
      healthCheckGracePeriod: entry.kind === "door" ? Duration.seconds(60) : undefined,
    });
    return { service: fargate, logGroup };
  }

  /**
   * The login secrets are sealed with the data key, imported by ARN in the data stack, so ECS's
   * own grant of the secret covers GetSecretValue only: the execution role also needs Decrypt.
   */
  private openLogins(task: ecs.TaskDefinition, settings: DeploySettings, names: DeploymentNames) {
    const g: Grant = openSecretsGrant(settings, names);
    task.addToExecutionRolePolicy(
      new iam.PolicyStatement({ sid: g.sid, actions: g.actions, resources: g.resources, conditions: g.conditions }),
    );
    acknowledge(
      task,
      `AwsSolutions-IAM5[Resource::${g.resources[0]}]`,
      "a key id is unknown before creation; the kms:ResourceAliases condition pins the data key",
    );
  }

  /**
   * connector-svc's internal API for partner-inbound in us-east-1: an internal NLB in front of its
   * tasks, offered as a PrivateLink endpoint service to us-east-1 only (cross-region PrivateLink).
   * The service's name is an output; the partner stack takes it as `connectorEndpointService`.
   */
  private offerConnector(props: ComputeStackProps): ec2.VpcEndpointService {
    const connector = this.services.get("connector-svc")!;
    const port = entryOf("connector-svc").port;
    const nlb = new elbv2.NetworkLoadBalancer(this, "ConnectorNlb", {
      vpc: props.network.vpc,
      internetFacing: false,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
    });
    nlb.logAccessLogs(props.accessLogs, "connector-nlb");
    nlb.addListener("Tcp", { port, protocol: elbv2.Protocol.TCP }).addTargets("connector", {
      port,
      protocol: elbv2.Protocol.TCP,
      targets: [connector.service],
      healthCheck: { protocol: elbv2.Protocol.HTTP, path: "/readyz" },
    });
    props.network.serviceGroups
      .get("connector-svc")!
      .addIngressRule(ec2.Peer.ipv4(props.network.vpc.vpcCidrBlock), ec2.Port.tcp(port), "the PrivateLink NLB");
    acknowledge(
      props.network.serviceGroups.get("connector-svc")!,
      "AwsSolutions-EC23",
      "the source is the VPC's own CIDR (a token cdk-nag cannot read), not the internet",
    );
    return new ec2.VpcEndpointService(this, "ConnectorForPartner", {
      vpcEndpointServiceLoadBalancers: [nlb],
      acceptanceRequired: false,
      allowedPrincipals: [],
      allowedRegions: ["us-east-1"],
    });
  }

  /** The one-off task that creates the services' database logins (container/database-users.ts). */
  private databaseUsersTask(props: ComputeStackProps) {
    const { settings, data, names } = props;
    const logGroup = new logs.LogGroup(this, "Logs-database-users", {
      logGroupName: names.logGroup("database-users"),
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const task = new ecs.FargateTaskDefinition(this, "Task-database-users", {
      family: `${settings.prefix}-${settings.stage}-database-users`,
      cpu: 256,
      memoryLimitMiB: 512,
    });
    const secrets: Record<string, ecs.Secret> = {
      DATABASE_USERNAME: ecs.Secret.fromSecretsManager(data.cluster.secret!, "username"),
      DATABASE_PASSWORD: ecs.Secret.fromSecretsManager(data.cluster.secret!, "password"),
    };
    for (const logins of data.logins.values())
      for (const l of logins)
        secrets[`LOGIN_${l.username.toUpperCase()}`] = ecs.Secret.fromSecretsManager(l.secret, "password");
    task.addContainer("app", {
      image: this.image,
      command: ["node", "deploy/aws/container/database-users.ts"],
      environment: {
        STAGE: settings.stage,
        SERVICE_PREFIX: settings.prefix,
        DATABASE_NAME: names.databaseName,
        DATABASE_HOST: data.cluster.clusterEndpoint.hostname,
        DATABASE_PORT: String(data.cluster.clusterEndpoint.port),
        PGSSLMODE: "verify-full",
      },
      secrets,
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: "database-users" }),
      user: "node",
    });
    this.openLogins(task, settings, names);
    acknowledge(
      task,
      "AwsSolutions-ECS2",
      "these variables are names and a host only; the passwords come from Secrets Manager",
    );
    acknowledge(task, "AwsSolutions-IAM5[Resource::*]", ECR_TOKEN_REASON);
  }
}
