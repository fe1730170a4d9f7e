import { type AppOptions, databaseServiceApp } from "@flowstate/shared/http/database-service-app";
import type { SeamEnv } from "@flowstate/shared/seam/seam";
import { WIDGETS } from "./catalog-entry.ts";
import type { WidgetsApp, WidgetsDeps } from "./deps.ts";
import { mountWidgetsGet } from "./routes/widgets-get.ts";
import { mountWidgetsPut } from "./routes/widgets-put.ts";

/** Step 4.4: the platform's app with the seam, one `mount…` per registry route, in registry order. */
export function createApp(deps: WidgetsDeps, options: AppOptions = {}): WidgetsApp {
  return databaseServiceApp<SeamEnv<WidgetsDeps>>(WIDGETS, deps, options, {
    bodyLimitBytes: 1024,
    seam: { service: WIDGETS, deps, credentials: deps.credentials },
    routes: [mountWidgetsGet, mountWidgetsPut],
  });
}
