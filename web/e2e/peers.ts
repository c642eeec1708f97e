import { createServer } from 'node:http';
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
 */
const [smtp, gateway, oidc] = await Promise.all([
  startSmtpServer(PEER_PORTS.smtp),
  startSmsGateway(PEER_PORTS.sms),
  // The OpenID provider of the single sign-on journey (sso-peer.ts); the browser uses its pages.
  startSsoPeer(),
]);

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
  return answer(404, {});
});
await new Promise<void>((resolve) => control.listen(PEER_PORTS.control, '127.0.0.1', resolve));
console.log(
  `peers: SMTP ${smtp.url}, SMS gateway ${gateway.url}, OpenID ${oidc.issuer}, control http://127.0.0.1:${PEER_PORTS.control}`,
);

const stop = async () => {
  control.close();
  await Promise.all([smtp.close(), gateway.close(), oidc.close()]);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
