import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A wide table's box: it scrolls sideways when its content is wider than the box, and then says so, in words above
 * it and with a shadow on the side that hides columns. Focusable, so a keyboard can scroll it.
 */
export function ScrollRegion(props: { labelledBy: string; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {overflows && (
        <p class="scroll-hint muted" id={`${props.labelledBy}-hint`}>
          Scroll sideways to see every column.
        </p>
      )}
      <div
        ref={box}
        class={overflows ? 'table-scroll table-scroll--overflows' : 'table-scroll'}
        role="region"
        aria-labelledby={props.labelledBy}
        aria-describedby={overflows ? `${props.labelledBy}-hint` : undefined}
        tabIndex={0}
      >
        {props.children}
      </div>
    </>
  );
}
