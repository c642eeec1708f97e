import { MOBILE_PATTERN, SMS_CODE_PATTERN } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifyError, notifySuccess } from '../../api/notify';
import { authApi } from '../../auth/api';
import { useCodeCountdown } from '../../auth/useCodeCountdown';
import { currentUserKey } from '../../auth/useCurrentUser';

interface MobileForm {
  mobile: string;
  messageCode: string;
}

/**
 * Change one's own mobile number (SPEC §2 My info, §7 mobile-modify): a code goes to the new
 * number, and the number changes once the code is entered.
 */
export function ChangeMobileForm({ current, onDone }: { current: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MobileForm>();
  const [sending, setSending] = useState(false);
  const [saving, setSaving] = useState(false);
  const countdown = useCodeCountdown();

  const sendCode = async () => {
    let mobile: string;
    try {
      ({ mobile } = await form.validateFields(['mobile']));
    } catch {
      return;
    }
    setSending(true);
    try {
      const sent = await authApi.sendMobileChangeCode({ mobile: mobile.trim() });
      countdown.start(sent.resendAfterSeconds);
      notifySuccess(t('login.codeSent'));
    } catch (failure) {
      notifyError(failure instanceof ApiError ? failure.desc : t('login.codeNotSent'));
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: MobileForm) => {
    setSaving(true);
    try {
      await authApi.changeOwnMobile({ mobile: values.mobile.trim(), messageCode: values.messageCode.trim() });
      notifySuccess(t('account.mobileChanged'));
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
      onDone();
    } catch (failure) {
      form.setFields([
        {
          name: 'messageCode',
          errors: [failure instanceof ApiError ? failure.desc : t('errors.system')],
        },
      ]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<MobileForm>
      form={form}
      layout="vertical"
      onFinish={submit}
      requiredMark={false}
      data-testid="change-mobile-form"
    >
      <Typography.Paragraph type="secondary">
        {t('account.currentMobile', { mobile: current ?? '—' })}
      </Typography.Paragraph>
      <Form.Item
        name="mobile"
        label={t('account.newMobile')}
        rules={[
          { required: true, message: t('login.mobileRequired') },
          { pattern: MOBILE_PATTERN, message: t('login.mobileInvalid') },
          {
            validator: (_rule, value: string | undefined) =>
              value && value.trim() === current
                ? Promise.reject(new Error(t('account.mobileSame')))
                : Promise.resolve(),
          },
        ]}
      >
        <Input inputMode="tel" maxLength={11} autoComplete="tel-national" data-testid="new-mobile" />
      </Form.Item>
      <Form.Item label={t('login.code')} required={false}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="messageCode"
            noStyle
            rules={[
              { required: true, message: t('login.codeRequired') },
              { pattern: SMS_CODE_PATTERN, message: t('login.codeInvalid') },
            ]}
          >
            <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" data-testid="mobile-code" />
          </Form.Item>
          <Button
            onClick={() => void sendCode()}
            loading={sending}
            disabled={countdown.secondsLeft > 0}
            data-testid="send-mobile-code"
          >
            {countdown.secondsLeft > 0
              ? t('login.resendIn', { seconds: countdown.secondsLeft })
              : t('login.sendCode')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} block data-testid="save-mobile">
        {t('common.save')}
      </Button>
    </Form>
  );
}
