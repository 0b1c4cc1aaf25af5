export function DevicesPage() {
  return (
    <section class="page narrow">
      <h1>Your passkeys</h1>
    </section>
  );
}
