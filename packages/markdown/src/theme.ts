/**
 * The stylesheet for rendered Markdown and highlighted code: classes only (no inline styles), so
 * pages with a strict Content-Security-Policy can load it as a file. Light and dark schemes.
 */
export const MARKDOWN_CSS: string = `.markdown > :first-child{margin-top:0}.markdown > :last-child{margin-bottom:0}
.markdown p,.markdown ul,.markdown ol,.markdown blockquote,.markdown table,.markdown pre{margin:.5em 0}
.markdown ul,.markdown ol{padding-left:1.4em}
.markdown h1,.markdown h2,.markdown h3,.markdown h4{margin:.8em 0 .4em;line-height:1.25}
.markdown h1{font-size:1.3em}.markdown h2{font-size:1.18em}.markdown h3{font-size:1.06em}.markdown h4{font-size:1em}
.markdown blockquote{border-left:3px solid #c8ccd2;padding-left:.8em;color:#555;margin-left:0}
.markdown code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:rgba(127,127,127,.14);padding:.1em .3em;border-radius:4px}
.markdown pre{overflow-x:auto;background:#f4f5f7;border:1px solid #e3e5e8;border-radius:6px;padding:.6em .8em;line-height:1.4}
.markdown pre code{background:none;padding:0;font-size:.86em;white-space:pre;tab-size:4}
.markdown pre.plain{white-space:pre-wrap;word-break:break-word}
.markdown table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}
.markdown th,.markdown td{border:1px solid #d6d9de;padding:.25em .6em}
.markdown th{background:#f4f5f7}
.markdown .align-left{text-align:left}.markdown .align-center{text-align:center}.markdown .align-right{text-align:right}
.markdown a{color:#1f5fbf;overflow-wrap:anywhere}.markdown hr{border:0;border-top:1px solid #d6d9de}
.markdown img{max-width:100%}
.hljs-comment,.hljs-quote{color:#5f6770;font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-doctag{color:#c2185b}
.hljs-string,.hljs-regexp,.hljs-addition,.hljs-meta .hljs-string{color:#1d7a35}
.hljs-number,.hljs-symbol,.hljs-bullet,.hljs-variable,.hljs-template-variable{color:#a14f00}
.hljs-title,.hljs-section,.hljs-name,.hljs-selector-id,.hljs-selector-class{color:#5a32a3}
.hljs-built_in,.hljs-type,.hljs-class .hljs-title,.hljs-attr,.hljs-attribute{color:#1f5fbf}
.hljs-meta,.hljs-tag{color:#6f42c1}.hljs-deletion{color:#b31d28;background:#ffeef0}.hljs-addition{background:#f0fff4}
.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:700}
@media (prefers-color-scheme: dark){
.markdown blockquote{border-color:#4a4f57;color:#aab}
.markdown pre{background:#1b1e23;border-color:#2c3038}
.markdown th{background:#1b1e23}.markdown th,.markdown td,.markdown hr{border-color:#3a3f47}
.markdown a{color:#7fb0ff}
.hljs-comment,.hljs-quote{color:#8b949e}
.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-doctag{color:#ff7b9c}
.hljs-string,.hljs-regexp,.hljs-addition,.hljs-meta .hljs-string{color:#7ee787}
.hljs-number,.hljs-symbol,.hljs-bullet,.hljs-variable,.hljs-template-variable{color:#f0b46a}
.hljs-title,.hljs-section,.hljs-name,.hljs-selector-id,.hljs-selector-class{color:#d2a8ff}
.hljs-built_in,.hljs-type,.hljs-class .hljs-title,.hljs-attr,.hljs-attribute{color:#79c0ff}
.hljs-meta,.hljs-tag{color:#d2a8ff}.hljs-deletion{color:#ffa198;background:#3c1618}.hljs-addition{background:#12261e}
}
`;
