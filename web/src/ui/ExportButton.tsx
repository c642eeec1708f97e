import { DownloadOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Tooltip } from 'antd';
import { type ReactNode, useState } from 'react';

/**
 * A button that saves a workbook the server makes, busy while it is made. `save` shows the
 * server's reason itself when it refuses (saveFile does), so a refusal only ends the wait here.
 */
export function ExportButton({
  save,
  label,
  hint,
  testId,
  type,
  disabled,
}: {
  save: () => Promise<unknown>;
  label: ReactNode;
  hint?: ReactNode;
  testId: string;
  type?: ButtonProps['type'];
  disabled?: boolean;
}) {
  const [exporting, setExporting] = useState(false);
  const button = (
    <Button
      type={type}
      icon={<DownloadOutlined />}
      loading={exporting}
      disabled={disabled}
      onClick={async () => {
        setExporting(true);
        try {
          await save();
        } catch {
          // Already shown by `save`.
        } finally {
          setExporting(false);
        }
      }}
      data-testid={testId}
    >
      {label}
    </Button>
  );
  return hint ? <Tooltip title={hint}>{button}</Tooltip> : button;
}
