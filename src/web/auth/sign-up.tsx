export function SignUpPage() {
  return (
    <section class="page narrow">
      <h1>Create an account</h1>
    </section>
  );
}
