import { Form, Input, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormModal } from '../../ui/FormModal';
import { useFocusOnOpen } from '../../ui/useFocusOnOpen';
import { shareCodeIn } from './shareLink';

interface Values {
  link: string;
}

/**
 * SPEC §2 top-bar "download shared files": paste a share link (or its code) that someone sent and
 * open it on the share page, where its files are viewed and downloaded.
 */
export function OpenShareLinkDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const linkField = useFocusOnOpen<InputRef>();
  return (
    <FormModal
      form={form}
      title={t('share.openLinkTitle')}
      saveTestId="open-share-link-submit"
      okText={t('share.openLinkSubmit')}
      successText={null}
      afterOpenChange={linkField.afterOpenChange}
      onClose={onClose}
      onSave={async ({ link }) => {
        void navigate(`/visitfile?code=${encodeURIComponent(shareCodeIn(link) as string)}`);
      }}
    >
      <Form.Item
        name="link"
        label={t('share.openLinkLabel')}
        extra={t('share.openLinkHint')}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              if (!value?.trim()) throw new Error(t('share.openLinkRequired'));
              if (!shareCodeIn(value)) throw new Error(t('share.openLinkInvalid'));
            },
          },
        ]}
      >
        <Input ref={linkField.ref} autoFocus data-testid="open-share-link-input" />
      </Form.Item>
    </FormModal>
  );
}
