export function VerifyEmailPage() {
  return (
    <section class="page narrow">
      <h1>Confirm your email address</h1>
    </section>
  );
}
