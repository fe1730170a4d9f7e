import assert from "node:assert/strict";
import type { IAMClient } from "@aws-sdk/client-iam";
import { PutRolePolicyCommand } from "@aws-sdk/client-iam";
import { describe, it } from "vitest";
import { motoSellerAccount } from "../../../../deploy/connector-role/moto-account.ts";
import { customRole } from "../testing/custom-role.ts";
import { AccountIam } from "./account-iam.ts";
import { RoleStore } from "./role-store.ts";

const credentials = { accessKeyId: "testing", secretAccessKey: "testing" };

/**
 * The emulator's IAM, with a latch the test opens: a GetRolePolicy answer (the last call of a role
 * read, after the policy names were listed) reaches the store only once the latch is open, so a read
 * can be caught after IAM answered it and before the store keeps it.
 */
class LatchedIam extends AccountIam {
  #open: Promise<void> = Promise.resolve();
  #release = () => {};
  readonly #hooked = new WeakSet<IAMClient>();
  hold(): void {
    this.#open = new Promise((resolve) => {
      this.#release = resolve;
    });
  }
  release(): void {
    this.#release();
  }
  override async client(account: string): Promise<IAMClient> {
    const client = await super.client(account);
    if (!this.#hooked.has(client)) {
      this.#hooked.add(client);
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const out = await next(args);
          if (context.commandName === "GetRolePolicyCommand") await this.#open;
          return out;
        },
        { step: "initialize", name: "testLatch" },
      );
    }
    return client;
  }
}

const statementSids = (policies: { Statement: { Sid?: string }[] }[]) =>
  policies.flatMap((p) => p.Statement.map((s) => s.Sid ?? ""));

describe("RoleStore", () => {
  it("keeps no read that began before a flush: the IAM change the flush announces applies to the next call", async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL ?? "";
    const role = await customRole({
      Version: "2012-10-17",
      Statement: [{ Sid: "Before", Effect: "Allow", Action: "aws-marketplace:*", Resource: "*" }],
    });
    const iam = new LatchedIam({ endpoint, credentials });
    const store = new RoleStore(iam, { ttlMs: 60_000 });
    iam.hold();
    // A read in flight: IAM has answered with the role as it is now, the store has not kept it yet.
    const inFlight = Promise.resolve(store.get(role.roleArn));
    await new Promise((r) => setTimeout(r, 300));

    const seller = await motoSellerAccount(endpoint, role.accountId);
    await seller.iam.send(
      new PutRolePolicyCommand({
        RoleName: "MarketplaceConnector",
        PolicyName: "Added",
        PolicyDocument: JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Sid: "After", Effect: "Allow", Action: "aws-marketplace:DescribeAgreement", Resource: "*" }],
        }),
      }),
    );
    seller.iam.destroy();
    store.flush(role.roleArn);
    iam.release();

    const old = await inFlight;
    assert.deepEqual(statementSids(old?.policies ?? []), ["Before"], "the read in flight saw IAM before the change");
    const next = await store.get(role.roleArn);
    assert.deepEqual(statementSids(next?.policies ?? []).sort(), ["After", "Before"]);
    iam.destroy();
  });
});
