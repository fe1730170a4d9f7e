import { GetSecretValueCommand } from "@aws-sdk/client-secrets-manager";
import { GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { createMetrics } from "@flowstate/shared/http/metrics";
import { serveMetrics } from "@flowstate/shared/http/metrics-server";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp } from "./app.ts";
import { GatewayConfig } from "./config.ts";
import { startRevocationConsumer } from "./events/revocation-consumer.ts";
import { OWN_ANSWER_HEADERS } from "./http/security-headers.ts";

/**
 * Boot: configuration, the assertion key from Secrets Manager, the app, the AccessRevoked consumer,
 * /metrics on the internal port, then listen on the public one. The JWKS is fetched once up front;
 * if identity-svc is not up yet the gateway still starts and fetches it on the first token
 * (readiness reports identity-svc until then).
 */
const config = parseConfig(GatewayConfig);
const logger = createLogger({ service: "edge-gateway", level: config.LOG_LEVEL });
const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });

const secret = await aws
  .data("secretsmanager")
  .send(new GetSecretValueCommand({ SecretId: config.INTERNAL_AUTH_SECRET_ID }));
if (!secret.SecretString) throw new Error(`secret ${config.INTERNAL_AUTH_SECRET_ID} has no SecretString`);

const metrics = createMetrics();
const gateway = createApp({ config, logger, internalSecret: secret.SecretString, metrics });
await gateway
  .warmUp()
  .catch((err: unknown) => logger.warn({ err }, "JWKS not fetched at boot; will retry on first use"));

let consumer: ReturnType<typeof startRevocationConsumer> | undefined;
if (config.CONSUME_EVENTS) {
  const sqs = aws.data("sqs");
  const { queue } = queueNames(config, "edge-gateway");
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: queue }));
  consumer = startRevocationConsumer({
    sqs,
    queueUrl: QueueUrl!,
    logger,
    invalidate: gateway.invalidate,
    invalidateAll: gateway.invalidateAll,
    metrics,
  });
}

const internal = await serveMetrics(metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
await serve(gateway, {
  host: config.HOST,
  port: config.PORT,
  logger,
  // Malformed requests answered outside the app carry HSTS, nosniff and no-store too.
  headers: OWN_ANSWER_HEADERS,
  onShutdown: [() => consumer?.stop(), () => gateway.close(), () => internal.shutdown("stopping")],
});
