import type { Language } from '@dam/contract';

/** The mails the product writes, with what each one needs. */
export type MailContent =
  | { purpose: 'resetPassword'; name: string; link: string; minutes: number }
  | { purpose: 'changeEmail'; name: string; link: string; minutes: number; email: string };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Mails are written in Chinese or English: the recipient's language when it is one of them, else English. */
export type MailLanguage = 'zh' | 'en';
export function mailLanguageOf(language: Language): MailLanguage {
  return language === 'zh' ? 'zh' : 'en';
}

const PRODUCT = { zh: '智能图档管理中台', en: 'Digital Asset Management' } as const;

interface Paragraphs {
  subject: string;
  greeting: string;
  lines: string[];
  action: string;
  ignore: string;
}

function paragraphsOf(content: MailContent, lang: MailLanguage): Paragraphs {
  switch (content.purpose) {
    case 'resetPassword':
      return lang === 'zh'
        ? {
            subject: `【${PRODUCT.zh}】重置密码`,
            greeting: `${content.name}，您好：`,
            lines: [
              `我们收到了重置您账号密码的请求。请在 ${content.minutes} 分钟内点击下面的链接设置新密码，链接只能使用一次。`,
            ],
            action: '设置新密码',
            ignore: '如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。',
          }
        : {
            subject: `[${PRODUCT.en}] Reset your password`,
            greeting: `Hello ${content.name},`,
            lines: [
              `We received a request to reset the password of your account. Open the link below within ${content.minutes} minutes to choose a new one; it works once.`,
            ],
            action: 'Choose a new password',
            ignore: 'If you did not ask for this, ignore this mail: your password stays as it is.',
          };
    case 'changeEmail':
      return lang === 'zh'
        ? {
            subject: `【${PRODUCT.zh}】确认新邮箱`,
            greeting: `${content.name}，您好：`,
            lines: [`请在 ${content.minutes} 分钟内点击下面的链接，确认将账号邮箱改为 ${content.email}。`],
            action: '确认新邮箱',
            ignore: '如果这不是您本人的操作，请忽略本邮件，账号邮箱不会改变。',
          }
        : {
            subject: `[${PRODUCT.en}] Confirm your new e-mail address`,
            greeting: `Hello ${content.name},`,
            lines: [
              `Open the link below within ${content.minutes} minutes to make ${content.email} the e-mail address of your account.`,
            ],
            action: 'Confirm the new address',
            ignore: 'If you did not ask for this, ignore this mail: your address stays as it is.',
          };
  }
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** The subject, plain text and HTML of a mail in `lang`; names and addresses are escaped in the HTML. */
export function renderMail(content: MailContent, lang: MailLanguage): RenderedMail {
  const p = paragraphsOf(content, lang);
  const text = [p.greeting, '', ...p.lines, '', content.link, '', p.ignore, '', `— ${PRODUCT[lang]}`].join(
    '\n',
  );
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f1f1f;line-height:1.6">
<p>${escapeHtml(p.greeting)}</p>
${p.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(content.link)}" style="display:inline-block;padding:8px 16px;background:#1677ff;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(p.action)}</a></p>
<p style="color:#8c8c8c;font-size:12px">${escapeHtml(content.link)}</p>
<p style="color:#8c8c8c">${escapeHtml(p.ignore)}</p>
<p>— ${escapeHtml(PRODUCT[lang])}</p>
</body></html>`;
  return { subject: p.subject, text, html };
}
