import { SessionId } from "@flowstate/contracts/ids";
import { parseParams, parseQuery } from "@flowstate/shared/http/validate";
import { z } from "zod";
import type { IdentityApp } from "../http/env.ts";
import { sessionState } from "../verbs/session-state.ts";

const Params = z.object({ sid: SessionId });
const Query = z.object({ iat: z.coerce.number().int().nonnegative().optional() });

export function registerInternalSession(app: IdentityApp): void {
  app.get("/internal/v1/sessions/:sid", async (c) => {
    const { sid } = parseParams(c, Params);
    const { iat } = parseQuery(c, Query);
    return c.json(await sessionState({ ctx: c.get("ctx"), sid, iat }), 200);
  });
}
