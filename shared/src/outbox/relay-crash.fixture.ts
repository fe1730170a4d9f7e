/**
 * Child process for the relay crash test: runs the relay against RELAY_SCHEMA and kills itself with
 * SIGKILL right after PutEvents returned, before the rows are marked sent — the worst moment.
 */
import { pino } from "pino";
import { createAwsClients } from "../aws/clients.ts";
import { openDatabase } from "../db/open-database.ts";
import { startOutboxRelay } from "./relay.ts";

const orm = await openDatabase({ url: process.env.DATABASE_URL as string, schema: process.env.RELAY_SCHEMA as string, entities: [], migrations: [] });
startOutboxRelay({
  orm,
  eventBridge: createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("eventbridge"),
  busName: process.env.RELAY_BUS as string,
  logger: pino({ level: "silent" }),
  afterPublish: () => {
    process.kill(process.pid, "SIGKILL");
    return new Promise(() => {});
  },
});
