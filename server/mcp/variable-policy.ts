// Which environment variables a stdio MCP connection may give its server: only names its template declares
// or the operator lists (MCP_STDIO_ENV_ALLOWLIST), and never a name that changes how a program is loaded
// or run (NODE_OPTIONS=--import=data:…, LD_PRELOAD, PATH, PYTHONPATH, BASH_ENV, …): with one of those an
// admin of any workspace would run code of their choosing on the host, whatever the allowlists say.
import { badRequest } from '../errors.ts';

// Compared in upper case: npm reads npm_config_* in lower case, Windows ignores case altogether.
const REFUSED_NAMES = new Set([
  'PATH',
  'PATHEXT',
  'HOME',
  'ENV',
  'BASH_ENV',
  'SHELL',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'PROMPT_COMMAND',
  'ZDOTDIR',
  'COMSPEC',
  'SYSTEMROOT',
  'TMPDIR',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'BROWSER',
  'CLASSPATH',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'VIRTUAL_ENV',
  'GOFLAGS',
  'GOPATH',
  'GOROOT',
  'GOPROXY',
  'GOTOOLCHAIN',
  'GOENV',
  'RUSTFLAGS',
  'RUSTDOCFLAGS',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'TCLLIBPATH',
  'MEMORY_FILE_PATH',
]);

// Interpreters, package managers and loaders that read their options or code paths from the environment.
const REFUSED_PREFIXES = [
  'NODE_',
  'NPM_',
  'YARN_',
  'PNPM_',
  'COREPACK_',
  'BUN_',
  'DENO_',
  'TSX_',
  'TS_NODE_',
  'ELECTRON_',
  'LD_',
  'DYLD_',
  'GCONV_',
  'GLIBC_',
  'MALLOC_',
  'PYTHON',
  'PIP_',
  'UV_',
  'CONDA_',
  'PERL',
  'RUBY',
  'GEM_',
  'BUNDLE_',
  'JAVA',
  '_JAVA',
  'JDK_',
  'MAVEN_',
  'GRADLE_',
  'DOTNET_',
  'COMPLUS_',
  'CORECLR_',
  'CARGO_',
  'RUSTC',
  'RUSTUP_',
  'LUA_',
  'GIT_',
  'BASH_FUNC_',
  'OPENSSL_',
  'XDG_',
  'LESS',
];

// Suffixes that name options, flags, search paths, tool homes and proxies, whoever reads them.
const REFUSED_SUFFIXES = ['_OPTIONS', '_OPTS', 'FLAGS', 'PATH', '_HOME', '_PROXY'];

/** Whether this name may never be set by a connection, whatever the template or operator list says. */
export function refusedName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    REFUSED_NAMES.has(upper) ||
    REFUSED_PREFIXES.some((p) => upper.startsWith(p)) ||
    REFUSED_SUFFIXES.some((s) => upper.endsWith(s))
  );
}

export function parseNameList(raw: string): string[] {
  return raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * Throws a 400 naming the first variable that may not be set: one that alters program loading (always),
 * or one neither the template declares nor the operator allows.
 */
export function requireAllowedVariables(names: string[], declared: string[], operatorList: string[]): void {
  for (const name of names) {
    if (refusedName(name))
      throw badRequest(
        `The variable ${name} changes how programs are loaded or run, so an MCP connection cannot set it`,
      );
  }
  const allowed = new Set([...declared, ...operatorList]);
  const unknown = names.filter((name) => !allowed.has(name));
  if (unknown.length > 0)
    throw badRequest(
      `This MCP server does not take the variable${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; an operator can allow more names in MCP_STDIO_ENV_ALLOWLIST`,
    );
}
