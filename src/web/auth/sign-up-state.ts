/**
 * The address just registered, for the "check your inbox" page. Kept in memory only (not in the URL,
 * where it would reach server logs, nor in browser storage): after a reload the page speaks of "the address you gave".
 */
let registeredEmail: string | undefined;

export function rememberRegisteredEmail(email: string): void {
  registeredEmail = email;
}

export function lastRegisteredEmail(): string | undefined {
  return registeredEmail;
}
