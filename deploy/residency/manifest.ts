import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  DATA_CLIENT_NAMES,
  DATA_REGION,
  MARKETPLACE_CLIENT_NAMES,
  MARKETPLACE_REGION,
  PARTNER_CLIENT_NAMES,
  PARTNER_REGION,
} from "@flowstate/shared/aws/clients";
import { defineStack } from "../local/definition.ts";
import { definePartnerIngest } from "../local/partner-definition.ts";

/**
 * Where every piece of Flowstate stores or processes data, generated from the code: the AWS
 * clients the factory can build and which services call them (found in their source), the
 * resources the stack definition creates, each service's database and log sink. The README's
 * data-residency section is rendered from it, and `residencyViolations` is the rule the
 * residency test holds the manifest to.
 */
export interface ResidencyEntry {
  kind:
    | "aws-client"
    | "event-bus"
    | "queue"
    | "rule"
    | "bucket"
    | "kms-key"
    | "secret"
    | "mail-sender"
    | "database"
    | "log-sink";
  name: string;
  region: string;
  /** Keeps data at rest (a store) rather than only carrying or processing it. */
  stores: boolean;
  /** The services that use it (for clients: found by scanning their source). */
  usedBy: string[];
}

/** The only things allowed outside eu-central-1, and why (interface.md sections 1 and 6). */
export const RESIDENCY_EXCEPTIONS: { kind: ResidencyEntry["kind"]; name: RegExp; usedBy: RegExp; why: string }[] = [
  {
    kind: "aws-client",
    name: /^(marketplace-catalog|marketplace-agreement|seller-sts)$/,
    usedBy: /./,
    why: "Marketplace Catalog and Agreement APIs and the STS call into the seller's account exist in us-east-1 only",
  },
  {
    kind: "aws-client",
    name: /^partner-(eventbridge|sqs)$/,
    usedBy: /^(partner-inbound|deploy)$/,
    why: "the partner-program inbound handler reads its us-east-1 queue and keeps its bus policies",
  },
  {
    kind: "event-bus",
    name: /-partner-\d+$/,
    usedBy: /^partner-inbound$/,
    why: "AWS Partner Central publishes in us-east-1 only; events pass through",
  },
  {
    kind: "rule",
    name: /-partner-inbound$/,
    usedBy: /^partner-inbound$/,
    why: "routes partner events into partner-inbound's queue",
  },
  {
    kind: "queue",
    name: /-partner-inbound(-dlq)?$/,
    usedBy: /^partner-inbound$/,
    why: "transit buffer, one day's retention: a message lives until its metadata is written to eu-central-1",
  },
];

const repoRoot = join(import.meta.dirname, "..", "..");
const CLIENT_CALL = /\.(data|marketplace|partner)\(\s*"([a-z0-9-]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith(".ts") && !f.name.includes(".test.") && !f.name.includes(".fixture."))
    .map((f) => join(f.parentPath, f.name))
    .filter((p) => !p.includes(`${"/"}testing${"/"}`) && !p.includes("node_modules"));
}

/** The Flowstate services (the sandbox plays the seller's account and is not one). */
function flowstateServices(): string[] {
  return readdirSync(join(repoRoot, "services"))
    .filter((s) => s !== "seller-sandbox")
    .sort();
}

/** Which client names each service's production source asks the factory for. */
export function clientUsage(): Map<string, Set<string>> {
  const usage = new Map<string, Set<string>>();
  const scan = (owner: string, dir: string) => {
    for (const file of sourceFiles(dir)) {
      for (const m of readFileSync(file, "utf8").matchAll(CLIENT_CALL)) {
        const set = usage.get(m[2]!) ?? new Set<string>();
        set.add(owner);
        usage.set(m[2]!, set);
      }
    }
  };
  for (const service of flowstateServices()) scan(service, join(repoRoot, "services", service, "src"));
  scan("deploy", join(repoRoot, "deploy", "local"));
  return usage;
}

/** Services that open a database (their main.ts calls openDatabase). */
function servicesWithDatabase(): string[] {
  return flowstateServices().filter((s) => {
    const main = join(repoRoot, "services", s, "src", "main.ts");
    try {
      return readFileSync(main, "utf8").includes("openDatabase(");
    } catch {
      return false;
    }
  });
}

/** The manifest for one prefix and stage (the README uses the defaults and a placeholder account). */
export function residencyManifest(
  s = { prefix: "flowstate", stage: "<stage>", accountId: "<account>" },
): ResidencyEntry[] {
  const usage = clientUsage();
  const used = (name: string) => [...(usage.get(name) ?? [])].sort();
  const stack = defineStack({ ...s, mailFrom: "<MAIL_FROM>" });
  const partner = definePartnerIngest(s);
  const entries: ResidencyEntry[] = [
    ...DATA_CLIENT_NAMES.map((name) => client(name, DATA_REGION, used(name))),
    ...MARKETPLACE_CLIENT_NAMES.map((name) => client(name, MARKETPLACE_REGION, used(name))),
    ...PARTNER_CLIENT_NAMES.map((name) => client(name, PARTNER_REGION, used(name))),
    { kind: "event-bus", name: stack.busName, region: DATA_REGION, stores: false, usedBy: ["every service"] },
    ...stack.queues.flatMap((q): ResidencyEntry[] => [
      { kind: "rule", name: q.ruleName, region: DATA_REGION, stores: false, usedBy: [q.service] },
      { kind: "queue", name: q.queueName, region: DATA_REGION, stores: true, usedBy: [q.service] },
      { kind: "queue", name: q.dlqName, region: DATA_REGION, stores: true, usedBy: [q.service] },
    ]),
    ...stack.buckets.map(
      (b): ResidencyEntry => ({
        kind: "bucket",
        name: b.name,
        region: DATA_REGION,
        stores: true,
        usedBy: [b.role],
      }),
    ),
    { kind: "kms-key", name: stack.keyAlias, region: DATA_REGION, stores: false, usedBy: ["buckets, secrets"] },
    ...stack.secrets.map(
      (x): ResidencyEntry => ({
        kind: "secret",
        name: x.name,
        region: DATA_REGION,
        stores: true,
        usedBy: ["gateways, services"],
      }),
    ),
    { kind: "mail-sender", name: stack.mailFrom, region: DATA_REGION, stores: false, usedBy: ["SES v2"] },
    ...partner.buses.map(
      (name): ResidencyEntry => ({
        kind: "event-bus",
        name,
        region: partner.region,
        stores: false,
        usedBy: ["partner-inbound"],
      }),
    ),
    { kind: "rule", name: partner.ruleName, region: partner.region, stores: false, usedBy: ["partner-inbound"] },
    { kind: "queue", name: partner.queueName, region: partner.region, stores: false, usedBy: ["partner-inbound"] },
    { kind: "queue", name: partner.dlqName, region: partner.region, stores: false, usedBy: ["partner-inbound"] },
    ...servicesWithDatabase().map(
      (svc): ResidencyEntry => ({
        kind: "database",
        name: `PostgreSQL schema of ${svc}`,
        region: DATA_REGION,
        stores: true,
        usedBy: [svc],
      }),
    ),
    ...flowstateServices().map(
      (svc): ResidencyEntry => ({
        kind: "log-sink",
        name: `stdout of ${svc} → CloudWatch Logs`,
        region: DATA_REGION,
        stores: true,
        usedBy: [svc],
      }),
    ),
  ];
  return entries;
}

function client(name: string, region: string, usedBy: string[]): ResidencyEntry {
  return { kind: "aws-client", name, region, stores: false, usedBy };
}

/**
 * Every entry outside eu-central-1 that no exception covers, every store outside it, and every
 * store a us-east-1 service would keep. Empty means the manifest keeps the residency promise.
 */
export function residencyViolations(manifest: readonly ResidencyEntry[]): string[] {
  const violations: string[] = [];
  for (const e of manifest) {
    if (e.region === DATA_REGION) continue;
    const label = `${e.kind} ${e.name} in ${e.region} (used by ${e.usedBy.join(", ") || "nobody"})`;
    if (e.stores) violations.push(`${label} stores data outside ${DATA_REGION}`);
    const exception = RESIDENCY_EXCEPTIONS.find((x) => x.kind === e.kind && x.name.test(e.name));
    if (!exception) violations.push(`${label} is not a listed exception`);
    else if (!e.usedBy.every((u) => exception.usedBy.test(u)))
      violations.push(`${label}: only ${exception.usedBy} may`);
  }
  const usEast = new Set(
    manifest.filter((e) => e.kind === "aws-client" && e.name.startsWith("partner-")).flatMap((e) => e.usedBy),
  );
  for (const e of manifest) {
    if (e.stores && e.region === DATA_REGION && e.kind === "database" && e.usedBy.some((u) => usEast.has(u))) {
      violations.push(`${e.usedBy.join(", ")} runs in ${PARTNER_REGION} and must not keep a database`);
    }
  }
  return violations;
}

/** The README's data-residency section, rendered from the manifest. */
export function renderResidencySection(manifest: readonly ResidencyEntry[]): string {
  const rows = manifest.map(
    (e) => `| ${e.kind} | \`${e.name}\` | ${e.region} | ${e.stores ? "yes" : "no"} | ${e.usedBy.join(", ") || "—"} |`,
  );
  const exceptions = RESIDENCY_EXCEPTIONS.map((x) => `- ${x.kind} \`${x.name.source}\`: ${x.why}.`);
  return [
    `Generated from the code by \`npm run residency\` (deploy/residency/manifest.ts); a test fails when this`,
    `section differs from the code or when anything stores or processes data outside ${DATA_REGION} other than:`,
    "",
    ...exceptions,
    "",
    "| kind | name | region | stores data | used by |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

export const README_MARKERS = ["<!-- residency:start -->", "<!-- residency:end -->"] as const;

/** The README with its residency section replaced by `section`. */
export function withResidencySection(readme: string, section: string): string {
  const [start, end] = README_MARKERS;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md lacks the ${start} … ${end} markers`);
  return `${readme.slice(0, from + start.length)}\n${section}\n${readme.slice(to)}`;
}

export const relativeToRoot = (p: string) => relative(repoRoot, p);
export { repoRoot };
