import { isIP } from 'node:net';

/**
 * The stored form of a client address: its /24 network for IPv4, its /48 for IPv6
 * (`203.0.113.0/24`, `2001:db8:abcd::/48`). IPv4-mapped IPv6 (`::ffff:203.0.113.7`) counts as IPv4.
 * Returns null for anything that is not an IP address.
 */
export function truncateClientAddress(address: string | undefined | null): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const candidate = mapped ? mapped[1]! : address;
  const version = isIP(candidate);
  if (version === 4) {
    const [a, b, c] = candidate.split('.');
    return `${a}.${b}.${c}.0/24`;
  }
  if (version === 6) {
    const groups = expandIpv6(candidate.split('%')[0]!);
    const prefix = groups.slice(0, 3).map((group) => group.replace(/^0+(?=.)/, ''));
    return `${prefix.join(':')}::/48`;
  }
  return null;
}

function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  // A trailing embedded IPv4 (`::1.2.3.4`) becomes two hex groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [, a, b, c, d] = v4.map(Number) as number[];
    text = text.slice(0, v4.index) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
}
