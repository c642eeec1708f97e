import type { Block, FillRule, GridBlock, Padding, TemplateAsset, TemplateFont } from '@dam/contract';
import { Button, Checkbox, Input, Radio, Select, Space, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AssetInput } from './AssetInput';
import type { BlockField, BlockFieldKind, ProblemTexts } from './blockFields';
import { ColourInput, FontSelect, ModeButtons, PaddingInput, Pixels } from './inputs';
import { RuleInput } from './RuleInput';

/** What a field's input is drawn from. */
export interface BlockFieldContext {
  field: BlockField;
  block: Block;
  /** Where the block's fields are in the problem paths: `spec.blocks.<index>`. */
  path: string;
  problems: ProblemTexts;
  fonts: readonly TemplateFont[];
  assets: ReadonlyMap<number, TemplateAsset>;
  onAsset: (asset: TemplateAsset) => void;
  onChange: (block: Block) => void;
  t: TFunction;
}

/** The problem of a fill rule at `at` (it is reported on the rule's one field that is wrong). */
const ruleProblemOf = (problems: ProblemTexts, at: string) =>
  problems.get(`${at}.code`) ?? problems.get(`${at}.tagId`) ?? problems.get(`${at}.n`);

/**
 * The block's value of a field and its setter. The table's keys are the contract's block
 * properties, so the value is read and written by name; the draft's checks and the server's
 * schema both hold it to its type.
 */
function access<V>({ field, block, onChange }: BlockFieldContext) {
  const value = (block as unknown as Record<string, unknown>)[field.key] as V;
  const set = (next: V) => onChange({ ...block, [field.key]: next } as Block);
  return [value, set] as const;
}

/**
 * One input per kind. They are returned as elements (not wrapped in a component) so that `Field`
 * hands its id straight to the input its label names.
 */
const INPUTS: Record<BlockFieldKind, (context: BlockFieldContext) => ReactNode> = {
  input: (context) => {
    const [value, set] = access<string>(context);
    return (
      <Input
        value={value}
        maxLength={context.field.maxLength}
        onChange={(e) => set(e.target.value)}
        data-testid={context.field.testId}
      />
    );
  },
  textarea: (context) => {
    const [value, set] = access<string>(context);
    return (
      <Input.TextArea
        value={value}
        rows={3}
        maxLength={context.field.maxLength}
        onChange={(e) => set(e.target.value)}
        data-testid={context.field.testId}
      />
    );
  },
  pixels: (context) => {
    const [value, set] = access<number | null>(context);
    const { field } = context;
    return (
      <Pixels
        nullable={field.nullable}
        value={value}
        min={field.min ?? 0}
        max={field.max ?? 0}
        onChange={set}
        testId={field.testId}
      />
    );
  },
  colour: (context) => {
    const [value, set] = access<string | null>(context);
    const { field } = context;
    return (
      <ColourInput
        nullable={field.nullable}
        value={value}
        onChange={(colour) => set(colour ?? field.fallback ?? null)}
      />
    );
  },
  buttons: (context) => {
    const [value, set] = access<string>(context);
    return (
      <ModeButtons
        value={value}
        modes={context.field.modes ?? []}
        labelKey={context.field.modeLabelKey ?? ''}
        onChange={set}
      />
    );
  },
  select: (context) => {
    const [value, set] = access<string>(context);
    const { field, t } = context;
    return (
      <Select
        value={value}
        options={(field.modes ?? []).map((v) => ({ value: v, label: t(`${field.modeLabelKey}.${v}`) }))}
        onChange={set}
      />
    );
  },
  columns: (context) => {
    const [value, set] = access<number>(context);
    return (
      <Radio.Group
        value={value}
        optionType="button"
        options={[2, 3].map((v) => ({ value: v, label: String(v) }))}
        onChange={(e) => set(e.target.value)}
      />
    );
  },
  font: (context) => {
    const [value, set] = access<string>(context);
    return <FontSelect value={value} fonts={context.fonts} onChange={set} />;
  },
  rule: (context) => {
    const [value, set] = access<FillRule>(context);
    return <RuleInput value={value} onChange={set} testId="rule" />;
  },
  ruleProblem: ({ problems, path }) => {
    const problem = ruleProblemOf(problems, `${path}.rule`);
    return problem ? <Typography.Text type="danger">{problem}</Typography.Text> : null;
  },
  cells: ({ block, path, problems, onChange }) =>
    block.type === 'grid' ? (
      <GridCells block={block} path={path} problems={problems} onChange={onChange} />
    ) : null,
  asset: (context) => {
    const [value, set] = access<number>(context);
    return <AssetInput value={value} assets={context.assets} onAsset={context.onAsset} onChange={set} />;
  },
  padding: (context) => {
    const [value, set] = access<Padding>(context);
    return <PaddingInput value={value} onChange={set} />;
  },
  checkbox: (context) => {
    const [value, set] = access<boolean>(context);
    return (
      <Checkbox checked={value} onChange={(e) => set(e.target.checked)} style={{ marginBottom: 12 }}>
        {context.t(context.field.labelKey ?? '')}
      </Checkbox>
    );
  },
};

/** The input of one field of the block's form. */
export const blockFieldInput = (context: BlockFieldContext): ReactNode => INPUTS[context.field.kind](context);

/** A grid's cells: one fill rule each, removable, up to 12. */
function GridCells({
  block,
  path,
  problems,
  onChange,
  id,
}: {
  block: GridBlock;
  path: string;
  problems: ProblemTexts;
  onChange: (block: GridBlock) => void;
  /** The field label's id, as the list took it before it was a component of its own. */
  id?: string;
}) {
  const { t } = useTranslation();
  const setCells = (cells: FillRule[]) => onChange({ ...block, cells });
  return (
    <Space id={id} orientation="vertical" style={{ width: '100%' }}>
      {block.cells.map((cell, index) => {
        const problem = ruleProblemOf(problems, `${path}.cells.${index}`);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: cells are positions (slot `id:index`); they have no identity of their own
          <div key={index}>
            <Space.Compact style={{ width: '100%' }}>
              <RuleInput
                value={cell}
                onChange={(rule) => setCells(block.cells.map((c, i) => (i === index ? rule : c)))}
                testId={`cell-${index}`}
                name={`${t('composite.editor.rule')} ${index + 1}`}
              />
              <Button
                disabled={block.cells.length <= 1}
                onClick={() => setCells(block.cells.filter((_, i) => i !== index))}
              >
                −
              </Button>
            </Space.Compact>
            {problem ? <Typography.Text type="danger">{problem}</Typography.Text> : null}
          </div>
        );
      })}
      <Button
        disabled={block.cells.length >= 12}
        onClick={() => setCells([...block.cells, { kind: 'nth', n: block.cells.length + 1 }])}
        data-testid="cell-add"
      >
        {t('composite.editor.addCell')}
      </Button>
    </Space>
  );
}
