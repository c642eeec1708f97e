import { useEffect, useState } from 'react';

/**
 * Seconds until a new SMS code may be asked for, counting down once a second after `start`
 * (the server's `resendAfterSeconds`). Shared by SMS sign-in, password reset and change of mobile.
 */
export function useCodeCountdown(): { secondsLeft: number; start: (seconds: number) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(1000, until - now));
    return () => window.clearTimeout(timer);
  }, [until, now]);
  return {
    secondsLeft: Math.max(0, Math.ceil((until - now) / 1000)),
    start: (seconds) => {
      const at = Date.now();
      setNow(at);
      setUntil(at + seconds * 1000);
    },
  };
}
