import { GlobalOutlined } from '@ant-design/icons';
import { TOP_BAR_LANGUAGES } from '@dam/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../i18n';

/** Top-bar language choice: Chinese or English, stored locally, then the page reloads (SPEC §1). */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const active = currentLanguage();
  return (
    <Dropdown
      trigger={['hover', 'click']}
      menu={{
        selectable: true,
        selectedKeys: [active],
        items: TOP_BAR_LANGUAGES.map((language) => ({ key: language, label: t(`language.${language}`) })),
        onClick: ({ key }) => {
          if (key !== active) chooseLanguage(key as (typeof TOP_BAR_LANGUAGES)[number]);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-switch">
        {t(`language.${active === 'en' ? 'en' : 'zh'}`)}
      </Button>
    </Dropdown>
  );
}
