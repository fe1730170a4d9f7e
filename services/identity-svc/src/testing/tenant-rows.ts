import type { Database } from "@flowstate/shared/db/open-database";

/**
 * Rows for the grouped tenant reads, written straight into a schema (no verbs, no events): `tenants`
 * tenants `t1…tN`, each with an owner, an admin and two members (`u0…`, four per tenant in that
 * order; every fourth account deleted), flags `a` and `b`, and two read keys (`k<n>1`, `k<n>2`, the
 * second newer); tenant N is deleted. The shape of the gateway bench's world (bench/40-gateway), for
 * the reads' test (src/db/tenant-reads.test.ts) and their bench (bench/45-tenant-lists.bench.ts).
 */
export async function seedTenantRows(orm: Database, schema: string, tenants: number): Promise<void> {
  const s = `"${schema}"`;
  await orm.em.fork().execute(`
    INSERT INTO ${s}.app_user (sub, email, email_key, name, password_hash, status, created_at)
      SELECT 'u' || n, CASE WHEN n % 4 = 3 THEN NULL ELSE 'u' || n || '@example.com' END,
             CASE WHEN n % 4 = 3 THEN NULL ELSE 'u' || n || '@example.com' END, 'User ' || n,
             CASE WHEN n % 4 = 3 THEN NULL ELSE 'x' END, CASE WHEN n % 4 = 3 THEN 'deleted' ELSE 'active' END,
             now() + n * interval '1 second'
        FROM generate_series(0, ${tenants * 4 - 1}) n;
    INSERT INTO ${s}.tenant (id, name, status, created_at)
      SELECT 't' || n, 'Tenant ' || n, CASE WHEN n = ${tenants} THEN 'deleted' ELSE 'active' END, now()
        FROM generate_series(1, ${tenants}) n;
    INSERT INTO ${s}.membership (tenant_id, sub, role, created_at)
      SELECT 't' || (n / 4 + 1), 'u' || n, (ARRAY['owner', 'admin', 'member', 'member'])[n % 4 + 1],
             now() + n * interval '1 second'
        FROM generate_series(0, ${tenants * 4 - 1}) n;
    INSERT INTO ${s}.feature_flag (tenant_id, flag, enabled, updated_at, updated_by)
      SELECT 't' || n, f, n % 2 = 0, now(), 'u0' FROM generate_series(1, ${tenants}) n, unnest(ARRAY['a', 'b']) f;
    INSERT INTO ${s}.api_key (key_id, tenant_id, name, scope, secret_hash, created_by, created_at)
      SELECT 'k' || n || k, 't' || n, 'Key ' || k, 'read', 'x', 'u' || ((n - 1) * 4), now() + k * interval '1 second'
        FROM generate_series(1, ${tenants}) n, generate_series(1, 2) k;
    ANALYZE ${s}.app_user, ${s}.tenant, ${s}.membership, ${s}.feature_flag, ${s}.api_key;`);
}
