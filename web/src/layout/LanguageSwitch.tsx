import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { TOP_BAR_LANGUAGES } from '@dam/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../i18n';
import styles from './LanguageSwitch.module.css';

/**
 * Top-bar language choice: Chinese or English, stored locally, then the page reloads (SPEC §1).
 * Opens on hover like the other top-bar menus, and on click or the keyboard. Drawn without Ant
 * Design, so that the sign-in page, where it also sits, does not load it (issue 10 item 7).
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const active = currentLanguage() === 'en' ? 'en' : 'zh';
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover opening mirrors the button's own keyboard and click handling
    <div
      ref={root}
      className={styles.switch}
      onPointerEnter={(event) => event.pointerType === 'mouse' && setOpen(true)}
      onPointerLeave={(event) => event.pointerType === 'mouse' && setOpen(false)}
      onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
    >
      <button
        type="button"
        className={styles.button}
        aria-haspopup="menu"
        aria-expanded={open}
        // A pointer that clicks has opened the menu by hovering already: the click keeps it open
        // (it closes on leaving, outside or on Escape). Keys (Enter, Space: detail 0) toggle it.
        onClick={(event) => setOpen((shown) => (event.detail === 0 ? !shown : true))}
        data-testid="language-switch"
      >
        <GlobalOutlined />
        <span>{t(`language.${active}`)}</span>
      </button>
      {open && (
        <div role="menu" className={styles.menu}>
          {TOP_BAR_LANGUAGES.map((language) => (
            <button
              key={language}
              type="button"
              role="menuitemradio"
              aria-checked={language === active}
              className={styles.item}
              onClick={() => {
                setOpen(false);
                if (language !== active) chooseLanguage(language);
              }}
            >
              <span>{t(`language.${language}`)}</span>
              {language === active && <CheckOutlined aria-hidden />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
