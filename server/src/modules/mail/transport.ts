import nodemailer from 'nodemailer';

/** One mail as it goes out. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Inline parts the HTML shows as cid:<cid> (a notice's thumbnails). */
  attachments?: Array<{ cid: string; filename: string; contentType: string; content: Buffer }>;
}

/** Where mails go: an SMTP server, or (no SMTP_URL, development) the server log. */
export interface MailTransport {
  readonly kind: 'smtp' | 'log';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

type Warn = (details: Record<string, unknown>, message: string) => void;

/** Time limits of one SMTP conversation: a server that hangs fails the attempt, which is retried. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * nodemailer over SMTP_URL (smtp:// upgrades with STARTTLS when offered; smtps:// is TLS from the
 * first byte). Without SMTP_URL every mail is written to the log as a warning, which says so
 * once when the transport is made.
 */
export function createMailTransport(
  settings: { smtpUrl: string | undefined; from: string },
  warn: Warn,
): MailTransport {
  if (!settings.smtpUrl) {
    warn({}, 'SMTP_URL is not set: mails are written to this log instead of being sent');
    return {
      kind: 'log',
      async send(mail) {
        warn(
          {
            mail: {
              from: settings.from,
              ...mail,
              html: undefined,
              attachments: mail.attachments?.map((a) => a.filename),
            },
          },
          'mail not sent (no SMTP_URL)',
        );
      },
      close() {},
    };
  }
  const smtp = nodemailer.createTransport(settings.smtpUrl, { from: settings.from, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async send(mail) {
      await smtp.sendMail(mail);
    },
    close() {
      smtp.close();
    },
  };
}
