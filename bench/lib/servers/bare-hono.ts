/** Baseline: Hono's hello world on @hono/node-server, nothing else. */
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { answerCpuQueries } from "../servers.ts";

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
const server = createAdaptorServer({ fetch: app.fetch });
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send!({ port: typeof address === "object" && address ? address.port : 0 });
  answerCpuQueries();
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
