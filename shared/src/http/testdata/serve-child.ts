/** A real service process for serve.test.ts: a slow route, a shutdown hook, signal handling. */
import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "../../log/logger.ts";
import { createServiceApp } from "../app.ts";
import { serve } from "../serve.ts";

const logger = createLogger({ service: "serve-child" });
const app = createServiceApp({ name: "serve-child", logger });
app.get("/slow", async (c) => {
  c.get("logger").info("slow request started");
  await sleep(Number(c.req.query("ms") ?? 600));
  return c.json({ finished: true });
});
await serve(app, {
  host: "127.0.0.1",
  port: 0,
  logger,
  drainTimeoutMs: Number(process.env.DRAIN_TIMEOUT_MS ?? 5000),
  onShutdown: [
    async () => {
      await sleep(20);
      logger.info("hook ran");
    },
  ],
});
