import { isIP } from 'node:net';

/**
 * The stored form of a client address: its /24 network for IPv4, its /48 for IPv6 in the canonical
 * text of RFC 5952 (`203.0.113.0/24`, `2001:db8:abcd::/48`, `2001:db8::/48`). IPv4-mapped IPv6
 * (`::ffff:203.0.113.7`, in any spelling) counts as IPv4; an IPv6 zone id (`%eth0`) is dropped.
 * Returns null for anything that is not an IP address.
 */
export function truncateClientAddress(address: string | undefined | null): string | null {
  if (!address) return null;
  const version = isIP(address);
  if (version === 4) return ipv4Network(address);
  // isIP accepts a zone id on IPv6 only; it names the interface, not the client.
  if (version !== 6) return null;
  const groups = ipv6Groups(address.split('%')[0]!);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return ipv4Network(`${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`);
  }
  return ipv6Network48(groups.slice(0, 3));
}

function ipv4Network(address: string): string {
  const [a, b, c] = address.split('.');
  return `${a}.${b}.${c}.0/24`;
}

/**
 * The /48 keeps three groups and zeroes five, and that run of five is always the longest, so the
 * canonical text drops the prefix's trailing zero groups into it: `2001:db8:0::` is `2001:db8::`.
 */
function ipv6Network48(prefix: number[]): string {
  while (prefix.length > 0 && prefix[prefix.length - 1] === 0) prefix.pop();
  return `${prefix.map((group) => group.toString(16)).join(':')}::/48`;
}

/** The eight 16-bit groups of a valid IPv6 address (as `isIP` accepts it, zone id removed). */
function ipv6Groups(address: string): number[] {
  let text = address;
  // A trailing embedded IPv4 (`::ffff:1.2.3.4`) becomes two hex groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups].map((group) => parseInt(group, 16));
}
