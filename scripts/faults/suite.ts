import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { gatewayCaller } from "@flowstate/connector-svc/testing/gateway-caller";
import { sellerAccount } from "@flowstate/connector-svc/testing/seller-account";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { withConnection } from "@flowstate/shared/db/with-connection";
import { type Moto, startMoto } from "../../deploy/local/moto.ts";
import { ensureDatabase } from "../../deploy/local/postgres.ts";
import { type RunningStack, startStack } from "../../deploy/local/stack.ts";
import { isClean, mailLost, mailTwice, type Settled, settledState } from "./checks.ts";
import { faultClient, type Judged } from "./client.ts";
import { type Fault, type FaultTargets, faultName, inject, strikesSendWindow } from "./faults.ts";
import { Duplicated, type FlowName, type FlowTrace, flows, type World } from "./flows.ts";
import { type MailGate, startMailGate } from "./mail-gate.ts";

/** Per fault and flow: how many ran, and how many were lost, done twice, or got an unexplained answer. */
export interface Cell {
  runs: number;
  lost: number;
  duplicated: number;
  unexplained: number;
  /** The first few reasons, for the report. */
  why: string[];
}

export interface FaultReport {
  rows: { fault: string; cells: Record<string, Cell> }[];
  settled: Settled;
  /** Faults that could send a ready e-mail twice (`strikesSendWindow`): the second e-mails allowed. */
  sendWindowFaults: number;
  /** Every unexplained answer, with its flow and step. */
  unexplained: Judged[];
}

export interface SuiteOptions {
  root: string;
  /** The faults to inject, one round each, in order. `(stack) => Fault[]` to derive them from the stack. */
  faults: (stack: RunningStack) => Fault[];
  flows?: FlowName[];
  /** Flows run at once during a round. */
  workers?: number;
  stallMs?: number;
  /** A round runs its flows at least this long (the soak: a fault a minute). */
  roundMs?: number;
  /** Where the stack's output goes (it is long). */
  logFile: string;
  prefix?: string;
  print?: (line: string) => void;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newCell = (): Cell => ({ runs: 0, lost: 0, duplicated: 0, unexplained: 0, why: [] });

/**
 * The fault suite: the whole system as `npm start` runs it (own database, own moto), flows looping
 * through the edge gateway as clients would, and for each fault one round: flows start, the fault
 * strikes mid-flow, the system recovers by itself, the round's flows finish. Then the whole system
 * settles and the checks of `checks.ts` run.
 */
export async function runFaultSuite(o: SuiteOptions): Promise<FaultReport> {
  const print = o.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const prefix = o.prefix ?? "faults";
  if (!/^[a-z][a-z0-9_]{0,20}$/.test(prefix)) throw new Error(`prefix ${prefix}: lower-case letters, digits, _`);
  const log = createWriteStream(o.logFile);
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/flowstate_${prefix}`);
  // A database of this run's own: rows a previous run left (its stack stopped between publishing an
  // event and auditing it, with its moto and queues gone) would read as events lost in this one.
  await withConnection(adminUrl.replace(/\/[^/]*$/, "/postgres"), (em) =>
    em.execute(`DROP DATABASE IF EXISTS "flowstate_${prefix}" WITH (FORCE)`),
  );
  await ensureDatabase(databaseUrl);
  const moto: Moto = await startMoto();
  const previousEndpoint = process.env.AWS_ENDPOINT_URL;
  // sellerAccount (the seller's CloudFormation in the emulator) and the stack's bootstrap, which
  // runs in this process, read the emulator and its credentials from here.
  process.env.AWS_ENDPOINT_URL = moto.endpoint;
  process.env.AWS_ACCESS_KEY_ID ??= "testing";
  process.env.AWS_SECRET_ACCESS_KEY ??= "testing";
  let stack: RunningStack | undefined;
  let mailGate: MailGate | undefined;
  try {
    mailGate = await startMailGate(moto.endpoint);
    stack = await startStack({
      root: o.root,
      env: {
        ...process.env,
        AWS_ENDPOINT_URL: moto.endpoint,
        AWS_ACCESS_KEY_ID: "testing",
        AWS_SECRET_ACCESS_KEY: "testing",
        DATABASE_URL: databaseUrl,
        SERVICE_PREFIX: prefix,
        FLOWSTATE_FREE_PORTS: "1",
        FLOWSTATE_HEALTH_TIMEOUT_SECONDS: "240",
        LOG_LEVEL: "warn",
      },
      print: (line) => log.write(`${line}\n`),
      // privacy-svc reaches AWS through the gate, which can hold its SES sends (`kill privacy-svc mid-send`).
      serviceEnv: { "privacy-svc": { AWS_ENDPOINT_URL: mailGate.endpoint } },
    });
    const down = stack.services.filter((s) => !s.healthy).map((s) => `${s.name}: ${s.error}`);
    if (down.length) throw new Error(`services did not start:\n${down.join("\n")}`);
    const running = stack;
    const url = (name: string) => running.services.find((s) => s.name === name)!.url;
    const world = await connectedSeller(url("edge-gateway"), url("seller-sandbox"), {
      queueUrl: stack.outputs.partner.queueUrl,
      endpoint: moto.endpoint,
    });
    const targets: FaultTargets = {
      stack,
      moto,
      databaseUrl,
      adminUrl,
      sellerControl: world.seller.control,
      mailGate,
    };

    const unexplained: Judged[] = [];
    const rows: FaultReport["rows"] = [];
    const exports: FlowTrace["readyExport"][] = [];
    const names = o.flows ?? (Object.keys(flows) as FlowName[]);
    const faults = o.faults(stack);
    const sendWindowFaults = faults.filter(strikesSendWindow).length;
    for (const fault of faults) {
      const cells = Object.fromEntries(names.map((n) => [n, newCell()])) as Record<string, Cell>;
      let doorDown = false;
      /** The answers other than 2xx the round's clients got: evidence the fault was felt. */
      const felt = new Map<string, number>();
      const call = faultClient({
        base: () => url("edge-gateway"),
        doorDown: () => doorDown,
        record: (j) => {
          if (j.status === "network" || j.status >= 300) {
            const what = `${j.status}${j.code ? ` ${j.code}` : ""}`;
            felt.set(what, (felt.get(what) ?? 0) + 1);
          }
          if (j.verdict !== "unexplained") return;
          unexplained.push(j);
          const cell = cells[j.flow]!;
          cell.unexplained++;
          if (cell.why.length < 3) cell.why.push(`${j.step}: ${j.status} ${j.code ?? j.detail ?? ""}`);
        },
      });
      let open = true;
      const runOne = async (name: FlowName) => {
        const cell = cells[name]!;
        cell.runs++;
        try {
          const trace = await flows[name](call, world);
          if (trace.readyExport) exports.push(trace.readyExport);
        } catch (err) {
          if (err instanceof Duplicated) cell.duplicated++;
          else cell.lost++;
          if (cell.why.length < 3) cell.why.push((err as Error).message.slice(0, 200));
        }
      };
      const workers = Array.from({ length: o.workers ?? names.length }, async (_, w) => {
        for (let i = w; open; i++) await runOne(names[i % names.length]!);
      });
      const began = Date.now();
      await pause(1_500);
      const struck = Date.now();
      doorDown = fault.target === "edge-gateway";
      const done = await inject(fault, targets, o.stallMs ?? 10_000);
      // The door answers again once it is back (a stop) or restarted and healthy (a kill).
      doorDown = false;
      await pause(Math.max(3_000, (o.roundMs ?? 0) - (Date.now() - began)));
      open = false;
      await Promise.all(workers);
      rows.push({ fault: faultName(fault), cells });
      const recovered = ((Date.now() - struck) / 1000).toFixed(1);
      const answers = [...felt].map(([what, n]) => `${what} ×${n}`).join(", ") || "none";
      print(
        `${faultName(fault)} (${done}; back in ${recovered} s): ${summary(cells)}; answers other than 2xx: ${answers}`,
      );
    }

    // Everything committed must come out: give relays, queues and consumers time to drain.
    let settled = await settledState({ adminUrl: databaseUrl, awsEndpoint: moto.endpoint, prefix, exports: [] });
    for (let waited = 0; waited < 120_000 && !isClean(settled, sendWindowFaults); waited += 2_000) {
      await pause(2_000);
      settled = await settledState({
        adminUrl: databaseUrl,
        awsEndpoint: moto.endpoint,
        prefix,
        exports: exports.filter((e) => e !== undefined),
      });
    }
    return { rows, settled, sendWindowFaults, unexplained };
  } finally {
    await stack?.stop();
    await mailGate?.close();
    await moto.stop();
    if (previousEndpoint === undefined) delete process.env.AWS_ENDPOINT_URL;
    else process.env.AWS_ENDPOINT_URL = previousEndpoint;
    log.end();
  }
}

function summary(cells: Record<string, Cell>): string {
  return Object.entries(cells)
    .map(([n, c]) => `${n} ${c.runs} run, ${c.lost} lost, ${c.duplicated} twice, ${c.unexplained} unexplained`)
    .join("; ");
}

/** A tenant connected to a seller account of the sandbox (its CloudFormation stack in the emulator), before any fault. */
async function connectedSeller(
  gateway: string,
  sandbox: string,
  partnerQueue: { queueUrl: string; endpoint: string },
): Promise<World> {
  const caller = gatewayCaller(gateway);
  const owner = await caller.signUp();
  const tenantId = (await caller.expect("POST", "/v1/tenants", 201, { token: owner.token, body: { name: "Faults" } }))
    .json.id as string;
  await caller.expect("PUT", `/v1/tenants/${tenantId}/features`, 200, {
    token: owner.token,
    body: { marketplace_offers: true },
  });
  const seller = await sellerAccount(
    { call: caller.call, sandbox: { endpoint: sandbox } },
    {},
    {
      tenantId,
      token: owner.token,
    },
  );
  await caller.expect("POST", `/v1/tenants/${tenantId}/integrations/marketplace`, 200, {
    token: owner.token,
    body: { role_arn: seller.roleArn },
  });
  const products = (await (await fetch(seller.control)).json()) as { products: { id: string; visibility: string }[] };
  const productId = products.products.find((p) => p.visibility === "Public")!.id;
  const sqs = createAwsClients({
    endpoint: partnerQueue.endpoint,
    credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
  }).partner("partner-sqs");
  return {
    seller: { tenantId, token: owner.token, productId, control: seller.control },
    partner: {
      account: seller.accountId,
      async send(body) {
        await sqs.send(new SendMessageCommand({ QueueUrl: partnerQueue.queueUrl, MessageBody: body }));
      },
    },
  };
}

/** The report as a table: one row per fault, one column per flow (lost/twice/unexplained of runs). */
export function reportTable(r: FaultReport): string {
  const flowsSeen = Object.keys(r.rows[0]?.cells ?? {});
  const lines = [
    `| fault | ${flowsSeen.map((f) => `${f} (lost/twice/unexplained of runs)`).join(" | ")} |`,
    `|---|${flowsSeen.map(() => "---").join("|")}|`,
    ...r.rows.map(
      (row) =>
        `| ${row.fault} | ${flowsSeen
          .map((f) => {
            const c = row.cells[f]!;
            return `${c.lost}/${c.duplicated}/${c.unexplained} of ${c.runs}`;
          })
          .join(" | ")} |`,
    ),
  ];
  for (const row of r.rows)
    for (const [flow, c] of Object.entries(row.cells))
      for (const why of c.why) lines.push(`- ${row.fault}, ${flow}: ${why}`);
  const s = r.settled;
  lines.push(
    "",
    `After settling: ${s.unsent} outbox rows unsent, ${s.unaudited} events never audited, ` +
      `${Object.keys(s.queued).length ? JSON.stringify(s.queued) : "every queue and DLQ empty"}, ` +
      `${mailLost(s)} exports without a ready e-mail, ${mailTwice(s)} with more than one ` +
      `(${r.sendWindowFaults} allowed: one per fault striking the send window).`,
  );
  return lines.join("\n");
}

export const reportIsClean = (r: FaultReport) =>
  isClean(r.settled, r.sendWindowFaults) &&
  r.rows.every((row) => Object.values(row.cells).every((c) => c.lost + c.duplicated + c.unexplained === 0));

export const defaultLogFile = (dir: string) => join(dir, "faults-stack.log");
