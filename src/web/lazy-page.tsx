import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A page whose code (and whatever it imports) loads only when first shown: the lab pulls in the chart
 * library, which a phone opening a mailed sign-in link has no use for.
 */
export function lazyPage(load: () => Promise<FunctionComponent>): FunctionComponent {
  let loaded: FunctionComponent | undefined;
  let loading: Promise<FunctionComponent> | undefined;
  return function LazyPage() {
    const [Page, setPage] = useState<FunctionComponent | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (Page) return;
      loading ??= load().then((component) => (loaded = component));
      loading.then(
        (component) => setPage(() => component),
        () => {
          loading = undefined;
          setFailed(true);
        },
      );
    }, [Page]);
    if (Page) return <Page />;
    return (
      <section class="page" aria-busy={!failed}>
        <p class="muted" role="status">
          {failed ? 'This page could not be loaded. Check your connection and reload.' : 'Loading…'}
        </p>
      </section>
    );
  };
}
