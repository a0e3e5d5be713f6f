/*
 * The self-contained HTML report (docs/guide.md, "Reports"): one page with
 * its CSS, its script and the data inline; the script draws every chart as
 * SVG and inserts the figures drawn in C (html_svg.c, html_tiles.c). No
 * server, no network access: it opens from disk. When the charts
 * are drawn the script sets data-trim-rendered="<charts>" on <html>; a
 * script error sets data-trim-error and shows the message on the page.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"

static const char page_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;border-bottom:1px solid #eee;"
	"text-align:right}th{background:#f4f4f4}td.l,th.l{text-align:left}"
	".warn{background:#fff4e0;border-left:4px solid #e69500;padding:4px 8px;margin:4px 0}"
	".err{background:#fde;border-left:4px solid #c00;padding:4px 8px}"
	"pre{background:#f8f8f8;padding:6px;overflow:auto;font-size:12px}"
	"svg{display:block;margin:.5em 0;max-width:100%;height:auto}svg text{font-size:11px;fill:#333}"
	".legend span{display:inline-block;margin-right:12px}.legend i{display:inline-block;width:10px;"
	"height:10px;margin-right:4px}select{font-size:14px}"
	".nest{display:flex;gap:1em;align-items:flex-start}.nest pre{flex:1;margin:.5em 0}";

/* A script of its own, first: it reports the errors of the next one, a
 * syntax error included. */
static const char page_guard_js[] =
	"window.onerror=function(m,s,l,c){var d=document.getElementById('trim-errors');"
	"d.className='err';d.textContent='script error: '+m+' (line '+l+')';"
	"document.documentElement.setAttribute('data-trim-error',String(m));};\n";

/* The script: builds the page from the JSON in #trim-data. */
static const char page_js[] =
	"'use strict';\n"
	"var COLORS=['#4e79a7','#f28e2b','#e15759','#76b7b2','#59a14f','#edc948','#b07aa1','#ff9da7',"
	"'#9c755f','#bab0ac','#1f77b4','#8c564b','#17becf','#bcbd22','#7f7f7f','#d62728'];\n"
	"var NS='http://www.w3.org/2000/svg',charts=0;\n"
	"function el(t,a,p){var e=document.createElementNS(NS,t);for(var k in a)e.setAttribute(k,a[k]);"
	"if(p)p.appendChild(e);return e;}\n"
	"function h(t,txt,p,cls){var e=document.createElement(t);if(txt!==undefined)e.textContent=txt;"
	"if(cls)e.className=cls;if(p)p.appendChild(e);return e;}\n"
	"function fmt(v){if(v===null||v===undefined)return '-';var a=Math.abs(v);if(a===0)return '0';"
	"if(a>=1e5||a<1e-2)return v.toExponential(3);return (Math.round(v*1000)/1000).toString();}\n"
	"function spans(vals){var p=vals.filter(function(v){return v>0;});if(p.length<2)return false;"
	"return Math.max.apply(null,p)/Math.min.apply(null,p)>=100;}\n"
	"function legend(p,names){var d=h('div',undefined,p,'legend');names.forEach(function(n,i){"
	"var s=h('span',undefined,d);var b=h('i',undefined,s);b.style.background=COLORS[i%COLORS.length];"
	"s.appendChild(document.createTextNode(n));});}\n"
	/* horizontal stacked bars: rows [{label, parts:[v...]}] */
	"function stacked(p,title,rows,names,unit){h('h3',title,p);legend(p,names);"
	"var W=1000,L=190,R=90,bh=16,H=rows.length*(bh+4)+24;var svg=el('svg',{width:W,height:H,"
	"viewBox:'0 0 '+W+' '+H,'class':'chart'},p);var mx=0;rows.forEach(function(r){var s=0;"
	"r.parts.forEach(function(v){s+=Math.max(v,0);});r.sum=s;mx=Math.max(mx,s);});if(!(mx>0))mx=1;"
	"rows.forEach(function(r,i){var y=i*(bh+4)+4,x=L;el('text',{x:L-6,y:y+bh-4,'text-anchor':'end'},svg)"
	".textContent=r.label;r.parts.forEach(function(v,k){if(!(v>0))return;var w=v/mx*(W-L-R);"
	"var b=el('rect',{x:x,y:y,width:Math.max(w,0.5),height:bh,fill:COLORS[k%COLORS.length]},svg);"
	"el('title',{},b).textContent=names[k]+': '+fmt(v)+' '+unit;x+=w;});"
	"el('text',{x:x+4,y:y+bh-4},svg).textContent=fmt(r.sum);});"
	"el('text',{x:L,y:H-4},svg).textContent='0';el('text',{x:W-R,y:H-4,'text-anchor':'end'},svg)"
	".textContent=fmt(mx)+' '+unit;charts++;}\n"
	/* horizontal bars, log axis when values span decades; colour by group */
	"function bars(p,title,rows,unit,groups,fixed){var vals=rows.map(function(r){return r.v;});"
	"var lg=!fixed&&spans(vals);h('h3',title+(lg?' (log axis)':''),p);if(groups)legend(p,groups);"
	"var W=1000,L=190,R=90,bh=14,H=rows.length*(bh+4)+24;var svg=el('svg',{width:W,height:H,"
	"viewBox:'0 0 '+W+' '+H,'class':'chart'},p);var pos=vals.filter(function(v){return v>0;});"
	"var mx=pos.length?Math.max.apply(null,pos):1,mn=pos.length?Math.min.apply(null,pos):1;"
	"var lo=lg?Math.pow(10,Math.floor(Math.log10(mn))):0,hi=lg?Math.pow(10,Math.ceil(Math.log10(mx))):(fixed||mx);"
	"function X(v){if(lg)return L+(Math.log10(Math.max(v,lo))-Math.log10(lo))/(Math.log10(hi)-"
	"Math.log10(lo))*(W-L-R);return L+v/(hi||1)*(W-L-R);}"
	"rows.forEach(function(r,i){var y=i*(bh+4)+4;el('text',{x:L-6,y:y+bh-3,'text-anchor':'end'},svg)"
	".textContent=r.label;var b=el('rect',{x:L,y:y,width:Math.max(X(r.v)-L,0.5),height:bh,"
	"fill:COLORS[(r.g||0)%COLORS.length]},svg);el('title',{},b).textContent=r.label+': '+fmt(r.v)+' '+unit"
	"+(r.note?' ('+r.note+')':'');el('text',{x:X(r.v)+4,y:y+bh-3},svg).textContent=fmt(r.v)+"
	"(r.note?'  '+r.note:'');});el('text',{x:L,y:H-4},svg).textContent=fmt(lo);"
	"el('text',{x:W-R,y:H-4,'text-anchor':'end'},svg).textContent=fmt(hi)+' '+unit;charts++;}\n"
	"function table(p,head,rows){var t=h('table',undefined,p),tr=h('tr',undefined,t);"
	"head.forEach(function(c,i){h('th',c,tr,i<3?'l':'');});rows.forEach(function(r){var tr=h('tr',undefined,t);"
	"r.forEach(function(c,i){h('td',typeof c==='number'?fmt(c):c,tr,i<3?'l':'');});});return t;}\n"
	/* one architecture's details: d = {levels, workloads, warnings, totals} */
	"function detail(p,d){h('h2','Totals',p);var T=d.totals;table(p,['cycles','energy pJ','EDP',"
	"'PE utilization (spatial)','temporal utilization'].map(function(x){return x;}),[[T.cycles,"
	"T.energy_pj,T.cycles*T.energy_pj,T.pe_utilization,T.temporal_utilization]]);"
	"h('h2','Warnings',p);if(!d.warnings.length)h('p','none',p);d.warnings.forEach(function(w){"
	"h('div',w.message,p,'warn');});var W=d.workloads,lab=function(w){return w.layer+' '+w.phase;};"
	"h('h2','Network figures',p);d.figures.forEach(function(f){h('h3',f.title,p);"
	"h('div',undefined,p,'fig').innerHTML=f.svg;charts++;});"
	"h('h2','Energy per workload',p);var tog=h('label',undefined,p),cb=h('input',undefined,tog);"
	"cb.type='checkbox';tog.appendChild(document.createTextNode(' each workload as shares of its energy (%)'"
	"+(spans(W.map(function(w){return w.energy_pj;}))?': the energies span decades':'')));"
	"var ebox=h('div',undefined,p),tn=['input','weight','output'];function energy(share){ebox.textContent='';"
	"var u=share?'%':'pJ';function norm(parts){var t=parts.reduce(function(a,b){return a+Math.max(b,0);},0);"
	"return share&&t>0?parts.map(function(v){return v/t*100;}):parts;}"
	"stacked(ebox,'Energy by level ('+u+')',W.map(function(w){return{label:lab(w),parts:norm(d.levels.map("
	"function(n){return w.energy_by_level[n]||0;}))};}),d.levels,u);"
	"stacked(ebox,'Energy by tensor ('+u+'; compute and leakage apart)',W.map(function(w){return{label:lab(w),"
	"parts:norm(tn.map(function(n){return w.energy_by_tensor[n]||0;}).concat([w.energy_pj-tn.reduce("
	"function(s,n){return s+(w.energy_by_tensor[n]||0);},0)]))};}),tn.concat(['compute, leakage, sparse']),u);}"
	"cb.checked=location.hash==='#shares';energy(cb.checked);cb.onchange=function(){energy(cb.checked);};"
	"h('h2','Time per workload',p);"
	"bars(p,'Cycles, coloured by the bottleneck level',W.map(function(w){return{label:lab(w),v:w.cycles,"
	"g:d.levels.indexOf(w.bottleneck),note:w.bottleneck};}),'cycles',d.levels);"
	"h('h2','Utilisation',p);bars(p,'Temporal utilization: MACs / (PEs x cycles)',W.map(function(w){"
	"return{label:lab(w),v:w.temporal_utilization,g:0};}),'',null,1);bars(p,'Spatial PE utilization: active PEs / PEs',"
	"W.map(function(w){return{label:lab(w),v:w.pe_utilization,g:1};}),'',null,1);"
	"h('h2','Workloads',p);table(p,['#','layer','phase','cycles','energy pJ','bottleneck','compute cycles',"
	"'PE util','temporal util'],W.map(function(w){return[String(w.index),w.layer,w.phase,w.cycles,"
	"w.energy_pj,w.bottleneck,w.compute_cycles,w.pe_utilization,w.temporal_utilization];}));"
	"h('h2','Mappings (loop nests, outermost first; loops of bound 1 left out)',p);W.forEach(function(w,i){"
	"var s=h('details',undefined,p);if(i===0)s.open=true;var all=w.loopnest.split('\\n'),kept=all.filter("
	"function(l){return !/ in \\[0:1\\)/.test(l);});h('summary',lab(w)+': '+fmt(w.cycles)+' cycles, '+"
	"fmt(w.energy_pj)+' pJ, bottleneck '+w.bottleneck+(all.length>kept.length?' ('+(all.length-kept.length)+"
	"' loops of bound 1 not shown)':''),s);var row=h('div',undefined,s,'nest');h('pre',kept.join('\\n'),row);"
	"h('div',undefined,row).innerHTML=w.tiles;charts++;});}\n"
	"function explore(p,x){h('h2','Ranking (goal '+x.goal+')',p);var P=x.points;"
	"var ranked=P.filter(function(q){return q.rank>0;}).sort(function(a,b){return a.rank-b.rank;});"
	"table(p,['rank','point','pareto','cycles','energy pJ','EDP','area mm2','PE util','temporal util',"
	"'exact','gap','lower bound','ranks','warnings'],ranked.map(function(q){return[String(q.rank),q.name,"
	"(q.pareto?'*':'')+(q.pareto_proven===false?'?':''),q.cycles,q.energy_pj,q.edp,q.area_mm2,q.pe_utilization,q.temporal_utilization,"
	"q.exact?'yes':'no',q.gap===null?'none':(100*q.gap).toPrecision(3)+'%',q.lower_bound===null?'none':"
	"q.lower_bound,q.rank_best===q.rank_worst?String(q.rank):q.rank_best+'-'+q.rank_worst,"
	"String((q.warnings||[]).length)];}));var np=ranked.filter(function(q){return q.rank_best!==q.rank_worst;"
	"}).length;if(np)h('div','the order of '+np+' of '+ranked.length+' ranked points is not proven: their "
	"searches stopped before proving them optimal, and each could hold any rank of its ranks column (gap: "
	"how far its '+x.goal+' may be above the best its mappings can give)',p,'warn');P.filter(function(q){return !q.valid;}).forEach(function(q){h('div',q.name+"
	"': '+(q.error||'invalid'),p,'warn');});h('h2','Pareto front: energy against delay',p);"
	"var V=P.filter(function(q){return q.valid;});var W=700,H=420,M=90;var xs=V.map(function(q){return q.cycles;}),"
	"ys=V.map(function(q){return q.energy_pj;});var lx=spans(xs),ly=spans(ys);"
	"h('p','axes: cycles'+(lx?' (log)':'')+' against energy pJ'+(ly?' (log)':'')+'; filled: the front '"
	"+'over (energy, delay, area), so a filled point may lie above another in this plane',p);"
	"var svg=el('svg',{width:W,height:H,viewBox:'0 0 '+W+' '+H,'class':'chart'},p);"
	"function rng(v,lg){var a=Math.min.apply(null,v),b=Math.max.apply(null,v);if(lg){a=Math.log10(a);"
	"b=Math.log10(b);}if(a===b){a-=0.5;b+=0.5;}var m=(b-a)*0.08;return[a-m,b+m];}"
	"var rx=rng(xs,lx),ry=rng(ys,ly);function S(v,r,lg,a,b){var t=lg?Math.log10(v):v;return a+(t-r[0])/"
	"(r[1]-r[0])*(b-a);}el('line',{x1:M,y1:H-M,x2:W-10,y2:H-M,stroke:'#999'},svg);"
	"el('line',{x1:M,y1:10,x2:M,y2:H-M,stroke:'#999'},svg);"
	"el('text',{x:(W+M)/2,y:H-M+36,'text-anchor':'middle'},svg).textContent='cycles'+(lx?' (log)':'');"
	"var yl=el('text',{x:12,y:(H-M)/2,'text-anchor':'middle',transform:'rotate(-90 12 '+(H-M)/2+')'},svg);"
	"yl.textContent='energy pJ'+(ly?' (log)':'');[0,0.5,1].forEach(function(f){var vx=rx[0]+f*(rx[1]-rx[0]),"
	"vy=ry[0]+f*(ry[1]-ry[0]);el('text',{x:M+f*(W-10-M),y:H-M+16,'text-anchor':'middle'},svg).textContent="
	"fmt(lx?Math.pow(10,vx):vx);el('text',{x:M-4,y:H-M-f*(H-M-10)+4,'text-anchor':'end'},svg).textContent="
	"fmt(ly?Math.pow(10,vy):vy);});var front=V.filter(function(q){return q.pareto;}).sort(function(a,b){"
	"return a.cycles-b.cycles;});"
	"V.forEach(function(q){var c=el('circle',{cx:S(q.cycles,rx,lx,M,W-10),cy:S(q.energy_pj,ry,ly,H-M,10),"
	"r:q.pareto?6:4,fill:q.pareto?'#e15759':'#fff',stroke:q.pareto?'#e15759':'#4e79a7','class':'point'},svg);"
	"if(q.pareto_proven===false){c.setAttribute('stroke-dasharray','2 2');c.setAttribute('fill-opacity','0.4');"
	"c.setAttribute('class','point unproven');}"
	"el('title',{},c).textContent=q.name+': '+fmt(q.cycles)+' cycles, '+fmt(q.energy_pj)+' pJ'+"
	"(q.rank?', rank '+q.rank:'')+(q.pareto_proven===false?', its place on or off the front not proven':'');});"
	"var nu=V.filter(function(q){return q.pareto_proven===false;}).length;if(nu)h('div',nu+' of '+V.length+"
	"' points are drawn dashed: their searches are not proven, so their place on or off the front could change',p,'warn');"
	"charts++;h('h2','Point details',p);var sel=h('select',undefined,p);"
	"var box=h('div',undefined,p);var keys=Object.keys(x.details);keys.sort(function(a,b){var ra=x.details[a]"
	".rank||1e9,rb=x.details[b].rank||1e9;return ra-rb||a-b;});keys.forEach(function(k){var o=h('option',"
	"x.details[k].name+(x.details[k].rank?' (rank '+x.details[k].rank+')':''),sel);o.value=k;});"
	"function show(){box.textContent='';detail(box,x.details[sel.value].detail);}sel.onchange=function(){show();"
	"document.documentElement.setAttribute('data-trim-rendered',String(charts));};if(keys.length)show();}\n"
	"function main(){var D=JSON.parse(document.getElementById('trim-data').textContent);var p=document."
	"getElementById('trim-report');h('h1',D.title,p);h('p',D.subtitle,p);if(D.kind==='explore')explore(p,D);"
	"else detail(p,D.detail);document.documentElement.setAttribute('data-trim-rendered',String(charts));}\n"
	"main();\n";

void trim__html_json_text(trim__sb *sb, const char *json)
{
	/* inside <script>, "</" would end the element, and the SVG text of the
	 * figures is data, not elements: every '<' (only ever inside a JSON
	 * string) is written as \u003c */
	for (const char *s = json; *s; s++) {
		if (*s == '<')
			trim__sb_puts(sb, "\\u003c");
		else
			trim__sb_putc(sb, *s);
	}
}

static void html_text(trim__sb *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': trim__sb_puts(sb, "&lt;"); break;
		case '>': trim__sb_puts(sb, "&gt;"); break;
		case '&': trim__sb_puts(sb, "&amp;"); break;
		default: trim__sb_putc(sb, *s);
		}
	}
}

void trim__html_page(trim__sb *sb, const char *title, const char *data_json)
{
	trim__sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	                  "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>");
	html_text(sb, title);
	trim__sb_printf(sb, "</title>\n<style>%s</style>\n</head>\n<body>\n<div id=\"trim-errors\"></div>\n"
	                    "<div id=\"trim-report\"></div>\n<script type=\"application/json\" id=\"trim-data\">",
	                page_css);
	trim__html_json_text(sb, data_json);
	trim__sb_printf(sb, "</script>\n<script>\n%s</script>\n<script>\n%s</script>\n<noscript>This report draws "
	                    "its charts with JavaScript.</noscript>\n</body>\n</html>\n",
	                page_guard_js, page_js);
}

int trim__html_write(const char *path, const char *title, const trim__sb *data)
{
	if (data->failed)
		return TRIM_ENOMEM;
	trim__sb page;
	trim__sb_init(&page);
	char *text = NULL;
	trim__html_page(&page, title, data->buf);
	int rc = trim__sb_take(&page, &text);
	if (rc == 0)
		rc = trim__write_file_atomic(path, text, strlen(text));
	free(text);
	trim__sb_free(&page);
	return rc;
}
