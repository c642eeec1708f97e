import { MAIL_GROUP_NAME_MAX_CHARS } from '@dam/contract';
import { Alert, Form, Input, Modal, Select, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { MemberPicker } from './MemberPicker';
import { useMailGroup, useSaveMailGroup } from './mailGroupsApi';
import { addressProblem, normaliseAddresses, type PickedMember } from './members';

interface GroupForm {
  mailGroupName: string;
  members: PickedMember[];
  externalEmails: string[];
}

/**
 * Creating (no `groupId`) or editing a mail group: its name (at most 20 characters, counted), its
 * members picked from the users, and addresses of people without an account. Edits send the
 * whole group, as the server expects.
 */
export function MailGroupDialog({ groupId, onClose }: { groupId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GroupForm>();
  const group = useMailGroup(groupId);
  const save = useSaveMailGroup();
  const title = groupId === null ? t('mailGroups.create') : t('mailGroups.edit');

  // The group is read afresh before it is edited; until then (or when that fails) no form.
  if (groupId !== null && !group.data) {
    return (
      <Modal open title={title} onCancel={onClose} footer={null} width={860}>
        {group.isError ? (
          <Alert type="error" showIcon title={t('mailGroups.loadFailed')} description={group.error.message} />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )}
      </Modal>
    );
  }

  const initial: GroupForm = group.data
    ? {
        mailGroupName: group.data.mailGroupName,
        members: group.data.members,
        externalEmails: group.data.externalEmails,
      }
    : { mailGroupName: '', members: [], externalEmails: [] };

  const submit = (values: GroupForm) => {
    const body = {
      mailGroupName: values.mailGroupName.trim(),
      userIdList: values.members.map((member) => member.userId),
      externalEmails: values.externalEmails,
    };
    return save.mutateAsync(groupId === null ? body : { ...body, id: groupId });
  };

  return (
    <FormModal<GroupForm>
      form={form}
      title={title}
      onSave={submit}
      onClose={onClose}
      saveTestId="mail-group-save"
      width={860}
      // The server's refusals that belong to a field: the name taken, a member no longer there.
      fieldOfCode={{ SEML_01: 'mailGroupName', SED_02: 'members' }}
      formProps={{ initialValues: initial, requiredMark: true }}
    >
      <Form.Item
        name="mailGroupName"
        label={t('mailGroups.name')}
        rules={[
          { required: true, whitespace: true, message: t('mailGroups.nameRequired') },
          {
            max: MAIL_GROUP_NAME_MAX_CHARS,
            message: t('mailGroups.tooLong', { max: MAIL_GROUP_NAME_MAX_CHARS }),
          },
        ]}
      >
        <Input
          maxLength={MAIL_GROUP_NAME_MAX_CHARS}
          showCount
          placeholder={t('mailGroups.namePlaceholder')}
          data-testid="mail-group-name"
        />
      </Form.Item>
      <Form.Item
        name="members"
        label={t('mailGroups.members')}
        dependencies={['externalEmails']}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, members: PickedMember[] | undefined) => {
              const addresses: string[] = getFieldValue('externalEmails') ?? [];
              if ((members?.length ?? 0) === 0 && addresses.length === 0)
                throw new Error(t('mailGroups.noMembers'));
            },
          }),
        ]}
      >
        <MemberPicker />
      </Form.Item>
      <Form.Item
        name="externalEmails"
        label={t('mailGroups.externalEmails')}
        extra={t('mailGroups.externalEmailsHint')}
        normalize={(values: string[]) => normaliseAddresses(values ?? [])}
        rules={[
          {
            validator: async (_rule, values: string[] | undefined) => {
              const problem = addressProblem(values ?? []);
              if (problem?.kind === 'invalid')
                throw new Error(t('mailGroups.invalidAddress', { address: problem.address }));
              if (problem?.kind === 'tooMany')
                throw new Error(t('mailGroups.tooManyAddresses', { max: problem.max }));
            },
          },
        ]}
      >
        <Select
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', ';', '，', '；', ' ']}
          placeholder={t('mailGroups.externalPlaceholder')}
          tagRender={({ value, closable, onClose, label }) => (
            <Tag
              closable={closable}
              onClose={onClose}
              color={addressProblem([String(value)]) ? 'error' : undefined}
              style={{ marginInlineEnd: 4 }}
            >
              {label}
            </Tag>
          )}
          data-testid="mail-group-emails"
        />
      </Form.Item>
    </FormModal>
  );
}
