import type { EndpointBody, EndpointQuery, Endpoints } from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { deliveriesPollInterval, webhooksPollInterval } from './webhooks';

type ListQuery = EndpointQuery<Endpoints['apiAccessList']>;

/** Everything under `all` is refetched after a record or an enterprise changes. */
export const openApiKeys = {
  all: ['open-api'] as const,
  page: (query: ListQuery) => ['open-api', 'accesses', query] as const,
  detail: (id: number) => ['open-api', 'detail', id] as const,
  enterprises: ['open-api', 'enterprises'] as const,
  calls: ['open-api', 'calls'] as const,
  webhooks: (accessId: number) => ['open-api', 'webhooks', accessId] as const,
  deliveries: (webhookId: number, pageNo: number) => ['open-api', 'deliveries', webhookId, pageNo] as const,
};

/** SPEC getAllUserApi: the access records, one page. */
export function useApiAccesses(query: ListQuery) {
  return useQuery({
    queryKey: openApiKeys.page(query),
    queryFn: () => call(endpoints.apiAccessList, { query, silent: true }),
    placeholderData: keepPreviousData,
  });
}

/** SPEC getUserApiById: a record with its allowed calls, rate and use. */
export function useApiAccessDetail(id: number | null) {
  return useQuery({
    queryKey: openApiKeys.detail(id ?? 0),
    queryFn: () => call(endpoints.apiAccessDetail, { body: { id: id as number }, silent: true }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** SPEC getEnterpriseId without an ID: every enterprise. */
export function useApiEnterprises() {
  return useQuery({
    queryKey: openApiKeys.enterprises,
    queryFn: () => call(endpoints.apiEnterprises, { body: {}, silent: true }),
  });
}

/** SPEC getAllApi: the open calls an enterprise may be allowed. */
export function useOpenCalls() {
  return useQuery({
    queryKey: openApiKeys.calls,
    queryFn: () => call(endpoints.openCalls, { silent: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function useChange<Input, Result>(send: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: openApiKeys.all }),
    // An answer may hold a secret: the mutation cache keeps nothing once the screen has shown it.
    gcTime: 0,
  });
}

/** SPEC addOpenApi: create (the answer has the secret, once) or edit (with `id`). Errors: the caller's. */
export function useSaveApiAccess() {
  return useChange((body: EndpointBody<Endpoints['saveApiAccess']>) =>
    call(endpoints.saveApiAccess, { body, silent: true }),
  );
}

export function useDeleteApiAccess() {
  return useChange((id: number) => call(endpoints.deleteApiAccess, { body: { id }, silent: true }));
}

/** A new secret, answered once; the old one signs on for `graceHours`. */
export function useRotateApiSecret() {
  return useChange((body: EndpointBody<Endpoints['rotateApiSecret']>) =>
    call(endpoints.rotateApiSecret, { body, silent: true }),
  );
}

/**
 * SPEC updateEnterpriseId then updateOpenApiToEnterpriseId: the enterprise's name and rate, then
 * its allowed calls (replaced whole). Saving again after a failure of the second is harmless.
 */
export function useSaveApiEnterprise() {
  return useChange(
    async (
      body: EndpointBody<Endpoints['saveApiEnterprise']> & EndpointBody<Endpoints['saveEnterpriseCalls']>,
    ) => {
      const { apiCodes, ...enterprise } = body;
      await call(endpoints.saveApiEnterprise, { body: enterprise, silent: true });
      return call(endpoints.saveEnterpriseCalls, {
        body: { enterpriseId: body.enterpriseId, apiCodes },
        silent: true,
      });
    },
  );
}

export function useDeleteApiEnterprise() {
  return useChange((enterpriseId: string) =>
    call(endpoints.deleteApiEnterprise, { body: { enterpriseId }, silent: true }),
  );
}

/** An access record's webhooks, read again every few seconds while a last delivery is pending. */
export function useWebhooks(accessId: number | null) {
  return useQuery({
    queryKey: openApiKeys.webhooks(accessId ?? 0),
    queryFn: () => call(endpoints.webhookList, { query: { accessId: accessId as number }, silent: true }),
    enabled: accessId !== null,
    refetchInterval: (query) => webhooksPollInterval(query.state.data),
  });
}

/** A webhook's delivery log, newest first, one page; read again while a delivery is pending. */
export function useWebhookDeliveries(webhookId: number | null, pageNo: number, pageSize: number) {
  return useQuery({
    queryKey: openApiKeys.deliveries(webhookId ?? 0, pageNo),
    queryFn: () =>
      call(endpoints.webhookDeliveries, {
        query: { webhookId: webhookId as number, pageNo, pageSize },
        silent: true,
      }),
    enabled: webhookId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => deliveriesPollInterval(query.state.data?.list),
  });
}

/** Registers a webhook (the answer has its signing secret, once) or edits it (with `id`). */
export function useSaveWebhook() {
  return useChange((body: EndpointBody<Endpoints['saveWebhook']>) =>
    call(endpoints.saveWebhook, { body, silent: true }),
  );
}

export function useDeleteWebhook() {
  return useChange((id: number) => call(endpoints.deleteWebhook, { body: { id }, silent: true }));
}

/** A `ping` delivery, queued now; the answer names it. */
export function useTestWebhook() {
  return useChange((id: number) => call(endpoints.testWebhook, { body: { id }, silent: true }));
}

/** A delivery that ended sent again. */
export function useRedeliverWebhook() {
  return useChange((deliveryId: number) =>
    call(endpoints.redeliverWebhook, { body: { deliveryId }, silent: true }),
  );
}
