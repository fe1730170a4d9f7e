import { doorInstance, mountInvalidationPush, OWN_ANSWER_HEADERS } from "@flowstate/edge-gateway/pipeline";
import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { startStatelessConsumer } from "@flowstate/shared/consumer/stateless-consumer";
import { serveMetrics } from "@flowstate/shared/http/metrics-server";
import { createMcpApp } from "./app.ts";
import { AuditPublisher } from "./audit.ts";
import { readMcpConfig } from "./config.ts";
import { startPipeline } from "./pipeline.ts";
import { mcpRevocationConsumer } from "./revocations.ts";

/**
 * Boot: configuration, its keys per caller, the pipeline (the edge gateway's, audience = this
 * server's resource, channel mcp) in process, its AccessRevoked consumer (queue
 * `<prefix>-<stage>-mcp-gateway`: a sign-out at the REST door reaches these caches too), the
 * internal listener with identity-svc's invalidation pushes and the door lease (ADR 0011: a
 * revocation made through the REST door is effective here before it answers), then the MCP endpoint.
 */
const config = readMcpConfig();
const { logger, aws, metrics, ...boot } = serviceBoot("mcp-gateway", config.gateway);

// Keys per caller (ADR 0014): the doors' `gateway--*` pairs and its own calls' pairs, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.gateway.SERVICE_PREFIX,
  stage: config.gateway.STAGE,
  service: "mcp-gateway",
  logger,
});
// /metrics and identity-svc's invalidation pushes on the internal port only (METRICS_HOST:METRICS_PORT);
// the MCP port is public. It listens first: the lease registers the port it got, and the first push
// finds it. Pushes come only once the lease is taken (below), when `pipeline` exists.
const internal = await serveMetrics(metrics, {
  host: config.gateway.METRICS_HOST,
  port: config.gateway.METRICS_PORT,
  logger,
  routes: (app) =>
    mountInvalidationPush(app, { keyring: keys.keyring, invalidate: (list) => pipeline.gateway.invalidate(list) }),
});
const pipeline = startPipeline({
  config: config.gateway,
  resource: config.resource,
  callerKeys: keys.keyring,
  logger,
  metrics,
  lease: doorInstance("mcp-gateway", config.gateway, internal.port),
});
const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  startStatelessConsumer({
    sqs,
    queueUrl,
    logger,
    definition: mcpRevocationConsumer,
    context: { invalidate: pipeline.gateway.invalidate },
    onRecovered: () => pipeline.gateway.invalidateAll(),
    metrics,
  }),
);
const audit = new AuditPublisher({
  eventBridge: aws.data("eventbridge"),
  busName: config.gateway.EVENT_BUS_NAME,
  logger,
  flushMs: config.auditFlushMs,
});
metrics.counter(
  "mcp_audit_published_total",
  "Tool calls whose audit record the bus accepted (in McpToolCallsRecorded events)",
  () => audit.stats.published,
);
metrics.counter(
  "mcp_audit_publish_failures_total",
  "Tool calls whose audit record was not published (refused by its schema or the bus, or the request failed)",
  () => audit.stats.failed,
);
metrics.counter(
  "mcp_audit_put_events_total",
  "PutEvents requests made for the tool calls' audit records",
  () => audit.stats.requests,
);
metrics.counter(
  "mcp_audit_dropped_total",
  "Tool calls whose audit record was dropped because the buffer was full (the bus slower than the calls)",
  () => audit.stats.dropped,
);
const app = createMcpApp({
  metrics,
  audit,
  pipeline,
  resource: config.resource,
  issuer: config.gateway.JWT_ISSUER,
  principalPrefix: `${config.gateway.SERVICE_PREFIX}-${config.gateway.STAGE}`,
  allowedOrigins: config.allowedOrigins,
  logger,
});
await pipeline.gateway.lease?.start();
await boot.serve(
  app,
  [
    () => keys.stop(),
    () => consumer?.stop(),
    () => audit.drain(),
    () => pipeline.close(),
    () => internal.shutdown("stopping"),
  ],
  { headers: OWN_ANSWER_HEADERS },
);
