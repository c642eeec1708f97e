import { Form, type FormInstance, type FormProps, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../api/notify';
import { type FieldOfCode, showApiError } from '../api/showApiError';
import { testId } from './testId';

export interface FormModalProps<Values> {
  form: FormInstance<Values>;
  title: ReactNode;
  /** Sends the form; its failure keeps the dialog open and is shown (under a field if mapped). */
  onSave: (values: Values) => Promise<unknown>;
  onClose: () => void;
  /** Shown after a save (default "saved"); null shows nothing. */
  successText?: string | null;
  /** Server refusals that belong under a field. */
  fieldOfCode?: FieldOfCode<Values>;
  /** Test id of the save button. */
  saveTestId: string;
  /** The save button's words when the form does something other than save (default "save"). */
  okText?: ReactNode;
  open?: boolean;
  width?: number;
  formProps?: Omit<FormProps<Values>, 'form' | 'onFinish'> & Record<`data-${string}`, string>;
  /** Rendered inside the dialog after the form (a picker it opens, say). */
  extra?: ReactNode;
  /** Called when the dialog has been shown or hidden (focusing a field: `useFocusOnOpen`). */
  afterOpenChange?: (open: boolean) => void;
  children: ReactNode;
}

/**
 * The form dialog of the manage and files screens: Save submits the form, the save runs with the
 * button loading, success says so and closes, a refusal stays open with the server's reason.
 */
export function FormModal<Values>({
  form,
  title,
  onSave,
  onClose,
  successText,
  fieldOfCode,
  saveTestId,
  okText,
  open = true,
  width,
  formProps,
  extra,
  afterOpenChange,
  children,
}: FormModalProps<Values>) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);

  const save = async (values: Values) => {
    setSaving(true);
    try {
      await onSave(values);
      const text = successText === undefined ? t('common.saveOk') : successText;
      if (text) notifySuccess(text);
      onClose();
    } catch (error) {
      showApiError(error, fieldOfCode ? { form, fieldOfCode } : undefined);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, ...testId(saveTestId) }}
      width={width}
      destroyOnHidden
      afterOpenChange={afterOpenChange}
    >
      <Form<Values> layout="vertical" {...formProps} form={form} onFinish={(values) => void save(values)}>
        {children}
      </Form>
      {extra}
    </Modal>
  );
}
