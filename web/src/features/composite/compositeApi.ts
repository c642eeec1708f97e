import {
  type EndpointBody,
  type Endpoints,
  type Envelope,
  LANG_HEADER,
  type MakerStatus,
  parseLanguage,
  slotKeysOf,
  TOKEN_HEADER,
} from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { getToken } from '../../auth/token';
import i18n, { currentLanguage } from '../../i18n';

/** How often a running composition job is asked for its progress. */
export const JOB_POLL_MS = 2000;

export const compositeKeys = {
  all: ['composite'] as const,
  templates: (manage: boolean) => ['composite', 'templates', manage] as const,
  detail: (id: number, version?: number) => ['composite', 'template', id, version ?? 'current'] as const,
  fonts: ['composite', 'fonts'] as const,
  article: (templateId: number, version: number, artNum: string) =>
    ['composite', 'article', templateId, version, artNum] as const,
  job: (jobId: number) => ['composite', 'job', jobId] as const,
  jobs: (pageNo: number) => ['composite', 'jobs', pageNo] as const,
};

/** Active templates to compose with; `manage` (code 9): archived ones too. */
export function useTemplateList(manage: boolean) {
  return useQuery({
    queryKey: compositeKeys.templates(manage),
    queryFn: () => call(endpoints.templateList, { query: { manage: manage ? 1 : 0 } }),
  });
}

export function useTemplateDetail(id: number | null, version?: number) {
  return useQuery({
    queryKey: compositeKeys.detail(id ?? 0, version),
    enabled: id !== null,
    queryFn: () =>
      call(endpoints.templateDetail, { query: { id: id ?? 0, ...(version ? { version } : {}) } }),
  });
}

/**
 * The slots' labels of the version a job rendered (its warnings name slots by key). Silent: a
 * template deleted or archived since leaves the keys shown, not an error.
 */
export function useSlotLabels(templateId: number, version: number, enabled: boolean) {
  const lang = parseLanguage(useTranslation().i18n.language);
  return useQuery({
    enabled,
    queryKey: [...compositeKeys.detail(templateId, version), 'labels', lang],
    queryFn: async () => {
      const detail = await call(endpoints.templateDetail, {
        query: { id: templateId, version },
        silent: true,
      });
      return Object.fromEntries(slotKeysOf(detail.spec, { lang }).map((slot) => [slot.slot, slot.label]));
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** The fonts the server knows; they change only when the server restarts. */
export function useTemplateFonts() {
  return useQuery({
    queryKey: compositeKeys.fonts,
    queryFn: () => call(endpoints.templateFonts),
    staleTime: 10 * 60_000,
  });
}

/** Saves; the editor shows a refusal under its field, so the call is silent. */
export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['saveTemplate']>) =>
      call(endpoints.saveTemplate, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: compositeKeys.all }),
  });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.deleteTemplate, { body: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: compositeKeys.all }),
  });
}

export function uploadTemplateAsset(file: File) {
  const form = new FormData();
  form.append('file', file);
  return call(endpoints.uploadTemplateAsset, { body: form });
}

export const templateAssetFromFile = (folderDataId: number) =>
  call(endpoints.templateAssetFromFile, { body: { folderDataId } });

/**
 * The exact preview: the server's render of a draft or a saved version as a JPEG. A binary answer,
 * so not through `call`; a refusal still comes as the localised envelope and is thrown (silently:
 * the preview pane shows it where the picture would be).
 */
export async function fetchPreview(
  body: EndpointBody<Endpoints['previewTemplate']>,
  signal?: AbortSignal,
): Promise<Blob> {
  const headers: Record<string, string> = {
    [LANG_HEADER]: currentLanguage(),
    'content-type': 'application/json',
  };
  const token = getToken();
  if (token) headers[TOKEN_HEADER] = token;
  const response = await fetch(endpoints.previewTemplate.path, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || response.headers.get('content-type')?.includes('application/json')) {
    const envelope = (await response.json().catch(() => null)) as Envelope<unknown> | null;
    throw new ApiError(
      envelope?.errorCode ?? 'SE_500',
      envelope?.errorDesc ?? i18n.t('errors.system'),
      response.status,
    );
  }
  return response.blob();
}

export const makerPlan = (body: EndpointBody<Endpoints['makerPlan']>) =>
  call(endpoints.makerPlan, { body, silent: true });

/** One article's slots as filled and the files that could fill them (the swap drawer, the previews). */
export function useMakerArticle(templateId: number, version: number, artNum: string | null) {
  return useQuery({
    queryKey: compositeKeys.article(templateId, version, artNum ?? ''),
    enabled: Boolean(artNum),
    queryFn: () => call(endpoints.makerArticle, { body: { templateId, version, artNum: artNum ?? '' } }),
    staleTime: 30_000,
  });
}

export const startMakerImage = (body: EndpointBody<Endpoints['makerImage']>) =>
  call(endpoints.makerImage, { body, silent: true });

/** A job is at work while any article is pending or rendering. */
export const jobRunning = (status: MakerStatus | undefined) => status?.job.status === 'running';

/** A job's progress, polled while it runs; the results list is read again when it ends. */
export function useJobStatus(jobId: number | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: compositeKeys.job(jobId ?? 0),
    enabled: jobId !== null,
    queryFn: async () => {
      const before = client.getQueryData<MakerStatus>(compositeKeys.job(jobId ?? 0));
      const status = await call(endpoints.checkMakerImageStatus, { query: { jobId: jobId ?? 0 } });
      if (jobRunning(before) && !jobRunning(status))
        void client.invalidateQueries({ queryKey: ['composite', 'jobs'] });
      return status;
    },
    refetchInterval: (query) => (jobRunning(query.state.data) ? JOB_POLL_MS : false),
  });
}

export function useMyJobs(pageNo: number, pageSize: number) {
  return useQuery({
    queryKey: [...compositeKeys.jobs(pageNo), pageSize],
    queryFn: () => call(endpoints.getUserSend, { body: { pageNo, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

export const renderMissingAgain = (jobId: number) => call(endpoints.refreshUserSend, { body: { jobId } });

export const cancelJob = (jobId: number) => call(endpoints.cancelMakerImage, { body: { jobId } });

/** The zip of a job's outputs: a plain navigation to the ticket link streams it to disk. */
export async function downloadJobZip(body: EndpointBody<Endpoints['makerDownloadTicket']>): Promise<void> {
  const { url } = await call(endpoints.makerDownloadTicket, { body });
  window.location.assign(url);
}
