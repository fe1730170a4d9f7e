import type { Diagnosis } from "@flowstate/contracts/rest/connector/diagnosis";
import { html } from "hono/html";
import { ONBOARDING_PATHS, type OnboardingPath } from "../routes/marketplace-paths.ts";
import type { Fragment } from "./layout.ts";

/**
 * What is wrong with the role and how to fix it, for the path the seller used first (the other
 * two follow in a disclosure: a seller may have mixed them).
 */
export function diagnosisList(diagnosis: readonly Diagnosis[], path: OnboardingPath): Fragment | string {
  if (!diagnosis.length) return "";
  const others = (Object.keys(ONBOARDING_PATHS) as OnboardingPath[]).filter((p) => p !== path);
  return html`<ul class="diagnosis">${diagnosis.map(
    (d) => html`<li>
  <p><strong>${d.severity === "error" ? "Problem" : "Warning"}${d.certainty === "possible" ? " (possible cause)" : ""}:</strong> ${d.summary} <span class="meta">${d.code}</span></p>
  <p>Fix, ${ONBOARDING_PATHS[path]}: ${d.fixes[path]}</p>
  <details><summary>The fix on the other paths</summary>
    <ul>${others.map((p) => html`<li>${ONBOARDING_PATHS[p]}: ${d.fixes[p]}</li>`)}</ul>
  </details>
</li>`,
  )}</ul>`;
}
