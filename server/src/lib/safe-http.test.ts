import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type TestWebhookReceiver } from '../../test/peers/webhook-receiver';
import { addressProblem, checkTargetUrl, parseNetworks, safePost, UrlRefused } from './safe-http';

/** Outgoing HTTP to addresses others chose (webhooks): URL rules, address ranges, the connect-time check. */
describe('safe-http', () => {
  let receiver: TestWebhookReceiver;
  const loopback = parseNetworks(['127.0.0.1/32']);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('allows public unicast only, IPv4-mapped IPv6 judged as IPv4, unless a network allows it', () => {
    expect(addressProblem('93.184.216.34', [])).toBeNull();
    expect(addressProblem('2606:2800:220:1::1', [])).toBeNull();
    expect(addressProblem('127.0.0.1', [])).toContain('loopback');
    expect(addressProblem('10.1.2.3', [])).toContain('private');
    expect(addressProblem('192.168.0.1', [])).toContain('private');
    expect(addressProblem('169.254.169.254', [])).toContain('linkLocal');
    expect(addressProblem('::ffff:127.0.0.1', [])).toContain('loopback');
    expect(addressProblem('fd00::1', [])).toContain('uniqueLocal');
    expect(addressProblem('0.0.0.0', [])).toContain('unspecified');
    expect(addressProblem('224.0.0.1', [])).toContain('multicast');
    expect(addressProblem('127.0.0.1', loopback)).toBeNull();
    expect(addressProblem('::ffff:127.0.0.1', loopback)).toBeNull();
    expect(addressProblem('127.0.0.2', loopback)).toContain('loopback');
  });

  /** Address forms that carry a refused IPv4 address (issue 38 item 7), with what the refusal names. */
  const EMBEDDING_FORMS: [string, string][] = [
    ['::7f00:1', 'IPv4-compatible address (of 127.0.0.1)'],
    ['::a00:1', 'IPv4-compatible address (of 10.0.0.1)'],
    ['::5db8:d822', 'IPv4-compatible address (of 93.184.216.34)'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:a00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo'],
  ];

  it('refuses every IPv6 form that carries an IPv4 address, and IPv4 in any notation', () => {
    for (const [address, named] of EMBEDDING_FORMS)
      expect(addressProblem(address, []), address).toContain(named);
    // Allowing 127.0.0.1 allows it as itself or IPv4-mapped, never through another embedding.
    for (const address of ['::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1'])
      expect(addressProblem(address, loopback), address).not.toBeNull();
    for (const address of ['2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '0x7f000001'])
      expect(addressProblem(address, []), address).toContain('loopback');
    expect(addressProblem('::1', [])).toContain('loopback');
    expect(addressProblem('::', [])).toContain('unspecified');
  });

  it('refuses those forms as URL literals, as DNS answers when saved, and at connect time', async () => {
    const literals = [
      'http://[::127.0.0.1]:5432/',
      'http://[::7f00:1]:5432/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::10.0.0.1]/',
      'http://[2002:a00:1::1]/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
    ];
    for (const url of literals) {
      await expect(checkTargetUrl(url, []), url).rejects.toThrow(UrlRefused);
      await expect(
        safePost(url, { headers: {}, body: 'x', timeoutMs: 500, allowed: [] }),
        url,
      ).rejects.toThrow(UrlRefused);
    }
    expect(receiver.requests).toEqual([]);
    const port = new URL(receiver.url).port;
    for (const [address, named] of EMBEDDING_FORMS) {
      const lookup = async () => [{ address, family: 6 }];
      await expect(checkTargetUrl('https://hooks.example/hook', [], lookup), address).rejects.toThrow(named);
      // The request's own lookup (the connect-time check) refuses it too, before any connection.
      await expect(
        safePost(`http://hooks.example:${port}/embedded`, {
          headers: {},
          body: 'x',
          timeoutMs: 500,
          allowed: [],
          lookup,
        }),
        address,
      ).rejects.toThrow(`hooks.example resolves to ${address}`);
    }
    expect(receiver.to('/embedded')).toEqual([]);
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const lookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    await expect(checkTargetUrl('https://mixed.example/hook', [], lookup)).rejects.toThrow(UrlRefused);
    await expect(checkTargetUrl('https://mixed.example/hook', [], lookup)).rejects.toThrow(
      'mixed.example resolves to 10.0.0.1, a private address',
    );
  });

  it('connects only to the address its own lookup checked (no DNS rebinding window)', async () => {
    const port = new URL(receiver.url).port;
    let answers = ['127.0.0.1'];
    const lookup = async () => answers.map((address) => ({ address, family: 4 }));
    const post = () =>
      safePost(`http://hooks.example:${port}/rebind`, {
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 2000,
        allowed: loopback,
        lookup,
      });
    expect((await post()).status).toBe(200);
    expect(receiver.to('/rebind')).toHaveLength(1);

    // The name now resolves elsewhere: refused at connect time, nothing sent.
    answers = ['127.0.0.3'];
    await expect(post()).rejects.toThrow('hooks.example resolves to 127.0.0.3, a loopback address');
    expect(receiver.to('/rebind')).toHaveLength(1);
  });

  it('gives up after the time-out', async () => {
    receiver.script('/slow', { kind: 'hang' });
    const started = Date.now();
    await expect(
      safePost(`${receiver.url}/slow`, { headers: {}, body: 'x', timeoutMs: 200, allowed: loopback }),
    ).rejects.toThrow('no answer within 200 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
