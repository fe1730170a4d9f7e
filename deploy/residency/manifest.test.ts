import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import { describe, it } from "vitest";
import {
  README_MARKERS,
  renderResidencySection,
  repoRoot,
  residencyManifest,
  residencyViolations,
  withResidencySection,
} from "./manifest.ts";

const manifest = residencyManifest();

describe("data residency", () => {
  it("keeps every store and every processing step in eu-central-1 but the listed exceptions", () => {
    assert.deepEqual(residencyViolations(manifest), []);
  });

  it("lists what the residency rule is about: clients, buses, queues, buckets, key, secrets, mail, databases, logs", () => {
    const kinds = new Set(manifest.map((e) => e.kind));
    for (const kind of [
      "aws-client",
      "event-bus",
      "queue",
      "rule",
      "bucket",
      "kms-key",
      "secret",
      "mail-sender",
      "database",
      "log-sink",
    ]) {
      assert.ok(kinds.has(kind as never), kind);
    }
    const identityClients = manifest.filter((e) => e.kind === "aws-client" && e.usedBy.includes("identity-svc"));
    assert.ok(
      identityClients.some((e) => e.name === "secretsmanager"),
      "identity-svc's aws list in the services catalog",
    );
  });

  it("lists every service's database, audit-svc's included, and who uses the us-east-1 Marketplace clients", () => {
    const databases = manifest.filter((e) => e.kind === "database").map((e) => e.usedBy.join());
    const expected = Object.entries(serviceCatalog)
      .filter(([, entry]) => entry.database)
      .map(([name]) => name)
      .sort();
    assert.deepEqual(databases, expected);
    assert.ok(databases.includes("audit-svc"));
    for (const name of ["marketplace-catalog", "marketplace-agreement", "seller-sts"]) {
      const entry = manifest.find((e) => e.kind === "aws-client" && e.name === name);
      assert.deepEqual(entry?.usedBy, ["connector-svc", "offers-svc"], name);
    }
  });

  it("fails when a service of the catalog keeps a store outside eu-central-1", () => {
    const fixture = {
      ...serviceCatalog,
      "ledger-svc": {
        kind: "service",
        port: 8099,
        region: "us-west-2",
        database: true,
        consumes: [],
        aws: ["sqs"],
      },
    } as unknown as typeof serviceCatalog;
    const violations = residencyViolations(residencyManifest(undefined, fixture)).join("\n");
    assert.match(violations, /database PostgreSQL schema of ledger-svc in us-west-2.*stores data outside eu-central-1/);
  });

  it("fails when a bucket, a queue or a client appears in another region", () => {
    const bucket = {
      kind: "bucket",
      name: "flowstate-dev-oops",
      region: "us-west-2",
      stores: true,
      usedBy: ["x"],
    } as const;
    const queue = {
      kind: "queue",
      name: "flowstate-dev-audit-svc",
      region: "us-east-1",
      stores: true,
      usedBy: ["audit-svc"],
    } as const;
    const client = {
      kind: "aws-client",
      name: "dynamodb",
      region: "us-east-1",
      stores: false,
      usedBy: ["offers-svc"],
    } as const;
    for (const extra of [bucket, queue, client]) {
      assert.notDeepEqual(residencyViolations([...manifest, { ...extra, usedBy: [...extra.usedBy] }]), [], extra.name);
    }
  });

  it("fails when a us-east-1 client is used by a service other than the one the exception names", () => {
    const misuse = manifest.map((e) => (e.name === "partner-sqs" ? { ...e, usedBy: [...e.usedBy, "offers-svc"] } : e));
    assert.match(residencyViolations(misuse).join("\n"), /partner-sqs.*only/);
  });

  it("fails when the us-east-1 handler keeps a database", () => {
    const withDb = [
      ...manifest.map((e) => (e.name === "partner-sqs" ? { ...e, usedBy: ["partner-inbound"] } : e)),
      {
        kind: "database",
        name: "PostgreSQL schema of partner-inbound",
        region: "eu-central-1",
        stores: true,
        usedBy: ["partner-inbound"],
      },
    ] as const;
    assert.match(
      residencyViolations(withDb.map((e) => ({ ...e, usedBy: [...e.usedBy] }))).join("\n"),
      /must not keep a database/,
    );
  });

  it("matches the README's data-residency section (regenerate with `npm run residency`)", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    assert.ok(readme.includes(README_MARKERS[0]), "README.md has the residency markers");
    assert.equal(withResidencySection(readme, renderResidencySection(manifest)), readme);
  });

  it("builds every AWS client of Flowstate's code through the residency-aware factory", () => {
    const offenders: string[] = [];
    const roots = ["contracts/src", "shared/src", "services", "deploy/local", "deploy/residency"];
    const files = roots.flatMap((root) =>
      execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", root], {
        cwd: repoRoot,
        encoding: "utf8",
      })
        .split("\n")
        .filter((f) => f.endsWith(".ts")),
    );
    for (const file of files) {
      // The sandbox plays the seller's own AWS account, and tests build clients aimed at it on purpose.
      if (file.startsWith("services/seller-sandbox/") || /\.test\.ts$|\/testing\//.test(file)) continue;
      if (file === "shared/src/aws/clients.ts") continue;
      const text = readFileSync(join(repoRoot, file), "utf8");
      for (const line of text.split("\n")) {
        if (/new \w+Client\(/.test(line) && !/^\s*(\*|\/\/)/.test(line)) offenders.push(`${file}: ${line.trim()}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
