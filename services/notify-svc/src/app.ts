import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { NotifyDeps } from "./deps.ts";
import type { NotifyApp, NotifyEnv } from "./http/env.ts";
import { mountDeliveriesList } from "./routes/notifications-deliveries-list.ts";
import { mountDeliveriesReplay } from "./routes/notifications-deliveries-replay.ts";
import { mountEndpointsCreate } from "./routes/notifications-endpoints-create.ts";
import { mountEndpointsDelete } from "./routes/notifications-endpoints-delete.ts";
import { mountEndpointsEnable } from "./routes/notifications-endpoints-enable.ts";
import { mountEndpointsList } from "./routes/notifications-endpoints-list.ts";
import { mountEndpointsRotateSecret } from "./routes/notifications-endpoints-rotate-secret.ts";

/**
 * notify-svc's HTTP app: the platform base and the seam (the caller verified, each route's declared
 * access applied: admins and write keys), one route per file in registry order. Writes re-check
 * the caller's credential at identity-svc (`deps.credentials`).
 */
export function createApp(deps: NotifyDeps, options: AppOptions = {}): NotifyApp {
  return databaseServiceApp<NotifyEnv>("notify-svc", deps, options, {
    bodyLimitBytes: 8 * 1024,
    seam: { service: "notify-svc", deps, credentials: deps.credentials },
    routes: [
      mountEndpointsList,
      mountEndpointsCreate,
      mountEndpointsDelete,
      mountEndpointsEnable,
      mountEndpointsRotateSecret,
      mountDeliveriesList,
      mountDeliveriesReplay,
    ],
  });
}
