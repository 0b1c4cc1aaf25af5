import { describe, expect, it } from 'vitest';
import { truncateClientAddress } from './client-address.js';

describe('truncateClientAddress', () => {
  it.each([
    // IPv4: the /24 network.
    ['203.0.113.77', '203.0.113.0/24'],
    ['203.0.113.0', '203.0.113.0/24'],
    ['10.1.2.255', '10.1.2.0/24'],
    // IPv4-mapped IPv6 is the IPv4 client behind a dual-stack socket, in any spelling.
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['::FFFF:198.51.100.9', '198.51.100.0/24'],
    ['0:0:0:0:0:ffff:198.51.100.9', '198.51.100.0/24'],
    ['::ffff:c633:6409', '198.51.100.0/24'],
    // IPv6: the /48, as RFC 5952 canonical text (lower case, no leading zeros, longest zero run as `::`).
    ['2001:db8:abcd:12::1', '2001:db8:abcd::/48'],
    ['2001:db8:abcd:0012:0000:0000:0000:0001', '2001:db8:abcd::/48'],
    ['2001:db8::1', '2001:db8::/48'],
    ['2001:0db8:0000:0000::', '2001:db8::/48'],
    ['2001:DB8:ABCD:12::1', '2001:db8:abcd::/48'],
    ['2001:0:abcd::1', '2001:0:abcd::/48'],
    ['0:db8:abcd::1', '0:db8:abcd::/48'],
    ['::1', '::/48'],
    ['::', '::/48'],
    ['::ffff:0:198.51.100.9', '::/48'], // IPv4-translated (RFC 2765), not mapped
    // A zone id names the interface, not the client.
    ['fe80::1%eth0', 'fe80::/48'],
    ['fe80:0:ab::1%25', 'fe80:0:ab::/48'],
    // Anything else is not an address.
    ['', null],
    [null, null],
    [undefined, null],
    ['localhost', null],
    ['203.0.113', null],
    ['203.0.113.256', null],
    ['203.0.113.7:443', null],
    [' 203.0.113.7', null],
    ['203.0.113.7%eth0', null],
    ['fe80::1%', null],
    ['2001:db8::1::2', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['::ffff:198.51.100', null],
  ])('%j → %j', (address, expected) => {
    expect(truncateClientAddress(address)).toBe(expected);
  });
});
