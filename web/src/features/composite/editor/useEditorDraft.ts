import type { Block, TemplateAsset, TemplateDetail } from '@dam/contract';
import { App } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/client';
import { notifyError, notifySuccess } from '../../../api/notify';
import { useSaveTemplate, useTemplateFonts } from '../compositeApi';
import {
  blockIndexOf,
  type DraftProblem,
  draftProblems,
  draftToSpec,
  newDraft,
  refusedField,
  type TemplateDraft,
} from '../templateDraft';

/** The problems' texts by path, in the user's language. */
function useProblemTexts(problems: readonly DraftProblem[], server: { path: string; reason: string } | null) {
  const { t } = useTranslation();
  return useMemo(() => {
    const texts = new Map<string, string>();
    for (const problem of problems)
      if (!texts.has(problem.path))
        texts.set(problem.path, t(`composite.problem.${problem.key}`, problem.values));
    if (server) texts.set(server.path, server.reason);
    return texts;
  }, [problems, server, t]);
}

/**
 * The template being edited: the draft, the selected block, the assets it shows, its problems and
 * saving it (a stale version offers to reload; a refused field is shown under its input).
 */
export function useEditorDraft(detail: TemplateDetail | null, onReload: () => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const fonts = useTemplateFonts();
  const save = useSaveTemplate();
  const [draft, setDraft] = useState<TemplateDraft>(() =>
    detail ? { name: detail.template.name, status: detail.template.status, spec: detail.spec } : newDraft(),
  );
  const [selected, setSelected] = useState(0);
  const [tried, setTried] = useState(false);
  const [serverProblem, setServerProblem] = useState<{ path: string; reason: string } | null>(null);
  const [assets, setAssets] = useState<Map<number, TemplateAsset>>(
    () => new Map((detail?.assets ?? []).map((asset) => [asset.id, asset])),
  );

  const problems = useMemo(() => draftProblems(draft, fonts.data), [draft, fonts.data]);
  // Problems show once the author tried to save, or on fields already touched by a server refusal.
  const shown = useProblemTexts(tried ? problems : [], serverProblem);
  const blocksWithProblems = new Set(
    [...shown.keys()].map(blockIndexOf).filter((index): index is number => index !== null),
  );

  const change = (next: TemplateDraft) => {
    setDraft(next);
    setServerProblem(null);
  };
  const setSpec = (patch: Partial<TemplateDraft['spec']>) =>
    change({ ...draft, spec: { ...draft.spec, ...patch } });
  const setOutput = (patch: Partial<TemplateDraft['spec']['output']>) =>
    setSpec({ output: { ...draft.spec.output, ...patch } });
  const setBlocks = (blocks: Block[]) => setSpec({ blocks });
  const addAssets = (added: readonly TemplateAsset[]) =>
    setAssets((all) => {
      const next = new Map(all);
      for (const asset of added) next.set(asset.id, asset);
      return next;
    });
  const defaultFont =
    fonts.data?.find((font) => font.available && font.cjk)?.id ??
    fonts.data?.find((f) => f.available)?.id ??
    '';
  const spec = useMemo(() => draftToSpec(draft.spec), [draft.spec]);

  /** The server's refusal: a stale base version offers to reload; a named field shows its reason. */
  const refused = (error: ApiError) => {
    if (error.code === 'SECP_06') {
      modal.confirm({
        title: error.desc,
        content: t('composite.editor.reloadHint'),
        okText: t('composite.editor.reload'),
        cancelText: t('common.cancel'),
        onOk: onReload,
      });
      return;
    }
    const field =
      error.code === 'SE_400'
        ? refusedField(error.desc)
        : error.code === 'SECP_02'
          ? { path: 'name', reason: error.desc }
          : null;
    if (field) {
      setServerProblem(field);
      const index = blockIndexOf(field.path);
      if (index !== null) setSelected(index);
    }
    notifyError(error.desc);
  };

  const doSave = async () => {
    setTried(true);
    if (problems.length > 0) {
      const first = problems.map((p) => blockIndexOf(p.path)).find((index) => index !== null);
      if (first !== undefined && first !== null) setSelected(first);
      notifyError(t('composite.editor.fixProblems', { count: problems.length }));
      return;
    }
    try {
      const saved = await save.mutateAsync({
        ...(detail ? { id: detail.template.id, baseVersion: detail.version } : {}),
        name: draft.name.trim(),
        status: draft.status,
        spec,
      });
      notifySuccess(t('composite.editor.saved', { version: saved.version }));
      if (!detail || saved.version !== detail.version)
        void navigate(`/templates/${saved.id}`, { replace: true });
      if (detail && saved.version === detail.version) onReload();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused(error);
    }
  };

  return {
    draft,
    change,
    setSpec,
    setOutput,
    setBlocks,
    selected,
    setSelected,
    assets,
    addAssets,
    fonts: fonts.data ?? [],
    defaultFont,
    spec,
    problems,
    shown,
    blocksWithProblems,
    doSave,
    saving: save.isPending,
  };
}

/** What the editor's parts are handed: the draft and its setters. */
export type EditorDraft = ReturnType<typeof useEditorDraft>;
