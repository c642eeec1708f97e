import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail the test SMTP server received, parsed. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:<port> — what SMTP_URL is set to. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves with the next mail to `to` (or one already received and not yet taken). */
  nextMailTo(to: string): Promise<ReceivedMail>;
  /** From now on every mail is refused with a 4xx, as a server that is down for a while. */
  refuseAll(refuse: boolean): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on loopback: plain SMTP without STARTTLS or authentication, so
 * nodemailer talks to it as to a company relay; each mail is parsed with mailparser.
 */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: Array<{ to: string; resolve: (mail: ReceivedMail) => void }> = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (refusing) {
        const error = Object.assign(new Error('Service not available, try again later'), {
          responseCode: 421,
        });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          };
          received.push(mail);
          const index = waiting.findIndex((w) => mail.to.includes(w.to));
          if (index >= 0) {
            const [waiter] = waiting.splice(index, 1);
            taken.add(mail);
            waiter?.resolve(mail);
          }
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    nextMailTo(to) {
      const address = to.toLowerCase();
      const ready = received.find((mail) => !taken.has(mail) && mail.to.includes(address));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ to: address, resolve }));
    },
    refuseAll(refuse) {
      refusing = refuse;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
