/** The platform's app factory as a service runs it: createServiceApp + serve, logging at info to stdout. */
import { createServiceApp } from "@flowstate/shared/http/app";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { answerCpuQueries } from "@flowstate/shared/testing/cpu-queries";

const logger = createLogger({ service: "bench-app", level: "info" });
const app = createServiceApp({ name: "bench-app", logger });
const { port } = await serve(app, { host: "127.0.0.1", port: 0, logger });
process.send!({ port });
answerCpuQueries();
