import { Readable } from "node:stream";
import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { personalData } from "../verbs/personal-data.ts";

/**
 * identity-svc's answer for its export categories, as NDJSON streamed from the database a page at a
 * time, closed by an end line with the count. A failure after the first line cuts the response
 * short without that line; privacy-svc treats it as a failed gathering, never as a shorter list.
 */
export function mountInternalPersonalDataGet(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.personal_data.get"), async ({ params }, c) => {
    const records = await personalData({ ctx: c.get("ctx"), sub: params.sub, category: params.category });
    const lines = Readable.from(
      (async function* () {
        let count = 0;
        for await (const record of records) {
          count++;
          yield Buffer.from(`${JSON.stringify({ record })}\n`);
        }
        yield Buffer.from(`${JSON.stringify({ end: { count } })}\n`);
      })(),
    );
    return {
      status: 200,
      stream: Readable.toWeb(lines) as ReadableStream<Uint8Array>,
      headers: { "cache-control": "no-store" },
    };
  });
}
