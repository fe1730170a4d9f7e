/** Logs a debug and an info line with the environment it was started with (logger.test.ts). */
import { createLogger } from "../logger.ts";

const logger = createLogger({ service: "tee-test", level: "info" });
logger.debug("first");
logger.info({ api_key: "never-printed-key-value" }, "second");
