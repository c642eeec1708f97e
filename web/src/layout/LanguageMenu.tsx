import { TOP_BAR_LANGUAGES } from '@dam/contract';
import { Dropdown } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../i18n';

/**
 * The language choice's menu around its button (LanguageSwitch). Its own chunk: the sign-in and
 * share visitor pages render the button first and load the menu's code after (issue 10 item 7).
 * `openAtFirst`: the button was pointed at or clicked before this had loaded.
 */
export function LanguageMenu({ openAtFirst, children }: { openAtFirst: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const active = currentLanguage();
  const [open, setOpen] = useState(openAtFirst);
  return (
    <Dropdown
      trigger={['hover', 'click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [active],
        items: TOP_BAR_LANGUAGES.map((language) => ({ key: language, label: t(`language.${language}`) })),
        onClick: ({ key }) => {
          if (key !== active) chooseLanguage(key as (typeof TOP_BAR_LANGUAGES)[number]);
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
