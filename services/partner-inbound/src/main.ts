import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { partnerBusNames } from "@flowstate/shared/partner/ingest-bus";
import { createApp } from "./app.ts";
import { busPolicyWriter } from "./bus-policies.ts";
import { PartnerInboundConfig } from "./config.ts";
import { fetchConnectedAccounts } from "./connector-client.ts";
import { startConnectorEvents } from "./connector-events.ts";
import { startInboundLoop } from "./inbound-loop.ts";
import { TenantMap } from "./tenant-map.ts";

/**
 * Boot: configuration, the assertion key (to call connector-svc), the shard buses' policy writer,
 * the account → tenant map (loaded from connector-svc, retried until it answers, then refreshed on
 * a timer), the connector-event consumer (eu-central-1 queue), the partner queue pump (us-east-1
 * queue → eu-central-1 bus), then listen. Nothing is written anywhere but the domain bus and the
 * bus policies (ADR 0003).
 */
const config = parseConfig(PartnerInboundConfig);
const logger = createLogger({ service: "partner-inbound", level: config.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });
const secret = (
  await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: config.INTERNAL_AUTH_SECRET_ID }))
).SecretString;
if (!secret) throw new Error(`secret ${config.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const busNames = partnerBusNames(config);
const writer = await busPolicyWriter(aws.partner("partner-eventbridge"), busNames, () => map, logger);
const map = new TenantMap(busNames.length, (shards) => writer.schedule(shards));
let loaded = false;
let refreshTimer: NodeJS.Timeout | undefined;
async function refresh(): Promise<void> {
  try {
    map.replace(await fetchConnectedAccounts(config.CONNECTOR_URL, secret!));
    if (!loaded) logger.info({ accounts: map.size }, "account map loaded from connector-svc");
    loaded = true;
  } catch (err) {
    logger.warn({ err }, "connector-svc did not answer; the account map keeps its current entries");
  }
  refreshTimer = setTimeout(refresh, loaded ? config.TENANT_MAP_REFRESH_MS : 5000);
}
await refresh();

const name = queueNames(config, "partner-inbound").queue;
const [partnerQueue, connectorQueue] = await Promise.all([
  aws.partner("partner-sqs").send(new GetQueueUrlCommand({ QueueName: name })),
  aws.data("sqs").send(new GetQueueUrlCommand({ QueueName: name })),
]);
const metrics = createMetrics();
const connectorEvents = startConnectorEvents({
  sqs: aws.data("sqs"),
  queueUrl: connectorQueue.QueueUrl!,
  map: () => map,
  logger,
  metrics,
});
const inbound = startInboundLoop({
  sqs: aws.partner("partner-sqs"),
  queueUrl: partnerQueue.QueueUrl!,
  eventBridge: aws.data("eventbridge"),
  busName: config.EVENT_BUS_NAME,
  map: () => map,
  logger,
});

const app = createApp({
  logger,
  metrics,
  stats: inbound.stats,
  mapLoaded: () => loaded,
  tenants: () => map.size,
});
await serve(app, {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [
    () => clearTimeout(refreshTimer),
    () => inbound.stop(),
    () => connectorEvents.stop(),
    () => writer.idle(),
  ],
});
