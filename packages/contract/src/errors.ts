import { z } from 'zod';
import type { Language } from './languages';

/**
 * The error catalogue of SPEC §8, plus three codes the spec leaves open (marked "extension";
 * see docs/decisions.md): SE_400 invalid request, SE_404 not found, SE_429 too many attempts.
 */
export const ERROR_CODES = [
  'SEP_01',
  'SEP_02',
  'SEP_03',
  'SEP_04',
  'SEP_05',
  'SED_01',
  'SED_02',
  'SED_03',
  'SED_04',
  'SED_05',
  'SED_06',
  'SED_07',
  'SED_08',
  'SED_09',
  'SED_10',
  'SED_11',
  'SED_12',
  'SED_13',
  'SE_400',
  'SE_404',
  'SE_429',
  'SE_500',
  'SE_501',
  'SE_502',
  'SE_503',
  'SE_504',
  'SE_505',
  'SEF_01',
  'SEF_02',
  'SEF_03',
  'SEF_04',
  'SEF_05',
  'SEF_06',
  'SEF_07',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status sent with each code (ARCHITECTURE.md Conventions). */
export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  SEP_01: 400,
  SEP_02: 400,
  SEP_03: 400,
  SEP_04: 400,
  SEP_05: 400,
  SED_01: 404,
  SED_02: 404,
  SED_03: 403,
  SED_04: 404,
  SED_05: 404,
  SED_06: 404,
  SED_07: 409,
  SED_08: 409,
  SED_09: 404,
  SED_10: 400,
  SED_11: 501,
  SED_12: 404,
  SED_13: 404,
  SE_400: 400,
  SE_404: 404,
  SE_429: 429,
  SE_500: 500,
  SE_501: 401,
  SE_502: 403,
  SE_503: 503,
  SE_504: 400,
  SE_505: 400,
  SEF_01: 409,
  SEF_02: 400,
  SEF_03: 409,
  SEF_04: 410,
  SEF_05: 409,
  SEF_06: 422,
  SEF_07: 409,
};

type Messages = Record<ErrorCode, string>;

/** `{detail}` is replaced by the specific reason (for SE_400: the field and what is wrong). */
export const ERROR_MESSAGES: Record<Language, Messages> = {
  zh: {
    SEP_01: '缺少参数：method',
    SEP_02: '缺少参数：企业ID',
    SEP_03: '缺少参数：角色ID',
    SEP_04: '缺少参数：用户ID',
    SEP_05: '缺少参数：部门ID',
    SED_01: '企业不存在',
    SED_02: '用户名不存在',
    SED_03: '用户状态无效',
    SED_04: '上级部门不存在',
    SED_05: '角色不存在',
    SED_06: '部门不存在',
    SED_07: '邮箱已被注册',
    SED_08: '手机号已被注册',
    SED_09: '手机号不存在',
    SED_10: '用户名或密码错误',
    SED_11: '暂不支持',
    SED_12: '邮箱未注册',
    SED_13: '角色不存在',
    SE_400: '参数错误：{detail}',
    SE_404: '内容不存在',
    SE_429: '尝试次数过多，请稍后再试',
    SE_500: '系统错误，请稍后再试',
    SE_501: '登录已过期，请重新登录',
    SE_502: '没有访问权限',
    SE_503: '请稍后再试',
    SE_504: '验证码错误',
    SE_505: '原密码错误',
    SEF_01: '该位置已有同名的文件或文件夹',
    SEF_02: '不能把文件夹移动到它自己或它的子文件夹中',
    SEF_03: '私有内容移入共享文件夹后将对他人可见，请确认后继续',
    SEF_04: '文件已被删除',
    SEF_05: '文件尚未上传完整，请继续上传',
    SEF_06: '存储中的文件缺失或大小不符，请重新上传',
    SEF_07: '已有同名文件且格式不同，确认后将合并为一个文件',
  },
  en: {
    SEP_01: 'Missing parameter: method',
    SEP_02: 'Missing parameter: enterprise ID',
    SEP_03: 'Missing parameter: role ID',
    SEP_04: 'Missing parameter: user ID',
    SEP_05: 'Missing parameter: department ID',
    SED_01: 'The enterprise does not exist',
    SED_02: 'The user name does not exist',
    SED_03: 'The user status is not valid',
    SED_04: 'The parent department does not exist',
    SED_05: 'The role does not exist',
    SED_06: 'The department does not exist',
    SED_07: 'This e-mail address is already registered',
    SED_08: 'This phone number is already registered',
    SED_09: 'The phone number does not exist',
    SED_10: 'Wrong user name or password',
    SED_11: 'Not supported yet',
    SED_12: 'This e-mail address is not registered',
    SED_13: 'The role does not exist',
    SE_400: 'Invalid request: {detail}',
    SE_404: 'Not found',
    SE_429: 'Too many attempts, please try again later',
    SE_500: 'System error, please try again later',
    SE_501: 'Your session has expired, please sign in again',
    SE_502: 'No access',
    SE_503: 'Please try again later',
    SE_504: 'Wrong verification code',
    SE_505: 'Wrong original password',
    SEF_01: 'A file or folder with this name already exists here',
    SEF_02: 'A folder cannot be moved into itself or one of its subfolders',
    SEF_03: 'Moving private items into a shared folder makes them visible to others; please confirm',
    SEF_04: 'The file has been deleted',
    SEF_05: 'The file has not been uploaded completely yet; please continue the upload',
    SEF_06: 'The stored file is missing or has the wrong size; please upload it again',
    SEF_07: 'Another file has this name with different formats; confirm to merge them into one file',
  },
  ja: {
    SEP_01: 'パラメータがありません：method',
    SEP_02: 'パラメータがありません：企業ID',
    SEP_03: 'パラメータがありません：ロールID',
    SEP_04: 'パラメータがありません：ユーザーID',
    SEP_05: 'パラメータがありません：部署ID',
    SED_01: '企業が存在しません',
    SED_02: 'ユーザー名が存在しません',
    SED_03: 'ユーザーの状態が無効です',
    SED_04: '上位部署が存在しません',
    SED_05: 'ロールが存在しません',
    SED_06: '部署が存在しません',
    SED_07: 'このメールアドレスは既に登録されています',
    SED_08: 'この電話番号は既に登録されています',
    SED_09: '電話番号が存在しません',
    SED_10: 'ユーザー名またはパスワードが正しくありません',
    SED_11: '現在サポートされていません',
    SED_12: 'このメールアドレスは登録されていません',
    SED_13: 'ロールが存在しません',
    SE_400: 'リクエストが不正です：{detail}',
    SE_404: '見つかりません',
    SE_429: '試行回数が多すぎます。しばらくしてから再試行してください',
    SE_500: 'システムエラーです。しばらくしてから再試行してください',
    SE_501: 'ログインの有効期限が切れました。再度ログインしてください',
    SE_502: 'アクセス権がありません',
    SE_503: 'しばらくしてから再試行してください',
    SE_504: '認証コードが正しくありません',
    SE_505: '元のパスワードが正しくありません',
    SEF_01: '同じ名前のファイルまたはフォルダが既に存在します',
    SEF_02: 'フォルダを自身またはそのサブフォルダに移動することはできません',
    SEF_03: '非公開の項目を共有フォルダに移動すると他の人にも表示されます。確認してください',
    SEF_04: 'ファイルは削除されています',
    SEF_05: 'ファイルのアップロードがまだ完了していません。アップロードを続けてください',
    SEF_06: '保存されたファイルが見つからないかサイズが一致しません。再アップロードしてください',
    SEF_07: '同じ名前で形式の異なるファイルがあります。確認すると 1 つのファイルに統合されます',
  },
  ko: {
    SEP_01: '매개변수 누락: method',
    SEP_02: '매개변수 누락: 기업 ID',
    SEP_03: '매개변수 누락: 역할 ID',
    SEP_04: '매개변수 누락: 사용자 ID',
    SEP_05: '매개변수 누락: 부서 ID',
    SED_01: '기업이 존재하지 않습니다',
    SED_02: '사용자 이름이 존재하지 않습니다',
    SED_03: '사용자 상태가 유효하지 않습니다',
    SED_04: '상위 부서가 존재하지 않습니다',
    SED_05: '역할이 존재하지 않습니다',
    SED_06: '부서가 존재하지 않습니다',
    SED_07: '이미 등록된 이메일입니다',
    SED_08: '이미 등록된 전화번호입니다',
    SED_09: '전화번호가 존재하지 않습니다',
    SED_10: '사용자 이름 또는 비밀번호가 올바르지 않습니다',
    SED_11: '아직 지원되지 않습니다',
    SED_12: '등록되지 않은 이메일입니다',
    SED_13: '역할이 존재하지 않습니다',
    SE_400: '잘못된 요청: {detail}',
    SE_404: '찾을 수 없습니다',
    SE_429: '시도 횟수가 너무 많습니다. 잠시 후 다시 시도하세요',
    SE_500: '시스템 오류입니다. 잠시 후 다시 시도하세요',
    SE_501: '로그인이 만료되었습니다. 다시 로그인하세요',
    SE_502: '접근 권한이 없습니다',
    SE_503: '잠시 후 다시 시도하세요',
    SE_504: '인증 코드가 올바르지 않습니다',
    SE_505: '기존 비밀번호가 올바르지 않습니다',
    SEF_01: '이 위치에 같은 이름의 파일 또는 폴더가 이미 있습니다',
    SEF_02: '폴더를 자기 자신이나 하위 폴더로 이동할 수 없습니다',
    SEF_03: '비공개 항목을 공유 폴더로 옮기면 다른 사람에게 표시됩니다. 확인해 주세요',
    SEF_04: '파일이 삭제되었습니다',
    SEF_05: '파일이 아직 완전히 업로드되지 않았습니다. 업로드를 계속하세요',
    SEF_06: '저장된 파일이 없거나 크기가 맞지 않습니다. 다시 업로드하세요',
    SEF_07: '같은 이름에 형식이 다른 파일이 있습니다. 확인하면 하나의 파일로 합쳐집니다',
  },
  de: {
    SEP_01: 'Parameter fehlt: method',
    SEP_02: 'Parameter fehlt: Unternehmens-ID',
    SEP_03: 'Parameter fehlt: Rollen-ID',
    SEP_04: 'Parameter fehlt: Benutzer-ID',
    SEP_05: 'Parameter fehlt: Abteilungs-ID',
    SED_01: 'Das Unternehmen existiert nicht',
    SED_02: 'Der Benutzername existiert nicht',
    SED_03: 'Der Benutzerstatus ist ungültig',
    SED_04: 'Die übergeordnete Abteilung existiert nicht',
    SED_05: 'Die Rolle existiert nicht',
    SED_06: 'Die Abteilung existiert nicht',
    SED_07: 'Diese E-Mail-Adresse ist bereits registriert',
    SED_08: 'Diese Telefonnummer ist bereits registriert',
    SED_09: 'Die Telefonnummer existiert nicht',
    SED_10: 'Falscher Benutzername oder falsches Passwort',
    SED_11: 'Derzeit nicht unterstützt',
    SED_12: 'Diese E-Mail-Adresse ist nicht registriert',
    SED_13: 'Die Rolle existiert nicht',
    SE_400: 'Ungültige Anfrage: {detail}',
    SE_404: 'Nicht gefunden',
    SE_429: 'Zu viele Versuche, bitte später erneut versuchen',
    SE_500: 'Systemfehler, bitte später erneut versuchen',
    SE_501: 'Die Anmeldung ist abgelaufen, bitte erneut anmelden',
    SE_502: 'Kein Zugriff',
    SE_503: 'Bitte später erneut versuchen',
    SE_504: 'Falscher Bestätigungscode',
    SE_505: 'Falsches ursprüngliches Passwort',
    SEF_01: 'Hier gibt es bereits eine Datei oder einen Ordner mit diesem Namen',
    SEF_02: 'Ein Ordner kann nicht in sich selbst oder einen seiner Unterordner verschoben werden',
    SEF_03: 'Private Elemente werden in einem freigegebenen Ordner für andere sichtbar; bitte bestätigen',
    SEF_04: 'Die Datei wurde gelöscht',
    SEF_05: 'Die Datei ist noch nicht vollständig hochgeladen; bitte den Upload fortsetzen',
    SEF_06: 'Die gespeicherte Datei fehlt oder hat die falsche Größe; bitte erneut hochladen',
    SEF_07: 'Eine andere Datei hat diesen Namen mit anderen Formaten; bestätigen, um beide zusammenzuführen',
  },
};

/**
 * Messages for request fields that fail validation. Schemas name these keys in their custom
 * messages (`{ message: 'passwordRules' }`); generic zod issues map to the `generic*` keys.
 */
export const VALIDATION_MESSAGES: Record<Language, Record<ValidationKey, string>> = {
  zh: {
    required: '必填',
    invalidType: '类型不正确',
    tooLong: '不能超过 {max} 个字符',
    tooShort: '不能少于 {min} 个字符',
    tooBig: '不能大于 {max}',
    tooSmall: '不能小于 {min}',
    invalidValue: '取值无效',
    invalidFormat: '格式不正确',
    unknownField: '不支持的字段',
    identifier: '请输入 11 位手机号或正确的邮箱地址',
    passwordRules: '密码须为 6–16 位，且包含字母、数字和特殊字符',
    passwordMismatch: '两次输入的新密码不一致',
    passwordSame: '新密码不能与原密码相同',
    illegalCharacter: '不能包含非法字符 {char}',
    blankName: '请填写名称',
    duplicateFile: '列表中有重复的文件 {name}',
    invalidPart: '无效的分片',
    invalidToken: '链接已过期或无效',
    wrongState: '当前状态下不能执行此操作',
  },
  en: {
    required: 'is required',
    invalidType: 'has the wrong type',
    tooLong: 'must be at most {max} characters',
    tooShort: 'must be at least {min} characters',
    tooBig: 'must be at most {max}',
    tooSmall: 'must be at least {min}',
    invalidValue: 'has an invalid value',
    invalidFormat: 'has an invalid format',
    unknownField: 'is not a supported field',
    identifier: 'enter an 11-digit phone number or a valid e-mail address',
    passwordRules: 'the password must be 6–16 characters with a letter, a digit and a special character',
    passwordMismatch: 'the two new passwords do not match',
    passwordSame: 'the new password must differ from the old one',
    illegalCharacter: 'must not contain the character {char}',
    blankName: 'please fill in a name',
    duplicateFile: 'contains the same file twice: {name}',
    invalidPart: 'is not a valid part of this upload',
    invalidToken: 'has expired or is not valid',
    wrongState: "cannot be done in the upload's current state",
  },
  ja: {
    required: '必須です',
    invalidType: '型が正しくありません',
    tooLong: '{max} 文字以内で入力してください',
    tooShort: '{min} 文字以上で入力してください',
    tooBig: '{max} 以下にしてください',
    tooSmall: '{min} 以上にしてください',
    invalidValue: '値が無効です',
    invalidFormat: '形式が正しくありません',
    unknownField: 'サポートされていない項目です',
    identifier: '11 桁の電話番号または正しいメールアドレスを入力してください',
    passwordRules: 'パスワードは英字・数字・記号を含む 6～16 文字にしてください',
    passwordMismatch: '新しいパスワードが一致しません',
    passwordSame: '新しいパスワードは元のパスワードと異なる必要があります',
    illegalCharacter: '使用できない文字 {char} が含まれています',
    blankName: '名前を入力してください',
    duplicateFile: '同じファイルが重複しています：{name}',
    invalidPart: 'このアップロードの有効なパートではありません',
    invalidToken: '期限切れまたは無効です',
    wrongState: '現在の状態では実行できません',
  },
  ko: {
    required: '필수 항목입니다',
    invalidType: '형식이 올바르지 않습니다',
    tooLong: '{max}자 이하로 입력하세요',
    tooShort: '{min}자 이상 입력하세요',
    tooBig: '{max} 이하여야 합니다',
    tooSmall: '{min} 이상이어야 합니다',
    invalidValue: '값이 유효하지 않습니다',
    invalidFormat: '형식이 올바르지 않습니다',
    unknownField: '지원되지 않는 항목입니다',
    identifier: '11자리 전화번호 또는 올바른 이메일 주소를 입력하세요',
    passwordRules: '비밀번호는 문자, 숫자, 특수문자를 포함한 6~16자여야 합니다',
    passwordMismatch: '새 비밀번호가 일치하지 않습니다',
    passwordSame: '새 비밀번호는 기존 비밀번호와 달라야 합니다',
    illegalCharacter: '사용할 수 없는 문자 {char}이(가) 포함되어 있습니다',
    blankName: '이름을 입력하세요',
    duplicateFile: '같은 파일이 두 번 있습니다: {name}',
    invalidPart: '이 업로드의 유효한 파트가 아닙니다',
    invalidToken: '만료되었거나 유효하지 않습니다',
    wrongState: '현재 상태에서는 할 수 없습니다',
  },
  de: {
    required: 'ist erforderlich',
    invalidType: 'hat den falschen Typ',
    tooLong: 'darf höchstens {max} Zeichen haben',
    tooShort: 'muss mindestens {min} Zeichen haben',
    tooBig: 'darf höchstens {max} sein',
    tooSmall: 'muss mindestens {min} sein',
    invalidValue: 'hat einen ungültigen Wert',
    invalidFormat: 'hat ein ungültiges Format',
    unknownField: 'ist kein unterstütztes Feld',
    identifier: 'bitte eine 11-stellige Telefonnummer oder eine gültige E-Mail-Adresse eingeben',
    passwordRules:
      'das Passwort muss 6–16 Zeichen lang sein und einen Buchstaben, eine Ziffer und ein Sonderzeichen enthalten',
    passwordMismatch: 'die beiden neuen Passwörter stimmen nicht überein',
    passwordSame: 'das neue Passwort muss sich vom alten unterscheiden',
    illegalCharacter: 'darf das Zeichen {char} nicht enthalten',
    blankName: 'bitte einen Namen eingeben',
    duplicateFile: 'enthält dieselbe Datei zweimal: {name}',
    invalidPart: 'ist kein gültiger Teil dieses Uploads',
    invalidToken: 'ist abgelaufen oder ungültig',
    wrongState: 'ist im aktuellen Zustand nicht möglich',
  },
};

export type ValidationKey =
  | 'required'
  | 'invalidType'
  | 'tooLong'
  | 'tooShort'
  | 'tooBig'
  | 'tooSmall'
  | 'invalidValue'
  | 'invalidFormat'
  | 'unknownField'
  | 'identifier'
  | 'passwordRules'
  | 'passwordMismatch'
  | 'passwordSame'
  | 'illegalCharacter'
  | 'blankName'
  | 'duplicateFile'
  | 'invalidPart'
  | 'invalidToken'
  | 'wrongState';

export function isValidationKey(value: string): value is ValidationKey {
  return value in VALIDATION_MESSAGES.zh;
}

export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** The localised text of an error code; Chinese when the language lacks it. */
export function errorMessage(code: ErrorCode, lang: Language, detail?: string): string {
  const template = ERROR_MESSAGES[lang]?.[code] ?? ERROR_MESSAGES.zh[code];
  return fillTemplate(template, { detail: detail ?? '' });
}

/** The response envelope of SPEC §8, on every /ske-api and /security-api call. */
export interface Envelope<T> {
  success: boolean;
  result: T | null;
  errorCode: ErrorCode | null;
  errorDesc: string | null;
}

/** The zod schema of an envelope whose result is `result`; routes declare it as their response. */
export function envelopeSchema<T extends z.ZodType>(result: T) {
  return z.object({
    success: z.boolean(),
    result: result.nullable(),
    errorCode: z.enum(ERROR_CODES).nullable(),
    errorDesc: z.string().nullable(),
  });
}
