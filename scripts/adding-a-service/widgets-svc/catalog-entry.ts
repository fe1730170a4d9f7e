import type { ServiceName } from "@flowstate/contracts/rest/route";
import type { FlowstateServiceName, ServiceEntry } from "@flowstate/contracts/services/catalog";

/**
 * docs/adding-a-service.md step 1, for the fixture service the doc's test builds: its entry of the
 * services catalog. A real service adds this entry to `serviceCatalog`
 * (contracts/src/services/catalog.ts), which makes its name a `FlowstateServiceName` and lets its
 * registry routes name it; the fixture must not change the deployment (the bootstrap's queues,
 * the key pairs, the residency table all derive from the catalog), so it names itself with the one
 * cast below instead.
 */
export const widgetsEntry = {
  kind: "service",
  port: 8099,
  region: "eu-central-1",
  database: true,
  consumes: [],
  aws: [],
} as const satisfies ServiceEntry;

export const WIDGETS = "widgets-svc" as unknown as FlowstateServiceName & ServiceName;
