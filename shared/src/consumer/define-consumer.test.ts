import assert from "node:assert/strict";
import { eventCatalog } from "@flowstate/contracts/events/catalog";
import { testEventCatalog } from "@flowstate/contracts/events/test-catalog";
import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import { describe, it } from "vitest";
import { defineConsumer, defineStatelessConsumer } from "./define-consumer.ts";

const noop = async () => {};

describe("defineConsumer", () => {
  it("declares the service, its subscribed types (sorted, once) and the production catalog", () => {
    const d = defineConsumer()({
      service: "widgets-svc",
      events: ["TenantSoftDeleted", "AccountDeleted", "TenantSoftDeleted"],
      handlers: { "AccountDeleted.v1": noop, "TenantSoftDeleted.v1": noop },
    });
    assert.equal(d.service, "widgets-svc");
    assert.deepEqual(d.events, ["AccountDeleted", "TenantSoftDeleted"]);
    assert.equal(d.catalog, eventCatalog);
    assert.deepEqual(Object.keys(d.handlers).sort(), ["AccountDeleted.v1", "TenantSoftDeleted.v1"]);
  });

  it('records processed events by default; `idempotency: "handler"` leaves it to the handler\'s own row', () => {
    const handlers = { "AccountDeleted.v1": noop };
    assert.equal(
      defineConsumer()({ service: "a", events: ["AccountDeleted"], handlers }).idempotency,
      "processed-event",
    );
    const own = defineConsumer()({ service: "b", events: ["AccountDeleted"], idempotency: "handler", handlers });
    assert.equal(own.idempotency, "handler");
  });

  it("reads test events only from the test catalog, which the production one does not contain", () => {
    const d = defineConsumer()({
      service: "platform-test",
      catalog: testEventCatalog,
      events: ["PlatformProbe"],
      handlers: { "PlatformProbe.v1": async (event) => void event.data.seq },
    });
    assert.equal(d.catalog, testEventCatalog);
    assert.equal(Object.hasOwn(eventCatalog, "PlatformProbe.v1"), false);
  });

  it("does not compile a missing handler, a handler for an unsubscribed event, or a test event in production", () => {
    defineConsumer()({
      service: "x",
      events: ["AccountDeleted", "TenantSoftDeleted"],
      // @ts-expect-error TenantSoftDeleted.v1 has no handler
      handlers: { "AccountDeleted.v1": noop },
    });
    defineConsumer()({
      service: "x",
      events: ["AccountDeleted"],
      // @ts-expect-error TenantSoftDeleted is not subscribed
      handlers: { "AccountDeleted.v1": noop, "TenantSoftDeleted.v1": noop },
    });
    // @ts-expect-error PlatformProbe is not a production event
    defineConsumer()({ service: "x", events: ["PlatformProbe"], handlers: { "PlatformProbe.v1": noop } });
  });

  it("takes a catalog service's event types from the services catalog, and refuses a second list", () => {
    const d = defineConsumer()({
      service: "partner-svc",
      handlers: { "PartnerEventReceived.v1": noop, "TenantSoftDeleted.v1": noop },
    });
    assert.deepEqual(d.events, [...serviceCatalog["partner-svc"].consumes].sort());
    assert.throws(
      () =>
        // Compiles (the platform tests declare consumers outside the catalog this way), refused at once:
        defineConsumer()({
          service: "partner-svc",
          events: ["AccountDeleted"],
          handlers: { "AccountDeleted.v1": noop },
        }),
      /consumes what contracts\/src\/services\/catalog.ts lists/,
    );
    // @ts-expect-error TenantSoftDeleted.v1, which the catalog routes to partner-svc, has no handler
    defineConsumer()({ service: "partner-svc", handlers: { "PartnerEventReceived.v1": noop } });
  });

  it("gives a consumer of every event (audit-svc) one handler for every catalog key", () => {
    const d = defineConsumer()({ service: "audit-svc", handleEvery: noop });
    assert.equal(d.events, "all");
    assert.deepEqual(Object.keys(d.handlers).sort(), Object.keys(eventCatalog).sort());
  });

  it("types each handler's event by its catalog entry, and a stateless consumer's context", () => {
    const seen: string[] = [];
    const d = defineStatelessConsumer<string[]>()({
      service: "x",
      events: ["TenantSoftDeleted"],
      handlers: { "TenantSoftDeleted.v1": (event, list) => void list.push(event.data.tenant_id) },
    });
    void d.handlers["TenantSoftDeleted.v1"]!({ data: { tenant_id: "tnt_1" } } as never, seen, undefined);
    assert.deepEqual(seen, ["tnt_1"]);
  });
});
