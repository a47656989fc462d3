import enGB from '../../../locales/en-GB.json';
import ptPT from '../../../locales/pt-PT.json';
import type { OutgoingMail } from './mailer';

export type MailLocale = 'pt-PT' | 'en-GB';

// The texts live with the console's, so translators keep one file per language.
const TEXTS: Record<MailLocale, typeof enGB.mail.verification> = {
  'pt-PT': ptPT.mail.verification,
  'en-GB': enGB.mail.verification,
};

export const VERIFICATION_LINK_HOURS = 48;

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The verification e-mail in the recipient's language, as plain text and as HTML. */
export function verificationMail(to: string, name: string, locale: MailLocale, link: string): OutgoingMail {
  const t = TEXTS[locale];
  const values = { name: name || to, hours: String(VERIFICATION_LINK_HOURS) };
  const lines = [fill(t.greeting, values), t.body, fill(t.expiry, values), t.ignore];
  const html = [
    `<p>${escapeHtml(lines[0]!)}</p>`,
    `<p>${escapeHtml(lines[1]!)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(t.action)}</a></p>`,
    `<p>${escapeHtml(lines[2]!)}</p>`,
    `<p>${escapeHtml(lines[3]!)}</p>`,
  ].join('\n');
  const text = [lines[0], '', lines[1], '', `${t.action}: ${link}`, '', lines[2], lines[3]].join('\n');
  return {
    to,
    subject: t.subject,
    text,
    html: `<!doctype html><html lang="${locale}"><body>\n${html}\n</body></html>`,
  };
}
