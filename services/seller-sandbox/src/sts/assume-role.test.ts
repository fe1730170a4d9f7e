import assert from "node:assert/strict";
import { AssumeRoleCommand, GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { beforeAll, describe, it } from "vitest";
import { assumeConnector, principalCredentials, stsClient } from "../testing/clients.ts";
import { type ConnectorRole, connectorRole } from "../testing/connector-role.ts";
import { useSandbox } from "../testing/seller-fixture.ts";
import { rejection } from "../testing/seller-session.ts";

const backendArn = "arn:aws:iam::123456789012:role/flowstate-dev-backend";
const mcpArn = "arn:aws:iam::123456789012:role/flowstate-dev-mcp-execution";

describe("STS AssumeRole through the sandbox", () => {
  const sandbox = useSandbox();
  let both: ConnectorRole;
  let backendOnly: ConnectorRole;
  beforeAll(async () => {
    [both, backendOnly] = await Promise.all([connectorRole(), connectorRole({ trusted: ["backend"] })]);
  });

  it("gives either trusted principal temporary credentials for the role with the right external id", async () => {
    for (const principal of ["backend", "mcp-execution"] as const) {
      const sts = stsClient(sandbox.endpoint, principalCredentials(principal));
      const out = await sts.send(
        new AssumeRoleCommand({ RoleArn: both.roleArn, RoleSessionName: "connector", ExternalId: both.externalId }),
      );
      assert.match(out.Credentials?.AccessKeyId ?? "", /^ASIA[A-Z2-7]{16}$/);
      assert.ok(out.Credentials?.SecretAccessKey && out.Credentials.SessionToken);
      assert.equal(
        out.AssumedRoleUser?.Arn,
        `arn:aws:sts::${both.accountId}:assumed-role/MarketplaceConnector/connector`,
      );
      assert.match(out.AssumedRoleUser?.AssumedRoleId ?? "", /^AROA[A-Z2-7]{17}:connector$/);
      const lifetime = (out.Credentials?.Expiration?.getTime() ?? 0) - Date.now();
      assert.ok(lifetime > 3590_000 && lifetime <= 3600_000, `default lifetime is one hour, got ${lifetime} ms`);
    }
  });

  it("honours DurationSeconds within the role's maximum", async () => {
    const creds = await assumeConnector(sandbox.endpoint, "backend", both.roleArn, both.externalId, 900);
    const lifetime = (creds.expiration?.getTime() ?? 0) - Date.now();
    assert.ok(lifetime > 890_000 && lifetime <= 900_000);
  });

  it("refuses a wrong external id, a missing one and an unknown role with AccessDenied", async () => {
    const sts = stsClient(sandbox.endpoint, principalCredentials("backend"));
    const cases = [
      { RoleArn: both.roleArn, ExternalId: "not-the-tenant-value" },
      { RoleArn: both.roleArn },
      { RoleArn: `arn:aws:iam::${both.accountId}:role/NoSuchRole`, ExternalId: both.externalId },
    ];
    for (const input of cases) {
      const err = await rejection(sts.send(new AssumeRoleCommand({ ...input, RoleSessionName: "connector" })));
      assert.equal(err.name, "AccessDenied");
      assert.equal(err.$metadata?.httpStatusCode, 403);
      assert.equal(
        err.message,
        `User: ${backendArn} is not authorized to perform: sts:AssumeRole on resource: ${input.RoleArn}`,
      );
    }
  });

  it("lets the backend in and refuses mcp-execution when the trust policy lists only the backend", async () => {
    await assumeConnector(sandbox.endpoint, "backend", backendOnly.roleArn, backendOnly.externalId);
    const err = await rejection(
      assumeConnector(sandbox.endpoint, "mcp-execution", backendOnly.roleArn, backendOnly.externalId),
    );
    assert.equal(err.name, "AccessDenied");
    assert.match(err.message, new RegExp(`^User: ${mcpArn} is not authorized`));
  });

  it("answers ValidationError for a duration outside 900 to the role's maximum and for a bad session name", async () => {
    const sts = stsClient(sandbox.endpoint, principalCredentials("backend"));
    const base = { RoleArn: both.roleArn, ExternalId: both.externalId, RoleSessionName: "connector" };
    const tooLong = await rejection(sts.send(new AssumeRoleCommand({ ...base, DurationSeconds: 7200 })));
    assert.equal(tooLong.name, "ValidationError");
    assert.match(tooLong.message, /exceeds the MaxSessionDuration/);
    const tooShort = await rejection(sts.send(new AssumeRoleCommand({ ...base, DurationSeconds: 60 })));
    assert.equal(tooShort.name, "ValidationError");
    assert.match(tooShort.message, /durationSeconds.*greater than or equal to 900/);
    const badName = await rejection(sts.send(new AssumeRoleCommand({ ...base, RoleSessionName: "no spaces allowed" })));
    assert.equal(badName.name, "ValidationError");
    assert.equal(badName.$metadata?.httpStatusCode, 400);
  });

  it("refuses an unknown access key and a wrong secret", async () => {
    const unknown = stsClient(sandbox.endpoint, {
      accessKeyId: "AKIAUNKNOWNUNKNOWN00",
      secretAccessKey: "x".repeat(40),
    });
    const err1 = await rejection(unknown.send(new GetCallerIdentityCommand({})));
    assert.equal(err1.name, "InvalidClientTokenId");
    const wrong = stsClient(sandbox.endpoint, {
      accessKeyId: principalCredentials("backend").accessKeyId,
      secretAccessKey: "wrong-secret",
    });
    const err2 = await rejection(wrong.send(new GetCallerIdentityCommand({})));
    assert.equal(err2.name, "SignatureDoesNotMatch");
  });

  it("refuses role chaining when the session's own policy does not allow sts:AssumeRole", async () => {
    const creds = await assumeConnector(sandbox.endpoint, "backend", both.roleArn, both.externalId);
    const err = await rejection(
      stsClient(sandbox.endpoint, creds).send(
        new AssumeRoleCommand({ RoleArn: both.roleArn, RoleSessionName: "chained", ExternalId: both.externalId }),
      ),
    );
    assert.equal(err.name, "AccessDenied");
    assert.match(
      err.message,
      /^User: arn:aws:sts::\d{12}:assumed-role\/MarketplaceConnector\/test-backend is not authorized/,
    );
  });

  it("refuses a caller whose assumed credentials expired with ExpiredToken", async () => {
    const creds = await assumeConnector(sandbox.endpoint, "backend", both.roleArn, both.externalId, 900);
    const control = `${sandbox.endpoint}/_sandbox/accounts/${both.accountId}/clock`;
    await fetch(control, { method: "PUT", body: JSON.stringify({ advanceSeconds: 1000 }) });
    const err = await rejection(stsClient(sandbox.endpoint, creds).send(new GetCallerIdentityCommand({})));
    await fetch(control, { method: "PUT", body: JSON.stringify({ offsetSeconds: 0 }) });
    assert.equal(err.name, "ExpiredToken");
  });

  it("answers an unsigned call with MissingAuthenticationToken and an unknown action with InvalidAction", async () => {
    const unsigned = await fetch(sandbox.endpoint, {
      method: "POST",
      body: "Action=GetCallerIdentity&Version=2011-06-15",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(unsigned.status, 403);
    assert.match(await unsigned.text(), /<Code>MissingAuthenticationToken<\/Code>/);
    const unknown = await fetch(sandbox.endpoint, {
      method: "POST",
      body: "Action=GetSessionToken&Version=2011-06-15",
    });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /<Code>InvalidAction<\/Code>/);
  });

  it("names the caller in GetCallerIdentity, for a principal key and for assumed credentials", async () => {
    const me = await stsClient(sandbox.endpoint, principalCredentials("mcp-execution")).send(
      new GetCallerIdentityCommand({}),
    );
    assert.equal(me.Arn, mcpArn);
    const creds = await assumeConnector(sandbox.endpoint, "backend", both.roleArn, both.externalId);
    const session = await stsClient(sandbox.endpoint, creds).send(new GetCallerIdentityCommand({}));
    assert.equal(session.Account, both.accountId);
    assert.equal(session.Arn, `arn:aws:sts::${both.accountId}:assumed-role/MarketplaceConnector/test-backend`);
  });
});
