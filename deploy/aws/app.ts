/**
 * Flowstate's production deployment as a CDK app: seven stacks in eu-central-1 and the partner
 * stack in us-east-1, all from the services catalog and the bootstrap's definition.
 *
 *   npx aws-cdk@2 deploy --app "node deploy/aws/app.ts" -c stage=prod -c account=… -c certificateArn=… \
 *     -c apiDomain=… -c mcpDomain=… -c mailFrom=… --all
 *
 * (docs/runbooks/first-deploy.md). Tests build the same app with `buildApp(exampleSettings())`.
 */
import { App, type Stack } from "aws-cdk-lib";
import { deploymentNames } from "./services.ts";
import { type DeploySettings, regions, settingsFromContext } from "./settings.ts";
import { ComputeStack } from "./stacks/compute.ts";
import { DataStack } from "./stacks/data.ts";
import { IdentityStack } from "./stacks/identity.ts";
import { MessagingStack } from "./stacks/messaging.ts";
import { NetworkStack } from "./stacks/network.ts";
import { ObservabilityStack } from "./stacks/observability.ts";
import { PartnerStack } from "./stacks/partner.ts";
import { StorageStack } from "./stacks/storage.ts";

export interface FlowstateApp {
  app: App;
  network: NetworkStack;
  storage: StorageStack;
  data: DataStack;
  messaging: MessagingStack;
  identity: IdentityStack;
  compute: ComputeStack;
  observability: ObservabilityStack;
  partner: PartnerStack;
  /** Every stack, eu-central-1 ones first. */
  stacks: Stack[];
}

/**
 * @example
 * const { app, storage } = buildApp(exampleSettings());
 * Template.fromStack(storage).resourceCountIs("AWS::S3::Bucket", 4);
 */
export function buildApp(settings: DeploySettings, app = new App()): FlowstateApp {
  const names = deploymentNames(settings);
  const production = settings.stage === "prod";
  const name = (part: string) => `${pascal(settings.prefix)}-${settings.stage}-${part}`;
  const env = { account: settings.account, region: regions.data };
  const network = new NetworkStack(app, name("network"), { env, natGateways: production ? 3 : 1 });
  const storage = new StorageStack(app, name("storage"), {
    env,
    definition: names.definition,
    accessLogsBucketName: `${settings.prefix}-${settings.stage}-${settings.account}-access-logs`,
  });
  const data = new DataStack(app, name("data"), {
    env,
    names,
    vpc: network.vpc,
    securityGroup: network.databaseGroup,
    dataKey: storage.dataKey,
    production,
  });
  const messaging = new MessagingStack(app, name("messaging"), {
    env,
    definition: names.definition,
    dataKey: storage.dataKey,
  });
  const identity = new IdentityStack(app, name("identity"), { env, settings, names });
  // The roles' policies name resources by ARN; deploy the resources first.
  identity.addStackDependency(storage);
  identity.addStackDependency(messaging);
  const compute = new ComputeStack(app, name("compute"), {
    env,
    settings,
    names,
    network,
    data,
    taskRoles: identity.taskRoles,
    accessLogs: storage.accessLogs,
    production,
  });
  compute.addStackDependency(messaging);
  const observability = new ObservabilityStack(app, name("observability"), {
    env,
    settings,
    names,
    compute,
    dataKey: storage.dataKey,
  });
  const partner = new PartnerStack(app, name("partner"), {
    env: { account: settings.account, region: regions.partner },
    settings,
    names,
  });
  // partner-inbound's task role (IAM, global) and its eu-central-1 log group exist first.
  partner.addStackDependency(identity);
  partner.addStackDependency(compute);
  const stacks = [network, storage, data, messaging, identity, compute, observability, partner];
  return { app, network, storage, data, messaging, identity, compute, observability, partner, stacks };
}

const pascal = (s: string) => s.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

if (import.meta.main) {
  const app = new App();
  buildApp(
    settingsFromContext((key) => app.node.tryGetContext(key)),
    app,
  );
  app.synth();
}
