import type { Language } from '@dam/contract';

/** The mails the product writes, with what each one needs. */
export type MailContent =
  | { purpose: 'resetPassword'; name: string; link: string; minutes: number }
  | { purpose: 'changeEmail'; name: string; link: string; minutes: number; email: string }
  | ReviewMailContent
  | UploadNoticeContent;

/**
 * Review (issue 43): a reviewer asked to look at a file (`reviewRequest`, also when a new version
 * sends an approved file back to review), or the requester told of the decision (`reviewDecision`).
 */
export type ReviewMailContent =
  | { purpose: 'reviewRequest'; name: string; by: string; fileName: string; note: string; link: string }
  | {
      purpose: 'reviewDecision';
      name: string;
      by: string;
      fileName: string;
      approved: boolean;
      note: string;
      link: string;
    };

/** An upload batch's notice: who uploaded what, their words, and the files with pictures and links. */
export interface UploadNoticeContent {
  purpose: 'uploadNotice';
  /** The recipient's name, or null for an address outside the company. */
  name: string | null;
  sender: string;
  /** The sender's subject line; empty: a default one. */
  subject: string;
  content: string;
  remark: string;
  /** Where the files went, as the app shows the path. */
  folderPath: string;
  /** Opens the folder in the app (recipients with an account). */
  folderLink: string | null;
  files: Array<{ name: string; cid: string | null; link: string | null }>;
  /** Files of the batch beyond those listed. */
  more: number;
  total: number;
  linkDays: number;
}

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

function paragraphsOf(content: Exclude<MailContent, UploadNoticeContent>, lang: MailLanguage): Paragraphs {
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
    case 'reviewRequest':
    case 'reviewDecision':
      return reviewParagraphs(content, lang);
  }
}

function reviewParagraphs(content: ReviewMailContent, lang: MailLanguage): Paragraphs {
  const note = content.note ? [lang === 'zh' ? `留言：${content.note}` : `Note: ${content.note}`] : [];
  if (content.purpose === 'reviewRequest')
    return lang === 'zh'
      ? {
          subject: `【${PRODUCT.zh}】${content.by} 请您审核“${content.fileName}”`,
          greeting: `${content.name}，您好：`,
          lines: [`${content.by} 请您审核文件“${content.fileName}”。`, ...note],
          action: '打开待审核列表',
          ignore: '您收到这封邮件，是因为您被指定为这个文件的审核人。',
        }
      : {
          subject: `[${PRODUCT.en}] ${content.by} asks you to review "${content.fileName}"`,
          greeting: `Hello ${content.name},`,
          lines: [`${content.by} asks you to review the file "${content.fileName}".`, ...note],
          action: 'Open your review list',
          ignore: 'You get this mail because you were named a reviewer of this file.',
        };
  const outcome = content.approved
    ? { zh: '已通过审核', en: 'was approved' }
    : { zh: '需要修改', en: 'needs changes' };
  return lang === 'zh'
    ? {
        subject: `【${PRODUCT.zh}】“${content.fileName}”${outcome.zh}`,
        greeting: `${content.name}，您好：`,
        lines: [`${content.by} 审核了文件“${content.fileName}”：${outcome.zh}。`, ...note],
        action: '在系统中查看',
        ignore: '您收到这封邮件，是因为这个文件的审核是您提交的。',
      }
    : {
        subject: `[${PRODUCT.en}] "${content.fileName}" ${outcome.en}`,
        greeting: `Hello ${content.name},`,
        lines: [`${content.by} reviewed the file "${content.fileName}": it ${outcome.en}.`, ...note],
        action: 'See it in the app',
        ignore: 'You get this mail because you asked for the review of this file.',
      };
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
  if (content.purpose === 'uploadNotice') return renderUploadNotice(content, lang);
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

const NOTICE_WORDS = {
  zh: {
    subject: (sender: string, total: number) => `【${PRODUCT.zh}】${sender} 上传了 ${total} 个文件`,
    greeting: (name: string | null) => (name ? `${name}，您好：` : '您好：'),
    uploaded: (sender: string, total: number, folder: string) =>
      `${sender} 上传了 ${total} 个文件到“${folder}”。`,
    remark: '备注',
    more: (count: number) => `另有 ${count} 个文件，请在系统中查看。`,
    openFolder: '在系统中打开文件夹',
    linkNote: (days: number) => `文件名链接可查看大图，${days} 天内有效。`,
    footer: '这封邮件由上传者在上传时设置发送，请勿直接回复。',
  },
  en: {
    subject: (sender: string, total: number) =>
      `[${PRODUCT.en}] ${sender} uploaded ${total} ${total === 1 ? 'file' : 'files'}`,
    greeting: (name: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    uploaded: (sender: string, total: number, folder: string) =>
      `${sender} uploaded ${total} ${total === 1 ? 'file' : 'files'} to "${folder}".`,
    remark: 'Remark',
    more: (count: number) => `${count} more ${count === 1 ? 'file is' : 'files are'} in the app.`,
    openFolder: 'Open the folder in the app',
    linkNote: (days: number) => `Each file name links to a larger picture for ${days} days.`,
    footer: 'The uploader asked for this mail when uploading; replies are not read.',
  },
} as const;

/** An upload notice: the sender's words, then the files as a grid of thumbnails (inline, cid:). */
function renderUploadNotice(c: UploadNoticeContent, lang: MailLanguage): RenderedMail {
  const w = NOTICE_WORDS[lang];
  const subject = c.subject || w.subject(c.sender, c.total);
  const text = [
    w.greeting(c.name),
    '',
    w.uploaded(c.sender, c.total, c.folderPath),
    ...(c.content ? ['', c.content] : []),
    ...(c.remark ? ['', `${w.remark}${lang === 'zh' ? '：' : ': '}${c.remark}`] : []),
    '',
    ...c.files.map((f) => (f.link ? `- ${f.name}: ${f.link}` : `- ${f.name}`)),
    ...(c.more > 0 ? [w.more(c.more)] : []),
    ...(c.folderLink ? ['', `${w.openFolder}: ${c.folderLink}`] : []),
    '',
    w.linkNote(c.linkDays),
    w.footer,
    '',
    `— ${PRODUCT[lang]}`,
  ].join('\n');
  const cell = (f: UploadNoticeContent['files'][number]) => {
    const picture = f.cid
      ? `<img src="cid:${escapeHtml(f.cid)}" alt="${escapeHtml(f.name)}" width="140" style="display:block;max-width:140px;max-height:140px;border-radius:4px;background:#f5f5f5">`
      : '<div style="width:140px;height:100px;background:#f5f5f5;border-radius:4px"></div>';
    const name = f.link
      ? `<a href="${escapeHtml(f.link)}" style="color:#1677ff;text-decoration:none">${escapeHtml(f.name)}</a>`
      : escapeHtml(f.name);
    return `<td style="padding:6px;vertical-align:top;width:150px">${picture}<div style="font-size:12px;word-break:break-all;margin-top:4px">${name}</div></td>`;
  };
  const rows: string[] = [];
  for (let i = 0; i < c.files.length; i += 4)
    rows.push(
      `<tr>${c.files
        .slice(i, i + 4)
        .map(cell)
        .join('')}</tr>`,
    );
  const multiline = (value: string) => escapeHtml(value).replace(/\n/g, '<br>');
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#1f1f1f;line-height:1.6">
<p>${escapeHtml(w.greeting(c.name))}</p>
<p>${escapeHtml(w.uploaded(c.sender, c.total, c.folderPath))}</p>
${c.content ? `<p style="padding:8px 12px;background:#f0f5ff;border-radius:6px">${multiline(c.content)}</p>` : ''}
${c.remark ? `<p style="color:#595959">${escapeHtml(w.remark)}${lang === 'zh' ? '：' : ': '}${multiline(c.remark)}</p>` : ''}
<table role="presentation" cellspacing="0" cellpadding="0">${rows.join('\n')}</table>
${c.more > 0 ? `<p style="color:#595959">${escapeHtml(w.more(c.more))}</p>` : ''}
${c.folderLink ? `<p><a href="${escapeHtml(c.folderLink)}" style="display:inline-block;padding:8px 16px;background:#1677ff;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(w.openFolder)}</a></p>` : ''}
<p style="color:#8c8c8c;font-size:12px">${escapeHtml(w.linkNote(c.linkDays))}<br>${escapeHtml(w.footer)}</p>
<p>— ${escapeHtml(PRODUCT[lang])}</p>
</body></html>`;
  return { subject, text, html };
}
