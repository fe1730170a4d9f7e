import { Hono } from "hono";
import { handleAgreement } from "./agreement/handler.ts";
import { mountCatalog } from "./catalog/routes.ts";
import type { SandboxDeps } from "./context.ts";
import { controlRoutes } from "./control/routes.ts";
import { ApiError, renderApiError } from "./http/api-error.ts";
import { handleSts } from "./sts/handler.ts";

/**
 * The seller-account sandbox on one port: STS (form POST /), Agreement (POST / with X-Amz-Target),
 * Catalog (POST /ListEntities, GET /DescribeEntity, ...), and the control plane under /_sandbox/.
 * It answers in AWS's wire formats, not Flowstate's problem+json: its clients are the AWS SDKs.
 *
 * @example
 * const sandbox = createSandbox(config, logger);
 * serve({ fetch: createApp(sandbox.deps).fetch, port: 8090 });
 */
export function createApp(deps: SandboxDeps): Hono {
  // Not strict: `/_sandbox/accounts/<id>/` and `.../<id>` are the same resource for a human with curl.
  const app = new Hono({ strict: false });
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", (c) => c.json({ status: "ok" }));
  app.route("/_sandbox", controlRoutes(deps));
  app.post("/", (c) => (c.req.header("x-amz-target") ? handleAgreement(c, deps) : handleSts(c, deps)));
  mountCatalog(app, deps);
  app.notFound((c) =>
    renderApiError(
      new ApiError(404, "UnknownOperationException", `No operation at ${c.req.method} ${c.req.path}`),
      "restJson1",
      crypto.randomUUID(),
    ),
  );
  app.onError((err, c) => {
    deps.logger.error({ err, path: c.req.path }, "sandbox request failed");
    return renderApiError(
      new ApiError(500, "InternalFailure", "An internal error occurred."),
      "restJson1",
      crypto.randomUUID(),
    );
  });
  return app;
}
