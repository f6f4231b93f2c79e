// The inline stylesheet of HTML exports (export-html.ts): system fonts only, nothing fetched,
// light and dark schemes. Kept apart so the renderer reads as markup.
export const HTML_STYLE = `
:root{color-scheme:light dark;--fg:#1d1f23;--bg:#fff;--muted:#5f6670;--line:#d9dde3;--code:#f4f5f7;--user:#eef4ff;--del:#ffe9e9;--ins:#e8f8ea;--warn:#9a5b00}
@media (prefers-color-scheme:dark){:root{--fg:#e4e6ea;--bg:#16181c;--muted:#9aa1ab;--line:#30343b;--code:#1f2227;--user:#1b2536;--del:#3a1f22;--ins:#1d3323;--warn:#e0a040}}
body{margin:0 auto;max-width:60rem;padding:1rem 1.5rem 3rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.3rem}h2{font-size:1.1rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
pre{background:var(--code);padding:.5rem .75rem;border-radius:4px;overflow-x:auto;white-space:pre-wrap;word-break:break-word;margin:.25rem 0}
.meta,.derived,.usage,.who,.summary,.sandbox{color:var(--muted);font-size:.85rem}
.turn{border-top:1px solid var(--line);padding:.75rem 0}
.user pre.text{background:var(--user)}
.assistant .markdown{padding:0 .25rem}
.tool-call,.tool-result,.note{margin:.5rem 0;padding-left:.75rem;border-left:3px solid var(--line)}
.tool-call .title{font-weight:600}
.kind{font-weight:400;color:var(--muted);text-transform:uppercase;font-size:.75rem}
.refused,.rewritten,.truncated,.failed,.blocked{color:var(--warn)}
.tool-result.error .summary{color:var(--warn)}
details summary{cursor:pointer;color:var(--muted)}
.diff .del{background:var(--del);display:block}.diff .ins{background:var(--ins);display:block}
.receipt{border-top:1px solid var(--line);margin-top:2rem}
`;
