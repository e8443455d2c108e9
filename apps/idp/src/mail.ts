import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { uuidv7 } from '@cabinet/contracts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface OutboxMessage extends Mail {
  id: string;
  createdAt: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Whether mail can go: the SMTP server answers and takes the credentials (an outbox has nothing to ask). */
  check?(): Promise<void>;
}

export interface MailOptions {
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string;
}

/** SMTP when configured; otherwise a dev outbox of JSON files the operator can read. */
export function createMailer(options: MailOptions): Mailer {
  if (options.smtpUrl) {
    // The SMTP client is loaded on the first mail or check: an installation without a mail server never loads it.
    const smtpUrl = options.smtpUrl;
    let opened: Promise<import('nodemailer').Transporter> | undefined;
    const transport = () => (opened ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
    return {
      async send(mail) {
        await (await transport()).sendMail({ from: options.from, ...mail });
      },
      async check() {
        await (await transport()).verify();
      },
    };
  }
  return {
    async send(mail) {
      mkdirSync(options.outboxDir, { recursive: true });
      const message: OutboxMessage = { id: uuidv7(), createdAt: new Date().toISOString(), ...mail };
      writeFileSync(path.join(options.outboxDir, `${message.id}.json`), JSON.stringify(message, null, 2), { mode: 0o600 });
    },
  };
}

export function readOutbox(outboxDir: string, limit = 50): OutboxMessage[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .sort()
    .reverse()
    .slice(0, limit)
    .map((f) => JSON.parse(readFileSync(path.join(outboxDir, f), 'utf8')) as OutboxMessage);
}
