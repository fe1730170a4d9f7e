import { createHash } from "node:crypto";

/** HTML-escapes text for element content and quoted attribute values. */
export const esc = (value: string): string =>
  value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** The pages' only styles; allowed by hash in the CSP, so no inline style can be injected. */
const CSS = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
body{margin:0;background:Canvas;color:CanvasText}
main{max-width:28rem;margin:3rem auto;padding:0 1.25rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
p,dl,fieldset{margin:0 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],select{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid GrayText;border-radius:.375rem;background:Field;color:FieldText}
fieldset{border:1px solid GrayText;border-radius:.375rem;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
ul{margin:.25rem 0;padding-left:1.25rem}
dt{font-weight:600}dd{margin:0 0 .5rem}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.375rem;border:1px solid #0b4f9c;cursor:pointer}
button.primary{background:#0b57d0;color:#fff}button.secondary{background:Canvas;color:CanvasText}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error{border-left:4px solid #b3261e;padding:.5rem .75rem;background:color-mix(in srgb,#b3261e 12%,Canvas)}
.note{font-size:.9rem;color:GrayText}
code{overflow-wrap:anywhere}
`;
const CSS_HASH = `'sha256-${createHash("sha256").update(CSS).digest("base64")}'`;

/**
 * The headers every authorization page carries: never framed (clickjacking a consent button is the
 * classic attack; `frame-ancestors 'none'` plus X-Frame-Options for old browsers), no script at all,
 * styles only by hash, forms only to this origin and, on the consent page, to the client's
 * redirect origin (a form's redirect target is subject to form-action), never cached, no referrer to other sites.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(" ");
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src ${CSS_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    // Not no-referrer: under it Chromium sends `Origin: null` on the page's own form posts.
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
  };
}

/** A whole page: language, viewport, one `<main>` landmark, the title repeated as the `<h1>`. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Flowstate</title><style>${CSS}</style></head>
<body><main>
<h1>${esc(title)}</h1>
${body}
</main></body>
</html>`;
}

/** An error notice that screen readers announce, referenced by the fields it concerns. */
export const errorNotice = (id: string, message: string | undefined) =>
  message ? `<p class="error" id="${id}" role="alert">${esc(message)}</p>` : "";
