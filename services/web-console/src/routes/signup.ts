import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { anonymousCsrf, requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp } from "../http/env.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";

const form = (csrf: string, values: { name?: string; email?: string }, problem?: ApiProblem) => {
  const error = (field: string) =>
    problem?.fields[field] ? html`<p class="field-error" id="${field}-error">${problem.fields[field]}</p>` : "";
  const described = (field: string) =>
    problem?.fields[field] ? html` aria-describedby="${field}-error" aria-invalid="true"` : "";
  return html`${problemBox(problem)}
<form method="post" action="/app/signup" class="stack">
  ${csrfField(csrf)}
  <label for="name">Your name</label>${error("name")}
  <input id="name" name="name" autocomplete="name" required maxlength="100" value="${values.name ?? ""}"${described("name")}>
  <label for="email">E-mail address</label>${error("email")}
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${values.email ?? ""}"${described("email")}>
  <label for="password">Password</label>
  <p class="hint" id="password-hint">At least 10 characters.</p>${error("password")}
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="256" aria-describedby="password-hint">
  <button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="/app/signin">Sign in</a></p>`;
};

/** Sign-up (POST /v1/auth/signup), then the sign-in page: an account is made here, a session only by signing in. */
export function mountSignup(app: ConsoleApp): void {
  app.get("/app/signup", anonymousCsrf(), (c) =>
    c.html(layout({ title: "Create your account", body: form(c.get("csrf"), {}) })),
  );
  app.post("/app/signup", anonymousCsrf(), requireCsrf(), async (c) => {
    const body = await c.req.parseBody();
    const values = {
      name: String(body.name ?? ""),
      email: String(body.email ?? ""),
      password: String(body.password ?? ""),
    };
    const answer = await c.get("deps").api({
      method: "POST",
      path: "/v1/auth/signup",
      body: values,
      requestId: c.get("requestId"),
    });
    if (!answer.ok)
      return c.html(
        layout({ title: "Create your account", body: form(c.get("csrf"), values, answer.problem) }),
        answer.problem.status >= 500 ? 503 : 400,
      );
    return c.redirect("/app/signin", 303);
  });
}
