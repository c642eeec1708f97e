import { createServer, type IncomingHttpHeaders } from 'node:http';
import { startSmsGateway } from '../../server/test/peers/sms-gateway';
import { startSmtpServer } from '../../server/test/peers/smtp';
import { PEER_PORTS } from './peer-ports';
import { startSsoPeer } from './sso-peer';

/**
 * The journeys' protocol peers, in one process Playwright starts beside the server: a real SMTP
 * server and an HTTP SMS gateway the server sends to, and a small control API the journeys read
 * what was sent from, as a person reads their phone or mailbox:
 *   GET /sms/last-code?mobile=…  → { code }          (404 while none was sent)
 *   GET /mail/last?to=…          → { subject, text, html, inlinePictures }  (404 while none was sent)
 *   GET /webhooks/last?path=…    → { path, headers, raw, body, count }  (404 while none was received)
 * The webhook receiver answers every POST with 204 and remembers it (the last one a path received
 * is what /webhooks/last answers; `count` is how many that path received).
 */
const [smtp, gateway, oidc] = await Promise.all([
  startSmtpServer(PEER_PORTS.smtp),
  startSmsGateway(PEER_PORTS.sms),
  // The OpenID provider of the single sign-on journey (sso-peer.ts); the browser uses its pages.
  startSsoPeer(),
]);

interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const webhooksReceived: ReceivedWebhook[] = [];
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
const webhookReceiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    webhooksReceived.push({
      path: url.pathname,
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => webhookReceiver.listen(PEER_PORTS.webhook, '127.0.0.1', resolve));

const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://peers');
  const answer = (status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/health') return answer(200, { status: 'ok' });
  if (url.pathname === '/sms/last-code') {
    const code = gateway.lastCodeTo(url.searchParams.get('mobile') ?? '');
    return code ? answer(200, { code }) : answer(404, {});
  }
  if (url.pathname === '/mail/last') {
    const to = (url.searchParams.get('to') ?? '').toLowerCase();
    const mail = smtp.received.findLast((each) => each.to.includes(to));
    // The HTML as a mail program shows it: mailparser puts inline pictures (cid:) into it.
    return mail
      ? answer(200, {
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          inlinePictures: mail.parsed.attachments.filter((a) => a.related).length,
        })
      : answer(404, {});
  }
  if (url.pathname === '/webhooks/last') {
    const path = url.searchParams.get('path');
    const received = webhooksReceived.filter((each) => path === null || each.path === path);
    const last = received.at(-1);
    return last
      ? answer(200, {
          path: last.path,
          headers: last.headers,
          raw: last.body,
          body: parseJson(last.body),
          count: received.length,
        })
      : answer(404, {});
  }
  return answer(404, {});
});
await new Promise<void>((resolve) => control.listen(PEER_PORTS.control, '127.0.0.1', resolve));
console.log(
  `peers: SMTP ${smtp.url}, SMS gateway ${gateway.url}, OpenID ${oidc.issuer}, webhooks http://127.0.0.1:${PEER_PORTS.webhook}, control http://127.0.0.1:${PEER_PORTS.control}`,
);

const stop = async () => {
  control.close();
  webhookReceiver.close();
  await Promise.all([smtp.close(), gateway.close(), oidc.close()]);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
