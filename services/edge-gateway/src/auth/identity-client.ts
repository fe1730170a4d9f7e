import { DoorLease } from "@flowstate/contracts/internal/doors";
import { ApiKeyState, MembershipState, SessionState } from "@flowstate/contracts/internal/identity";
import { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { IDENTITY_HEADER, type RequestBinding, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { Upstream } from "../proxy/upstreams.ts";

/** identity-svc's internal API (contracts/src/internal/identity.ts) as the gateway uses it. */
export interface IdentityLookups {
  session(sid: string): Promise<SessionState | null>;
  apiKey(key: string): Promise<ApiKeyState | null>;
  membership(tenantId: string, sub: string): Promise<MembershipState | null>;
  /** The tenant's feature flags, or null when the tenant is missing or deleted. */
  features(tenantId: string): Promise<FeatureFlags | null>;
  jwks(): Promise<unknown>;
  /** Registers or renews this door instance's lease (ADR 0011). */
  renewLease(instanceId: string, pushUrl: string): Promise<DoorLease>;
  /** Ends this instance's lease (shutdown). */
  leaveLease(instanceId: string): Promise<void>;
}

export interface IdentityClientOptions {
  /** identity-svc's pool and circuit breaker; every lookup waits at most its `lookupTimeoutMs`. */
  upstream: Upstream;
  /**
   * Signs the door's own identity with its pair (`serviceSigner(keys, "identity-svc")`, ADR 0014):
   * `edge-gateway`, or `mcp-gateway` when mcp-gateway runs this pipeline.
   */
  sign: (binding: RequestBinding) => string;
  newRequestId: () => string;
}

/**
 * Calls identity-svc's `/internal/v1` routes with a signed assertion of the gateway's own
 * `service` identity (the caller is not known yet: that is what is being looked up). 200 → the parsed state, 404 → null, anything else (or no answer) →
 * 503 UPSTREAM_UNAVAILABLE: the gateway fails closed when it cannot learn whether a credential is
 * still valid. Answers are validated with the contract's zod schemas: they are cached and trusted.
 * Each lookup is bounded by LOOKUP_TIMEOUT_MS, queueing for a socket included (a stalled
 * identity-svc must not hold the request for the relay's longer timeout); a lookup without an
 * answer counts towards identity-svc's circuit breaker, and while it is open lookups are refused
 * at once (503 with Retry-After).
 *
 * @example
 * const identity = identityClient({ upstream: upstreams.get("identity-svc")!, sign: serviceSigner(keyring, "identity-svc"), newRequestId });
 * const state = await identity.session("ses_…"); // null: identity-svc does not know the session
 */
export function identityClient(options: IdentityClientOptions): IdentityLookups {
  const { pool, breaker, lookupTimeoutMs } = options.upstream;

  /** One bounded call through the breaker: the answer, or the 503 (counted when nothing answered). */
  async function send(request: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    breaker.admit();
    let answer: Dispatcher.ResponseData;
    try {
      answer = await pool.request({
        ...request,
        headersTimeout: lookupTimeoutMs,
        bodyTimeout: lookupTimeoutMs,
        signal: AbortSignal.timeout(lookupTimeoutMs),
      });
    } catch (err) {
      breaker.failed(err);
      throw breaker.unavailable(err);
    }
    breaker.succeeded();
    return answer;
  }

  async function call<S extends z.ZodType>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.output<S> | null> {
    const requestId = options.newRequestId();
    const json = body === undefined ? null : JSON.stringify(body);
    const binding = { method, target: path, bodySha256: sha256Base64url(json ?? "") };
    const headers: Record<string, string> = {
      [IDENTITY_HEADER]: options.sign(binding),
      "x-request-id": requestId,
      accept: "application/json",
    };
    if (json !== null) headers["content-type"] = "application/json";
    const answer = await send({ method, path, headers, body: json });
    if (answer.statusCode === 404 || answer.statusCode === 204) {
      await answer.body.dump();
      return null;
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw breaker.unavailable(
        new Error(`identity-svc ${method} ${path.replace(/\/[^/]+$/, "/…")} answered ${answer.statusCode}`),
      );
    }
    const parsed = schema.safeParse(await answer.body.json().catch(() => undefined));
    if (!parsed.success) throw breaker.unavailable(new Error("identity-svc answered outside the internal contract"));
    return parsed.data;
  }

  return {
    session: (sid) => call("GET", `/internal/v1/sessions/${sid}`, SessionState),
    apiKey: (key) => call("POST", "/internal/v1/api-keys/verify", ApiKeyState, { key }),
    membership: (tenantId, sub) => call("GET", `/internal/v1/tenants/${tenantId}/members/${sub}`, MembershipState),
    features: (tenantId) => call("GET", `/internal/v1/tenants/${tenantId}/features`, FeatureFlags),
    async renewLease(instanceId, pushUrl) {
      const lease = await call("PUT", `/internal/v1/doors/${instanceId}`, DoorLease, { push_url: pushUrl });
      if (lease === null) throw breaker.unavailable(new Error("identity-svc does not know the door lease route"));
      return lease;
    },
    async leaveLease(instanceId) {
      await call("DELETE", `/internal/v1/doors/${instanceId}`, DoorLease);
    },
    async jwks() {
      const answer = await send({
        method: "GET",
        path: "/.well-known/jwks.json",
        headers: { accept: "application/json" },
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw breaker.unavailable(new Error(`identity-svc JWKS answered ${answer.statusCode}`));
      }
      return answer.body.json();
    },
  };
}
