import { CopyOutlined, LinkOutlined, LockOutlined } from '@ant-design/icons';
import {
  type CreateShareResult,
  DEFAULT_SHARE_TYPE,
  DEFAULT_SHARE_VALIDITY,
  type Item,
  SHARE_VALIDITIES,
  ShareType,
  type ShareValidity,
} from '@dam/contract';
import { Alert, App, Button, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatDate } from '../../ui/format';
import { absoluteShareUrl, useCreateShare, useShareCollection } from './sharesApi';

/** What "copy link and password" puts on the clipboard, in the reader's language. */
export function shareText(
  t: (key: string, values?: Record<string, string>) => string,
  url: string,
  password: string | null,
): string {
  return password ? t('share.copyText', { url, password }) : url;
}

/** Copies to the clipboard and says whether it worked (SPEC §8 copy success / fail). */
export function useCopy() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('share.copyOk'));
    } catch {
      void message.error(t('share.copyFailed'));
    }
  };
}

/** The second dialog: the link, the password if any, and the copy buttons. */
export function ShareLinkResult({ share }: { share: CreateShareResult }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const url = absoluteShareUrl(share.url);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="share-result">
      <div>
        <Typography.Text type="secondary">{t('share.link')}</Typography.Text>
        <Input
          readOnly
          value={url}
          prefix={<LinkOutlined />}
          aria-label={t('share.link')}
          data-testid="share-url"
        />
      </div>
      {share.password && (
        <div>
          <Typography.Text type="secondary">{t('share.password')}</Typography.Text>
          <Input
            readOnly
            value={share.password}
            prefix={<LockOutlined />}
            aria-label={t('share.password')}
            style={{ width: 200, display: 'flex' }}
            data-testid="share-password"
          />
        </div>
      )}
      <Typography.Text type="secondary">
        {share.expiresAt
          ? t('share.expiresAt', { time: formatDate(share.expiresAt) })
          : t('share.neverExpires')}
      </Typography.Text>
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={() => void copy(url)} data-testid="share-copy-link">
          {t('share.copyLink')}
        </Button>
        {share.password && (
          <Button
            type="primary"
            icon={<CopyOutlined />}
            onClick={() => void copy(shareText(t, url, share.password))}
            data-testid="share-copy-both"
          >
            {t('share.copyBoth')}
          </Button>
        )}
      </Space>
    </Space>
  );
}

interface ShareForm {
  needPassword: ShareType;
  expireTime: ShareValidity;
}

/** What a link's first step names: the items chosen, or a collection (shared live). */
function sharedText(
  t: (key: string, values?: Record<string, string>) => string,
  items: Array<Pick<Item, 'id' | 'name'>>,
  collection: { name: string } | undefined,
): string {
  if (collection) return t('share.collectionLive', { name: collection.name });
  const names = items.slice(0, 3).map((i) => i.name);
  return items.length > 3
    ? t('share.itemsMore', { names: names.join('、'), count: String(items.length) })
    : t('share.items', { names: names.join('、') });
}

/**
 * SPEC §2 share-link dialog: link type (password or public) and validity (default password and
 * 7 days), then a second step with the link, the password and copy buttons. Given a collection
 * (issue 43), the link is the collection's: it shows its items of each visit.
 */
export function ShareDialog({
  items = [],
  collection,
  onClose,
}: {
  items?: Array<Pick<Item, 'id' | 'name'>>;
  collection?: { id: number; name: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateShare();
  const createForCollection = useShareCollection();
  const [form] = Form.useForm<ShareForm>();
  const [created, setCreated] = useState<CreateShareResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: ShareForm) => {
    setError(null);
    const link = { needPassword: values.needPassword, expireTime: values.expireTime };
    try {
      setCreated(
        collection
          ? await createForCollection.mutateAsync({ ...link, id: collection.id })
          : await create.mutateAsync({ ...link, folderIds: items.map((i) => i.id).join(',') }),
      );
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure.desc);
    }
  };

  return (
    <Modal
      open
      title={created ? t('share.createdTitle') : t('share.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        created ? (
          <Button onClick={onClose} data-testid="share-done">
            {t('common.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={create.isPending || createForCollection.isPending}
              onClick={() => form.submit()}
              data-testid="share-create"
            >
              {t('share.create')}
            </Button>
          </Space>
        )
      }
    >
      {created ? (
        <ShareLinkResult share={created} />
      ) : (
        <Form<ShareForm>
          form={form}
          layout="vertical"
          initialValues={{ needPassword: DEFAULT_SHARE_TYPE, expireTime: DEFAULT_SHARE_VALIDITY }}
          onFinish={(values) => void submit(values)}
        >
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }}>
            {sharedText(t, items, collection)}
          </Typography.Paragraph>
          <Form.Item name="needPassword" label={t('share.type')}>
            <Radio.Group data-testid="share-type">
              <Radio value={ShareType.password}>{t('share.withPassword')}</Radio>
              <Radio value={ShareType.public}>{t('share.public')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="expireTime" label={t('share.validity')}>
            <Radio.Group
              optionType="button"
              options={SHARE_VALIDITIES.map((v) => ({ value: v, label: t(`share.validityOption.${v}`) }))}
              data-testid="share-validity"
            />
          </Form.Item>
          {error && <Alert type="error" showIcon title={error} />}
        </Form>
      )}
    </Modal>
  );
}
