import type { NotificationPreferences, Profile } from "@flowstate/contracts/rest/identity/users";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import { flashOf } from "./tenant-context.ts";

const LABELS: Record<keyof NotificationPreferences, string> = {
  export_ready: "When a personal data export I asked for is ready",
  security_alerts: "Security alerts: a new sign-in, an API key created, an ownership transfer",
  offer_change_results: "When an offer change succeeds or fails",
  product_updates: "Occasional product news",
};

async function page(c: ConsoleContext, problem?: ApiProblem) {
  const api = c.get("api");
  const [me, prefs] = await Promise.all([
    api<Profile>({ method: "GET", path: "/v1/users/me" }),
    api<NotificationPreferences>({ method: "GET", path: "/v1/users/me/notification-preferences" }),
  ]);
  if (!me.ok) return renderProblem(c, me.problem, { csrf: c.get("csrf") });
  if (!prefs.ok) return renderProblem(c, prefs.problem, { csrf: c.get("csrf") });
  return c.html(
    layout({
      title: "Profile and notifications",
      signedIn: { csrf: c.get("csrf") },
      flash: flashOf(c, { profile: "Your name was saved.", notifications: "Your notification choices were saved." }),
      body: html`${problemBox(problem)}
<h2 id="profile">Profile</h2>
<form method="post" action="/app/account/profile" class="stack">${csrfField(c.get("csrf"))}
  <label for="profile-name">Your name</label>
  <input id="profile-name" name="name" required maxlength="100" autocomplete="name" value="${me.body.name}">
  <button type="submit">Save name</button>
</form>
<h2 id="notifications">E-mail notifications</h2>
<form method="post" action="/app/account/notifications" class="stack">${csrfField(c.get("csrf"))}
  <fieldset><legend>E-mail me</legend>
  ${(Object.keys(LABELS) as (keyof NotificationPreferences)[]).map(
    (k) =>
      html`<div class="choice"><input type="checkbox" id="pref-${k}" name="${k}" value="on"${prefs.body[k] ? " checked" : ""}><label for="pref-${k}">${LABELS[k]}</label></div>`,
  )}
  </fieldset>
  <button type="submit">Save notification choices</button>
</form>`,
    }),
    problem ? 400 : 200,
  );
}

/** Account → profile (PATCH /v1/users/me) and notification preferences (PUT …/notification-preferences). */
export function mountAccountPreferences(app: ConsoleApp): void {
  app.get("/app/account/preferences", signedIn(), (c) => page(c));
  app.post("/app/account/profile", signedIn(), requireCsrf(), async (c) => {
    const name = String((await c.req.parseBody()).name ?? "");
    const answer = await c.get("api")({ method: "PATCH", path: "/v1/users/me", body: { name } });
    return answer.ok ? c.redirect("/app/account/preferences?done=profile", 303) : page(c, answer.problem);
  });
  app.post("/app/account/notifications", signedIn(), requireCsrf(), async (c) => {
    const form = await c.req.parseBody();
    // An unchecked box is absent from the post: every known key is sent, on or off.
    const body = Object.fromEntries(Object.keys(LABELS).map((k) => [k, form[k] === "on"]));
    const answer = await c.get("api")({ method: "PUT", path: "/v1/users/me/notification-preferences", body });
    return answer.ok ? c.redirect("/app/account/preferences?done=notifications", 303) : page(c, answer.problem);
  });
}
