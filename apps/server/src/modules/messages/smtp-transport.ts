import nodemailer from 'nodemailer';
import type { MailTransport } from './message-sender.js';

/**
 * E-mail through an SMTP server (SMTP_URL, e.g. smtps://user:password@mail.example:465) with
 * nodemailer. Short timeouts: a mail server that hangs must not hold a customer's request for minutes.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport & {
  close(): void;
  /** The server's address and port, for traces (never the credentials). */
  serverAttributes: { 'server.address': string; 'server.port': number };
} {
  const url = new URL(smtpUrl);
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send({ from, to, subject, text }) {
      await transporter.sendMail({ from, to, subject, text });
    },
    close: () => transporter.close(),
    serverAttributes: {
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
    },
  };
}
