/** Controls on the page without an accessible name: a label, aria-label(ledby), or (buttons, links) text. */
export const UNLABELLED_CONTROLS = `[...document.querySelectorAll('input, select, textarea, button, a[href]')]
  .filter((el) => el.type !== 'hidden' && el.offsetParent !== null)
  .filter((el) => {
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return false;
    if (el.labels && el.labels.length > 0) return false;
    return !(el.tagName === 'BUTTON' || el.tagName === 'A') || el.textContent.trim() === '';
  })
  .map((el) => el.outerHTML.slice(0, 120))`;
