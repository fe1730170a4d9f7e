import { join, relative } from "node:path";
import { type ServiceEntry, serviceCatalog } from "@flowstate/contracts/services/catalog";
import {
  DATA_CLIENT_NAMES,
  DATA_REGION,
  MARKETPLACE_CLIENT_NAMES,
  MARKETPLACE_REGION,
  PARTNER_CLIENT_NAMES,
  PARTNER_REGION,
} from "@flowstate/shared/aws/clients";
import { BOOTSTRAP_CLIENTS, defineStack } from "../local/definition.ts";
import { definePartnerIngest } from "../local/partner-definition.ts";

/**
 * Where every piece of Flowstate stores or processes data, generated from the services catalog
 * (contracts/src/services/catalog.ts) and the stack definition: the AWS clients the factory can
 * build and which services may build them, the resources the stack definition creates, each
 * service's database and log sink. The README's
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
  /** The services that use it (for clients: the services catalog's `aws` lists). */
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

/** A catalog like contracts' services catalog (tests pass fixtures with a service added). */
type Catalog = Readonly<Record<string, ServiceEntry>>;

/** The Flowstate services of a catalog (the sandbox plays the seller's account and is not one). */
const flowstateServices = (catalog: Catalog) =>
  Object.keys(catalog)
    .filter((s) => catalog[s]!.kind !== "sandbox")
    .sort();

/**
 * Which services may build each AWS client: each service's `aws` list in the services catalog (the
 * client factory refuses any other, see shared/src/aws/clients.ts), and "deploy" for the
 * bootstrap's own clients.
 */
export function clientUsage(catalog: Catalog = serviceCatalog): Map<string, Set<string>> {
  const usage = new Map<string, Set<string>>();
  const add = (name: string, user: string) => usage.set(name, (usage.get(name) ?? new Set()).add(user));
  for (const service of flowstateServices(catalog)) for (const name of catalog[service]!.aws) add(name, service);
  for (const name of BOOTSTRAP_CLIENTS) add(name, "deploy");
  return usage;
}

/** The manifest for one prefix and stage (the README uses the defaults and a placeholder account). */
export function residencyManifest(
  s = { prefix: "flowstate", stage: "<stage>", accountId: "<account>" },
  catalog: Catalog = serviceCatalog,
): ResidencyEntry[] {
  const usage = clientUsage(catalog);
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
        usedBy: [...x.readers],
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
    // A service's database lives where the service runs: a store outside eu-central-1 is a violation.
    ...flowstateServices(catalog)
      .filter((svc) => catalog[svc]!.database)
      .map(
        (svc): ResidencyEntry => ({
          kind: "database",
          name: `PostgreSQL schema of ${svc}`,
          region: catalog[svc]!.region,
          stores: true,
          usedBy: [svc],
        }),
      ),
    ...flowstateServices(catalog).map(
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
