import type { Migration } from "@flowstate/shared/db/migrate";
import type { EntityManager } from "@mikro-orm/postgresql";

/** The date from which audit rows identify people by `sub` only (interface.md 2.5, 9). */
export const SUB_ONLY_SINCE = "2026-09-25T00:00:00Z";

/** A `sub` as contracts/src/ids.ts defines it; the columns that hold one refuse anything else (an e-mail, a name). */
const SUB_PATTERN = "^usr_[0-9A-Za-z]{10,40}$";

/**
 * The tables, in SQL the owner runs with `search_path` set to the schema (shared/src/db/migrate.ts).
 *
 * - `audit_event`: one row per domain event, keyed by the event id (the consumer's idempotency
 *   record itself: no `processed_event` row is written).
 * - `audit_event_legacy`: the distinct shape of rows from before 2026-09-25 that name people by
 *   plaintext e-mail; only the owner's import writes it (the service's role has SELECT only).
 * - `audit_row_id`: one sequence for both, so an archive batch's id range means one thing.
 * - `audit_archive_batch`: what the archive wrote and S3 confirmed (src/archive/), one row per
 *   object. A row is archived when a batch's range covers its id: rows are never updated.
 * - `audit_retention_policy`: the shortest live retention the owner allows the service to apply.
 */
const tables = `
  CREATE SEQUENCE audit_row_id AS bigint;

  CREATE TABLE audit_event (
    id bigint PRIMARY KEY DEFAULT nextval('audit_row_id'),
    event_id text NOT NULL UNIQUE,
    event_type text NOT NULL CHECK (event_type ~ '^[A-Z][A-Za-z]+$'),
    event_version integer NOT NULL CHECK (event_version > 0),
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    -- The envelope's source, flowstate.<service>.
    source text NOT NULL CHECK (source ~ '^flowstate\\.[a-z-]+$'),
    tenant_id text CHECK (tenant_id ~ '^tnt_[0-9A-Za-z]{10,40}$'),
    actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'api_key', 'system', 'anonymous')),
    actor_sub text CHECK (actor_sub ~ '${SUB_PATTERN}'),
    actor_key_id text CHECK (actor_key_id ~ '^key_[0-9A-Za-z]{10,40}$'),
    actor_service text CHECK (actor_service ~ '^[a-z][a-z0-9-]{1,40}$'),
    target_sub text CHECK (target_sub ~ '${SUB_PATTERN}'),
    request_id text CHECK (request_id ~ '^[A-Za-z0-9._:-]{8,128}$'),
    -- The allow-listed fields of the event's data (src/summary/allow-list.ts); NULL when none.
    summary jsonb CHECK (summary IS NULL OR jsonb_typeof(summary) = 'object'),
    CHECK ((actor_kind IN ('user', 'api_key')) = (actor_sub IS NOT NULL)),
    CHECK ((actor_kind = 'api_key') = (actor_key_id IS NOT NULL)),
    CHECK ((actor_kind = 'system') = (actor_service IS NOT NULL))
  );
  -- The read API's orders: a tenant's events, newest first (optionally by type or actor), and a
  -- user's events as target.
  CREATE INDEX audit_event_tenant ON audit_event (tenant_id, occurred_at DESC, id DESC) WHERE tenant_id IS NOT NULL;
  CREATE INDEX audit_event_tenant_actor ON audit_event (tenant_id, actor_sub, occurred_at DESC, id DESC)
    WHERE tenant_id IS NOT NULL AND actor_sub IS NOT NULL;
  CREATE INDEX audit_event_target ON audit_event (target_sub, occurred_at DESC, id DESC) WHERE target_sub IS NOT NULL;
  CREATE INDEX audit_event_occurred ON audit_event (occurred_at);

  -- Rows from before ${SUB_ONLY_SINCE} as the old audit log wrote them: people by plaintext e-mail.
  CREATE TABLE audit_event_legacy (
    id bigint PRIMARY KEY DEFAULT nextval('audit_row_id'),
    -- Marks the shape explicitly, in every row and every archive line made from it.
    shape text NOT NULL DEFAULT 'legacy_email' CHECK (shape = 'legacy_email'),
    -- The old log's own id: the import's idempotency key.
    legacy_id text NOT NULL UNIQUE CHECK (legacy_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
    event_type text NOT NULL CHECK (event_type ~ '^[A-Za-z][A-Za-z0-9_.]{0,80}$'),
    occurred_at timestamptz NOT NULL CHECK (occurred_at < '${SUB_ONLY_SINCE}'),
    imported_at timestamptz NOT NULL DEFAULT now(),
    tenant_id text CHECK (tenant_id ~ '^tnt_[0-9A-Za-z]{10,40}$'),
    actor_email text CHECK (actor_email ~ '^[^@\\s]+@[^@\\s]+$'),
    target_email text CHECK (target_email ~ '^[^@\\s]+@[^@\\s]+$'),
    actor_sub text CHECK (actor_sub ~ '${SUB_PATTERN}'),
    target_sub text CHECK (target_sub ~ '${SUB_PATTERN}')
  );
  CREATE INDEX audit_event_legacy_occurred ON audit_event_legacy (occurred_at);

  CREATE TABLE audit_archive_batch (
    -- 1, 2, 3…: the order of the hash chain.
    seq bigint PRIMARY KEY CHECK (seq > 0),
    object_key text NOT NULL UNIQUE,
    -- Every row of either table whose id lies in [first_row_id, last_row_id] is in the object.
    first_row_id bigint NOT NULL,
    last_row_id bigint NOT NULL,
    row_count integer NOT NULL CHECK (row_count >= 0),
    content_sha256 text NOT NULL CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
    manifest_sha256 text CHECK (manifest_sha256 ~ '^[0-9a-f]{64}$'),
    previous_sha256 text CHECK (previous_sha256 ~ '^[0-9a-f]{64}$'),
    -- Written only after S3 confirmed the object.
    archived_at timestamptz NOT NULL DEFAULT now(),
    CHECK (first_row_id <= last_row_id),
    -- No row is archived twice.
    EXCLUDE USING gist (int8range(first_row_id, last_row_id, '[]') WITH &&)
  );

  CREATE TABLE audit_retention_policy (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    min_live_window interval NOT NULL DEFAULT '400 days'
  );
  INSERT INTO audit_retention_policy DEFAULT VALUES;
`;

/**
 * Functions and triggers; they name the schema in their `search_path` (a SECURITY DEFINER
 * function must not resolve names through the caller's), so the migration reads it first.
 */
const guards = (schema: string) => `
  -- Insert-only for everyone, the owner and superusers included (a mistake is caught; a superuser
  -- can still drop the trigger on purpose). The one exception is a DELETE inside
  -- audit_delete_archived() of a row that an archive batch covers and that is older than the
  -- owner's minimum window: the trigger checks both itself, so even that flag cannot delete a
  -- row that is not archived.
  CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql
    SET search_path = "${schema}", pg_temp AS $$
  BEGIN
    -- Nested: OLD has no id on every table (nor at all for TRUNCATE), and one expression would
    -- resolve OLD.id regardless of the conditions before it.
    IF TG_OP = 'DELETE'
       AND TG_TABLE_NAME IN ('audit_event', 'audit_event_legacy')
       AND current_setting('flowstate.audit_retention', true) = 'on' THEN
      IF EXISTS (SELECT 1 FROM audit_archive_batch b
                 WHERE int8range(b.first_row_id, b.last_row_id, '[]') @> OLD.id)
         AND OLD.occurred_at < now() - (SELECT min_live_window FROM audit_retention_policy) THEN
        RETURN OLD;
      END IF;
    END IF;
    RAISE EXCEPTION '% on %.% refused: audit records are insert-only', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
      USING ERRCODE = 'insufficient_privilege';
  END $$;

  CREATE TRIGGER audit_event_insert_only BEFORE UPDATE OR DELETE ON audit_event
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
  CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
  CREATE TRIGGER audit_event_legacy_insert_only BEFORE UPDATE OR DELETE ON audit_event_legacy
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
  CREATE TRIGGER audit_event_legacy_no_truncate BEFORE TRUNCATE ON audit_event_legacy
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
  CREATE TRIGGER audit_archive_batch_insert_only BEFORE UPDATE OR DELETE ON audit_archive_batch
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
  CREATE TRIGGER audit_archive_batch_no_truncate BEFORE TRUNCATE ON audit_archive_batch
    FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();

  -- Every writer of audit rows holds this lock (shared) while it takes an id and commits, so the
  -- archive's horizon (below) never passes a row still in flight. Two keys: the purpose, the schema.
  CREATE FUNCTION audit_row_lock_key() RETURNS integer[] LANGUAGE sql IMMUTABLE AS $$
    SELECT ARRAY[hashtext('flowstate.audit.rows'), hashtext('${schema}')]
  $$;

  -- The highest row id below which every row is committed (or rolled back) for good. Ids are taken
  -- in order but committed out of order, and ON CONFLICT DO NOTHING burns ids, so "the next id after
  -- the last batch" is not safe; this is. Call it in a short transaction of its own (it holds the
  -- exclusive lock, pausing writers, until that transaction ends), then archive ids <= the answer.
  CREATE FUNCTION audit_archive_horizon() RETURNS bigint LANGUAGE plpgsql VOLATILE
    SET search_path = "${schema}", pg_temp AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock((audit_row_lock_key())[1], (audit_row_lock_key())[2]);
    RETURN GREATEST(
      COALESCE((SELECT max(id) FROM audit_event), 0),
      COALESCE((SELECT max(id) FROM audit_event_legacy), 0));
  END $$;

  -- Live retention: deletes at most p_limit rows (both tables) older than p_window whose ids an
  -- archive batch covers. Runs as the owner (SECURITY DEFINER): the service's role has no DELETE.
  -- p_window may not be shorter than the owner's audit_retention_policy.min_live_window.
  CREATE FUNCTION audit_delete_archived(p_window interval, p_limit integer) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = "${schema}", pg_temp AS $$
  DECLARE
    floor_window interval := (SELECT min_live_window FROM audit_retention_policy);
    cutoff timestamptz := now() - p_window;
    n bigint;
    m bigint;
  BEGIN
    IF p_window < floor_window THEN
      RAISE EXCEPTION 'retention window % is shorter than the owner''s minimum %', p_window, floor_window
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM set_config('flowstate.audit_retention', 'on', true);
    DELETE FROM audit_event WHERE id IN (
      SELECT e.id FROM audit_event e
      WHERE e.occurred_at < cutoff
        AND EXISTS (SELECT 1 FROM audit_archive_batch b WHERE int8range(b.first_row_id, b.last_row_id, '[]') @> e.id)
      ORDER BY e.id LIMIT p_limit);
    GET DIAGNOSTICS n = ROW_COUNT;
    DELETE FROM audit_event_legacy WHERE id IN (
      SELECT e.id FROM audit_event_legacy e
      WHERE e.occurred_at < cutoff
        AND EXISTS (SELECT 1 FROM audit_archive_batch b WHERE int8range(b.first_row_id, b.last_row_id, '[]') @> e.id)
      ORDER BY e.id LIMIT greatest(p_limit - n, 0));
    GET DIAGNOSTICS m = ROW_COUNT;
    PERFORM set_config('flowstate.audit_retention', '', true);
    RETURN n + m;
  END $$;
  -- Functions are executable by PUBLIC by default; this one only by whom the owner grants it to.
  REVOKE EXECUTE ON FUNCTION audit_delete_archived(interval, integer) FROM PUBLIC;
`;

/**
 * audit's schema. Unqualified names: the runner sets search_path to the service schema. Never edit
 * a shipped migration; append a new one (the archive's own additions included, named `01xx_…`).
 */
export const migrations: readonly Migration[] = [
  { name: "0001_audit_tables", up: tables },
  {
    name: "0002_audit_guards",
    up: async (em: EntityManager) => {
      const [row] = await em.execute<{ schema: string }[]>("SELECT current_schema() AS schema");
      await em.execute(guards(row!.schema));
    },
  },
];

/**
 * What the service's role may do, granted by the owner after every migration run (idempotent):
 * read and append audit rows and archive batches, read the legacy rows and the policy, run the two
 * functions, and the platform's bookkeeping tables. Never UPDATE, DELETE or TRUNCATE an audit table.
 */
export const serviceGrants = (schema: string, role: string): string => {
  const r = `"${role}"`;
  const s = `"${schema}"`;
  return `
    GRANT USAGE ON SCHEMA ${s} TO ${r};
    GRANT SELECT, INSERT ON ${s}.audit_event, ${s}.audit_archive_batch TO ${r};
    GRANT SELECT ON ${s}.audit_event_legacy, ${s}.audit_retention_policy, ${s}.schema_migration TO ${r};
    GRANT USAGE ON SEQUENCE ${s}.audit_row_id TO ${r};
    GRANT EXECUTE ON FUNCTION ${s}.audit_delete_archived(interval, integer), ${s}.audit_archive_horizon(),
      ${s}.audit_row_lock_key() TO ${r};
    -- The platform's tables: the consumer prunes processed_event (unused here but pruned all the
    -- same); nothing publishes from this schema's outbox.
    GRANT SELECT, INSERT, DELETE ON ${s}.processed_event TO ${r};
    GRANT SELECT ON ${s}.outbox_event TO ${r};
  `;
};
