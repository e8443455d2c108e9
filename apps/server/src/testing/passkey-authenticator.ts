import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto';
import { newEcKeyPair } from '@cabinet/idp';
import { securityApi } from '@cabinet/contracts';
import { GOOD_PASSWORD, type Page, type TestBrowser } from './browser.ts';

/** The little CBOR an authenticator writes: maps, byte and text strings, small integers. */
function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    throw new Error('too long for this encoder');
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v as Parameters<typeof cbor>[0])])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  key: KeyObject;
  userHandle: string;
  counter: number;
  multiDevice: boolean;
}

export interface Ceremony {
  /** The origin the browser reports in its client data (the page's own). */
  origin?: string;
  /** Whether the device checked its owner (a PIN, a fingerprint). */
  userVerified?: boolean;
}

/**
 * A passkey device in software, for tests over HTTP: it makes ES256 keys as a platform authenticator would (attestation
 * `none`) and signs sign-in challenges with them, under whatever origin it is told, as a browser on another site would.
 */
export class PasskeyAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly origin: string,
    private readonly options: { multiDevice?: boolean; counts?: boolean } = {},
  ) {}

  private get rpIdHash() {
    return sha256(new URL(this.origin).hostname);
  }

  private flags(userVerified: boolean, multiDevice: boolean, attested = false) {
    return 0x01 | (userVerified ? 0x04 : 0) | (multiDevice ? 0x08 | 0x10 : 0) | (attested ? 0x40 : 0);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The browser's answer to creation options (their JSON form): a new passkey on this device. */
  register(options: Record<string, unknown>, ceremony: Ceremony = {}): Record<string, unknown> {
    const { privateKey, publicKey } = newEcKeyPair();
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(16);
    const multiDevice = this.options.multiDevice ?? false;
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const length = Buffer.from([id.length >> 8, id.length & 255]);
    const authData = Buffer.concat([
      this.rpIdHash,
      Buffer.from([this.flags(ceremony.userVerified ?? true, multiDevice, true)]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      length,
      id,
      cose,
    ]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const user = options.user as { id: string };
    this.credentials.push({ id, key: privateKey, userHandle: user.id, counter: 0, multiDevice });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge as string, ceremony.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The browser's answer to request options (their JSON form), signed with a passkey they allow (any, when they name none). */
  signIn(options: Record<string, unknown>, ceremony: Ceremony & { credential?: Credential } = {}): Record<string, unknown> {
    const allowed = ((options.allowCredentials as { id: string }[] | undefined) ?? []).map((c) => c.id);
    const credential = ceremony.credential ?? this.credentials.find((c) => !allowed.length || allowed.includes(b64url(c.id)));
    if (!credential) throw new Error('this device has no passkey the options allow');
    if (this.options.counts) credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([this.rpIdHash, Buffer.from([this.flags(ceremony.userVerified ?? true, credential.multiDevice)]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge as string, ceremony.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.key);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The passkey form of a provider page: where it posts, and the options its script hands the browser. */
export function passkeyForm(page: Page): { action: string; options: Record<string, unknown> } {
  const form = /<form id="passkey" method="post" action="([^"]+)" data-options="([^"]+)"/.exec(page.text);
  if (!form) throw new Error(`no passkey form on ${page.url}:\n${page.text.slice(0, 800)}`);
  return { action: new URL(unescape(form[1]!), page.url).href, options: JSON.parse(unescape(form[2]!)) as Record<string, unknown> };
}

/** Asks for creation options from a signed-in browser, its password given, as Account → Security does. */
export function passkeyOptions(browser: TestBrowser, currentPassword = GOOD_PASSWORD) {
  return browser.call(securityApi.passkeyOptions, { body: { currentPassword } });
}

/** Adds a passkey made by the device from a signed-in browser, as Account → Security does. */
export async function addPasskey(browser: TestBrowser, device: PasskeyAuthenticator, name = 'Laptop') {
  const options = await passkeyOptions(browser);
  if (options.status !== 200) throw new Error(`no passkey options (${options.status}): ${JSON.stringify(options.error)}`);
  return browser.call(securityApi.addPasskey, { body: { name, response: device.register(options.body.options) } });
}
