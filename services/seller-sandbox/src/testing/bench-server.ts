/**
 * The sandbox as `bench/lib/servers.ts` runs bench servers: its own process, port 0, the port
 * reported over IPC, CPU time answered on request. Configuration comes from the environment like
 * main.ts (AWS_ENDPOINT_URL is required).
 */
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { answerCpuQueries } from "@flowstate/shared/testing/cpu-queries";
import { createApp } from "../app.ts";
import { SandboxConfig } from "../config.ts";
import { createSandbox } from "../sandbox.ts";

const config = parseConfig(SandboxConfig, { ...process.env, PORT: "0" });
const logger = createLogger({ service: "seller-sandbox", level: config.LOG_LEVEL });
const sandbox = createSandbox({ ...config, AWS_ENDPOINT_URL: config.AWS_ENDPOINT_URL ?? "" }, logger);
const running = await serve(createApp(sandbox.deps), {
  host: "127.0.0.1",
  port: 0,
  logger,
  onShutdown: [() => sandbox.close()],
});
answerCpuQueries();
process.send?.({ port: running.port });
