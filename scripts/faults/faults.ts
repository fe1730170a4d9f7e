import { withConnection } from "@flowstate/shared/db/with-connection";
import type { Moto } from "../../deploy/local/moto.ts";
import type { RunningStack } from "../../deploy/local/stack.ts";
import type { MailGate } from "./mail-gate.ts";

/**
 * A fault and how the system is brought back from it, without an operator: a killed service is
 * started again (as its orchestrator would); a stopped process is continued after `stallMs`.
 *
 * - `kill` a service: SIGKILL mid-flow, then a fresh process on the same port.
 * - `stop` a service, moto or PostgreSQL: SIGSTOP for `stallMs`, then SIGCONT (a stall: a GC pause,
 *   a starved container, a network partition that heals).
 * - `kill privacy-svc mid-send`: SIGKILL while a ready e-mail is in flight (its SES call held by
 *   the mail gate, so the call dies with the process and SES never gets it), then a fresh process.
 * - `kill` PostgreSQL: every connection of the system's database terminated at once (what its
 *   clients see of a server restart or failover); the server itself is shared, so it stays up.
 * - `throttle` / `error` the seller sandbox: the seller's account answers every Marketplace and STS
 *   call with AWS's throttling or internal-error shape for `stallMs` (the sandbox's fault switch).
 * moto and the sandbox are never killed: they are emulators that keep their state in memory, so a
 * restart would be a different AWS account, not a fault AWS has.
 */
export interface Fault {
  target: string;
  /** `throttle` and `error`: the seller account answers every Marketplace call so for `stallMs`. */
  kind: "kill" | "stop" | "throttle" | "error";
  /** `mail`: strike privacy-svc while one of its SES sends is in flight (`mail-gate.ts`). */
  during?: "mail";
}

export interface FaultTargets {
  stack: RunningStack;
  moto: Moto;
  /** The system's database, for PostgreSQL faults (its backends only). */
  databaseUrl: string;
  adminUrl: string;
  /** The seller account's control plane in the sandbox (`…/_sandbox/accounts/<id>`). */
  sellerControl: string;
  /** The proxy privacy-svc reaches AWS through, which can hold its SES sends. */
  mailGate: MailGate;
}

export function everyFault(stack: RunningStack): Fault[] {
  const services = stack.services.map((s) => s.name);
  return [
    ...services.filter((n) => n !== "seller-sandbox").map((target) => ({ target, kind: "kill" as const })),
    ...(services.includes("privacy-svc")
      ? [{ target: "privacy-svc", kind: "kill" as const, during: "mail" as const }]
      : []),
    ...services.map((target) => ({ target, kind: "stop" as const })),
    { target: "moto", kind: "stop" },
    { target: "seller-sandbox", kind: "throttle" },
    { target: "seller-sandbox", kind: "error" },
    { target: "postgresql", kind: "kill" },
    { target: "postgresql", kind: "stop" },
  ];
}

/**
 * Whether the fault can strike between SES accepting a ready e-mail and privacy-svc's send
 * transaction committing (the process killed, or its database connection terminated): the one window
 * in which the at-least-once send sends twice (`checks.ts`).
 */
export const strikesSendWindow = (f: Fault) =>
  f.kind === "kill" && (f.target === "privacy-svc" || f.target === "postgresql");

export const faultName = (f: Fault) => `${f.kind} ${f.target}${f.during === "mail" ? " mid-send" : ""}`;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function databaseBackends(t: FaultTargets): Promise<number[]> {
  const name = new URL(t.databaseUrl).pathname.slice(1);
  const rows = await withConnection(t.adminUrl, (em) =>
    em.execute<{ pid: number }[]>("SELECT pid FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()", [
      name,
    ]),
  );
  return rows.map((r) => r.pid);
}

/**
 * Injects the fault and returns once the system has what it needs to recover (the target is back),
 * saying what was done (so a report shows the fault was real: a PostgreSQL fault on no connection
 * would be none).
 */
export async function inject(fault: Fault, t: FaultTargets, stallMs: number): Promise<string> {
  if (fault.kind === "throttle" || fault.kind === "error") {
    const put = await fetch(`${t.sellerControl}/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults: [{ kind: fault.kind }] }),
    });
    if (!put.ok) throw new Error(`the sandbox refused the fault: ${put.status} ${await put.text()}`);
    await pause(stallMs);
    await fetch(`${t.sellerControl}/faults`, { method: "DELETE" });
    return `every seller call answered ${fault.kind === "throttle" ? "ThrottlingException" : "InternalServerException"} for ${stallMs / 1000} s`;
  }
  if (fault.target === "postgresql") {
    const pids = await databaseBackends(t);
    if (fault.kind === "kill") {
      await withConnection(t.adminUrl, (em) =>
        em.execute("SELECT pg_terminate_backend(pid) FROM unnest(?::int[]) AS pid", [`{${pids.join(",")}}`]),
      );
      return `${pids.length} connections terminated`;
    }
    signalAll(pids, "SIGSTOP");
    await pause(stallMs);
    signalAll(pids, "SIGCONT");
    return `${pids.length} connections stalled for ${stallMs / 1000} s`;
  }
  const pid =
    fault.target === "moto"
      ? t.moto.process.pid
      : t.stack.services.find((s) => s.name === fault.target)?.child.process.pid;
  if (!pid) throw new Error(`no process for ${fault.target}`);
  if (fault.kind === "stop") {
    process.kill(pid, "SIGSTOP");
    await pause(stallMs);
    process.kill(pid, "SIGCONT");
    return `pid ${pid} stopped for ${stallMs / 1000} s`;
  }
  if (fault.during === "mail") {
    // Up to a minute for an export of the looping flows to reach its ready e-mail.
    await t.mailGate.holdNext(60_000);
    process.kill(pid, "SIGKILL");
    const dropped = t.mailGate.drop();
    await pause(1_000);
    const again = await t.stack.restart(fault.target);
    return `pid ${pid} killed with ${dropped} SES send(s) in flight, pid ${again.child.process.pid} healthy`;
  }
  process.kill(pid, "SIGKILL");
  await pause(1_000);
  const again = await t.stack.restart(fault.target);
  return `pid ${pid} killed, pid ${again.child.process.pid} healthy`;
}

function signalAll(pids: number[], signal: NodeJS.Signals) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // The backend ended meanwhile.
    }
  }
}
