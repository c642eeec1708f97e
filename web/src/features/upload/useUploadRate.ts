import { useEffect, useRef, useState } from 'react';
import { RateMeter } from './engine/rate';
import type { UploadTask } from './engine/types';
import { useUploadManager } from './UploadProvider';

export const sentOf = (task: UploadTask) => (task.fileSize * task.process) / 100;

/**
 * The upload tray's speed meter: sampled once a second while bytes move, so it reads as a steady
 * figure; reset when nothing uploads.
 */
export function useUploadRate(uploading: boolean): RateMeter {
  const manager = useUploadManager();
  const meter = useRef(new RateMeter());
  const [, tick] = useState(0);

  useEffect(() => {
    if (!uploading) {
      meter.current.reset();
      return;
    }
    const sample = () => {
      const now = manager.snapshot();
      const bytes =
        now.tasks.reduce((sum, task) => sum + sentOf(task), 0) +
        now.finished.reduce((sum, f) => sum + f.fileSize, 0);
      meter.current.add(Date.now(), bytes);
      tick((n) => n + 1);
    };
    sample();
    const timer = setInterval(sample, 1000);
    return () => clearInterval(timer);
  }, [uploading, manager]);

  return meter.current;
}
