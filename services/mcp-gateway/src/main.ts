import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { OWN_ANSWER_HEADERS } from "@flowstate/edge-gateway/http/security-headers";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { type StatelessConsumer, startStatelessConsumer } from "@flowstate/shared/consumer/stateless-consumer";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serveMetrics } from "@flowstate/shared/http/metrics-server";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createMcpApp } from "./app.ts";
import { AuditPublisher } from "./audit.ts";
import { readMcpConfig } from "./config.ts";
import { startPipeline } from "./pipeline.ts";
import { mcpRevocationConsumer } from "./revocations.ts";

/**
 * Boot: configuration, the assertion key, the pipeline (the edge gateway's, audience = this
 * server's resource, channel mcp) in process, its AccessRevoked consumer (queue
 * `<prefix>-<stage>-mcp-gateway`: a sign-out at the REST door reaches these caches too), then the
 * MCP endpoint.
 */
const config = readMcpConfig();
const logger = createLogger({ service: "mcp-gateway", level: config.gateway.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.gateway.AWS_ENDPOINT_URL });
const secret = (
  await aws.data("secretsmanager").send(new GetSecretValueCommand({ SecretId: config.gateway.INTERNAL_AUTH_SECRET_ID }))
).SecretString;
if (!secret) throw new Error(`secret ${config.gateway.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const metrics = createMetrics();
const pipeline = startPipeline({
  config: config.gateway,
  resource: config.resource,
  internalSecret: secret,
  logger,
  metrics,
});
let consumer: StatelessConsumer | undefined;
if (config.gateway.CONSUME_EVENTS) {
  const sqs = aws.data("sqs");
  const { QueueUrl } = await sqs.send(
    new GetQueueUrlCommand({ QueueName: queueNames(config.gateway, "mcp-gateway").queue }),
  );
  consumer = startStatelessConsumer({
    sqs,
    queueUrl: QueueUrl!,
    logger,
    definition: mcpRevocationConsumer,
    context: { invalidate: pipeline.gateway.invalidate },
    onRecovered: () => pipeline.gateway.invalidateAll(),
    metrics,
  });
}
const audit = new AuditPublisher({
  eventBridge: aws.data("eventbridge"),
  busName: config.gateway.EVENT_BUS_NAME,
  logger,
});
metrics.counter("mcp_audit_published_total", "McpToolCalled events the bus accepted", () => audit.stats.published);
metrics.counter(
  "mcp_audit_publish_failures_total",
  "McpToolCalled events not published (refused by the bus or the call failed)",
  () => audit.stats.failed,
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
// /metrics on the internal port only (METRICS_HOST:METRICS_PORT); the MCP port is public.
const internal = await serveMetrics(metrics, {
  host: config.gateway.METRICS_HOST,
  port: config.gateway.METRICS_PORT,
  logger,
});
await serve(app, {
  host: config.gateway.HOST,
  port: config.gateway.PORT,
  logger,
  headers: OWN_ANSWER_HEADERS,
  onShutdown: [
    () => consumer?.stop(),
    () => audit.drain(),
    () => pipeline.close(),
    () => internal.shutdown("stopping"),
  ],
});
