/**
 * One message carried from a page to the next in-app page (a saved form to the list): memory only, read
 * once. A reload drops it, which is fine: it only confirms what the list then shows.
 */
let pending: string | undefined;

export function setFlash(message: string): void {
  pending = message;
}

export function takeFlash(): string | undefined {
  const message = pending;
  pending = undefined;
  return message;
}
