import assert from "node:assert/strict";
import type { EntityManager } from "@mikro-orm/postgresql";
import { describe, it } from "vitest";
import { existingEm, type ServiceContext, withLazyEm } from "./context.ts";

const base = () =>
  ({ actor: { kind: "anonymous" } as const, requestId: "req_test0001", invalidations: [] }) as unknown as Omit<
    ServiceContext,
    "em"
  >;

describe("a request context's unit of work", () => {
  it("is forked on first use only, once", () => {
    let forks = 0;
    const em = { isInTransaction: () => false } as unknown as EntityManager;
    const ctx = withLazyEm(base(), () => {
      forks++;
      return em;
    });
    assert.equal(existingEm(ctx), undefined, "peeking does not fork");
    assert.equal(forks, 0);
    assert.equal(ctx.em, em);
    assert.equal(ctx.em, em);
    assert.equal(forks, 1);
    assert.equal(existingEm(ctx), em);
  });

  it("can be replaced, and a context built without one answers its own em", () => {
    const other = {} as EntityManager;
    const ctx = withLazyEm(base(), () => assert.fail("must not fork"));
    ctx.em = other;
    assert.equal(existingEm(ctx), other);
    const plain = { ...base(), em: other } as ServiceContext;
    assert.equal(existingEm(plain), other);
  });
});
