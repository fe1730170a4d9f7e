import type { Hono } from "hono";
import type { SandboxDeps } from "../context.ts";
import { marketplaceCall, type Operation } from "../http/marketplace-call.ts";
import { describeEntity } from "./describe-entity.ts";
import { listEntities } from "./list-entities.ts";

/** Catalog (restJson1) operations by method and path, as the SDK sends them. */
const operations: { method: "get" | "post" | "patch"; name: string; run: Operation }[] = [
  { method: "post", name: "ListEntities", run: listEntities },
  { method: "get", name: "DescribeEntity", run: describeEntity },
];

export function mountCatalog(app: Hono, deps: SandboxDeps, extra: typeof operations = []): void {
  for (const op of [...operations, ...extra]) {
    app[op.method](`/${op.name}`, (c) => marketplaceCall(c, deps, "restJson1", op.name, op.run));
  }
}
