import type { LanguageFn } from 'highlight.js';
import { extensionOf } from '@cabinet/contracts';

type Load = () => Promise<{ default: LanguageFn }>;

/** highlight.js's grammars by file extension, each loaded only when a file of it is opened. */
const GRAMMARS: Record<string, [name: string, load: Load]> = {};
const add = (extensions: string, name: string, load: Load) => extensions.split(' ').forEach((ext) => (GRAMMARS[ext] = [name, load]));
add('js mjs cjs jsx', 'javascript', () => import('highlight.js/lib/languages/javascript'));
add('ts mts cts tsx', 'typescript', () => import('highlight.js/lib/languages/typescript'));
add('json jsonl ndjson geojson', 'json', () => import('highlight.js/lib/languages/json'));
add('html htm xhtml xml xsd xsl xslt rss atom plist kml gpx svg vue svelte', 'xml', () => import('highlight.js/lib/languages/xml'));
add('css', 'css', () => import('highlight.js/lib/languages/css'));
add('scss sass', 'scss', () => import('highlight.js/lib/languages/scss'));
add('less', 'less', () => import('highlight.js/lib/languages/less'));
add('md markdown mdx', 'markdown', () => import('highlight.js/lib/languages/markdown'));
add('py pyi', 'python', () => import('highlight.js/lib/languages/python'));
add('rb', 'ruby', () => import('highlight.js/lib/languages/ruby'));
add('go', 'go', () => import('highlight.js/lib/languages/go'));
add('rs', 'rust', () => import('highlight.js/lib/languages/rust'));
add('java', 'java', () => import('highlight.js/lib/languages/java'));
add('kt kts', 'kotlin', () => import('highlight.js/lib/languages/kotlin'));
add('scala', 'scala', () => import('highlight.js/lib/languages/scala'));
add('c h', 'c', () => import('highlight.js/lib/languages/c'));
add('cc cpp cxx hpp hh', 'cpp', () => import('highlight.js/lib/languages/cpp'));
add('cs', 'csharp', () => import('highlight.js/lib/languages/csharp'));
add('swift', 'swift', () => import('highlight.js/lib/languages/swift'));
add('php', 'php', () => import('highlight.js/lib/languages/php'));
add('pl pm', 'perl', () => import('highlight.js/lib/languages/perl'));
add('r', 'r', () => import('highlight.js/lib/languages/r'));
add('lua', 'lua', () => import('highlight.js/lib/languages/lua'));
add('dart', 'dart', () => import('highlight.js/lib/languages/dart'));
add('sh bash zsh', 'bash', () => import('highlight.js/lib/languages/bash'));
add('ps1', 'powershell', () => import('highlight.js/lib/languages/powershell'));
add('sql', 'sql', () => import('highlight.js/lib/languages/sql'));
add('yaml yml', 'yaml', () => import('highlight.js/lib/languages/yaml'));
add('toml ini cfg conf properties', 'ini', () => import('highlight.js/lib/languages/ini'));
add('diff patch', 'diff', () => import('highlight.js/lib/languages/diff'));
add('graphql gql', 'graphql', () => import('highlight.js/lib/languages/graphql'));
add('tex', 'latex', () => import('highlight.js/lib/languages/latex'));

/** The grammar for a file's name, or undefined for plain text (a .txt, a log). */
export function grammarFor(name: string): [name: string, load: Load] | undefined {
  const lower = name.toLowerCase();
  if (lower === 'dockerfile') return ['dockerfile', () => import('highlight.js/lib/languages/dockerfile')];
  if (lower === 'makefile') return ['makefile', () => import('highlight.js/lib/languages/makefile')];
  return GRAMMARS[extensionOf(name)];
}
