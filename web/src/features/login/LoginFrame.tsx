import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import styles from './LoginPage.module.css';

/** The signed-out pages' frame: the brand on the left, the language switch and a card on the right. */
export function LoginFrame({ heading, children }: { heading: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={styles.page}>
      <section className={styles.brand}>
        <div className={styles.logo}>
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <span>{t('app.title')}</span>
        </div>
        <h2 className={styles.tagline}>{t('login.subtitle')}</h2>
      </section>
      <section className={styles.panel}>
        <div className={styles.languages}>
          <LanguageSwitch />
        </div>
        <div className={styles.card}>
          <h3 className={styles.heading}>{heading}</h3>
          {children}
        </div>
      </section>
    </div>
  );
}
