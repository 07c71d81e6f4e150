"""The stylesheet of a transcript: Discord's desktop dark theme, and its phone
layout below 480 px.

Every element a transcript draws has a rule here; what only a live page's
script shows (a select's ``hidden`` option list, once opened) has one too, and
``hidden`` always wins, so the photographs look the same with or without it.
"""

from __future__ import annotations


def stylesheet(width: int) -> str:
    """The CSS ``render`` embeds in a page; ``width`` caps the conversation column
    (at least 240 px)."""
    return CSS.replace("__WIDTH__", str(max(int(width), 240)))


CSS = """
*{box-sizing:border-box}
html,body{margin:0;padding:0;background:#313338}
body{font-family:"gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif;color:#dbdee1;
font-size:16px;line-height:1.375;-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}
.page{max-width:__WIDTH__px;background:#313338}
.topbar{display:flex;align-items:center;height:48px;padding:0 16px;border-bottom:1px solid #26282c;
box-shadow:0 1px 0 rgba(2,2,2,.2);min-width:0}
.chan-icon{color:#80848e;font-size:24px;font-weight:500;margin-right:8px;line-height:1}
.chan-name{color:#f2f3f5;font-weight:600;font-size:16px;white-space:nowrap;overflow:hidden;
text-overflow:ellipsis}
.topic{color:#949ba4;font-size:14px;font-weight:500;margin-left:12px;padding-left:12px;
border-left:1px solid #4e5058;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.caption{margin:16px 16px 0;padding:8px 12px;background:#2b2d31;border-radius:8px;color:#f0b232;
font-size:14px;font-family:Consolas,"DejaVu Sans Mono",monospace;overflow-wrap:anywhere}
.log{padding:8px 0 24px}
.msg{position:relative;margin-top:17px;padding:2px 48px 2px 0}
.msg.grouped{margin-top:0}
.msg.mentioned{background:rgba(240,177,50,.1)}
.msg.mentioned::before{content:"";position:absolute;left:0;top:0;bottom:0;width:2px;
background:#f0b232}
.main{position:relative;padding-left:72px;min-height:22px}
.msg:not(.grouped) .main{min-height:44px}
.avatar{position:absolute;left:16px;top:2px;width:40px;height:40px;border-radius:50%;display:flex;
align-items:center;justify-content:center;color:#fff;font-weight:600;font-size:18px;
user-select:none}
.avatar.small{position:static;width:16px;height:16px;font-size:9px;flex:none;margin-right:4px}
.head{display:flex;align-items:baseline;flex-wrap:wrap;gap:0 4px;line-height:22px;min-width:0}
.name{color:#f2f3f5;font-weight:500;font-size:16px;overflow-wrap:anywhere}
.tag{display:inline-flex;align-items:center;height:15px;padding:0 4px;border-radius:4px;
background:#5865f2;color:#fff;font-size:10px;font-weight:600;line-height:15px;position:relative;
top:-2px;white-space:nowrap}
.time{color:#949ba4;font-size:12px;font-weight:500;margin-left:4px;white-space:nowrap}
.ref{position:relative;display:flex;align-items:center;height:22px;margin:0 0 4px 72px;
font-size:14px;color:#b5bac1;white-space:nowrap;overflow:hidden;min-width:0}
.msg .ref{overflow:visible}
.msg > .ref::after{content:"";position:absolute;left:-36px;top:10px;width:30px;height:10px;
border-left:2px solid #4e5058;border-top:2px solid #4e5058;border-top-left-radius:6px}
.ref-name{color:#f2f3f5;opacity:.8;font-weight:500;margin-right:4px;flex:none}
.ref-used{margin-right:4px;flex:none}
.ref-command{color:#00a8fc;font-weight:500;overflow:hidden;text-overflow:ellipsis}
.ref-text{overflow:hidden;text-overflow:ellipsis;min-width:0}
.ref-attachment,.ref-missing{font-style:italic}
.md{white-space:pre-wrap;overflow-wrap:anywhere;min-width:0}
.md h1,.md h2,.md h3{color:#f2f3f5;font-weight:700;line-height:1.375;margin:8px 0 4px}
.md h1{font-size:24px}.md h2{font-size:20px}.md h3{font-size:16px}
.md > h1:first-child,.md > h2:first-child,.md > h3:first-child{margin-top:4px}
.md ul,.md ol{margin:4px 0;padding-left:20px;white-space:normal}
.md li{white-space:pre-wrap;margin:0}
.subtext{color:#949ba4;font-size:13px;line-height:1.33}
.md blockquote{display:flex;margin:0;padding:0}
.quote-bar{flex:none;width:4px;border-radius:4px;background:#4e5058;margin-right:12px}
.md blockquote > div:last-child{min-width:0;flex:1}
.codeblock{margin:6px 0 0;padding:7px;max-width:90%;background:#2b2d31;border:1px solid #1e1f22;
border-radius:4px;white-space:pre-wrap;font-family:Consolas,"Andale Mono WT","DejaVu Sans Mono",
monospace;font-size:14px;line-height:18px;color:#dbdee1}
code.inline{font-family:Consolas,"Andale Mono WT","DejaVu Sans Mono",monospace;font-size:85%;
padding:0 .2em;margin:-.2em 0;border-radius:4px;background:#2b2d31;border:1px solid #1e1f22;
line-height:1.125rem;white-space:pre-wrap}
.embed code.inline,.container code.inline{background:#1e1f22}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px;
font-weight:500}
.message-link{white-space:nowrap}
.message-link .chevron-small{margin:0 2px}
.message-link .bubble{width:14px;height:14px;vertical-align:-2px}
.timestamp{background:rgba(78,80,88,.48);border-radius:3px;padding:0 2px}
a.link,.link{color:#00a8fc;text-decoration:none}
.spoiler{background:#1e1f22;color:transparent;border-radius:4px;padding:0 2px}
.spoiler *{visibility:hidden}
img.emoji{width:1.375em;height:1.375em;object-fit:contain;vertical-align:bottom;
margin:0 .05em 0 .1em}
.md.jumbo img.emoji{width:48px;height:48px;min-height:48px}
.emoji-missing{color:#b5bac1}
.edited{color:#949ba4;font-size:10px;margin-left:4px;white-space:nowrap}
.thinking{color:#949ba4;font-style:italic}
.eph{display:flex;align-items:center;gap:4px;margin-top:4px;color:#949ba4;font-size:12px;
line-height:16px}
.eph .eye{width:16px;height:16px}
.eph-dot{margin:0 2px}
.embed{display:flex;gap:16px;max-width:516px;margin-top:8px;padding:8px 16px 16px 12px;
background:#2b2d31;border-left:4px solid #1e1f22;border-radius:4px;min-width:0}
.embed-main{flex:1;min-width:0}
.embed-main > *{margin-top:8px}
.embed-author{display:flex;align-items:center;gap:8px;color:#f2f3f5;font-size:14px;
font-weight:600}
.embed-author-icon{width:24px;height:24px;border-radius:50%;object-fit:contain}
.embed-title{color:#f2f3f5;font-size:16px;font-weight:600;overflow-wrap:anywhere}
.embed-description,.embed-field-value{font-size:14px;line-height:18px}
.embed-fields{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));gap:8px}
.embed-field{min-width:0}
.embed-field-name{color:#f2f3f5;font-size:14px;font-weight:600;line-height:18px;margin-bottom:2px;
overflow-wrap:anywhere}
.embed-image .media{display:block;max-width:100%;max-height:300px;border-radius:4px}
.embed-thumbnail{flex:none;margin-top:8px}
.embed-thumbnail .media{display:block;max-width:80px;max-height:80px;border-radius:4px;
object-fit:contain}
.embed-footer{display:flex;align-items:center;gap:8px;color:#dbdee1;font-size:12px;
font-weight:500;line-height:16px}
.embed-footer-icon{width:20px;height:20px;border-radius:50%}
.components,.v2{display:flex;flex-direction:column;align-items:flex-start;gap:8px;
margin-top:8px;min-width:0}
.v2{margin-top:4px}
.row{display:flex;flex-wrap:wrap;gap:8px;width:100%}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:6px;height:32px;
min-width:60px;padding:2px 16px;border-radius:8px;color:#fff;font-size:14px;font-weight:500;
line-height:16px;white-space:nowrap;user-select:none;border:0;font-family:inherit;
cursor:pointer}
.btn:focus-visible,.select:focus-visible,.select-option:focus-visible{outline:2px solid #00a8fc;
outline-offset:2px}
.btn.icon-only{min-width:40px;padding:2px 10px}
.btn img.emoji{width:20px;height:20px;margin:0}
.btn .uemoji{font-size:18px;line-height:20px}
.btn.primary{background:#5865f2}
.btn.secondary,.btn.link{background:#4e5058}
.btn.success{background:#248046}
.btn.danger{background:#da373c}
.btn.premium{background:linear-gradient(90deg,#8547c6,#b845c1)}
.btn.disabled{opacity:.5;cursor:not-allowed}
.btn .arrow{margin-left:2px}
.select{display:flex;align-items:center;justify-content:space-between;gap:8px;width:400px;
max-width:100%;min-height:40px;padding:8px 8px 8px 12px;background:#1e1f22;
border:1px solid #1e1f22;border-radius:8px;font-size:16px;font-weight:500;color:#dbdee1}
.select.disabled{opacity:.5}
.select-value{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.select-value img.emoji{width:22px;height:22px}
.select-placeholder{color:#949ba4;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.select{position:relative}
[hidden]{display:none!important}
.select-options{position:absolute;left:-1px;right:-1px;top:calc(100% + 4px);z-index:1;
max-height:320px;overflow-y:auto;background:#2b2d31;border:1px solid #1e1f22;border-radius:8px;
box-shadow:0 8px 16px rgba(0,0,0,.24)}
.select-option{display:flex;align-items:center;gap:8px;padding:8px 12px;cursor:pointer}
.select-option:hover{background:#36373d}
.select-option.default{background:#404249}
.select-option img.emoji{width:22px;height:22px;margin:0}
.select-option-text{display:flex;flex-direction:column;min-width:0}
.select-option-label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.select-option-description{color:#949ba4;font-size:14px;font-weight:400;overflow:hidden;
text-overflow:ellipsis;white-space:nowrap}
.chevron{flex:none;color:#b5bac1}
.container{position:relative;display:flex;flex-direction:column;gap:8px;width:100%;
max-width:600px;padding:16px;background:#2b2d31;border:1px solid #3a3c42;border-radius:8px;
min-width:0}
.container > .row,.container .select{max-width:100%}
.spoiler-blur{display:flex;flex-direction:column;gap:8px;filter:blur(12px);opacity:.6}
.spoiler-label{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);
padding:4px 12px;border-radius:20px;background:rgba(0,0,0,.6);color:#fff;font-size:14px;
font-weight:700;letter-spacing:.5px}
.section{display:flex;align-items:flex-start;gap:16px;width:100%;min-width:0}
.section-texts{flex:1;display:flex;flex-direction:column;gap:8px;min-width:0}
.accessory{flex:none;display:flex;align-items:flex-start}
.accessory:empty{display:none}
.text-display{width:100%;min-width:0}
.thumbnail .media,.thumbnail .missing-media{display:block;width:85px;height:85px;
border-radius:8px;object-fit:cover}
.gallery{display:grid;gap:4px;width:100%;max-width:520px}
.gallery.cols-1{grid-template-columns:1fr}
.gallery.cols-2{grid-template-columns:1fr 1fr}
.gallery.cols-3{grid-template-columns:1fr 1fr 1fr}
.gallery-item{min-width:0}
.gallery-item .media,.gallery-item .missing-media{display:block;width:100%;border-radius:8px;
object-fit:cover}
.gallery.cols-1 .media{max-height:350px;object-fit:contain;width:auto;max-width:100%}
.gallery:not(.cols-1) .media,.gallery .missing-media{aspect-ratio:1/1;height:auto}
.missing-media{display:inline-flex;align-items:center;justify-content:center;background:#1e1f22;
color:#4e5058;border-radius:8px;width:80px;height:80px}
.spoiler-media{filter:blur(10px)}
.separator{width:100%;height:1px;flex:none}
.separator.large{margin:8px 0}
.separator.divider{background:#3f4147}
.file{display:flex;align-items:center;gap:8px;width:100%;max-width:432px;padding:16px;
background:#2b2d31;border:1px solid #1e1f22;border-radius:8px;min-width:0}
.file-icon{flex:none}
.file-meta{min-width:0}
.file-name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:16px}
.file-size{color:#949ba4;font-size:12px}
.attachment-image{margin-top:8px}
.attachment-image .media{display:block;max-width:min(400px,100%);max-height:300px;
border-radius:8px}
.unknown{color:#949ba4;font-size:12px;font-style:italic}
@media (max-width:480px){
.msg{padding-right:12px}
.main{padding-left:60px}
.avatar{left:12px}
.ref{margin-left:60px}
.msg > .ref::after{left:-32px;width:26px}
.embed{max-width:100%}
.select{width:100%}
.topic{display:none}
}
"""
