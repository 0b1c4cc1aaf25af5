import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMail } from './layout.js';

describe('renderMail', () => {
  const hostile = {
    heading: 'Hello <script>alert("x")</script>',
    paragraphs: ["Tom & Jerry's <b>bold</b> plan", 'Second paragraph'],
    action: { label: 'Go <now>', url: 'https://tradelab.test/verify?token=a&next="/x"' },
  };

  it('escapes the heading, the paragraphs and the action in the HTML body', () => {
    const { html } = renderMail(hostile);

    expect(html).toContain('<h1 style="font-size: 20px">Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</h1>');
    expect(html).toContain('<p>Tom &amp; Jerry&#39;s &lt;b&gt;bold&lt;/b&gt; plan</p>');
    expect(html).toContain('<p>Second paragraph</p>');
    expect(html).toContain('<a href="https://tradelab.test/verify?token=a&amp;next=&quot;/x&quot;">Go &lt;now&gt;</a>');
    expect(html).not.toMatch(/<script|<b>|<now>/);
  });

  it('writes the same words, unescaped, in the text body, in order, with the action as label and URL', () => {
    const { text } = renderMail(hostile);

    expect(text.split('\n')).toEqual([
      'Hello <script>alert("x")</script>',
      '',
      "Tom & Jerry's <b>bold</b> plan",
      '',
      'Second paragraph',
      '',
      'Go <now>: https://tradelab.test/verify?token=a&next="/x"',
      '',
      '--',
      'You receive this because of an action on your tradelab account.',
    ]);
  });

  it('leaves the action out of both bodies when there is none, and uses a given footer', () => {
    const { text, html } = renderMail({ heading: 'Export ready', paragraphs: ['Your data export is ready.'], footer: 'Sent <once>' });

    expect(text).toBe('Export ready\n\nYour data export is ready.\n\n--\nSent <once>');
    expect(html).not.toContain('<a ');
    expect(html).toContain('Sent &lt;once&gt;</p>');
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });
});

describe('escapeHtml', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a & b', 'a &amp; b'],
    ['<tag>', '&lt;tag&gt;'],
    ['"double"', '&quot;double&quot;'],
    ["'single'", '&#39;single&#39;'],
    ['&amp;', '&amp;amp;'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });
});
