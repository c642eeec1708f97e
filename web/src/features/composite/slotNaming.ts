import { FunctionCode, parseLanguage, type SlotNaming, type TemplateSpec } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { useTagDimensions } from '../../api/tags';
import { holdsCodes } from '../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { completenessKeys } from '../completeness';

/** The completeness expectation, asked only of the server by those who may read it (code 6). */
export function useCompletenessConfigWhen(enabled: boolean) {
  return useQuery({
    queryKey: completenessKeys.config,
    queryFn: () => call(endpoints.completenessConfig),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * How the previews name unlabelled slots (issue 39 item 4): in the reader's language, a view by its
 * completeness name where the reader may read the expectation (else its code), a tag by its name.
 */
export function useSlotNaming(spec: Pick<TemplateSpec, 'blocks'> | undefined): SlotNaming {
  const { i18n } = useTranslation();
  const user = useCurrentUser();
  const readsViews = holdsCodes(functionCodesOf(user.data), [FunctionCode.data]);
  const config = useCompletenessConfigWhen(readsViews);
  const tagRules = (spec?.blocks ?? []).some(
    (block) =>
      (block.type === 'image' && block.rule.kind === 'tag') ||
      (block.type === 'grid' && block.cells.some((cell) => cell.kind === 'tag')),
  );
  const dimensions = useTagDimensions(tagRules);
  const lang = parseLanguage(i18n.language);
  return useMemo(
    () => ({
      lang,
      viewNames: new Map(
        (config.data?.views ?? []).flatMap((view) => (view.code ? [[view.code, view.name] as const] : [])),
      ),
      tagNames: new Map(
        (dimensions.data ?? []).flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag.tagName] as const)),
      ),
    }),
    [lang, config.data, dimensions.data],
  );
}
