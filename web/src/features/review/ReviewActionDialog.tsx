import { REVIEW_NOTE_MAX, REVIEWERS_MAX, type ReviewAction, type ReviewState } from '@dam/contract';
import { Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { useChangeReview, useReviewerCandidates } from './api';

interface Values {
  reviewerIds?: number[];
  note?: string;
}

/**
 * One review action on a file, with a note; asking for review names the reviewers among the
 * file's approvers. The state the caller saw travels with it, so a change made meanwhile by
 * someone else is refused (and named) rather than overwritten.
 */
export function ReviewActionDialog({
  itemId,
  action,
  state,
  onClose,
}: {
  itemId: number;
  action: ReviewAction;
  state: ReviewState;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const change = useChangeReview();
  const [keyword, setKeyword] = useState('');
  const search = useDebouncedValue(keyword, 250);
  const picking = action === 'request';
  const candidates = useReviewerCandidates(itemId, search, picking);
  const label = t(`review.action.${action}`);
  const submit = async (values: Values) => {
    await change.mutateAsync({
      itemId,
      action,
      expectedState: state,
      note: values.note ?? '',
      ...(picking ? { reviewerIds: values.reviewerIds ?? [] } : {}),
    });
    notifySuccess(t(`review.done.${action}`));
    onClose();
  };
  return (
    <Modal
      open
      title={label}
      okText={label}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={change.isPending}
      okButtonProps={{ danger: action === 'requestChanges', 'data-testid': 'review-confirm' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        // Refused (shown by the client): someone changed the file meanwhile, or the state does not
        // allow it. The dialog closes on the state as it is now, read again; nothing is sent twice.
        onFinish={(values) =>
          submit(values).catch((error: unknown) => {
            if (error instanceof ApiError && (error.code === 'SERV_01' || error.code === 'SERV_02'))
              onClose();
          })
        }
      >
        {picking && (
          <Form.Item
            name="reviewerIds"
            label={t('review.pickReviewers')}
            extra={t('review.pickReviewersHint')}
            rules={[{ required: true, message: t('review.reviewersRequired') }]}
          >
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={setKeyword}
              maxCount={REVIEWERS_MAX}
              loading={candidates.isFetching}
              placeholder={t('review.searchReviewers')}
              notFoundContent={
                candidates.isFetching ? null : (
                  <Typography.Text type="secondary">{t('review.noCandidates')}</Typography.Text>
                )
              }
              options={(candidates.data ?? []).map((person) => ({
                value: person.userId,
                label: person.deptName ? `${person.name} · ${person.deptName}` : person.name,
              }))}
              data-testid="review-reviewers"
            />
          </Form.Item>
        )}
        <Form.Item name="note" label={t('review.note')}>
          <Input.TextArea
            rows={3}
            maxLength={REVIEW_NOTE_MAX}
            showCount
            placeholder={t('review.notePlaceholder')}
            data-testid="review-note"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
