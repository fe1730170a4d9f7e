import { IAMClient } from "@aws-sdk/client-iam";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";

export interface EmulatorOptions {
  /** The local AWS emulator (moto) that holds the seller accounts' IAM. */
  endpoint: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

/**
 * IAM clients acting inside a given account of the emulator. moto puts every call made with
 * credentials from its own AssumeRole into the account of the assumed role's ARN (checked with
 * moto 5.2), whether or not that role exists, so one AssumeRole per account opens its IAM.
 */
export class AccountIam {
  readonly #options: EmulatorOptions;
  readonly #sts: STSClient;
  readonly #clients = new Map<string, { client: IAMClient; until: number }>();

  constructor(options: EmulatorOptions) {
    this.#options = options;
    this.#sts = new STSClient({ region: "us-east-1", endpoint: options.endpoint, credentials: options.credentials });
  }

  async client(account: string): Promise<IAMClient> {
    const hit = this.#clients.get(account);
    if (hit && hit.until > Date.now()) return hit.client;
    const out = await this.#sts.send(
      new AssumeRoleCommand({
        RoleArn: `arn:aws:iam::${account}:role/seller-sandbox-iam-reader`,
        RoleSessionName: "seller-sandbox",
        DurationSeconds: 3600,
      }),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey)
      throw new Error(`emulator STS gave no credentials for account ${account}`);
    const client = new IAMClient({
      region: "us-east-1",
      endpoint: this.#options.endpoint,
      credentials: { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken },
    });
    this.#clients.set(account, { client, until: Date.now() + 50 * 60_000 });
    return client;
  }

  destroy(): void {
    this.#sts.destroy();
    for (const { client } of this.#clients.values()) client.destroy();
    this.#clients.clear();
  }
}
