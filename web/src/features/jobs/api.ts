import type { JobQueueName } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

/** How often the jobs screen asks again while it is shown (TanStack Query pauses it in a hidden tab). */
export const JOBS_POLL_MS = 3000;

export const jobsKeys = {
  all: ['jobs'] as const,
  overview: ['jobs', 'overview'] as const,
  failed: (queue: JobQueueName) => ['jobs', 'failed', queue] as const,
};

export function useJobsOverview() {
  return useQuery({
    queryKey: jobsKeys.overview,
    queryFn: () => call(endpoints.jobsOverview, {}),
    refetchInterval: JOBS_POLL_MS,
  });
}

export function useFailedJobs(queue: JobQueueName) {
  return useQuery({
    queryKey: jobsKeys.failed(queue),
    queryFn: () => call(endpoints.failedJobs, { query: { queue } }),
    refetchInterval: JOBS_POLL_MS,
  });
}

/** Every action of the screen refreshes what it shows once it is done. */
function useJobsAction<Input, Result>(run: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: jobsKeys.all }),
  });
}

export const useRetryJob = () =>
  useJobsAction((body: { queue: JobQueueName; id: string }) => call(endpoints.retryJob, { body }));
export const useRetryAllJobs = () =>
  useJobsAction((queue: JobQueueName) => call(endpoints.retryAllJobs, { body: { queue } }));
export const usePauseQueue = () =>
  useJobsAction((body: { queue: JobQueueName; paused: boolean }) => call(endpoints.pauseQueue, { body }));
export const useRegeneratePreviews = () =>
  useJobsAction((itemId: number) => call(endpoints.regeneratePreviews, { body: { itemId }, silent: true }));
