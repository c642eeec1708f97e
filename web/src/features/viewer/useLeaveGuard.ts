import { App, type ButtonProps } from 'antd';
import { type MutableRefObject, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Issue 39 item 2: leaving the edit mode (cancel, info, another file, closing the viewer, Esc) with
 * changes not saved asks first. The edit form tells through `changed` whether it holds any.
 */
export function useLeaveGuard(editing: boolean): {
  changed: MutableRefObject<() => boolean>;
  leave: (action: () => void) => void;
} {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const changed = useRef<() => boolean>(() => false);
  const asking = useRef(false);
  const leave = (action: () => void) => {
    if (!editing || !changed.current()) {
      action();
      return;
    }
    // A second Esc or click while the question is shown does not ask twice.
    if (asking.current) return;
    asking.current = true;
    modal.confirm({
      title: t('viewer.discardTitle'),
      content: t('viewer.discardBody'),
      okText: t('viewer.discard'),
      okButtonProps: { danger: true, 'data-testid': 'discard-confirm' } as ButtonProps,
      cancelText: t('viewer.keepEditing'),
      onOk: action,
      afterClose: () => {
        asking.current = false;
      },
    });
  };
  return { changed, leave };
}
