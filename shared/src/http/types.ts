import type { Logger } from "../log/logger.ts";

/**
 * What every service route can read from the context: `c.get("requestId")` (echoed as
 * `x-request-id`) and `c.get("logger")`, a child logger already bound to that request id.
 */
export type ServiceEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
  };
};
