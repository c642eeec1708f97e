import type { ReactNode } from 'react';
import { functionCodesOf, useCurrentUser } from './useCurrentUser';

/** True when the user holds one of `codes` (or, with `every`, all of them) (SPEC §6). */
export function holdsCodes(held: number[], codes: number[], every = false): boolean {
  return every ? codes.every((c) => held.includes(c)) : codes.some((c) => held.includes(c));
}

/** Shows its children only to holders of the codes. The server checks again on every call. */
export function Permission({
  codes,
  every,
  children,
}: {
  codes: number[];
  every?: boolean;
  children: ReactNode;
}) {
  const { data } = useCurrentUser();
  return holdsCodes(functionCodesOf(data), codes, every) ? children : null;
}
