import { extensionOf } from '@cabinet/contracts';
import { GRAMMARS, type LoadGrammar } from '../../../components/ui/grammars.ts';

/** The grammar each file extension is highlighted with (ADR 0047: each loaded only when needed). */
const BY_EXTENSION: Record<string, string> = {};
const add = (extensions: string, name: string) => extensions.split(' ').forEach((ext) => (BY_EXTENSION[ext] = name));
add('js mjs cjs jsx', 'javascript');
add('ts mts cts tsx', 'typescript');
add('json jsonl ndjson geojson', 'json');
add('html htm xhtml xml xsd xsl xslt rss atom plist kml gpx svg vue svelte', 'xml');
add('css', 'css');
add('scss sass', 'scss');
add('less', 'less');
add('md markdown mdx', 'markdown');
add('py pyi', 'python');
add('rb', 'ruby');
add('go', 'go');
add('rs', 'rust');
add('java', 'java');
add('kt kts', 'kotlin');
add('scala', 'scala');
add('c h', 'c');
add('cc cpp cxx hpp hh', 'cpp');
add('cs', 'csharp');
add('swift', 'swift');
add('php', 'php');
add('pl pm', 'perl');
add('r', 'r');
add('lua', 'lua');
add('dart', 'dart');
add('sh bash zsh', 'bash');
add('ps1', 'powershell');
add('sql', 'sql');
add('yaml yml', 'yaml');
add('toml ini cfg conf properties', 'ini');
add('diff patch', 'diff');
add('graphql gql', 'graphql');
add('tex', 'latex');

/** The grammar for a file's name, or undefined for plain text (a .txt, a log). */
export function grammarFor(name: string): [name: string, load: LoadGrammar] | undefined {
  const lower = name.toLowerCase();
  const grammar = lower === 'dockerfile' || lower === 'makefile' ? lower : BY_EXTENSION[extensionOf(name)];
  return grammar ? [grammar, GRAMMARS[grammar]!] : undefined;
}
