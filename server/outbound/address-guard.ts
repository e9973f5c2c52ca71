// Which network addresses the server may connect to on behalf of a workspace (URL knowledge sources, HTTP MCP
// connections): addresses that are no host on a network, link-local and cloud metadata ones never; loopback
// and private networks only when the operator allows them. IPv6 forms that carry an IPv4 address (mapped,
// compatible, NAT64, 6to4, Teredo) are judged by the IPv4 address they lead to.
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Never connected to: unspecified, "this network", multicast, reserved, documentation and benchmarking
// ranges, link-local (where cloud metadata services answer) and the metadata addresses that sit elsewhere.
const neverReached = new BlockList();
neverReached.addSubnet('0.0.0.0', 8, 'ipv4');
neverReached.addSubnet('169.254.0.0', 16, 'ipv4');
neverReached.addSubnet('192.0.2.0', 24, 'ipv4');
neverReached.addSubnet('198.51.100.0', 24, 'ipv4');
neverReached.addSubnet('203.0.113.0', 24, 'ipv4');
neverReached.addSubnet('224.0.0.0', 4, 'ipv4');
neverReached.addSubnet('240.0.0.0', 4, 'ipv4');
// Alibaba Cloud's and Oracle Cloud's metadata services (inside ranges that are otherwise only private).
neverReached.addAddress('100.100.100.200', 'ipv4');
neverReached.addAddress('192.0.0.192', 'ipv4');
neverReached.addAddress('::', 'ipv6');
neverReached.addSubnet('100::', 64, 'ipv6');
neverReached.addSubnet('2001:db8::', 32, 'ipv6');
neverReached.addSubnet('fe80::', 10, 'ipv6');
neverReached.addSubnet('fec0::', 10, 'ipv6');
neverReached.addSubnet('ff00::', 8, 'ipv6');
// AWS's IPv6 metadata service.
neverReached.addAddress('fd00:ec2::254', 'ipv6');

// Reached only when the operator allows private addresses: loopback, private networks, shared address space
// (carrier-grade NAT), IETF protocol assignments, benchmarking, unique local IPv6.
const privateNetworks = new BlockList();
privateNetworks.addSubnet('127.0.0.0', 8, 'ipv4');
privateNetworks.addSubnet('10.0.0.0', 8, 'ipv4');
privateNetworks.addSubnet('172.16.0.0', 12, 'ipv4');
privateNetworks.addSubnet('192.168.0.0', 16, 'ipv4');
privateNetworks.addSubnet('100.64.0.0', 10, 'ipv4');
privateNetworks.addSubnet('192.0.0.0', 24, 'ipv4');
privateNetworks.addSubnet('198.18.0.0', 15, 'ipv4');
privateNetworks.addAddress('::1', 'ipv6');
privateNetworks.addSubnet('fc00::', 7, 'ipv6');

// Worded as URL knowledge sources have always said it (their admins and tests know these sentences).
export const PRIVATE_REFUSED =
  'This server does not fetch loopback or private-network addresses (an operator can allow them)';
export const NEVER_REACHED = 'This address cannot be fetched';

/** The eight 16-bit groups of an IPv6 address (zone id ignored); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split('%')[0] ?? '';
  if (isIP(bare) !== 6) return null;
  let text = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...new Array<number>(zeros).fill(0), ...right];
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 addresses an IPv6 address carries (and so may lead to), by the standard embeddings. */
export function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const found: string[] = [];
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  const mapped = upperZero && g4 === 0 && g5 === 0xffff;
  const translated = upperZero && g4 === 0xffff && g5 === 0;
  // ::a.b.c.d, except :: and ::1 themselves (judged as IPv6).
  const compatible = upperZero && g4 === 0 && g5 === 0 && g6 !== 0;
  if (mapped || translated || compatible) found.push(v4(g6, g7));
  // NAT64: 64:ff9b::/96 and the local-use 64:ff9b:1::/48.
  if (g0 === 0x64 && g1 === 0xff9b) found.push(v4(g6, g7));
  // 6to4: 2002:AABB:CCDD::/48 leads to AA.BB.CC.DD.
  if (g0 === 0x2002) found.push(v4(g1, g2));
  // Teredo: 2001:0::/32 with the server in groups 2-3 and the client, inverted, in groups 6-7.
  if (g0 === 0x2001 && g1 === 0) found.push(v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff));
  return found;
}

/** Why this IP address may not be reached; null when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const bare = address.split('%')[0] ?? '';
  const version = isIP(bare);
  if (version === 0) return NEVER_REACHED;
  const family = version === 6 ? 'ipv6' : 'ipv4';
  // BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 rules.
  if (neverReached.check(bare, family)) return NEVER_REACHED;
  const embedded = embeddedIpv4(bare).map((a) => addressRefusal(a, allowPrivate));
  const embeddedRefusal = embedded.find((r) => r !== null);
  if (embeddedRefusal) return embeddedRefusal;
  if (!allowPrivate && privateNetworks.check(bare, family)) return PRIVATE_REFUSED;
  return null;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * What can be told about an address before connecting (scheme, a literal IP, localhost names); a host name
 * is checked again on every address it resolves to, when connecting (guardedLookup).
 */
export function urlRefusal(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Only http and https addresses can be fetched';
  const host = bareHost(url);
  if (isIP(host)) return addressRefusal(host, allowPrivate);
  if (!allowPrivate && isLocalhostName(host.toLowerCase())) return PRIVATE_REFUSED;
  return null;
}

/** A refusal at connection time, with the reason in words; callers tell it from network errors. */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

/** Resolves a host name to all its addresses (dns.lookup by default; tests give a fixed table). */
export type Resolver = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * A `lookup` for net/http that refuses the connection when ANY address of the name is refused, and
 * otherwise hands the socket exactly the addresses it checked: the connection is pinned to them, so a
 * second resolution (DNS rebinding) cannot swap in another address.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = wanted ? all.filter((a) => a.family === wanted) : all;
        const refusal = all.map((a) => addressRefusal(a.address, allowPrivate)).find((r) => r !== null);
        if (refusal || addresses.length === 0)
          return callback(new RefusedAddress(refusal ?? 'The host name has no address'), '', 0);
        if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
        const [first] = addresses;
        return callback(null, first?.address ?? '', first?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
