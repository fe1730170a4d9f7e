import type { Migration } from "@flowstate/shared/db/migrate";

/** Step 3: the service's own schema; the platform's tables (outbox, processed events) come with openDatabase. */
export const migrations: readonly Migration[] = [
  {
    name: "0001_widget",
    up: `
      CREATE TABLE widget (
        tenant_id text NOT NULL,
        id text NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
    `,
  },
];
