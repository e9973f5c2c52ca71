// The one guarded outbound path as a unit: which addresses are refused (a table covering loopback, private,
// link-local, metadata, carrier NAT, NAT64, 6to4, Teredo, mapped and compatible IPv6, multicast,
// unspecified), a name refused when ANY of its addresses is, the connection pinned to the addresses that
// were checked (a second DNS answer cannot swap in another), and redirects followed only within the origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal, embeddedIpv4, type Resolver } from '../../server/outbound/address-guard.ts';
import { outboundFetch, outboundRequest } from '../../server/outbound/outbound-request.ts';
import { type ScriptHttpServer, serveScript } from '../fixtures/script-http.ts';

const NEVER = 'This address cannot be fetched';
const PRIVATE = /private-network/;

describe('the address guard', () => {
  it.each([
    ['127.0.0.1', PRIVATE, null],
    ['10.1.2.3', PRIVATE, null],
    ['172.16.5.4', PRIVATE, null],
    ['192.168.0.1', PRIVATE, null],
    ['100.64.0.1', PRIVATE, null],
    ['::1', PRIVATE, null],
    ['fd12:3456::1', PRIVATE, null],
    ['::ffff:127.0.0.1', PRIVATE, null],
    ['::ffff:10.0.0.1', PRIVATE, null],
    ['::127.0.0.1', PRIVATE, null],
    ['::ffff:0:127.0.0.1', PRIVATE, null],
    ['64:ff9b::127.0.0.1', PRIVATE, null],
    ['64:ff9b::a00:1', PRIVATE, null],
    ['64:ff9b:1::c0a8:1', PRIVATE, null],
    ['2002:7f00:1::', PRIVATE, null],
    ['2002:c0a8:101::1', PRIVATE, null],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', PRIVATE, null],
    ['0.0.0.0', NEVER, NEVER],
    ['::', NEVER, NEVER],
    ['169.254.169.254', NEVER, NEVER],
    ['::ffff:169.254.169.254', NEVER, NEVER],
    ['64:ff9b::169.254.169.254', NEVER, NEVER],
    ['2002:a9fe:a9fe::', NEVER, NEVER],
    ['fd00:ec2::254', NEVER, NEVER],
    ['100.100.100.200', NEVER, NEVER],
    ['192.0.0.192', NEVER, NEVER],
    ['fe80::1', NEVER, NEVER],
    ['224.0.0.1', NEVER, NEVER],
    ['255.255.255.255', NEVER, NEVER],
    ['ff02::1', NEVER, NEVER],
    ['2001:db8::1', NEVER, NEVER],
    ['93.184.216.34', null, null],
    ['2606:2800:220:1::1', null, null],
    ['64:ff9b::5db8:d822', null, null],
    ['2002:5db8:d822::1', null, null],
  ] as const)('judges %s', (address, refused, refusedWhenPrivateAllowed) => {
    const check = (allowPrivate: boolean, expected: RegExp | string | null) => {
      const refusal = addressRefusal(address, allowPrivate);
      if (expected === null) expect(refusal).toBeNull();
      else if (typeof expected === 'string') expect(refusal).toBe(expected);
      else expect(refusal).toMatch(expected);
    };
    check(false, refused);
    check(true, refusedWhenPrivateAllowed);
  });

  it('finds the IPv4 address inside NAT64, 6to4, Teredo and mapped IPv6 addresses', () => {
    expect(embeddedIpv4('64:ff9b::7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('2002:7f00:1::')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual(['65.54.227.120', '127.0.0.1']);
    expect(embeddedIpv4('2606:2800:220:1::1')).toEqual([]);
  });
});

describe('the guarded outbound request', () => {
  let service: ScriptHttpServer;
  let port = '';
  const seen: string[] = [];
  beforeAll(async () => {
    service = await serveScript(async (req, _raw, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/hop') {
        res.writeHead(302, { location: '/landed' });
        return void res.end();
      }
      if (req.url === '/away') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`at ${req.url}`);
    });
    port = new URL(service.url).port;
  });
  afterAll(() => service.close());

  /** A DNS that answers each name from a table, counting how often it is asked. */
  const table = (answers: Record<string, string[]>) => {
    const asked: string[] = [];
    const resolve: Resolver = async (hostname) => {
      asked.push(hostname);
      return (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return { resolve, asked };
  };

  it('refuses a name when any of its addresses is refused, before connecting', async () => {
    const before = seen.length;
    const dns = table({ 'mixed.test': ['93.184.216.34', '127.0.0.1'], 'inner.test': ['127.0.0.1'] });
    for (const host of ['mixed.test', 'inner.test'])
      await expect(
        outboundRequest(
          new URL(`http://${host}:${port}/x`),
          {},
          { allowPrivate: false, resolve: dns.resolve },
        ),
      ).rejects.toThrow(PRIVATE);
    expect(seen.length).toBe(before);
  });

  it('connects to exactly the address that was checked (the name is not resolved a second time)', async () => {
    // No real DNS knows `pinned.test`: the request can only arrive through the checked answer.
    const dns = table({ 'pinned.test': ['127.0.0.1'] });
    const res = await outboundRequest(
      new URL(`http://pinned.test:${port}/pinned`),
      {},
      { allowPrivate: true, resolve: dns.resolve },
    );
    res.resume();
    expect(res.statusCode).toBe(200);
    expect(dns.asked).toEqual(['pinned.test']);
    expect(seen).toContain('/pinned');
  });

  it('follows a redirect within the origin and returns one to elsewhere unfollowed', async () => {
    const fetch = outboundFetch({ allowPrivate: true });
    const hop = await fetch(`${new URL(service.url).origin}/hop`);
    expect(await hop.text()).toBe('at /landed');
    const away = await fetch(`${new URL(service.url).origin}/away`);
    expect(away.status).toBe(302);
    const refused = outboundFetch({ allowPrivate: false });
    await expect(refused(`${new URL(service.url).origin}/hop`)).rejects.toThrow(PRIVATE);
  });
});
