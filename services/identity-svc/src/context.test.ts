import assert from "node:assert/strict";
import type { EntityManager } from "@mikro-orm/postgresql";
import { describe, it } from "vitest";
import { ServiceContext } from "./context.ts";
import type { IdentityDeps } from "./deps.ts";

/** Deps whose ORM counts forks; a context needs nothing else of them to start. */
function depsCounting() {
  const em = { isInTransaction: () => false } as unknown as EntityManager;
  const counter = { forks: 0 };
  const deps = {
    orm: {
      em: {
        fork: () => {
          counter.forks++;
          return em;
        },
      },
    },
    logger: {},
  } as unknown as IdentityDeps;
  return { deps, em, counter };
}

describe("a service context's unit of work", () => {
  it("is forked on first use only, once", () => {
    const { deps, em, counter } = depsCounting();
    const ctx = new ServiceContext(deps, { actor: { kind: "anonymous" } });
    assert.equal(ctx.existingEm(), undefined, "peeking does not fork");
    assert.equal(counter.forks, 0);
    assert.equal(ctx.em, em);
    assert.equal(ctx.em, em);
    assert.equal(counter.forks, 1);
    assert.equal(ctx.existingEm(), em);
  });

  it("runs the same call in another unit of work, sharing its invalidations", () => {
    const { deps, counter } = depsCounting();
    const ctx = new ServiceContext(deps, { actor: { kind: "system" }, requestId: "req_test0001" });
    const other = {} as EntityManager;
    const inner = ctx.withEm(other);
    assert.equal(inner.em, other);
    assert.equal(counter.forks, 0);
    assert.deepEqual([inner.actor, inner.requestId], [ctx.actor, "req_test0001"]);
    inner.invalidations.push({ scope: "account", sub: "usr_0123456789ab" });
    assert.equal(ctx.invalidations.length, 1);
  });

  it("gives a job or a test a fresh request id and the service's logger", () => {
    const { deps } = depsCounting();
    const ctx = new ServiceContext(deps, { actor: { kind: "system" } });
    assert.match(ctx.requestId, /^req_/);
    assert.equal(ctx.logger, deps.logger);
  });
});
