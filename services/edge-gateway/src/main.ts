import { startKeyring } from "@flowstate/shared/boot/keyring-loader";
import { serviceBoot } from "@flowstate/shared/boot/service-boot";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { serveMetrics } from "@flowstate/shared/http/metrics-server";
import { createApp } from "./app.ts";
import { GatewayConfig } from "./config.ts";
import { startRevocationConsumer } from "./events/revocation-consumer.ts";
import { OWN_ANSWER_HEADERS } from "./http/security-headers.ts";
import { doorInstance } from "./lease/door-instance.ts";
import { mountInvalidationPush } from "./lease/push-route.ts";

/**
 * Boot: configuration, its keys per caller from Secrets Manager, the app, the AccessRevoked consumer,
 * /metrics and the invalidation push on the internal port, the door lease (ADR 0011: caches are
 * trusted only while it is valid), then listen on the public one. The JWKS is fetched once up front;
 * if identity-svc is not up yet the gateway still starts and fetches it on the first token
 * (readiness reports identity-svc until then).
 */
const config = parseConfig(GatewayConfig);
const { logger, aws, metrics, ...boot } = serviceBoot("edge-gateway", config);

// Keys per caller (ADR 0014): its pairs only, reloaded every 60 s and on SIGHUP.
const keys = await startKeyring({
  secrets: aws.data("secretsmanager"),
  prefix: config.SERVICE_PREFIX,
  stage: config.STAGE,
  service: "edge-gateway",
  logger,
});
// The internal listener also takes identity-svc's invalidation pushes. It listens first: the lease
// registers the port it got, and the first push after registration finds it. Pushes come only once
// the lease is taken (below), when `gateway` exists.
const internal = await serveMetrics(metrics, {
  host: config.METRICS_HOST,
  port: config.METRICS_PORT,
  logger,
  routes: (app) =>
    mountInvalidationPush(app, { keyring: keys.keyring, invalidate: (list) => gateway.invalidate(list) }),
});
const gateway = createApp({
  config,
  logger,
  callerKeys: keys.keyring,
  metrics,
  lease: doorInstance("edge-gateway", config, internal.port),
});
await gateway
  .warmUp()
  .catch((err: unknown) => logger.warn({ err }, "JWKS not fetched at boot; will retry on first use"));

const consumer = await boot.consumer(aws.data("sqs"), (sqs, queueUrl) =>
  startRevocationConsumer({
    sqs,
    queueUrl,
    logger,
    invalidate: gateway.invalidate,
    invalidateAll: gateway.invalidateAll,
    metrics,
  }),
);

await gateway.lease?.start();
await boot.serve(
  gateway,
  [() => keys.stop(), () => consumer?.stop(), () => gateway.close(), () => internal.shutdown("stopping")],
  {
    // Malformed requests answered outside the app carry HSTS, nosniff and no-store too.
    headers: OWN_ANSWER_HEADERS,
  },
);
