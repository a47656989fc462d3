import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface SentMail {
  messageId: string;
  /** The `.eml` written to the outbox when no SMTP server is configured. */
  outboxFile?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
}

// Deployments reach users from their own domain through their SMTP relay, which rewrites or signs this.
export const MAIL_FROM = 'Admin Panel <no-reply@admin-panel.invalid>';

/** `$DATA_DIR/outbox`: where messages go when `SMTP_URL` is not set. */
export const outboxDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'outbox');

const mailers = new WeakMap<Config, Mailer>();

/** One transport per configuration: an SMTP connection pool is reused across requests. */
export function mailerFor(config: Config): Mailer {
  let mailer = mailers.get(config);
  if (!mailer) {
    mailer = config.smtpUrl ? smtpMailer(config.smtpUrl) : outboxMailer(outboxDir(config));
    mailers.set(config, mailer);
  }
  return mailer;
}

function smtpMailer(smtpUrl: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: MAIL_FROM, ...mail });
      return { messageId: info.messageId };
    },
  };
}

function outboxMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: MAIL_FROM, ...mail });
      mkdirSync(dir, { recursive: true });
      // Sortable by time; written aside and renamed so a reader never sees half a message.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const temporary = join(dir, `.${name}.tmp`);
      writeFileSync(temporary, info.message as Buffer);
      renameSync(temporary, join(dir, name));
      return { messageId: info.messageId, outboxFile: join(dir, name) };
    },
  };
}
