export function CheckInboxPage() {
  return (
    <section class="page narrow">
      <h1>Check your inbox</h1>
    </section>
  );
}
