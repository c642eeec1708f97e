import type { EndpointBody, EndpointQuery, Endpoints } from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

type ListQuery = EndpointQuery<Endpoints['manageMailGroups']>;
type CandidatesRequest = EndpointBody<Endpoints['mailGroupCandidates']>;

/** Everything under `all` is refetched after a group is created, changed or deleted. */
export const mailGroupsKeys = {
  all: ['mail-groups'] as const,
  page: (query: ListQuery) => ['mail-groups', 'page', query] as const,
  detail: (id: number) => ['mail-groups', 'detail', id] as const,
  departments: ['mail-groups', 'departments'] as const,
  candidates: (request: CandidatesRequest) => ['mail-groups', 'candidates', request] as const,
};

/** The groups the signed-in administrator manages (function code 1), one page. */
export function useMailGroups(query: ListQuery) {
  return useQuery({
    queryKey: mailGroupsKeys.page(query),
    queryFn: () => call(endpoints.manageMailGroups, { query, silent: true }),
    placeholderData: keepPreviousData,
  });
}

export function useMailGroup(id: number | null) {
  return useQuery({
    queryKey: mailGroupsKeys.detail(id ?? 0),
    queryFn: () => call(endpoints.mailGroupDetail, { query: { id: id as number }, silent: true }),
    enabled: id !== null,
    // The dialog edits what the server has now.
    staleTime: 0,
  });
}

/** The member picker's departments: the administrator's reach. */
export function useMemberDepartments() {
  return useQuery({
    queryKey: mailGroupsKeys.departments,
    queryFn: () => call(endpoints.mailGroupDepartments),
  });
}

/** Users the administrator may add, by department and search. */
export function useMemberCandidates(request: CandidatesRequest) {
  return useQuery({
    queryKey: mailGroupsKeys.candidates(request),
    queryFn: () => call(endpoints.mailGroupCandidates, { body: request }),
    placeholderData: keepPreviousData,
  });
}

/** Saves a group (create without an id, edit with one); errors are shown by the form. */
export function useSaveMailGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      body: EndpointBody<Endpoints['editMailGroup']> | EndpointBody<Endpoints['createMailGroup']>,
    ) =>
      'id' in body
        ? call(endpoints.editMailGroup, { body, silent: true })
        : call(endpoints.createMailGroup, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: mailGroupsKeys.all }),
  });
}

export function useDeleteMailGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.deleteMailGroup, { body: { id }, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: mailGroupsKeys.all }),
  });
}
