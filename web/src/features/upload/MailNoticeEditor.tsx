import { MailOutlined } from '@ant-design/icons';
import {
  MAIL_NOTICE_CONTENT_MAX_CHARS,
  MAIL_NOTICE_MAX_DELAY_HOURS,
  MAIL_NOTICE_REMARK_MAX_CHARS,
  MAIL_NOTICE_SUBJECT_MAX_CHARS,
} from '@dam/contract';
import { Card, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotifiableUsers, useUsableMailGroups } from './api';
import { EMPTY_NOTICE, type MailNoticeDraft, type MailNoticeProblem } from './mailNoticeDraft';

/**
 * SPEC §2 remind-mail editor of the upload dialog: mail groups and/or colleagues (one required),
 * the message, a remark and the delay in whole hours after the batch has finished. Off (null)
 * until switched on.
 */
export function MailNoticeEditor({
  value,
  onChange,
  problem,
}: {
  value: MailNoticeDraft | null;
  onChange: (next: MailNoticeDraft | null) => void;
  problem: MailNoticeProblem | null;
}) {
  const { t } = useTranslation();
  const on = value !== null;
  const [keyword, setKeyword] = useState('');
  const groups = useUsableMailGroups(on);
  const users = useNotifiableUsers(keyword, on);
  // Users picked earlier stay labelled while the search shows others.
  const [known, setKnown] = useState<Record<number, string>>({});
  const set = (patch: Partial<MailNoticeDraft>) => value && onChange({ ...value, ...patch });
  const userOptions = (users.data ?? []).map((u) => ({
    value: u.userId,
    label: u.deptName ? `${u.name}（${u.deptName}）` : u.name,
    title: u.email,
  }));
  for (const id of value?.userIds ?? []) {
    if (!userOptions.some((o) => o.value === id))
      userOptions.push({ value: id, label: known[id] ?? String(id), title: '' });
  }

  return (
    <Card
      size="small"
      style={{ marginTop: 12 }}
      data-testid="mail-notice"
      title={
        <Space>
          <MailOutlined />
          {t('mailNotice.title')}
        </Space>
      }
      extra={
        <Switch
          checked={on}
          onChange={(checked) => onChange(checked ? EMPTY_NOTICE : null)}
          aria-label={t('mailNotice.title')}
          data-testid="mail-notice-switch"
        />
      }
      styles={on ? undefined : { body: { display: 'none' } }}
    >
      {on && (
        <Form layout="vertical" requiredMark={false} component="div">
          <Form.Item
            label={t('mailNotice.groups')}
            validateStatus={problem === 'noRecipients' ? 'error' : undefined}
            style={{ marginBottom: 12 }}
          >
            <Select
              mode="multiple"
              allowClear
              loading={groups.isPending}
              placeholder={t('mailNotice.groupsPlaceholder')}
              value={value.groupIds}
              onChange={(groupIds: number[]) => set({ groupIds })}
              optionFilterProp="label"
              options={(groups.data ?? []).map((g) => ({
                value: g.id,
                label: g.mailGroupName,
                title: g.members.join('、'),
              }))}
              notFoundContent={groups.isPending ? undefined : t('mailNotice.noGroups')}
              data-testid="mail-notice-groups"
            />
          </Form.Item>
          <Form.Item
            label={t('mailNotice.users')}
            validateStatus={problem === 'noRecipients' ? 'error' : undefined}
            help={problem === 'noRecipients' ? t('mailNotice.noRecipients') : undefined}
            style={{ marginBottom: 12 }}
          >
            <Select
              mode="multiple"
              allowClear
              showSearch={{ filterOption: false, onSearch: setKeyword }}
              loading={users.isFetching}
              placeholder={t('mailNotice.usersPlaceholder')}
              value={value.userIds}
              onChange={(userIds: number[]) => {
                setKnown((all) => ({
                  ...all,
                  ...Object.fromEntries(userOptions.map((o) => [o.value, o.label])),
                }));
                set({ userIds });
              }}
              options={userOptions}
              notFoundContent={users.isFetching ? undefined : t('mailNotice.noUsers')}
              data-testid="mail-notice-users"
            />
          </Form.Item>
          <NoticeMessageFields value={value} set={set} problem={problem} />
        </Form>
      )}
    </Card>
  );
}

/** The notice's message: subject, content, remark, and the delay in whole hours. */
function NoticeMessageFields({
  value,
  set,
  problem,
}: {
  value: MailNoticeDraft;
  set: (patch: Partial<MailNoticeDraft>) => void;
  problem: MailNoticeProblem | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('mailNotice.subject')} style={{ marginBottom: 12 }}>
        <Input
          maxLength={MAIL_NOTICE_SUBJECT_MAX_CHARS}
          placeholder={t('mailNotice.subjectPlaceholder')}
          value={value.subject}
          onChange={(e) => set({ subject: e.target.value })}
          data-testid="mail-notice-subject"
        />
      </Form.Item>
      <Form.Item label={t('mailNotice.content')} style={{ marginBottom: 12 }}>
        <Input.TextArea
          rows={3}
          maxLength={MAIL_NOTICE_CONTENT_MAX_CHARS}
          showCount
          placeholder={t('mailNotice.contentPlaceholder')}
          value={value.content}
          onChange={(e) => set({ content: e.target.value })}
          data-testid="mail-notice-content"
        />
      </Form.Item>
      <Space align="start" wrap style={{ width: '100%' }}>
        <Form.Item label={t('mailNotice.remark')} style={{ marginBottom: 0, minWidth: 300 }}>
          <Input
            maxLength={MAIL_NOTICE_REMARK_MAX_CHARS}
            value={value.remark}
            onChange={(e) => set({ remark: e.target.value })}
            data-testid="mail-notice-remark"
          />
        </Form.Item>
        <Form.Item
          label={t('mailNotice.delay')}
          validateStatus={problem === 'delay' ? 'error' : undefined}
          help={
            problem === 'delay' ? t('mailNotice.delayRule', { max: MAIL_NOTICE_MAX_DELAY_HOURS }) : undefined
          }
          style={{ marginBottom: 0 }}
        >
          <InputNumber
            min={0}
            max={MAIL_NOTICE_MAX_DELAY_HOURS}
            step={1}
            value={value.delayHours}
            onChange={(delayHours) => set({ delayHours: typeof delayHours === 'number' ? delayHours : null })}
            suffix={t('mailNotice.hours')}
            style={{ width: 140 }}
            data-testid="mail-notice-delay"
          />
        </Form.Item>
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        {t('mailNotice.hint')}
      </Typography.Paragraph>
    </>
  );
}
