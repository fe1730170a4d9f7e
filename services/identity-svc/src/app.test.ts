import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { type Harness, startHarness } from "./testing/harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness({ prefix: "id_app" });
});
after(() => h.close());

const toHono = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

describe("the identity-svc app", () => {
  it("serves exactly the identity routes of the public registry, plus /internal/v1 and the probes", () => {
    const served = new Set(
      h.app.routes
        .filter(
          (r) =>
            r.method !== "ALL" &&
            !r.path.startsWith("/internal/v1/") &&
            !["/healthz", "/readyz", "/metrics"].includes(r.path),
        )
        .map((r) => `${r.method} ${r.path}`),
    );
    const declared = new Set(identityRoutes.map((r) => `${r.method} ${toHono(r.path)}`));
    assert.deepEqual([...served].sort(), [...declared].sort());
  });
});
