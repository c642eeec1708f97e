import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** Ant Design's factories of style hooks: their second argument draws a component's CSS-in-JS. */
const STYLE_HOOK_FACTORIES = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);
type AstNode = { type: string; start: number; end: number; [key: string]: unknown };

/** The functions passed to the style-hook factories in a module's syntax tree. */
function styleDrawers(root: unknown): AstNode[] {
  const found: AstNode[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const each of node) visit(each);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const each = node as AstNode;
    const callee = each.callee as AstNode | undefined;
    const args = each.arguments as AstNode[] | undefined;
    if (
      each.type === 'CallExpression' &&
      callee?.type === 'Identifier' &&
      STYLE_HOOK_FACTORIES.has(callee.name as string) &&
      args?.[1]
    )
      found.push(args[1]);
    for (const value of Object.values(each)) if (value && typeof value === 'object') visit(value);
  };
  visit(root);
  return found;
}

/** Ant Design's `isBright`, as ColorPresets.js writes it (read from there, so it stays the same). */
const IS_BRIGHT = (() => {
  const file = createRequire(import.meta.url).resolve('antd/es/color-picker/components/ColorPresets.js');
  const found = /^export const isBright = [\s\S]*?\n};$/m.exec(fs.readFileSync(file, 'utf8'));
  if (!found) throw new Error(`${file} no longer defines isBright as antdZeroRuntime.ts expects`);
  return found[0].replace(/^export /, '');
})();

/**
 * Exact rewrites of library modules, by the end of their path: each text must be found, so that
 * an update of the library that changes it fails the build instead of silently bundling it again.
 */
const REWRITES: Array<{ module: string; from: string; to: string; why: string }> = [
  {
    module: '@ant-design/cssinjs-utils/es/util/genStyleUtils.js',
    from: 'if (memoizedZeroRuntime) {',
    to: 'if (true) {',
    why: 'the style hooks always take their zero-runtime path, so the CSS-in-JS runtime (stylis) is left out',
  },
  {
    module: 'antd/es/theme/util/useResetIconStyle.js',
    from: 'return useStyleRegister(',
    to: 'if (true) return;\n  return useStyleRegister(',
    why: "the icons' reset styles are in antd.css too, which the ConfigProvider injected again at run time",
  },
  {
    module: 'antd/es/form/context.js',
    from: "import { FormProvider as RcFormProvider } from '@rc-component/form';",
    to: "import { FormProvider as RcFormProvider } from '@rc-component/form/es/FormContext';",
    why: "the form package's index assigns its parts to the Form component, so importing anything from it bundled all of it (fields, validator) with every input",
  },
  {
    module: 'antd/es/radio/group.js',
    from: "import { toNamePathStr } from '../form/hooks/useForm';",
    to: "import { toArray } from '../form/util';\nconst toNamePathStr = name => toArray(name).join('_');",
    why: "a radio group took this one-line helper (copied here) from the form's hook, and with it the form's store and the same index",
  },
  ...['antd/es/color-picker/color.js', 'antd/es/color-picker/util.js'].map((module) => ({
    module,
    from: "import { Color as RcColor } from '@rc-component/color-picker';",
    to: "import { Color as RcColor } from '@rc-component/color-picker/es/color';",
    why: "buttons, tags and tooltips use the colour class; the colour picker's index brought the picker too",
  })),
  ...['antd/es/button/style/token.js', 'antd/es/tag/style/index.js'].map((module) => ({
    module,
    from: "import { isBright } from '../../color-picker/components/ColorPresets';",
    to: `import { Color as RcColor } from '@rc-component/color-picker/es/color';\n${IS_BRIGHT}`,
    why: "their design tokens use isBright (copied here from the module); that module's colour presets brought the colour picker and Collapse",
  })),
];

/**
 * Leaves out what Ant Design bundles for drawing its styles at run time (issue 39, the home page's
 * weight). The app runs antd in its zero-runtime mode (`zeroRuntime` in AppShell; the styles come
 * from antd/dist/antd.css), where a component's style hook returns before calling the function
 * that computes its CSS. Yet every component's module still bundled that function and all it
 * uses (~40 kB gzipped on the home page): a function drawing nothing takes its place. The hooks'
 * design tokens, the CSS variables that carry the theme (AppShell's colours), stay as they are.
 * With it, a few imports through package indexes that bundled whole packages nothing drew (REWRITES).
 * Only for builds: the dev server and the unit tests run antd as published. Screenshots of the
 * listing journey are pixel-identical to those of a build without it.
 */
export function antdZeroRuntime(): Plugin {
  return {
    name: 'dam:antd-zero-runtime',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/](antd|@ant-design[\\/]cssinjs-utils)[\\/]es[\\/]/ },
      handler(code, id) {
        let out = code;
        const path = id.replaceAll('\\', '/');
        for (const rewrite of REWRITES) {
          if (!path.endsWith(`/node_modules/${rewrite.module}`)) continue;
          if (!out.includes(rewrite.from))
            this.error(
              `${rewrite.module} no longer holds "${rewrite.from}" (${rewrite.why}): update antdZeroRuntime.ts`,
            );
          out = out.replace(rewrite.from, rewrite.to);
        }
        if (/gen(StyleHooks|ComponentStyleHook|SubStyleComponent)\(/.test(out)) {
          const drawers = styleDrawers(this.parse(out)).sort((a, b) => b.start - a.start);
          for (const drawer of drawers) {
            // The cut must be exactly the function (or its name) the syntax tree found there.
            const text = out.slice(drawer.start, drawer.end);
            const alone = this.parse(`(${text});`) as unknown as { body: Array<{ expression: AstNode }> };
            if (alone.body[0]?.expression.type !== drawer.type)
              this.error(`${id}: the style function at ${drawer.start} is not where the syntax tree says`);
            out = `${out.slice(0, drawer.start)}() => []${out.slice(drawer.end)}`;
          }
        }
        return out === code ? null : { code: out, map: null };
      },
    },
  };
}
