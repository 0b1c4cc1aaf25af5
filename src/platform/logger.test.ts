import { describe, expect, it } from 'vitest';
import { stripSecretsFromUrl } from './logger.js';

describe('stripSecretsFromUrl', () => {
  it.each([
    ['/healthz', '/healthz'],
    ['/api/strategies?limit=10&offset=20', '/api/strategies?limit=10&offset=20'],
    ['/verify?token=abc123', '/verify?token=[redacted]'],
    ['/verify?access_token=abc123', '/verify?access_token=[redacted]'],
    ['/recover?recovery_token=abc123&next=%2F', '/recover?recovery_token=[redacted]&next=%2F'],
    ['/verify?%74oken=abc123', '/verify?%74oken=[redacted]'],
    ['/verify?TOKEN=abc123', '/verify?TOKEN=[redacted]'],
    ['/cb?state=s&code=abc123', '/cb?state=s&code=[redacted]'],
    ['/x?api_key=abc123', '/x?api_key=[redacted]'],
    ['/x?client_secret=abc123', '/x?client_secret=[redacted]'],
    ['/x?password=abc123', '/x?password=[redacted]'],
    ['/x?X-Amz-Signature=abc123', '/x?X-Amz-Signature=[redacted]'],
    ['/x?sessionId=abc123', '/x?sessionId=[redacted]'],
    ['/x?Authorization=Bearer+abc123', '/x?Authorization=[redacted]'],
    ['/x?token=abc=123&token=def', '/x?token=[redacted]&token=[redacted]'],
    ['/x?a=1&&token=abc123&flag', '/x?a=1&&token=[redacted]&flag'],
    ['/x?token=', '/x?token=[redacted]'],
    ['/path/with/token/in/it?page=2', '/path/with/token/in/it?page=2'],
    ['/x?', '/x?'],
  ])('%s → %s', (url, logged) => {
    expect(stripSecretsFromUrl(url)).toBe(logged);
  });

  it('leaves no secret value behind in any of the examples', () => {
    for (const url of ['/a?access_token=abc123', '/a?%61uth=abc123', '/a?x=1&My-Session=abc123', '/a?to%6Ben=abc123']) {
      expect(stripSecretsFromUrl(url)).not.toContain('abc123');
    }
  });
});
