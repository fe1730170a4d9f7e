import { randomBytes } from "node:crypto";
import { provisionServiceRoles, type ServiceRole } from "@flowstate/shared/db/service-roles";
import { dropRoles } from "@flowstate/shared/testing/drop-roles";
import { afterAll, expect, test } from "vitest";
import { adminUrlOf } from "../testing/harness.ts";
import { type AuditRoles, provisionRoles } from "./roles.ts";

/**
 * audit-svc's role provisioning and the services' run side by side in the tests and on a server
 * two stacks share. Both grant on the database, which rewrites its pg_database row, and two
 * concurrent grants fail the second with "tuple concurrently updated" unless one lock serialises
 * every provisioner (a CI run failed so when each took a lock of its own). Throwaway roles.
 */
const tag = randomBytes(4).toString("hex");
const admin = adminUrlOf();
const audit: AuditRoles = { owner: `t${tag}_audit_owner`, service: `t${tag}_audit_svc` };
const services: ServiceRole[] = [{ service: "probe-svc", schema: `t_cp${tag}_probe`, role: `t${tag}_probe` }];
const schemas = [`t_cp${tag}_audit`, services[0]!.schema];

afterAll(async () => {
  await dropRoles(admin, { schemas, roles: [audit.owner, audit.service, services[0]!.role] });
});

test("audit's roles and the services' provision concurrently without a failed grant", async () => {
  for (let round = 0; round < 8; round++) {
    const outcomes = await Promise.allSettled([
      provisionRoles(admin, audit, schemas[0]!),
      provisionServiceRoles(admin, services),
      provisionRoles(admin, audit, schemas[0]!),
      provisionServiceRoles(admin, services),
    ]);
    const failures = outcomes.flatMap((o) => (o.status === "rejected" ? [String(o.reason)] : []));
    expect(failures, `round ${round}`).toEqual([]);
  }
});
