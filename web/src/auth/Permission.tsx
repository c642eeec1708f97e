import type { ReactNode } from 'react';
import { holdsCodes } from './guard';
import { functionCodesOf, useCurrentUser } from './useCurrentUser';

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
