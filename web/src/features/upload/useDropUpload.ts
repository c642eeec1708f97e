import { useEffect, useRef, useState } from 'react';
import { type DroppedFile, dragHasFiles, droppedFiles } from './engine/droppedFiles';

/**
 * Files and folders dragged from the desktop onto the page (issue 39: drag and drop): `dragging`
 * while they are over it, `onDrop` with what was dropped. While `enabled` is false (a dialog is
 * open) a drop is still caught, so the browser does not open the file in place of the app, but
 * nothing is done with it. Drags of the page's own elements are left alone.
 */
export function useDropUpload(enabled: boolean, onDrop: (files: DroppedFile[]) => void) {
  const [dragging, setDragging] = useState(false);
  const latest = useRef({ enabled, onDrop });
  latest.current = { enabled, onDrop };

  useEffect(() => {
    // dragenter and dragleave fire for every element crossed: counted, the drag left when none remain.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      depth += 1;
      if (latest.current.enabled) setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = latest.current.enabled ? 'copy' : 'none';
    };
    const leave = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!event.dataTransfer || !dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      if (!latest.current.enabled) return;
      void droppedFiles(event.dataTransfer).then(
        (files) => latest.current.onDrop(files),
        () => latest.current.onDrop([]),
      );
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    };
  }, []);

  return dragging && enabled;
}
