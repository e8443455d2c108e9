import { html, raw, type Html } from './html.ts';
import type { OutboxMessage } from './mail.ts';

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#1a1b1e;--muted:#5c5f66;--border:#ced4da;--accent:#1c64d9;--accent-text:#fff;--error:#c92a2a;--error-bg:#fff5f5;--ok-bg:#ebfbee;--ok:#2b8a3e}
@media (prefers-color-scheme:dark){:root{--bg:#1a1b1e;--card:#25262b;--text:#e9ecef;--muted:#a6a7ab;--border:#4a4d55;--accent:#4d8ff0;--accent-text:#0b1220;--error:#ff8787;--error-bg:#3b1d1d;--ok-bg:#1d3b24;--ok:#8ce99a}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
main{max-width:26rem;margin:3rem auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--border);border-radius:12px;padding:1.75rem}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.1rem;margin-bottom:1.25rem}
.brand svg{color:var(--accent)}
h1{font-size:1.4rem;margin:0 0 .25rem}p{margin:.5rem 0}.muted{color:var(--muted);font-size:.9rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid var(--border);border-radius:8px;background:var(--card);color:var(--text)}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
input[aria-invalid=true]{border-color:var(--error)}
.hint{color:var(--muted);font-size:.85rem;margin-top:.25rem}.field-error{color:var(--error);font-size:.85rem;margin-top:.25rem}
button{width:100%;margin-top:1.5rem;font:inherit;font-weight:600;padding:.65rem;border:0;border-radius:8px;background:var(--accent);color:var(--accent-text);cursor:pointer}
a{color:var(--accent)}.links{display:flex;justify-content:space-between;flex-wrap:wrap;gap:.5rem;margin-top:1.25rem;font-size:.95rem}
.alert{border-radius:8px;padding:.75rem 1rem;margin:1rem 0;background:var(--error-bg);color:var(--error)}
.alert ul{margin:.25rem 0 0;padding-left:1.2rem}.ok{background:var(--ok-bg);color:var(--ok)}
.mail{border-top:1px solid var(--border);padding:1rem 0}.mail pre{white-space:pre-wrap;word-break:break-word;font:inherit}
`;

const LOGO = html`<svg aria-hidden="true" width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/><path d="M3 11h18"/></svg>`;

export function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Cabinet</title><style>${raw(STYLE)}</style></head>
<body><main><div class="card"><div class="brand">${LOGO}<span>Cabinet</span></div>${body}</div></main></body></html>`.value;
}

export interface FieldState {
  value?: string;
  error?: string;
}

function field(opts: {
  id: string;
  label: string;
  type: string;
  autocomplete: string;
  state?: FieldState | undefined;
  hint?: string | undefined;
  autofocus?: boolean;
  required?: boolean;
}): Html {
  const describedBy = [opts.hint ? `${opts.id}-hint` : '', opts.state?.error ? `${opts.id}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${opts.id}">${opts.label}</label>
<input id="${opts.id}" name="${opts.id}" type="${opts.type}" autocomplete="${opts.autocomplete}"
 ${opts.required !== false ? html`required` : ''} ${opts.autofocus ? html`autofocus` : ''}
 ${opts.type !== 'password' && opts.state?.value ? html`value="${opts.state.value}"` : ''}
 ${opts.state?.error ? html`aria-invalid="true"` : ''} ${describedBy ? html`aria-describedby="${describedBy}"` : ''}>
${opts.hint ? html`<div class="hint" id="${opts.id}-hint">${opts.hint}</div>` : ''}
${opts.state?.error ? html`<div class="field-error" id="${opts.id}-error">${opts.state.error}</div>` : ''}`;
}

function alert(messages: string[] | undefined, kind: 'error' | 'ok' = 'error'): Html | '' {
  if (!messages?.length) return '';
  const role = kind === 'error' ? 'alert' : 'status';
  return messages.length === 1
    ? html`<div class="alert ${kind === 'ok' ? 'ok' : ''}" role="${role}">${messages[0]}</div>`
    : html`<div class="alert" role="${role}">Please fix the following:<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul></div>`;
}

export function signInPage(o: { action: string; signUpUrl: string; forgotUrl: string; email?: string; errors?: string[]; notice?: string }) {
  return page(
    'Sign in',
    html`<h1>Sign in</h1><p class="muted">Use your Cabinet account.</p>
${alert(o.errors)}${o.notice ? alert([o.notice], 'ok') : ''}
<form method="post" action="${o.action}" novalidate>
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', state: { value: o.email ?? '' }, autofocus: !o.email })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: !!o.email })}
<button type="submit">Sign in</button></form>
<div class="links"><a href="${o.forgotUrl}">Forgot password?</a><a href="${o.signUpUrl}">Create an account</a></div>`,
  );
}

export function signUpPage(o: {
  action: string;
  signInUrl: string;
  passwordHint: string;
  fields?: { name?: FieldState; email?: FieldState; password?: FieldState };
  errors?: string[];
}) {
  return page(
    'Create an account',
    html`<h1>Create an account</h1><p class="muted">Your workspace is ready as soon as you sign up.</p>
${alert(o.errors)}
<form method="post" action="${o.action}" novalidate>
${field({ id: 'name', label: 'Name', type: 'text', autocomplete: 'name', state: o.fields?.name, autofocus: true })}
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', state: o.fields?.email })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', state: o.fields?.password, hint: o.passwordHint })}
<button type="submit">Create account</button></form>
<div class="links"><span class="muted">Already have an account?</span><a href="${o.signInUrl}">Sign in</a></div>`,
  );
}

export function forgotPage(o: { action: string; backUrl: string | undefined; email?: string; errors?: string[]; sent?: boolean }) {
  return page(
    'Forgot password',
    html`<h1>Reset your password</h1>
${o.sent ? alert(['If an account exists for that address, we have sent it a link to choose a new password. The link works for one hour.'], 'ok') : html`<p class="muted">We will email you a link to choose a new password.</p>`}
${alert(o.errors)}
<form method="post" action="${o.action}" novalidate>
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', state: { value: o.email ?? '' }, autofocus: true })}
<button type="submit">Send reset link</button></form>
${o.backUrl ? html`<div class="links"><a href="${o.backUrl}">Back to sign in</a></div>` : ''}`,
  );
}

export function resetPage(o: { action: string; passwordHint: string; password?: FieldState; errors?: string[] }) {
  return page(
    'Choose a new password',
    html`<h1>Choose a new password</h1>${alert(o.errors)}
<form method="post" action="${o.action}" novalidate>
${field({ id: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', state: o.password, hint: o.passwordHint, autofocus: true })}
<button type="submit">Set password</button></form>`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }) {
  return page(title, html`<h1>${title}</h1><p>${message}</p>${link ? html`<div class="links"><a href="${link.href}">${link.label}</a></div>` : ''}`);
}

export function outboxPage(messages: OutboxMessage[]) {
  const linkify = (text: string) =>
    text.split(/(https?:\/\/\S+)/).map((part, i) => (i % 2 ? html`<a href="${part}">${part}</a>` : part));
  return page(
    'Outbox',
    html`<h1>Outbox</h1><p class="muted">Mail the embedded provider would send, newest first. Configure SMTP_URL to deliver it instead.</p>
${messages.length === 0 ? html`<p>No mail yet.</p>` : ''}
${messages.map(
  (m) => html`<article class="mail" aria-label="${m.subject}"><h2 style="font-size:1rem;margin:0">${m.subject}</h2>
<p class="muted">To ${m.to} · ${m.createdAt}</p><pre>${linkify(m.text)}</pre></article>`,
)}`,
  );
}

/** oidc-provider's sign-out confirmation, submitted at once: the person already chose to sign out in Cabinet. */
export function logoutPage(form: string) {
  const withChoice = form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>');
  return page('Signing out', html`<h1>Signing out…</h1>${raw(withChoice)}<script>document.forms[0].submit()</script>`);
}
