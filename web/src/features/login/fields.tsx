import {
  CloseCircleFilled,
  EyeInvisibleOutlined,
  EyeOutlined,
  LoadingOutlined,
  LockOutlined,
} from '@ant-design/icons';
import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './LoginPage.module.css';

/**
 * The controls of the signed-out pages (sign-in, SMS, reset), drawn without Ant Design in its
 * look: these pages load only React, the router and the strings (issue 10 item 7).
 */

/** A labelled field with its problem under it, tied to the input for screen readers. */
export function Field({
  label,
  problem,
  children,
}: {
  label: string;
  problem: string | undefined;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children(id, problem ? problemId : undefined)}
      <div id={problemId} className={styles.problem} aria-live="polite">
        {problem}
      </div>
    </div>
  );
}

/** A text input with an icon before it and, optionally, a control after it (a send-code button). */
export function TextInput({
  id,
  icon,
  value,
  onChange,
  placeholder,
  invalid,
  describedBy,
  autoComplete,
  inputMode,
  maxLength,
  testId,
  after,
}: {
  id: string;
  icon: ReactNode;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  invalid: boolean;
  describedBy: string | undefined;
  autoComplete: string;
  inputMode?: 'numeric' | 'email' | 'tel' | 'text';
  maxLength?: number;
  testId: string;
  after?: ReactNode;
}) {
  return (
    <span className={styles.input} data-invalid={invalid ? '' : undefined}>
      <span className={styles.prefix}>{icon}</span>
      <input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      />
      {after}
    </span>
  );
}

export function PasswordInput({
  id,
  value,
  onChange,
  placeholder,
  invalid,
  describedBy,
  autoComplete = 'current-password',
  testId = 'login-password',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  invalid: boolean;
  describedBy: string | undefined;
  autoComplete?: 'current-password' | 'new-password';
  testId?: string;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <span className={styles.input} data-invalid={invalid ? '' : undefined}>
      <LockOutlined className={styles.prefix} />
      <input
        id={id}
        type={shown ? 'text' : 'password'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete={autoComplete}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      />
      <button
        type="button"
        className={styles.reveal}
        onClick={() => setShown((visible) => !visible)}
        aria-label={shown ? t('login.hidePassword') : t('login.showPassword')}
        aria-pressed={shown}
      >
        {shown ? <EyeOutlined /> : <EyeInvisibleOutlined />}
      </button>
    </span>
  );
}

/** The server's reason (or a local one) above a form. */
export function FormError({ message, testId = 'login-error' }: { message: string | null; testId?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className={styles.error}>
      <CloseCircleFilled className={styles.errorIcon} />
      <span data-testid={testId}>{message}</span>
    </div>
  );
}

/** The form's primary button; a two-character Chinese label is spaced out as Ant Design does. */
export function SubmitButton({ label, busy, testId }: { label: string; busy: boolean; testId: string }) {
  return (
    <button type="submit" className={styles.submit} aria-busy={busy} data-testid={testId}>
      {busy && <LoadingOutlined />}
      <span className={/^\p{Script=Han}{2}$/u.test(label) ? styles.spaced : undefined}>{label}</span>
    </button>
  );
}

/** "Get code" beside a mobile-number field; counts down until a new code may be asked for. */
export function SendCodeButton({
  secondsLeft,
  sending,
  onClick,
  testId,
}: {
  secondsLeft: number;
  sending: boolean;
  onClick: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={styles.sendCode}
      onClick={onClick}
      disabled={sending || secondsLeft > 0}
      aria-busy={sending}
      data-testid={testId}
    >
      {secondsLeft > 0 ? t('login.resendIn', { seconds: secondsLeft }) : t('login.sendCode')}
    </button>
  );
}

/** "Keep me signed in for 7 days". */
export function RememberMe({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className={styles.remember}>
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{t('login.remember')}</span>
    </label>
  );
}

/**
 * Tabs in Ant Design's look (a WAI-ARIA tab list: arrow keys move between them); each tab controls
 * the panel `${idPrefix}-panel-<way>` the caller renders.
 */
export function WayTabs<W extends string>({
  ways,
  current,
  onChange,
  labelOf,
  idPrefix,
}: {
  ways: readonly W[];
  current: W;
  onChange: (way: W) => void;
  labelOf: (way: W) => string;
  idPrefix: 'login' | 'reset';
}) {
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = ways[(ways.indexOf(current) + step + ways.length) % ways.length];
    if (next === undefined) return;
    onChange(next);
    document.getElementById(`${idPrefix}-tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" className={styles.tabs} onKeyDown={onKey}>
      {ways.map((each) => (
        <button
          key={each}
          id={`${idPrefix}-tab-${each}`}
          type="button"
          role="tab"
          aria-selected={current === each}
          aria-controls={`${idPrefix}-panel-${each}`}
          tabIndex={current === each ? 0 : -1}
          className={styles.tab}
          onClick={() => onChange(each)}
          data-testid={`${idPrefix}-tab-${each}`}
        >
          {labelOf(each)}
        </button>
      ))}
    </div>
  );
}
