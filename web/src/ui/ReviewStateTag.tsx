import type { ReviewState } from '@dam/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOURS: Record<ReviewState, string> = {
  draft: 'default',
  inReview: 'processing',
  approved: 'success',
  changesRequested: 'warning',
  archived: 'default',
};

/** A file's review state (issue 43) as a small coloured tag: on cards, in the viewer, in lists. */
export function ReviewStateTag({ state, className }: { state: ReviewState; className?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOURS[state]} className={className} data-testid="review-state" data-state={state}>
      {t(`review.state.${state}`)}
    </Tag>
  );
}
