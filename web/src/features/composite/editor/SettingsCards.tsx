import { Button, Card, Checkbox, Form, Input, InputNumber, Radio, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTagDimensions } from '../../../api/tags';
import { ColourInput, Field } from '../BlockForm';
import type { EditorDraft } from './useEditorDraft';

type Props = Pick<EditorDraft, 'draft' | 'change' | 'setSpec' | 'shown'>;

/** The page's own settings: name, status, width and background. */
export function PageCard({ draft, change, setSpec, shown }: Props) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('composite.editor.page')} style={{ marginBottom: 12 }}>
      <Form layout="vertical" component="div">
        <Field label={t('composite.editor.name')} path="name" problems={shown}>
          <Input
            value={draft.name}
            maxLength={60}
            onChange={(e) => change({ ...draft, name: e.target.value })}
            data-testid="template-name"
          />
        </Field>
        <Field label={t('composite.editor.status')} path="status" problems={shown}>
          <Radio.Group
            value={draft.status}
            optionType="button"
            options={[
              { value: 1, label: t('composite.status.active') },
              { value: 0, label: t('composite.status.archived') },
            ]}
            onChange={(e) => change({ ...draft, status: e.target.value })}
          />
        </Field>
        <Field label={t('composite.editor.width')} path="spec.width" problems={shown}>
          <InputNumber
            value={draft.spec.width}
            precision={0}
            style={{ width: '100%' }}
            suffix="px"
            onChange={(width) => setSpec({ width: Number(width ?? 0) })}
            data-testid="template-width"
          />
        </Field>
        <Field label={t('composite.editor.background')} path="spec.background" problems={shown}>
          <ColourInput
            value={draft.spec.background}
            onChange={(background) => setSpec({ background: background ?? '#ffffff' })}
          />
        </Field>
      </Form>
    </Card>
  );
}

/** What a render writes: slice height, JPEG quality, file names, page and slices, default tags. */
export function OutputCard({
  draft,
  setOutput,
  shown,
  onChooseTags,
}: Pick<EditorDraft, 'draft' | 'setOutput' | 'shown'> & { onChooseTags: () => void }) {
  const { t } = useTranslation();
  const dimensions = useTagDimensions();
  const tagNames = new Map(
    (dimensions.data ?? []).flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag.tagName])),
  );
  return (
    <Card size="small" title={t('composite.editor.output')} style={{ marginTop: 12 }}>
      <Form layout="vertical" component="div">
        <Field
          label={t('composite.editor.sliceMaxHeight')}
          path="spec.output.sliceMaxHeight"
          problems={shown}
        >
          <InputNumber
            value={draft.spec.output.sliceMaxHeight}
            precision={0}
            style={{ width: '100%' }}
            suffix="px"
            onChange={(v) => setOutput({ sliceMaxHeight: Number(v ?? 0) })}
            data-testid="template-slice-height"
          />
        </Field>
        <Field label={t('composite.editor.quality')} path="spec.output.quality" problems={shown}>
          <InputNumber
            value={draft.spec.output.quality}
            precision={0}
            min={50}
            max={100}
            style={{ width: '100%' }}
            onChange={(v) => setOutput({ quality: Number(v ?? 85) })}
          />
        </Field>
        <Field
          label={t('composite.editor.stem')}
          path="spec.output.stem"
          problems={shown}
          extra={t('composite.editor.stemHint', { stem: draft.spec.output.stem.trim() || '…' })}
        >
          <Input
            value={draft.spec.output.stem}
            maxLength={40}
            onChange={(e) => setOutput({ stem: e.target.value })}
            data-testid="template-stem"
          />
        </Field>
        <Field label={t('composite.editor.outputs')} path="spec.output.slices" problems={shown}>
          <Space>
            <Checkbox
              checked={draft.spec.output.page}
              onChange={(e) => setOutput({ page: e.target.checked })}
            >
              {t('composite.editor.outputPage')}
            </Checkbox>
            <Checkbox
              checked={draft.spec.output.slices}
              onChange={(e) => setOutput({ slices: e.target.checked })}
            >
              {t('composite.editor.outputSlices')}
            </Checkbox>
          </Space>
        </Field>
        <Field label={t('composite.editor.defaultTags')} path="spec.output.tagIds" problems={shown}>
          <Space wrap>
            {draft.spec.output.tagIds.map((tagId) => (
              <Tag key={tagId}>{tagNames.get(tagId) ?? `#${tagId}`}</Tag>
            ))}
            <Button size="small" onClick={onChooseTags} data-testid="template-tags">
              {t('composite.editor.chooseTags')}
            </Button>
          </Space>
        </Field>
      </Form>
    </Card>
  );
}
