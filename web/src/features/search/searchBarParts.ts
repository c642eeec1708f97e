import { LIMITS, SearchFileType } from '@dam/contract';
import { useEffect, useState } from 'react';

export const FILE_TYPE_OPTIONS: Array<{ value: SearchFileType; key: string }> = [
  { value: SearchFileType.all, key: 'search.scope.all' },
  { value: SearchFileType.folders, key: 'search.scope.folders' },
  { value: SearchFileType.files, key: 'search.scope.files' },
  { value: SearchFileType.images, key: 'search.scope.images' },
  { value: SearchFileType.videos, key: 'search.scope.videos' },
];

/** The value after 500 ms without change (SPEC §5: suggestions at most once per 500 ms). */
export function useThrottled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), LIMITS.artNumSearchThrottleMs);
    return () => window.clearTimeout(timer);
  }, [value]);
  return settled;
}
