import type { Block, TemplateAsset, TemplateFont } from '@dam/contract';
import { Form, Space } from 'antd';
import { cloneElement, Fragment, isValidElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { blockFieldInput } from './blockForm/BlockFieldInput';
import { type BlockField, blockFieldRows, type ProblemTexts } from './blockForm/blockFields';

// The form's pieces live in blockForm/; the editor and older imports find them here.
export type { ProblemTexts } from './blockForm/blockFields';
export { ColourInput } from './blockForm/inputs';
export { RuleInput } from './blockForm/RuleInput';

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

/** Fields drawn without a label of their own: a checkbox carries its text, a problem is a line. */
const UNLABELLED = new Set<BlockField['kind']>(['checkbox', 'ruleProblem']);

/** The fields of one block, by its type: the rows of `BLOCK_FIELDS` that its type shows. */
export function BlockForm({ block, path, problems, fonts, assets, onAsset, onChange }: BlockFormProps) {
  const { t } = useTranslation();
  const render = (field: BlockField) => {
    const key = `${field.key}-${field.kind}`;
    const input = blockFieldInput({ field, block, path, problems, fonts, assets, onAsset, onChange, t });
    if (UNLABELLED.has(field.kind)) return <Fragment key={key}>{input}</Fragment>;
    return (
      <Field
        key={key}
        label={t(field.labelKey ?? '', field.labelValues?.(block))}
        path={`${path}.${field.key}`}
        problems={problems}
        extra={field.hint ? t(field.hint.key, field.hint.values) : undefined}
      >
        {input}
      </Field>
    );
  };
  return (
    <Form layout="vertical" component="div" data-testid={`block-form-${block.type}`}>
      {blockFieldRows(block).map((row) =>
        row.length === 1 ? (
          render(row[0] as BlockField)
        ) : (
          <Space key={row.map((field) => field.key).join('+')} wrap align="start">
            {row.map(render)}
          </Space>
        ),
      )}
    </Form>
  );
}
