export interface MailContent {
  readonly heading: string;
  readonly paragraphs: readonly string[];
  readonly action?: { readonly label: string; readonly url: string };
  readonly footer?: string;
}

/** One mail in two bodies, plain text and HTML, from the same words. Text is escaped for HTML. */
export function renderMail(content: MailContent): { text: string; html: string } {
  const footer = content.footer ?? 'You receive this because of an action on your tradelab account.';
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '--',
    footer,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<h1 style="font-size: 20px">${escapeHtml(content.heading)}</h1>`,
    ...content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(content.action
      ? [`<p><a href="${escapeHtml(content.action.url)}">${escapeHtml(content.action.label)}</a></p>`]
      : []),
    `<hr><p style="color: #666; font-size: 12px">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
