export function RecoverPage() {
  return (
    <section class="page narrow">
      <h1>Recover your account</h1>
    </section>
  );
}
