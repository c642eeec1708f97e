import { UploadOutlined } from '@ant-design/icons';
import {
  type Block,
  type FillRule,
  type FixedBlock,
  FunctionCode,
  type ImageBlock,
  type Padding,
  TEMPLATE_ASSET_MAX_BYTES,
  TEXT_FIELDS,
  type TemplateAsset,
  type TemplateFont,
} from '@dam/contract';
import {
  AutoComplete,
  Button,
  Checkbox,
  ColorPicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Typography,
  Upload,
} from 'antd';
import { cloneElement, isValidElement, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../api/notify';
import { showApiError } from '../../api/showApiError';
import { useTagDimensions } from '../../api/tags';
import { holdsCodes } from '../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { templateAssetFromFile, uploadTemplateAsset } from './compositeApi';
import { useCompletenessConfigWhen } from './slotNaming';
import { NO_ASSET } from './templateDraft';

/** Where a field's problem is shown: its text by problem path (`spec.blocks.2.text`). */
export type ProblemTexts = ReadonlyMap<string, string>;

/** A labelled field with the problem of `path` under it. */
export function Field({
  label,
  path,
  problems,
  children,
  extra,
}: {
  label: ReactNode;
  path: string;
  problems: ProblemTexts;
  children: ReactNode;
  extra?: ReactNode;
}) {
  const problem = problems.get(path);
  // The label names its input (axe, issue 39): the id goes to the input, or the component forwards it.
  const id = `tpl-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const input = isValidElement<{ id?: string }>(children) ? cloneElement(children, { id }) : children;
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      validateStatus={problem ? 'error' : undefined}
      help={problem}
      extra={extra}
      style={{ marginBottom: 12 }}
      data-testid={`field-${path}`}
    >
      {input}
    </Form.Item>
  );
}

/** A #rrggbb colour; `nullable`: may be cleared (the page's background then). */
export function ColourInput({
  value,
  onChange,
  nullable,
  testId,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  nullable?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Space>
      <ColorPicker
        value={value}
        disabledAlpha
        showText
        allowClear={nullable}
        onChange={(colour) => onChange(colour.toHexString())}
        onClear={() => onChange(null)}
        data-testid={testId}
      />
      {nullable && value === null && (
        <Typography.Text type="secondary">{t('composite.editor.inherit')}</Typography.Text>
      )}
    </Space>
  );
}

/** A whole number of pixels; `nullable` fields are "automatic" when empty. */
function Pixels({
  value,
  onChange,
  min,
  max,
  nullable,
  testId,
  id,
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  min: number;
  max: number;
  nullable?: boolean;
  testId?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <InputNumber
      id={id}
      value={value}
      min={min}
      max={max}
      precision={0}
      style={{ width: '100%' }}
      placeholder={nullable ? t('composite.editor.auto') : undefined}
      suffix="px"
      onChange={(next) => onChange(next === null ? (nullable ? null : min) : Number(next))}
      data-testid={testId}
    />
  );
}

function PaddingInput({ value, onChange }: { value: Padding; onChange: (value: Padding) => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      {(['top', 'right', 'bottom', 'left'] as const).map((side) => (
        <InputNumber
          key={side}
          value={value[side]}
          min={0}
          max={400}
          precision={0}
          style={{ width: 96 }}
          prefix={t(`composite.editor.side.${side}`)}
          aria-label={`${t('composite.editor.padding')} ${t(`composite.editor.side.${side}`)}`}
          onChange={(next) => onChange({ ...value, [side]: Number(next ?? 0) })}
          data-testid={`padding-${side}`}
        />
      ))}
    </Space>
  );
}

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

function FontSelect({
  value,
  onChange,
  fonts,
  id,
}: {
  value: string;
  onChange: (value: string) => void;
  fonts: readonly TemplateFont[];
  id?: string;
}) {
  const { t } = useTranslation();
  const known = fonts.some((font) => font.id === value);
  return (
    <Select
      id={id}
      value={value || undefined}
      onChange={onChange}
      placeholder={t('composite.editor.fontPlaceholder')}
      options={[
        ...fonts.map((font) => ({
          value: font.id,
          disabled: !font.available,
          label: `${font.family}${font.cjk ? ` · ${t('composite.editor.cjk')}` : ''}${
            font.available ? '' : ` (${t('composite.editor.fontUnavailable')})`
          }`,
        })),
        ...(value && !known
          ? [{ value, disabled: true, label: `${value} (${t('composite.editor.fontUnavailable')})` }]
          : []),
      ]}
      data-testid="block-font"
    />
  );
}

/** A fixed image: upload a JPG, PNG or WebP, or copy one of the library's files by its id. */
function AssetInput({
  value,
  onChange,
  assets,
  onAsset,
}: {
  value: number;
  onChange: (assetId: number) => void;
  assets: ReadonlyMap<number, TemplateAsset>;
  onAsset: (asset: TemplateAsset) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [fileId, setFileId] = useState<number | null>(null);
  const asset = value === NO_ASSET ? undefined : assets.get(value);
  const take = async (made: Promise<TemplateAsset>) => {
    setBusy(true);
    try {
      const next = await made;
      onAsset(next);
      onChange(next.id);
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {asset ? (
        <Space>
          <img src={asset.url} alt="" style={{ maxWidth: 160, maxHeight: 80, border: '1px solid #e2e8f0' }} />
          <Typography.Text type="secondary">
            {asset.width} × {asset.height}
          </Typography.Text>
        </Space>
      ) : value !== NO_ASSET ? (
        <Typography.Text type="secondary">#{value}</Typography.Text>
      ) : null}
      <Upload
        accept=".jpg,.jpeg,.png,.webp"
        showUploadList={false}
        beforeUpload={(file) => {
          // The server refuses it too; saying so here spares uploading 20 MB for nothing.
          if (file.size > TEMPLATE_ASSET_MAX_BYTES)
            notifyError(t('composite.editor.assetTooBig', { mb: TEMPLATE_ASSET_MAX_BYTES / 1024 / 1024 }));
          else void take(uploadTemplateAsset(file));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} data-testid="asset-upload">
          {t('composite.editor.uploadAsset')}
        </Button>
      </Upload>
      <Space.Compact>
        <InputNumber
          value={fileId}
          min={1}
          precision={0}
          placeholder={t('composite.editor.fileIdPlaceholder')}
          onChange={(next) => setFileId(next === null ? null : Number(next))}
          style={{ width: 180 }}
          data-testid="asset-file-id"
        />
        <Button
          disabled={!fileId}
          loading={busy}
          onClick={() => fileId && void take(templateAssetFromFile(fileId))}
        >
          {t('composite.editor.assetFromFile')}
        </Button>
      </Space.Compact>
    </Space>
  );
}

export interface BlockFormProps {
  block: Block;
  /** Where the block's fields are in the problem paths: `spec.blocks.<index>`. */
  path: string;
  problems: ProblemTexts;
  fonts: readonly TemplateFont[];
  assets: ReadonlyMap<number, TemplateAsset>;
  onAsset: (asset: TemplateAsset) => void;
  onChange: (block: Block) => void;
}

/** The fields of one block, by its type. */
export function BlockForm({ block, path, problems, fonts, assets, onAsset, onChange }: BlockFormProps) {
  const { t } = useTranslation();
  const field = (name: string, label: ReactNode, input: ReactNode, extra?: ReactNode) => (
    <Field label={label} path={`${path}.${name}`} problems={problems} extra={extra}>
      {input}
    </Field>
  );
  // Each arm narrows `block`, so the change keeps its type.
  const set = <B extends Block>(current: B, patch: Partial<B>) => onChange({ ...current, ...patch });
  const placeholders = useMemo(() => TEXT_FIELDS.map((name) => `{${name}}`).join(' '), []);

  const label =
    block.type !== 'text' && block.type !== 'spacer'
      ? field(
          'label',
          t('composite.editor.label'),
          <Input
            value={block.label}
            maxLength={40}
            onChange={(e) => set(block, { label: e.target.value })}
            data-testid="block-label"
          />,
        )
      : null;
  const padding =
    block.type !== 'spacer'
      ? field(
          'padding',
          t('composite.editor.padding'),
          <PaddingInput value={block.padding} onChange={(p) => set(block, { padding: p })} />,
        )
      : null;
  /** The height of an image or banner block: empty follows its picture's aspect ratio. */
  const autoHeight = (target: ImageBlock | FixedBlock) =>
    field(
      'height',
      t('composite.editor.height'),
      <Pixels
        nullable
        value={target.height}
        min={20}
        max={4000}
        onChange={(height) => set(target, { height })}
        testId="block-height"
      />,
      t('composite.editor.autoHeightHint'),
    );
  const fit =
    block.type === 'image' || block.type === 'grid' || block.type === 'fixed' ? (
      <>
        {field(
          'fit',
          t('composite.editor.fit'),
          <ModeButtons
            value={block.fit}
            modes={['cover', 'contain'] as const}
            labelKey="composite.editor.fitMode"
            onChange={(fit) => set(block, { fit })}
          />,
        )}
        {field(
          'position',
          t('composite.editor.position'),
          <Select
            value={block.position}
            options={(['centre', 'top', 'bottom', 'left', 'right'] as const).map((v) => ({
              value: v,
              label: t(`composite.editor.positionMode.${v}`),
            }))}
            onChange={(position) => set(block, { position })}
          />,
        )}
        {block.fit === 'contain' &&
          field(
            'background',
            t('composite.editor.blockBackground'),
            <ColourInput
              nullable
              value={block.background}
              onChange={(background) => set(block, { background })}
            />,
          )}
      </>
    ) : null;

  return (
    <Form layout="vertical" component="div" data-testid={`block-form-${block.type}`}>
      {label}
      {block.type === 'image' && (
        <>
          {field(
            'rule',
            t('composite.editor.rule'),
            <RuleInput value={block.rule} onChange={(rule) => set(block, { rule })} testId="rule" />,
          )}
          {problems.get(`${path}.rule.code`) ||
          problems.get(`${path}.rule.tagId`) ||
          problems.get(`${path}.rule.n`) ? (
            <Typography.Text type="danger">
              {problems.get(`${path}.rule.code`) ??
                problems.get(`${path}.rule.tagId`) ??
                problems.get(`${path}.rule.n`)}
            </Typography.Text>
          ) : null}
          <Checkbox
            checked={block.required}
            onChange={(e) => set(block, { required: e.target.checked })}
            style={{ marginBottom: 12 }}
          >
            {t('composite.editor.required')}
          </Checkbox>
          {autoHeight(block)}
        </>
      )}
      {block.type === 'grid' && (
        <>
          {field(
            'columns',
            t('composite.editor.columns'),
            <Radio.Group
              value={block.columns}
              optionType="button"
              options={[2, 3].map((v) => ({ value: v, label: String(v) }))}
              onChange={(e) => set(block, { columns: e.target.value })}
            />,
          )}
          {field(
            'cells',
            t('composite.editor.cells', { count: block.cells.length }),
            <Space orientation="vertical" style={{ width: '100%' }}>
              {block.cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positions (slot `id:index`); they have no identity of their own
                <div key={index}>
                  <Space.Compact style={{ width: '100%' }}>
                    <RuleInput
                      value={cell}
                      onChange={(rule) =>
                        set(block, { cells: block.cells.map((c, i) => (i === index ? rule : c)) })
                      }
                      testId={`cell-${index}`}
                      name={`${t('composite.editor.rule')} ${index + 1}`}
                    />
                    <Button
                      disabled={block.cells.length <= 1}
                      onClick={() => set(block, { cells: block.cells.filter((_, i) => i !== index) })}
                    >
                      −
                    </Button>
                  </Space.Compact>
                  {(() => {
                    const at = `${path}.cells.${index}`;
                    const problem =
                      problems.get(`${at}.code`) ?? problems.get(`${at}.tagId`) ?? problems.get(`${at}.n`);
                    return problem ? <Typography.Text type="danger">{problem}</Typography.Text> : null;
                  })()}
                </div>
              ))}
              <Button
                disabled={block.cells.length >= 12}
                onClick={() =>
                  set(block, { cells: [...block.cells, { kind: 'nth', n: block.cells.length + 1 }] })
                }
                data-testid="cell-add"
              >
                {t('composite.editor.addCell')}
              </Button>
            </Space>,
          )}
          {field(
            'required',
            t('composite.editor.gridRequired'),
            <Select
              value={block.required}
              options={(['all', 'any', 'none'] as const).map((v) => ({
                value: v,
                label: t(`composite.editor.gridRequiredMode.${v}`),
              }))}
              onChange={(required) => set(block, { required })}
            />,
          )}
          {field(
            'cellHeight',
            t('composite.editor.cellHeight'),
            <Pixels
              nullable
              value={block.cellHeight}
              min={20}
              max={2000}
              onChange={(cellHeight) => set(block, { cellHeight })}
            />,
            t('composite.editor.squareHint'),
          )}
          {field(
            'gap',
            t('composite.editor.gap'),
            <Pixels value={block.gap} min={0} max={100} onChange={(gap) => set(block, { gap: gap ?? 0 })} />,
          )}
        </>
      )}
      {block.type === 'text' && (
        <>
          {field(
            'text',
            t('composite.editor.text'),
            <Input.TextArea
              value={block.text}
              rows={3}
              maxLength={500}
              onChange={(e) => set(block, { text: e.target.value })}
              data-testid="block-text"
            />,
            t('composite.editor.placeholders', { fields: placeholders }),
          )}
          {field(
            'fontId',
            t('composite.editor.font'),
            <FontSelect value={block.fontId} fonts={fonts} onChange={(fontId) => set(block, { fontId })} />,
          )}
          <Space wrap align="start">
            {field(
              'size',
              t('composite.editor.size'),
              <Pixels
                value={block.size}
                min={8}
                max={200}
                onChange={(size) => set(block, { size: size ?? 8 })}
                testId="block-size"
              />,
            )}
            {field(
              'lineSpacing',
              t('composite.editor.lineSpacing'),
              <Pixels
                nullable
                value={block.lineSpacing}
                min={0}
                max={200}
                onChange={(lineSpacing) => set(block, { lineSpacing })}
              />,
            )}
          </Space>
          {field(
            'colour',
            t('composite.editor.colour'),
            <ColourInput
              value={block.colour}
              onChange={(colour) => set(block, { colour: colour ?? '#000000' })}
            />,
          )}
          <Checkbox
            checked={block.bold}
            onChange={(e) => set(block, { bold: e.target.checked })}
            style={{ marginBottom: 12 }}
          >
            {t('composite.editor.bold')}
          </Checkbox>
          {field(
            'align',
            t('composite.editor.align'),
            <ModeButtons
              value={block.align}
              modes={['left', 'centre', 'right'] as const}
              labelKey="composite.editor.alignMode"
              onChange={(align) => set(block, { align })}
            />,
          )}
          {field(
            'verticalAlign',
            t('composite.editor.verticalAlign'),
            <ModeButtons
              value={block.verticalAlign}
              modes={['top', 'middle', 'bottom'] as const}
              labelKey="composite.editor.verticalMode"
              onChange={(verticalAlign) => set(block, { verticalAlign })}
            />,
          )}
          {field(
            'height',
            t('composite.editor.height'),
            <Pixels
              value={block.height}
              min={20}
              max={2000}
              onChange={(height) => set(block, { height: height ?? 20 })}
              testId="block-height"
            />,
            t('composite.editor.textHeightHint'),
          )}
          {field(
            'background',
            t('composite.editor.blockBackground'),
            <ColourInput
              nullable
              value={block.background}
              onChange={(background) => set(block, { background })}
            />,
          )}
        </>
      )}
      {block.type === 'spacer' && (
        <>
          {field(
            'height',
            t('composite.editor.height'),
            <Pixels
              value={block.height}
              min={1}
              max={2000}
              onChange={(height) => set(block, { height: height ?? 1 })}
              testId="block-height"
            />,
          )}
          {field(
            'colour',
            t('composite.editor.colour'),
            <ColourInput nullable value={block.colour} onChange={(colour) => set(block, { colour })} />,
          )}
        </>
      )}
      {block.type === 'fixed' && (
        <>
          {field(
            'assetId',
            t('composite.editor.asset'),
            <AssetInput
              value={block.assetId}
              assets={assets}
              onAsset={onAsset}
              onChange={(assetId) => set(block, { assetId })}
            />,
          )}
          {autoHeight(block)}
        </>
      )}
      {fit}
      {padding}
    </Form>
  );
}

/** A choice among a few modes as joined buttons, labelled `<labelKey>.<mode>`. */
function ModeButtons<const M extends string>({
  value,
  modes,
  labelKey,
  onChange,
}: {
  value: M;
  modes: readonly M[];
  labelKey: string;
  onChange: (mode: M) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      value={value}
      optionType="button"
      options={modes.map((mode) => ({ value: mode, label: t(`${labelKey}.${mode}`) }))}
      onChange={(e) => onChange(e.target.value as M)}
    />
  );
}
