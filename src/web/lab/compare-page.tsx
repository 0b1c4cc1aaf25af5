export function ComparePage() {
  return (
    <section class="page">
      <h1>Compare strategies</h1>
    </section>
  );
}
