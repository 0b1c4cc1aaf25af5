import { Link } from '../router';
import { PAGE_SIZE, type PageSpan } from './page-span';

export { PAGE_SIZE, rangeText, type PageSpan } from './page-span';

/**
 * Previous / Next for a paged list, shown only when the list is longer than a page. Either `href` (the page lives
 * in the address; links) or `go` (the page lives in the component's state; buttons) gives the way to an offset.
 */
export function Pager(
  props: PageSpan & { label: string; size?: number } & ({ href: (offset: number) => string; go?: never } | { go: (offset: number) => void; href?: never }),
) {
  const size = props.size ?? PAGE_SIZE;
  const last = props.offset + props.shown;
  if (props.total <= size && props.offset === 0) return null;
  const previous = Math.max(0, props.offset - size);
  const next = props.offset + size;
  const to = (offset: number, text: string) =>
    props.href ? (
      <Link href={props.href(offset)}>{text}</Link>
    ) : (
      <button type="button" class="link-button" onClick={() => props.go?.(offset)}>
        {text}
      </button>
    );
  return (
    <nav class="pager" aria-label={props.label}>
      {props.offset > 0 && to(previous, `← Previous ${size}`)}
      {last < props.total && to(next, `Next ${Math.min(size, props.total - last)} →`)}
    </nav>
  );
}
