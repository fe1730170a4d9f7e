import { serviceSigner } from "@flowstate/shared/auth/keyring";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { queueUrlOf } from "@flowstate/shared/boot/queue-url";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { queueNames } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { partnerBusNames } from "@flowstate/shared/partner/ingest-bus";
import { createApp } from "./app.ts";
import { busPolicyWriter } from "./bus-policies.ts";
import { PartnerInboundConfig } from "./config.ts";
import { fetchConnectedAccounts } from "./connector-client.ts";
import { startConnectorEvents } from "./connector-events.ts";
import { type InboundLoop, idleStats, startInboundLoop } from "./inbound-loop.ts";
import { keepMapLoaded } from "./map-refresh.ts";
import { TenantMap } from "./tenant-map.ts";

/**
 * Boot: configuration, its key to call connector-svc (keyring, reloaded on rotation), the shard buses' policy writer,
 * the connector-event consumer (eu-central-1 queue), the account → tenant map (loaded from
 * connector-svc, retried until it answers, then merged on a timer), and once it is loaded the
 * partner queue pump (us-east-1 queue → eu-central-1 bus); listening meanwhile (not ready until then). Nothing is written anywhere but the domain bus and the
 * bus policies (ADR 0003).
 */
const config = parseConfig(PartnerInboundConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("partner-inbound", config);
// Its one key (ADR 0014): partner-inbound holds no key but `partner-inbound--connector-svc`.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "partner-inbound",
  logger,
});
const signForConnector = serviceSigner(keys.keyring, "connector-svc");

const busNames = partnerBusNames(config);
const connectors = () => fetchConnectedAccounts(config.CONNECTOR_URL, signForConnector);
// The policies are written from connector-svc's list, not from this replica's map (bus-policies.ts);
// the map's changes only say which shards to write.
const writer = await busPolicyWriter({
  eventBridge: aws.partner("partner-eventbridge"),
  busNames,
  connectors,
  logger,
  resyncMs: config.TENANT_MAP_REFRESH_MS,
});
const map = new TenantMap(busNames.length, (shards) => writer.schedule(shards));

const name = queueNames(config, "partner-inbound").queue;
const [partnerQueueUrl, connectorQueueUrl] = await Promise.all([
  queueUrlOf(aws.partner("partner-sqs"), name),
  queueUrlOf(aws.data("sqs"), name),
]);
const connectorEvents = startConnectorEvents({
  sqs: aws.data("sqs"),
  queueUrl: connectorQueueUrl,
  map: () => map,
  logger,
  metrics,
});
// The pump starts with the first account map, never before (keepMapLoaded).
let inbound: InboundLoop | undefined;
const refresher = keepMapLoaded({
  map,
  fetch: connectors,
  refreshMs: config.TENANT_MAP_REFRESH_MS,
  logger,
  onLoaded: () => {
    inbound = startInboundLoop({
      sqs: aws.partner("partner-sqs"),
      queueUrl: partnerQueueUrl,
      eventBridge: aws.data("eventbridge"),
      busName: config.EVENT_BUS_NAME,
      map: () => map,
      logger,
    });
  },
});

const app = createApp({
  logger,
  metrics,
  stats: () => inbound?.stats() ?? idleStats(),
  mapLoaded: refresher.loaded,
  tenants: () => map.size,
});
await boot.serve(app, [
  () => keys.stop(),
  () => refresher.stop(),
  () => inbound?.stop(),
  () => connectorEvents.stop(),
  () => writer.stop(),
  () => writer.idle(),
]);
