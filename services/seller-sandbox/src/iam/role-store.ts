import {
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRoleCommand,
  type GetRoleCommandOutput,
  GetRolePolicyCommand,
  type IAMClient,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
} from "@aws-sdk/client-iam";
import type { AccountIam } from "./account-iam.ts";
import { type PolicyDocument, parsePolicyDocument } from "./policy-document.ts";

export interface RoleRecord {
  arn: string;
  name: string;
  account: string;
  trust: PolicyDocument;
  /** Inline and attached managed policies, as the role's identity-based policies. */
  policies: PolicyDocument[];
  maxSessionDuration: number;
}

const ROLE_ARN = /^arn:aws:iam::(\d{12}):role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]{1,64})$/;

/** `{ account, name }` of a role ARN, or undefined when it is not one. */
export function parseRoleArn(arn: string): { account: string; name: string } | undefined {
  const m = ROLE_ARN.exec(arn);
  return m ? { account: m[1] as string, name: m[2] as string } : undefined;
}

const EMPTY: PolicyDocument = { Statement: [] };

function parseOrEmpty(text: string | undefined): PolicyDocument {
  if (!text) return EMPTY;
  try {
    return parsePolicyDocument(text);
  } catch {
    // IAM would have refused it; an unreadable policy grants nothing.
    return EMPTY;
  }
}

async function readPolicies(iam: IAMClient, name: string): Promise<PolicyDocument[]> {
  const inlineNames: string[] = [];
  let marker: string | undefined;
  do {
    const page = await iam.send(new ListRolePoliciesCommand({ RoleName: name, Marker: marker }));
    inlineNames.push(...(page.PolicyNames ?? []));
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  const attached = (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: name }))).AttachedPolicies ?? [];
  const inline = inlineNames.map(async (PolicyName) =>
    parseOrEmpty((await iam.send(new GetRolePolicyCommand({ RoleName: name, PolicyName }))).PolicyDocument),
  );
  const managed = attached.map(async ({ PolicyArn }) => {
    const policy = (await iam.send(new GetPolicyCommand({ PolicyArn }))).Policy;
    const version = await iam.send(new GetPolicyVersionCommand({ PolicyArn, VersionId: policy?.DefaultVersionId }));
    return parseOrEmpty(version.PolicyVersion?.Document);
  });
  return Promise.all([...inline, ...managed]);
}

type Entry = {
  value: RoleRecord | undefined;
  fetchedAt: number;
  pending?: Promise<RoleRecord | undefined> | undefined;
};

/**
 * Reads roles and their policies from the emulator's IAM, where the connector-role template put
 * them, and keeps them in memory so the hot path never waits on the emulator. Fresh for `ttlMs`;
 * for another `ttlMs / 2` a stale value is still served while one background read refreshes it
 * (under load, requests never stall on a refresh); older than that, the caller waits for a fresh
 * read. So an IAM change (a stack update) is seen within 1.5 × ttlMs plus one read, or at once
 * after `flush`. Concurrent reads of one role share one request.
 */
export class RoleStore {
  readonly #iam: AccountIam;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, Entry>();
  /**
   * Bumped by `flush`: a read that began before a flush may have seen IAM before the change the flush
   * announces, so its result is handed to its own callers but never cached (it would undo the flush).
   */
  #epoch = 0;

  constructor(iam: AccountIam, options: { ttlMs: number }) {
    this.#iam = iam;
    this.#ttlMs = options.ttlMs;
  }

  get(roleArn: string): Promise<RoleRecord | undefined> | RoleRecord | undefined {
    const entry = this.#cache.get(roleArn);
    const age = entry ? Date.now() - entry.fetchedAt : Number.POSITIVE_INFINITY;
    if (entry && age < this.#ttlMs) return entry.value;
    const pending = entry?.pending ?? this.#refresh(roleArn, entry);
    if (entry && age < this.#ttlMs * 1.5) {
      pending.catch(() => {}); // a failed background read is retried by the next caller
      return entry.value;
    }
    return pending;
  }

  #refresh(roleArn: string, entry: Entry | undefined): Promise<RoleRecord | undefined> {
    const epoch = this.#epoch;
    const pending = this.#load(roleArn).then(
      (value) => {
        if (epoch === this.#epoch) this.#cache.set(roleArn, { value, fetchedAt: Date.now() });
        return value;
      },
      (err: unknown) => {
        const current = this.#cache.get(roleArn);
        if (current?.pending === pending) current.pending = undefined;
        throw err;
      },
    );
    this.#cache.set(roleArn, { value: entry?.value, fetchedAt: entry?.fetchedAt ?? 0, pending });
    return pending;
  }

  /** Forget one role, or all: the next call reads IAM again. */
  flush(roleArn?: string): void {
    this.#epoch++;
    if (roleArn) this.#cache.delete(roleArn);
    else this.#cache.clear();
  }

  async #load(roleArn: string): Promise<RoleRecord | undefined> {
    const parsed = parseRoleArn(roleArn);
    if (!parsed) return undefined;
    const iam = await this.#iam.client(parsed.account);
    let role: GetRoleCommandOutput;
    try {
      role = await iam.send(new GetRoleCommand({ RoleName: parsed.name }));
    } catch (err) {
      if ((err as Error).name === "NoSuchEntityException" || (err as Error).name === "NoSuchEntity") return undefined;
      throw err;
    }
    // A role with the same name under another path is a different ARN.
    if (role.Role?.Arn !== roleArn) return undefined;
    return {
      arn: roleArn,
      name: parsed.name,
      account: parsed.account,
      trust: parseOrEmpty(role.Role.AssumeRolePolicyDocument),
      policies: await readPolicies(iam, parsed.name),
      maxSessionDuration: role.Role.MaxSessionDuration ?? 3600,
    };
  }
}
