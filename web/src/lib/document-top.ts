import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Where an element starts in the document (px from the top of the page), kept as what is above it
 * loads or resizes: the scroll margin a window virtualiser needs for a list that is not at the top.
 */
export function useDocumentTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (el) setTop(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    const watch = new ResizeObserver(measure);
    watch.observe(document.body);
    return () => watch.disconnect();
  }, [ref]);
  return top;
}
