import type { IdentityApp } from "../http/env.ts";

/**
 * The public signing keys, pending ones included (see tokens/key-set.ts). Cacheable for 5 minutes:
 * the key activation delay is longer than that, so a cached copy always holds the next key.
 */
export function registerJwks(app: IdentityApp): void {
  app.get("/.well-known/jwks.json", (c) => {
    const { deps } = c.get("ctx");
    c.header("cache-control", "public, max-age=300");
    return c.json(deps.keyring.jwks(deps.clock()), 200);
  });
}
