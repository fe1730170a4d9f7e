import assert from "node:assert/strict";
import { statusOf } from "@flowstate/contracts/errors/codes";
import { routeProblems } from "@flowstate/contracts/rest/problems";
import { routes } from "@flowstate/contracts/rest/routes";
import { testKeyring } from "@flowstate/shared/auth/keyring";
import { createLogger } from "@flowstate/shared/log/logger";
import { describe, it } from "vitest";
import { testSettings } from "../../test/gateway-harness.ts";
import { createApp } from "../app.ts";

type Operation = {
  operationId: string;
  security: unknown[];
  parameters: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};

const gateway = () =>
  createApp({
    config: testSettings("http://127.0.0.1:9"),
    logger: createLogger({ service: "edge-gateway" }),
    callerKeys: testKeyring("edge-gateway", "x".repeat(32)),
  });

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and covers every route of the registry with its operation id, parameters, body and security", async () => {
    const gw = gateway();
    const res = await gw.app.request("/openapi.json");
    assert.equal(res.status, 200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, Operation>>;
      components: Record<string, Record<string, unknown>>;
    };
    assert.equal(doc.openapi, "3.1.0");
    assert.ok(routes.length > 0);
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      assert.ok(op, `${route.id} (${route.method} ${route.path}) is missing from the document`);
      assert.equal(op.operationId, route.id);
      for (const [, name] of route.path.matchAll(/\{([a-z_]+)\}/g)) {
        assert.ok(
          op.parameters.some((p) => p.in === "path" && p.name === name),
          `${route.id}: path parameter ${name}`,
        );
      }
      assert.equal(op.requestBody !== undefined, route.body !== undefined, `${route.id}: request body`);
      assert.equal(op.security.length === 0, route.auth === "public", `${route.id}: security`);
      for (const status of Object.keys(route.responses))
        assert.ok(op.responses[status], `${route.id}: response ${status}`);
      for (const code of routeProblems(route)) {
        const answer = op.responses[String(statusOf(code))] as { "x-flowstate-problem-codes"?: string[] } | undefined;
        assert.ok(answer?.["x-flowstate-problem-codes"]?.includes(code), `${route.id}: problem ${code}`);
      }
    }
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    assert.equal(operations.length, routes.length, "nothing documented that is not in the registry");
    assert.ok(doc.components.securitySchemes?.bearerAuth);
    assert.ok(doc.components.securitySchemes?.apiKey);
    assert.ok(doc.components.schemas?.Problem);
    await gw.close();
  });

  it("declares the Idempotency-Key header, and what happens without it, on exactly the operations whose route honours it", async () => {
    const gw = gateway();
    const doc = (await (await gw.app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const honouring = routes.filter((r) => r.idempotencyKey);
    assert.ok(
      honouring.some((r) => r.id === "offers.create"),
      "the registry names the routes that honour the key",
    );
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      const header = op?.parameters.find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key") as
        | { name: string; required: boolean; description: string; schema: { pattern?: string } }
        | undefined;
      if (!route.idempotencyKey) {
        assert.equal(header, undefined, `${route.id} does not honour Idempotency-Key`);
        continue;
      }
      assert.ok(header, `${route.id}: Idempotency-Key header`);
      assert.equal(header.name, "Idempotency-Key");
      assert.equal(header.required, false, `${route.id}: the key is optional`);
      assert.ok(header.schema.pattern, `${route.id}: the key's format`);
      assert.ok(header.description.includes(route.idempotencyKey.withoutKey), `${route.id}: what happens without it`);
      assert.ok(
        (op!.responses["422"] as { "x-flowstate-problem-codes"?: string[] })["x-flowstate-problem-codes"]?.includes(
          "IDEMPOTENCY_KEY_REUSED",
        ),
        `${route.id}: the reuse of a key with another request`,
      );
    }
    await gw.close();
  });

  it("serves the interactive docs page and its assets from the installed package", async () => {
    const gw = gateway();
    const page = await gw.app.request("/docs");
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /\/docs\/swagger-ui-bundle\.js/);
    assert.doesNotMatch(html, /https?:\/\//, "no asset from a CDN");
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    const bundle = await gw.app.request("/docs/swagger-ui-bundle.js");
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get("content-type") ?? "", /javascript/);
    assert.ok((await bundle.arrayBuffer()).byteLength > 100_000);
    assert.match(await (await gw.app.request("/docs/init.js")).text(), /\/openapi\.json/);
    const traversal = await gw.app.request("/docs/..%2Fpackage.json");
    assert.equal(traversal.status, 404);
    await gw.close();
  });
});
