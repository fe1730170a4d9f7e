import type { Hono } from "hono";
import type { SandboxDeps } from "../context.ts";
import { marketplaceCall, type Operation } from "../http/marketplace-call.ts";
import { cancelChangeSet } from "./cancel-change-set.ts";
import { describeChangeSet } from "./describe-change-set.ts";
import { describeEntity } from "./describe-entity.ts";
import { listChangeSets } from "./list-change-sets.ts";
import { listEntities } from "./list-entities.ts";
import { startChangeSet } from "./start-change-set.ts";

/** Catalog (restJson1) operations by method and path, as the SDK sends them. */
const operations: { method: "get" | "post" | "patch"; name: string; run: Operation }[] = [
  { method: "post", name: "ListEntities", run: listEntities },
  { method: "get", name: "DescribeEntity", run: describeEntity },
  { method: "post", name: "StartChangeSet", run: startChangeSet },
  { method: "get", name: "DescribeChangeSet", run: describeChangeSet },
  { method: "post", name: "ListChangeSets", run: listChangeSets },
  { method: "patch", name: "CancelChangeSet", run: cancelChangeSet },
];

export function mountCatalog(app: Hono, deps: SandboxDeps): void {
  for (const op of operations) {
    app[op.method](`/${op.name}`, (c) => marketplaceCall(c, deps, "restJson1", op.name, op.run));
  }
}
