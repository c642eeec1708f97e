import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { decideLayoutAccess } from './guard';
import { getToken } from './token';

export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const decision = decideLayoutAccess(location, Boolean(getToken()));
  return decision.allow ? children : <Navigate to={decision.redirectTo} replace />;
}
