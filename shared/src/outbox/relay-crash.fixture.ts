/**
 * Child process for the relay crash test: runs the relay against RELAY_SCHEMA and kills itself with
 * SIGKILL right after PutEvents returned, before the rows are marked sent — the worst moment.
 */
import { createAwsClients } from "../aws/clients.ts";
import { openDatabase } from "../db/open-database.ts";
import { createLogger } from "../log/logger.ts";
import { startOutboxRelay } from "./relay.ts";

const orm = await openDatabase({
  url: process.env.DATABASE_URL as string,
  schema: process.env.RELAY_SCHEMA as string,
  entities: [],
  migrations: [],
});
startOutboxRelay({
  orm,
  eventBridge: createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("eventbridge"),
  busName: process.env.RELAY_BUS as string,
  logger: createLogger({ service: "relay-crash-fixture" }),
  afterPublish: () => {
    process.kill(process.pid, "SIGKILL");
    return new Promise(() => {});
  },
});
