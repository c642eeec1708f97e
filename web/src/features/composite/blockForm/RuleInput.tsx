import { type FillRule, FunctionCode } from '@dam/contract';
import { AutoComplete, Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTagDimensions } from '../../../api/tags';
import { holdsCodes } from '../../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../../auth/useCurrentUser';
import { useCompletenessConfigWhen } from '../slotNaming';

/**
 * How a slot finds its file: a view (the completeness views are offered to code 6 holders, any
 * code may be typed), a tag, or the n-th image of the article.
 */
export function RuleInput({
  value,
  onChange,
  testId,
  id,
  name,
}: {
  value: FillRule;
  onChange: (value: FillRule) => void;
  testId: string;
  /** The kind's select, named by the field's label; `name` names the inputs when there is none. */
  id?: string;
  name?: string;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const readsViews = holdsCodes(functionCodesOf(user.data), [FunctionCode.data]);
  const config = useCompletenessConfigWhen(readsViews);
  const dimensions = useTagDimensions(value.kind === 'tag');
  const viewOptions = (config.data?.views ?? [])
    .filter((view) => view.code)
    .map((view) => ({ value: view.code as string, label: `${view.code} · ${view.name}` }));
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        id={id}
        aria-label={id ? undefined : name}
        value={value.kind}
        style={{ width: 110 }}
        options={(['view', 'tag', 'nth'] as const).map((kind) => ({
          value: kind,
          label: t(`composite.rule.${kind}`),
        }))}
        onChange={(kind) =>
          onChange(
            kind === 'view' ? { kind, code: '' } : kind === 'tag' ? { kind, tagId: 0 } : { kind, n: 1 },
          )
        }
        data-testid={`${testId}-kind`}
      />
      {value.kind === 'view' && (
        <AutoComplete
          value={value.code}
          options={viewOptions}
          style={{ flex: 1 }}
          placeholder={t('composite.rule.codePlaceholder')}
          filterOption={(input, option) => String(option?.value ?? '').includes(input.toLowerCase())}
          onChange={(code) => onChange({ kind: 'view', code: String(code ?? '') })}
        >
          <Input
            aria-label={`${name ?? ''} ${t('composite.rule.view')}`.trim()}
            data-testid={`${testId}-code`}
          />
        </AutoComplete>
      )}
      {value.kind === 'tag' && (
        <Select
          showSearch
          optionFilterProp="label"
          value={value.tagId || undefined}
          style={{ flex: 1 }}
          loading={dimensions.isPending}
          placeholder={t('composite.rule.tagPlaceholder')}
          aria-label={`${name ?? ''} ${t('composite.rule.tag')}`.trim()}
          options={(dimensions.data ?? []).map((dimension) => ({
            label: dimension.dimensionName,
            title: dimension.dimensionName,
            options: dimension.tagDTOList.map((tag) => ({ value: tag.id, label: tag.tagName })),
          }))}
          onChange={(tagId: number) => onChange({ kind: 'tag', tagId })}
          data-testid={`${testId}-tag`}
        />
      )}
      {value.kind === 'nth' && (
        <InputNumber
          value={value.n}
          min={1}
          max={50}
          precision={0}
          style={{ flex: 1 }}
          prefix="#"
          aria-label={`${name ?? ''} ${t('composite.rule.nth')}`.trim()}
          onChange={(n) => onChange({ kind: 'nth', n: Number(n ?? 1) })}
          data-testid={`${testId}-n`}
        />
      )}
    </Space.Compact>
  );
}
