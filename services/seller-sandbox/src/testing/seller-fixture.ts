import { afterAll, beforeAll } from "vitest";
import { type SellerSession, type SellerSessionOptions, sellerSession } from "./seller-session.ts";
import { type RunningSandbox, startSandbox } from "./start-sandbox.ts";

/**
 * Registers `beforeAll`/`afterAll` hooks in the enclosing `describe`: a sandbox on a free port, stopped
 * after the suite. The returned object is filled in by the `beforeAll` hook, so read it inside hooks
 * and tests only; hooks registered after this call run after it.
 *
 * @example
 * describe("AssumeRole", () => {
 *   const sandbox = useSandbox();
 *   it("answers", async () => { await stsClient(sandbox.endpoint, principalCredentials("backend")).send(cmd); });
 * });
 */
export function useSandbox(): RunningSandbox {
  const sandbox = {} as RunningSandbox;
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandbox();
    Object.assign(sandbox, running);
  });
  // Optional chaining: when startSandbox itself failed, its error is the one worth reading.
  afterAll(() => running?.stop());
  return sandbox;
}

/** A seller session on its own sandbox; `endpoint` is the sandbox's, for clients built by the test itself. */
export type SandboxSeller = SellerSession & { endpoint: string };

/**
 * {@link useSandbox} plus a fresh seller session on it (connector role deployed and assumed),
 * filled in by a `beforeAll` hook.
 *
 * @example
 * describe("ListEntities", () => {
 *   const seller = useSellerSession();
 *   it("lists products", async () => {
 *     await seller.catalog.send(new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" }));
 *   });
 * });
 */
export function useSellerSession(options: SellerSessionOptions = {}): SandboxSeller {
  const sandbox = useSandbox();
  const seller = {} as SandboxSeller;
  beforeAll(async () => {
    Object.assign(seller, await sellerSession(sandbox, options), { endpoint: sandbox.endpoint });
  });
  return seller;
}
