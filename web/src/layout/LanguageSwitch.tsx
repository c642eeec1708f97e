import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';

// The menu (Ant Design's Dropdown and Menu) is not needed to show the button: loaded after it.
const LanguageMenu = lazy(async () => ({ default: (await import('./LanguageMenu')).LanguageMenu }));

/** Top-bar language choice: Chinese or English, stored locally, then the page reloads (SPEC §1). */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const button = (onWanted?: () => void) => (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      data-testid="language-switch"
      onPointerEnter={onWanted}
      onClick={onWanted}
    >
      {t(`language.${currentLanguage() === 'en' ? 'en' : 'zh'}`)}
    </Button>
  );
  return (
    <Suspense fallback={button(() => setWanted(true))}>
      <LanguageMenu openAtFirst={wanted}>{button()}</LanguageMenu>
    </Suspense>
  );
}
