import { html } from "hono/html";

const SECTIONS = [
  { key: "features", label: "Features", path: "/settings/features" },
  { key: "name", label: "Name", path: "/settings/name" },
] as const;

/** The tabs of a tenant's Settings (the main navigation's "Settings" opens Features); the current one is marked for screen readers. */
export function settingsNav(tenantId: string, current: (typeof SECTIONS)[number]["key"]) {
  return html`<nav aria-label="Settings" class="subnav"><ul class="subnav-list">${SECTIONS.map((s) =>
    s.key === current
      ? html`<li><a href="/app/t/${tenantId}${s.path}" aria-current="page">${s.label}</a></li>`
      : html`<li><a href="/app/t/${tenantId}${s.path}">${s.label}</a></li>`,
  )}</ul></nav>`;
}
