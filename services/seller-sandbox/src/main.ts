import { parseConfig } from "@flowstate/shared/config/parse-config";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp } from "./app.ts";
import { SandboxConfig } from "./config.ts";
import { createSandbox } from "./sandbox.ts";

const config = parseConfig(SandboxConfig);
const logger = createLogger({ service: "seller-sandbox", level: config.LOG_LEVEL });
// The schema requires AWS_ENDPOINT_URL; the shared base declares it optional, hence the fallback.
const sandbox = createSandbox({ ...config, AWS_ENDPOINT_URL: config.AWS_ENDPOINT_URL ?? "" }, logger);
const running = await serve(createApp(sandbox.deps), {
  host: config.HOST,
  port: config.PORT,
  logger,
  onShutdown: [() => sandbox.close()],
});
logger.info({ url: running.url, iam: config.AWS_ENDPOINT_URL }, "seller sandbox reads roles from the emulator IAM");
