export function LabPage() {
  return (
    <section class="page">
      <h1>Backtest lab</h1>
    </section>
  );
}
