import { accessOf } from "../access.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import { ExportJob, ExportJobPath, ExportStarted } from "./exports.ts";

const { user } = accessOf("privacy-svc");

/** privacy-svc: the caller's personal-data export (decisions.md, "Export status"). */
export const privacyRoutes = [
  defineRoute({
    id: "users.me.export.create",
    method: "POST",
    path: "/v1/users/me/export",
    ...user,
    summary:
      "Start an export of your personal data (202 with Location; while one is queued or running, that one; " +
      "429 EXPORT_RATE_LIMITED within 24 hours of the last successful one)",
    problems: ["EXPORT_RATE_LIMITED"],
    responses: { 202: ExportStarted },
  }),
  defineRoute({
    id: "users.me.export.get",
    method: "GET",
    path: "/v1/users/me/export/{job_id}",
    ...user,
    summary:
      "An export job's status; while ready, a fresh short-lived download URL on every call " +
      "(410 EXPORT_EXPIRED from 7 days after the file was written)",
    params: ExportJobPath,
    problems: ["EXPORT_EXPIRED"],
    responses: { 200: ExportJob },
  }),
] as const satisfies readonly RouteSpec[];
