export function SignInPage() {
  return (
    <section class="page narrow">
      <h1>Sign in</h1>
    </section>
  );
}
