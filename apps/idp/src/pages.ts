import { createHash } from 'node:crypto';
import { html, raw, type Html } from './html.ts';
import type { OutboxMessage } from './mail.ts';

// Cabinet's look (apps/web: Mantine's default font stack, its white and dark-7 bodies, blue shade 8),
// light or dark as the system prefers.
const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--card:#fff;--text:#000;--muted:#495057;--border:#ced4da;--accent:#1971c2;--accent-text:#fff;--link:#1971c2;
--error:#c92a2a;--error-bg:#fff5f5;--ok-bg:#ebfbee;--ok:#1e6b30;--shadow:0 1px 3px rgba(0,0,0,.05),0 1px 2px rgba(0,0,0,.1)}
@media (prefers-color-scheme:dark){:root{--bg:#242424;--card:#242424;--text:#c9c9c9;--muted:#b8b8b8;--border:#424242;--link:#4dabf7;--error:#ff8787;
--error-bg:#3b1d1d;--ok-bg:#1d3b24;--ok:#8ce99a;--shadow:none}}
*{box-sizing:border-box}body{margin:0;
font:16px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji";
background:var(--bg);color:var(--text);-webkit-font-smoothing:antialiased}
main{min-height:100dvh;display:flex;align-items:center;justify-content:center;padding:1rem}
.card{width:100%;max-width:420px;background:var(--card);border:1px solid var(--border);border-radius:1rem;padding:2rem;box-shadow:var(--shadow)}
@media (max-width:36em){.card{padding:1.25rem}}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;font-size:28px;line-height:1.2;margin-bottom:1.25rem}
.brand svg{color:var(--accent);flex:none}
h1{font-size:1.625rem;line-height:1.35;margin:0 0 .25rem}h2{font-size:1rem;margin:0}p{margin:.5rem 0}.muted{color:var(--muted);font-size:.9rem}
label{display:block;font-weight:500;font-size:.875rem;margin:1rem 0 .25rem}
input{width:100%;font:inherit;font-size:.875rem;min-height:2.25rem;padding:.4rem .75rem;border:1px solid var(--border);border-radius:.5rem;
background:var(--card);color:var(--text)}
input:focus,input:focus-visible{outline:none;border-color:var(--accent)}
button:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
input[aria-invalid=true]{border-color:var(--error)}
.hint{color:var(--muted);font-size:.8rem;margin-top:.25rem}.field-error{color:var(--error);font-size:.8rem;margin-top:.25rem}
button{width:100%;margin-top:1.5rem;font:inherit;font-weight:600;min-height:2.625rem;padding:.5rem 1rem;border:0;border-radius:.5rem;
background:var(--accent);color:var(--accent-text);cursor:pointer}
button.secondary{background:transparent;color:var(--link);border:1px solid var(--border)}
a{color:var(--link);text-decoration:underline}.links{display:flex;justify-content:space-between;flex-wrap:wrap;gap:.5rem;margin-top:1.25rem;font-size:.95rem}
.alert{border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0;background:var(--error-bg);color:var(--error)}
.alert ul{margin:.25rem 0 0;padding-left:1.2rem}.ok{background:var(--ok-bg);color:var(--ok)}
.mail{border-top:1px solid var(--border);padding:1rem 0}.mail pre{white-space:pre-wrap;word-break:break-word;font:inherit}
.qr{width:192px;height:192px;margin:.5rem 0}.qr svg{display:block;width:100%;height:100%}
code,.codes{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}code{word-break:break-all;font-size:.9rem}
.codes{columns:2;list-style:none;padding:0;margin:.75rem 0}
`;

/** Inline script and style are allowed by their hashes only (see the pages' Content-Security-Policy). */
const SIGN_OUT_SCRIPT = 'document.forms[0].submit()';
/**
 * The passkey form's: shown where the browser has WebAuthn, it asks the browser for a passkey with the options the page
 * carries and posts the answer (its binary parts in base64url, as the server reads them); a refusal or a cancel is said
 * in the form's own alert.
 */
const PASSKEY_SCRIPT = `(() => {
const form = document.getElementById('passkey');
if (!form || !window.PublicKeyCredential) return;
form.hidden = false;
const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const text = (b) => b && btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const problem = document.getElementById('passkey-problem');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.hidden = true;
  const options = JSON.parse(form.dataset.options);
  options.challenge = bytes(options.challenge);
  for (const c of options.allowCredentials || []) c.id = bytes(c.id);
  try {
    const credential = await navigator.credentials.get({ publicKey: options });
    const r = credential.response;
    form.elements.response.value = JSON.stringify({
      id: credential.id, rawId: text(credential.rawId), type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: {
        clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature),
        userHandle: text(r.userHandle) || undefined,
      },
    });
    form.submit();
  } catch {
    problem.hidden = false;
  }
});
})()`;
const cspHash = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
// Built as strings, not in html``, so that no formatter can change the bytes the hashes are taken of.
const STYLE_ELEMENT = raw(`<style>${STYLE}</style>`);
const SIGN_OUT_SCRIPT_ELEMENT = raw(`<script>${SIGN_OUT_SCRIPT}</script>`);
const PASSKEY_SCRIPT_ELEMENT = raw(`<script>${PASSKEY_SCRIPT}</script>`);
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${cspHash(STYLE)}`,
  `script-src ${cspHash(SIGN_OUT_SCRIPT)} ${cspHash(PASSKEY_SCRIPT)}`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// The mark of apps/web's Logo: Tabler's "folders" icon.
const LOGO = html`<svg
  aria-hidden="true"
  width="36"
  height="36"
  viewBox="0 0 24 24"
  fill="none"
  stroke="currentColor"
  stroke-width="1.8"
  stroke-linecap="round"
  stroke-linejoin="round"
>
  <path d="M9 3h3l2 2h5a2 2 0 0 1 2 2v7a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-9a2 2 0 0 1 2 -2" />
  <path d="M17 16v2a2 2 0 0 1 -2 2h-10a2 2 0 0 1 -2 -2v-9a2 2 0 0 1 2 -2h2" />
</svg>`;

export function page(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>${title} · Cabinet</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <main>
          <div class="card">
            <div class="brand">${LOGO}<span>Cabinet</span></div>
            ${body}
          </div>
        </main>
      </body>
    </html>`.value;
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
    <input
      id="${opts.id}"
      name="${opts.id}"
      type="${opts.type}"
      autocomplete="${opts.autocomplete}"
      ${opts.required !== false ? html`required` : ''}
      ${opts.autofocus ? html`autofocus` : ''}
      ${opts.type !== 'password' && opts.state?.value ? html`value="${opts.state.value}"` : ''}
      ${opts.state?.error ? html`aria-invalid="true"` : ''}
      ${describedBy ? html`aria-describedby="${describedBy}"` : ''}
    />
    ${opts.hint ? html`<div class="hint" id="${opts.id}-hint">${opts.hint}</div>` : ''}
    ${opts.state?.error ? html`<div class="field-error" id="${opts.id}-error">${opts.state.error}</div>` : ''}`;
}

function alert(messages: string[] | undefined, kind: 'error' | 'ok' = 'error'): Html | '' {
  if (!messages?.length) return '';
  const role = kind === 'error' ? 'alert' : 'status';
  return messages.length === 1
    ? html`<div class="alert ${kind === 'ok' ? 'ok' : ''}" role="${role}">${messages[0]}</div>`
    : html`<div class="alert" role="${role}">
        Please fix the following:
        <ul>
          ${messages.map((m) => html`<li>${m}</li>`)}
        </ul>
      </div>`;
}

/** Signing in with a passkey: where to post the browser's answer, and the options (JSON) it answers. */
export interface PasskeyPrompt {
  action: string;
  options: string;
}

/**
 * The passkey's button, shown by its script where the browser has WebAuthn; what it says when no passkey was used (the
 * person cancelled, or the device has none for Cabinet), and the answer the server refused, in its own alert.
 */
function passkeyForm(prompt: PasskeyPrompt | undefined, label: string): Html | '' {
  if (!prompt) return '';
  return html`<form id="passkey" method="post" action="${prompt.action}" data-options="${prompt.options}" hidden>
      <input type="hidden" name="response" />
      <div class="alert" role="alert" id="passkey-problem" hidden>
        No passkey was used: the request was cancelled, or this device has no passkey for Cabinet. Try again.
      </div>
      <button type="submit" class="secondary">${label}</button>
    </form>
    ${PASSKEY_SCRIPT_ELEMENT}`;
}

export function signInPage(o: {
  action: string;
  signUpUrl: string;
  forgotUrl: string;
  email?: string | undefined;
  errors?: string[] | undefined;
  notice?: string | undefined;
  passkey?: PasskeyPrompt | undefined;
}) {
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
      <p class="muted">Use your Cabinet account.</p>
      ${alert(o.errors)}${o.notice ? alert([o.notice], 'ok') : ''}
      <form method="post" action="${o.action}" novalidate>
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', state: { value: o.email ?? '' }, autofocus: !o.email })}
        ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: !!o.email })}
        <button type="submit">Sign in</button>
      </form>
      ${passkeyForm(o.passkey, 'Use a passkey')}
      <div class="links"><a href="${o.forgotUrl}">Forgot password?</a><a href="${o.signUpUrl}">Create an account</a></div>`,
  );
}

/** The second step of signing in: a code from the authenticator app, or one of the recovery codes. */
export function twoStepPage(o: {
  action: string;
  cancelUrl: string;
  errors?: string[];
  passkey?: PasskeyPrompt | undefined;
  /** Where an account with passkeys and no app sets one up instead (the installation asks everyone for a second step). */
  setUpUrl?: string | undefined;
}) {
  if (o.setUpUrl) {
    return page(
      'Two-step sign-in',
      html`<h1>Two-step sign-in</h1>
        <p class="muted">This Cabinet asks for a second step after your password: use one of your passkeys.</p>
        ${alert(o.errors)} ${passkeyForm(o.passkey, 'Use a passkey')}
        <p>No passkey on this device, or this browser cannot use one? <a href="${o.setUpUrl}">Set up an authenticator app instead</a>.</p>
        <div class="links"><a href="${o.cancelUrl}">Sign in as someone else</a></div>`,
    );
  }
  return page(
    'Two-step sign-in',
    html`<h1>Two-step sign-in</h1>
      <p class="muted">
        Enter the 6-digit code your authenticator app shows for Cabinet${o.passkey ? ', or use a passkey' : ''}. Lost your phone? Enter one of your recovery
        codes instead.
      </p>
      ${alert(o.errors)}
      <form method="post" action="${o.action}" novalidate>
        ${field({
          id: 'code',
          label: 'Code',
          type: 'text',
          autocomplete: 'one-time-code',
          hint: 'A code works once. A recovery code looks like abcde-23456.',
          autofocus: true,
        })}
        <button type="submit">Continue</button>
      </form>
      ${passkeyForm(o.passkey, 'Use a passkey instead')}
      <div class="links"><a href="${o.cancelUrl}">Sign in as someone else</a></div>`,
  );
}

/**
 * Setting up an authenticator app while signing in, where the installation requires two steps: the QR code (the
 * provider's own SVG) and its key, then a code from the app.
 */
export function twoStepSetUpPage(o: { action: string; cancelUrl: string; secret: string; qrSvg: string; errors?: string[] }) {
  return page(
    'Set up two-step sign-in',
    html`<h1>Set up two-step sign-in</h1>
      <p class="muted">This Cabinet asks for a code from an authenticator app on your phone after your password. Set one up to go on.</p>
      ${alert(o.errors)}
      <p>1. Scan this QR code with your authenticator app (such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis).</p>
      <div class="qr" role="img" aria-label="QR code to scan with your authenticator app">${raw(o.qrSvg)}</div>
      <p>Can’t scan it? Enter this key in the app instead: <code aria-label="Secret key">${o.secret}</code></p>
      <form method="post" action="${o.action}" novalidate>
        <p>2. Enter the 6-digit code the app shows for Cabinet.</p>
        ${field({ id: 'code', label: 'Code from the app', type: 'text', autocomplete: 'one-time-code', autofocus: true })}
        <button type="submit">Turn on and continue</button>
      </form>
      <div class="links"><a href="${o.cancelUrl}">Sign in as someone else</a></div>`,
  );
}

/** The recovery codes just made, shown once before the sign-in goes on. */
export function recoveryCodesPage(o: { action: string; codes: string[] }) {
  return page(
    'Your recovery codes',
    html`<h1>Your recovery codes</h1>
      ${alert(['Two-step sign-in is on.'], 'ok')}
      <p>
        If you lose your phone, each of these codes signs you in once in place of the app’s code. Write them down or save them somewhere safe: they will not be
        shown again.
      </p>
      <ul class="codes" aria-label="Recovery codes">
        ${o.codes.map((c) => html`<li>${c}</li>`)}
      </ul>
      <form method="post" action="${o.action}"><button type="submit">I have saved them — continue</button></form>`,
  );
}

export function signUpPage(o: {
  action: string;
  signInUrl: string;
  passwordHint: string;
  fields?: { name?: FieldState; email?: FieldState; password?: FieldState };
  errors?: string[];
}) {
  // Focus goes to the first field in error (the page is new after each submission), else to Name.
  const focus = (['name', 'email', 'password'] as const).find((id) => o.fields?.[id]?.error) ?? 'name';
  return page(
    'Create an account',
    html`<h1>Create an account</h1>
      <p class="muted">Your workspace is ready as soon as you sign up.</p>
      ${alert(o.errors)}
      <form method="post" action="${o.action}" novalidate>
        ${field({ id: 'name', label: 'Name', type: 'text', autocomplete: 'name', state: o.fields?.name, autofocus: focus === 'name' })}
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', state: o.fields?.email, autofocus: focus === 'email' })}
        ${field({
          id: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'new-password',
          state: o.fields?.password,
          hint: o.passwordHint,
          autofocus: focus === 'password',
        })}
        <button type="submit">Create account</button>
      </form>
      <div class="links"><span class="muted">Already have an account?</span><a href="${o.signInUrl}">Sign in</a></div>`,
  );
}

/** After sign-up (also for an address that already has an account, so the page tells nobody which). */
/** On an installation without a mail server, a person on this machine is told where the mail waits. */
const outboxNote = (url: string | undefined) =>
  url ? html`<p>No mail server is set up on this installation: the message waits in its <a href="${url}">outbox</a>.</p>` : '';

export function checkEmailPage(o: {
  email: string;
  resendAction: string;
  signInUrl: string;
  outboxUrl?: string | undefined;
  notice?: string;
  errors?: string[];
}) {
  return page(
    'Check your email',
    html`<h1>Check your email</h1>
      <p>We sent a link to <strong>${o.email}</strong>. Open it to confirm your address and finish signing in.</p>
      ${alert(o.errors)}${o.notice ? alert([o.notice], 'ok') : ''} ${outboxNote(o.outboxUrl)}
      <p class="muted">You can also sign in with your password now and confirm your address later.</p>
      <form method="post" action="${o.resendAction}">
        <input type="hidden" name="email" value="${o.email}" /> <button type="submit" class="secondary">Send the link again</button>
      </form>
      <div class="links"><a href="${o.signInUrl}">Sign in</a></div>`,
  );
}

/** A confirmation link opened away from the browser that signed up: the password proves it is the same person. */
export function confirmEmailPage(o: { action: string; email: string; errors?: string[] | undefined }) {
  return page(
    'Confirm your email',
    html`<h1>Confirm your email</h1>
      <p>Enter the password of the Cabinet account for <strong>${o.email}</strong> to confirm the address.</p>
      ${alert(o.errors)}
      <form method="post" action="${o.action}" novalidate>
        ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: true })}
        <button type="submit">Confirm email</button>
      </form>`,
  );
}

export function forgotPage(o: {
  action: string;
  backUrl: string | undefined;
  email?: string;
  errors?: string[];
  sent?: boolean;
  outboxUrl?: string | undefined;
}) {
  const sent = 'If an account exists for that address, we have sent it a link to choose a new password. The link works for one hour.';
  const notice = o.sent
    ? html`${alert([sent], 'ok')}${outboxNote(o.outboxUrl)}`
    : html`<p class="muted">We will email you a link to choose a new password.</p>`;
  return page(
    'Forgot password',
    html`<h1>Reset your password</h1>
      ${notice} ${alert(o.errors)}
      <form method="post" action="${o.action}" novalidate>
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', state: { value: o.email ?? '' }, autofocus: true })}
        <button type="submit">Send reset link</button>
      </form>
      ${o.backUrl ? html`<div class="links"><a href="${o.backUrl}">Back to sign in</a></div>` : ''}`,
  );
}

export function resetPage(o: { action: string; passwordHint: string; password?: FieldState; errors?: string[] }) {
  return page(
    'Choose a new password',
    html`<h1>Choose a new password</h1>
      ${alert(o.errors)}
      <form method="post" action="${o.action}" novalidate>
        ${field({
          id: 'password',
          label: 'New password',
          type: 'password',
          autocomplete: 'new-password',
          state: o.password,
          hint: o.passwordHint,
          autofocus: true,
        })}
        <button type="submit">Set password</button>
      </form>`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }) {
  return page(
    title,
    html`<h1>${title}</h1>
      <p>${message}</p>
      ${link ? html`<div class="links"><a href="${link.href}">${link.label}</a></div>` : ''}`,
  );
}

export function outboxPage(messages: OutboxMessage[]) {
  const linkify = (text: string) => text.split(/(https?:\/\/\S+)/).map((part, i) => (i % 2 ? html`<a href="${part}">${part}</a>` : part));
  return page(
    'Outbox',
    html`<h1>Outbox</h1>
      <p class="muted">Mail the embedded provider would send, newest first. Configure SMTP_URL to deliver it instead.</p>
      ${messages.length === 0 ? html`<p>No mail yet.</p>` : ''}
      ${messages.map(
        (m) =>
          html`<article class="mail" aria-label="${m.subject}">
            <h2>${m.subject}</h2>
            <p class="muted">To ${m.to} · ${m.createdAt}</p>
            <pre>${linkify(m.text)}</pre>
          </article>`,
      )}`,
  );
}

/** oidc-provider's sign-out confirmation, submitted at once: the person already chose to sign out in Cabinet. */
export function logoutPage(form: string) {
  const withChoice = form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>');
  return page(
    'Signing out',
    html`<h1>Signing out…</h1>
      ${raw(withChoice)} ${SIGN_OUT_SCRIPT_ELEMENT}`,
  );
}
