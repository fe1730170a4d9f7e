/** Baseline: Hono's hello world on @hono/node-server, nothing else. */
import { Hono } from "hono";
import { serveBench } from "../servers.ts";

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
serveBench(app);
