import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

export const aboutKeys = { health: ['health'] as const };

/** The server's version and database, shown on the about page. */
export function useHealth() {
  return useQuery({ queryKey: aboutKeys.health, queryFn: () => call(endpoints.health) });
}
