import { useEffect, useState } from 'preact/hooks';

/**
 * The printed report. `printing` is true from "Print report" (or the browser's own print command) until printing
 * ends: the results then show every tab, and `html.printing` sizes the charts to the page (styles.css, "Report").
 * The button waits two frames before `window.print()`, so the charts have redrawn at that size.
 */
export function usePrint(): { printing: boolean; print: () => void } {
  const [printing, setPrinting] = useState(false);
  const [asked, setAsked] = useState(false);

  useEffect(() => {
    const before = () => setPrinting(true);
    const after = () => {
      setPrinting(false);
      setAsked(false);
    };
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  useEffect(() => {
    document.documentElement.classList.toggle('printing', printing);
    return () => document.documentElement.classList.remove('printing');
  }, [printing]);

  useEffect(() => {
    if (!asked) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        window.print();
        // Browsers that print without the events (or a print call that returns at once) end here.
        setPrinting(false);
        setAsked(false);
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [asked]);

  return {
    printing,
    print: () => {
      setPrinting(true);
      setAsked(true);
    },
  };
}
