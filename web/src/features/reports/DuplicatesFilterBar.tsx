import { FolderOpenOutlined } from '@ant-design/icons';
import type { DuplicateReportRequest } from '@dam/contract';
import { Button, Slider, Space, Tooltip, TreeSelect, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../ui/ExportButton';
import { useCompletenessOptions } from '../completeness';
import { saveDuplicateExport } from './duplicatesApi';

/** The slider's range: the stored pairs reach 11 bits (plan §7); 0 would be exact copies only. */
const THRESHOLD_MIN = 1;
const THRESHOLD_MAX = 11;

interface DeptOption {
  value: number;
  title: string;
  children: DeptOption[];
}

/** The filter's departments (the completeness report's choices: those within reach) as a tree. */
function deptTree(departments: ReadonlyArray<{ id: number; name: string; parentId: number | null }>) {
  const nodes = new Map<number, DeptOption>(
    departments.map((d) => [d.id, { value: d.id, title: d.name, children: [] }]),
  );
  const roots: DeptOption[] = [];
  for (const d of departments) {
    const node = nodes.get(d.id) as DeptOption;
    const parent = d.parentId === null ? undefined : nodes.get(d.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

interface DuplicatesFilterBarProps {
  deptId: number | undefined;
  onDept: (deptId: number | undefined) => void;
  folder: { id: number; path: string } | null;
  onPickFolder: () => void;
  onClearFolder: () => void;
  /** The slider's position: the one being moved, the one asked for or the server's own. */
  threshold: number | undefined;
  /** The slider moves (nothing is asked for yet). */
  onSlide: (value: number) => void;
  /** The slider is let go at this threshold. */
  onThreshold: (value: number) => void;
  /** What the export asks for: the report's filters. */
  request: DuplicateReportRequest;
  exportDisabled: boolean;
}

/** The duplicate report's department, folder and threshold, and its export. */
export function DuplicatesFilterBar({
  deptId,
  onDept,
  folder,
  onPickFolder,
  onClearFolder,
  threshold,
  onSlide,
  onThreshold,
  request,
  exportDisabled,
}: DuplicatesFilterBarProps) {
  const { t } = useTranslation();
  const options = useCompletenessOptions();
  const departments = useMemo(() => deptTree(options.data?.departments ?? []), [options.data]);
  return (
    <Space wrap align="center">
      <TreeSelect
        allowClear
        showSearch
        treeDefaultExpandAll
        treeNodeFilterProp="title"
        value={deptId}
        onChange={(value?: number) => onDept(value ?? undefined)}
        treeData={departments}
        placeholder={t('duplicates.allDepartments')}
        style={{ width: 220 }}
        aria-label={t('duplicates.allDepartments')}
        data-testid="duplicates-dept"
      />
      <Space size={4}>
        <Button icon={<FolderOpenOutlined />} onClick={onPickFolder} data-testid="duplicates-folder">
          {folder ? folder.path : t('duplicates.anyFolder')}
        </Button>
        {folder && (
          <Button type="link" onClick={onClearFolder} data-testid="duplicates-folder-clear">
            {t('duplicates.clearFolder')}
          </Button>
        )}
      </Space>
      <Space size={8} align="center">
        <Tooltip title={t('duplicates.thresholdHint')}>
          <Typography.Text>{t('duplicates.threshold')}</Typography.Text>
        </Tooltip>
        <Slider
          min={THRESHOLD_MIN}
          max={THRESHOLD_MAX}
          step={1}
          value={threshold}
          disabled={threshold === undefined}
          onChange={onSlide}
          onChangeComplete={onThreshold}
          marks={{ [THRESHOLD_MIN]: String(THRESHOLD_MIN), [THRESHOLD_MAX]: String(THRESHOLD_MAX) }}
          style={{ width: 200, marginBlock: 0 }}
          ariaLabelForHandle={t('duplicates.threshold')}
          data-testid="duplicates-threshold"
        />
        <Typography.Text type="secondary" data-testid="duplicates-threshold-value">
          {threshold === undefined ? '' : t('duplicates.bits', { bits: threshold })}
        </Typography.Text>
      </Space>
      <ExportButton
        save={() => saveDuplicateExport(request)}
        disabled={exportDisabled}
        label={t('duplicates.export')}
        hint={t('duplicates.exportHint')}
        testId="duplicates-export"
      />
    </Space>
  );
}
