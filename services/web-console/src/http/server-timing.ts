import type { MiddlewareHandler } from "hono";
import type { ConsoleEnv } from "./env.ts";

/** One Server-Timing metric (W3C Server Timing); a description is a quoted string, its quotes and backslashes escaped. */
export const timingMetric = (name: string, ms: number, desc?: string) =>
  `${name};dur=${ms.toFixed(1)}${desc === undefined ? "" : `;desc="${desc.replace(/["\\]/g, "\\$&")}"`}`;

/**
 * What a page cost, in its Server-Timing header: each API call it made (`api`, with its method and
 * path; signed-in.ts records them) and the console's whole handling (`page`: the session, the calls,
 * the rendering), so a page's own work is `page` minus its calls. `npm run bench` reads it (page
 * server time under 2× its API calls, issue 22); a browser's devtools show it beside the request.
 * The paths are the public API's, with ids the page's URL already names.
 */
export const serverTiming = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  const started = performance.now();
  const metrics: string[] = [];
  c.set("timings", metrics);
  await next();
  c.res.headers.set("server-timing", [...metrics, timingMetric("page", performance.now() - started)].join(", "));
};
