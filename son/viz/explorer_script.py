'''The explorer page's own script and style (``son.explore``), inlined into every page.

Written for this page and nothing else: no library, nothing loaded from the network.
The script reads the JSON of ``explorer_page.page``, lists the phases, and draws the
nodes the filters leave with a layered layout of its own (Sugiyama's scheme, kept
small): back edges found by an iterative depth-first search, layers by longest path,
a few barycentre sweeps to order each layer, then positions pulled towards the
neighbours' barycentres without overlap.  Cost per drawing: O(sweeps * (N + E) log N).

``window.sonExplorer`` exposes the state and the actions (``phase(i)``, ``select(id)``,
``shown()``) for tests and for the curious; every drawn node is an SVG ``g.node`` with
``data-id``.
'''

STYLE = """
html, body { margin: 0; height: 100%; font: 13px/1.35 Helvetica, Arial, sans-serif; color: #222; }
#app { display: flex; height: 100vh; }
#side { width: 230px; border-right: 1px solid #ddd; overflow: auto; padding: 6px; box-sizing: border-box; }
#main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
#right { width: 340px; border-left: 1px solid #ddd; display: flex; flex-direction: column; min-width: 0; }
#title { font-weight: bold; margin-bottom: 4px; }
#search { width: 100%; box-sizing: border-box; margin: 4px 0; }
.group { color: #777; font-size: 11px; margin-top: 6px; text-transform: uppercase; }
.phase { padding: 2px 4px; cursor: pointer; border-radius: 3px; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.phase:hover { background: #eef; }
.phase.current { background: #1f3a93; color: white; }
.phase .count { color: #999; font-size: 11px; }
.phase.current .count { color: #cdd; }
fieldset { border: 1px solid #ddd; margin: 8px 0; padding: 4px 6px; }
fieldset label { display: block; margin: 2px 0; }
fieldset select { max-width: 200px; }
#hops { width: 44px; }
#status { padding: 4px 8px; border-bottom: 1px solid #eee; color: #555; min-height: 18px; }
#graph { flex: 1; width: 100%; min-height: 0; background: #fcfcfc; cursor: grab; }
#text { margin: 0; padding: 6px; overflow: auto; border-top: 1px solid #ddd; background: #f8f8f8;
  font: 12px/1.3 Menlo, Consolas, monospace; max-height: 40%; }
#text.only { max-height: none; flex: 1; }
#text .ln { display: block; cursor: pointer; }
#text .ln:hover { background: #eef; }
#info { padding: 6px; border-bottom: 1px solid #ddd; max-height: 40%; overflow: auto; }
#info .head { font-weight: bold; font-size: 14px; }
#info .k { color: #777; }
#info a { color: #1f3a93; cursor: pointer; text-decoration: underline; }
#steps { max-height: 25%; overflow: auto; border-bottom: 1px solid #ddd; font-size: 11px; }
#steps div { padding: 1px 6px; cursor: pointer; font-family: Menlo, Consolas, monospace; }
#steps div:hover { background: #eef; }
#source { flex: 1; overflow: auto; margin: 0; font: 12px/1.35 Menlo, Consolas, monospace; }
#source .ln { display: block; white-space: pre; cursor: pointer; padding-right: 6px; }
#source .ln .no { color: #aaa; display: inline-block; width: 3.5em; text-align: right; margin-right: 6px; }
#source .ln.hl { background: #ffe58a; }
#source .ln.near { background: #fff6cc; }
g.node { cursor: pointer; }
g.node text { font: 11px Helvetica, Arial, sans-serif; pointer-events: none; }
g.node.const text { font-size: 9px; }
g.node .shape { stroke: #444; stroke-width: 1; fill: white; }
g.node.cfg .shape { fill: #e8eefc; stroke-width: 2; }
g.node.phi .shape { fill: #fff4cc; }
g.node.loopbox .shape { fill: #efe6ff; stroke: #6a3d9a; stroke-width: 2; }
g.node.match .shape { fill: #fff176; }
g.node.input .shape { stroke: #1565c0; stroke-width: 3; }
g.node.user .shape { stroke: #8e24aa; stroke-width: 3; }
g.node.selected .shape { stroke: #d50000; stroke-width: 3.5; }
g.node.dim { opacity: 0.35; }
path.edge { fill: none; }
path.edge.hl-in { stroke: #1565c0 !important; stroke-width: 2.5 !important; }
path.edge.hl-out { stroke: #8e24aa !important; stroke-width: 2.5 !important; }
text.port { font: 8px Helvetica, Arial, sans-serif; fill: #666; }
.key { font-size: 11px; color: #555; }
.key span { display: inline-block; width: 10px; height: 10px; border: 1px solid #888; margin-right: 4px; }
"""

SCRIPT = r"""
(function () {
'use strict';
const D = JSON.parse(document.getElementById('son-data').textContent);
const NS = 'http://www.w3.org/2000/svg';
const S = {phase: 0, sel: null, matches: new Set(), view: {x: 0, y: 0, k: 1}, shownIds: []};

function el(tag, attrs, parent, text) {
  const e = tag.startsWith('svg:') ? document.createElementNS(NS, tag.slice(4)) : document.createElement(tag);
  for (const k in (attrs || {})) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// ------------------------------------------------------------------ the page's skeleton
const app = el('div', {id: 'app'}, document.body);
const side = el('div', {id: 'side'}, app);
el('div', {id: 'title'}, side, D.name + '  (pipeline ' + D.pipeline + ')');
const search = el('input', {id: 'search', placeholder: 'search: %id, id or label'}, side);
const phaseList = el('div', {id: 'phases'}, side);
const fs = el('fieldset', {id: 'filters'}, side);
el('legend', {}, fs, 'filters');
function check(id, text) {
  const l = el('label', {}, fs); const c = el('input', {type: 'checkbox', id: id}, l);
  l.appendChild(document.createTextNode(' ' + text)); return c;
}
const fDiff = check('f-diff', 'diff against the phase before');
const fConst = check('f-const', 'hide constants');
const fCtrl = check('f-ctrl', 'control only');
const fTypes = check('f-types', 'show types');
let l = el('label', {}, fs, 'collapse loop ');
const fLoop = el('select', {id: 'f-loop'}, l);
l = el('label', {}, fs, 'block ');
const fBlock = el('select', {id: 'f-block'}, l);
l = el('label', {}, fs, 'neighbourhood: ');
const fHops = el('input', {id: 'hops', type: 'number', min: '0', max: '20', value: '0'}, l);
l.appendChild(document.createTextNode(' hops around the selected node (0: all)'));
const key = el('div', {class: 'key'}, side);
key.innerHTML = '<div><span style="background:#e8eefc"></span>CFG node</div>' +
  '<div><span style="background:#fff4cc"></span>Phi</div>' +
  '<div><span style="background:#efe6ff"></span>collapsed loop</div>' +
  '<div style="color:' + D.styles.control.color + '">&#9473; control</div>' +
  '<div style="color:' + D.styles.anchor.color + '">&#8942; anchor</div>' +
  '<div style="color:' + D.styles.memory.color + '">&#9476; memory</div>' +
  '<div>&#9472; data (n: input index)</div>' +
  '<div style="color:' + D.colors.added + '">added</div><div style="color:' + D.colors.removed +
  '">removed</div><div style="color:' + D.colors.retyped + '">retyped</div>' +
  '<div><span style="border:2px solid #1565c0"></span>input <span style="border:2px solid #8e24aa">' +
  '</span>user</div>';
const main = el('div', {id: 'main'}, app);
const status = el('div', {id: 'status'}, main);
const svg = el('svg:svg', {id: 'graph'}, main);
const viewport = el('svg:g', {id: 'viewport'}, svg);
const defs = el('svg:defs', {}, svg);
const arrow = el('svg:marker', {id: 'arrow', viewBox: '0 0 8 8', refX: '7', refY: '4', markerWidth: '7',
  markerHeight: '7', markerUnits: 'userSpaceOnUse', orient: 'auto'}, defs);
el('svg:path', {d: 'M0,0 L8,4 L0,8 z', fill: '#666'}, arrow);
const textPane = el('pre', {id: 'text'}, main);
const right = el('div', {id: 'right'}, app);
const info = el('div', {id: 'info'}, right);
const stepsPane = el('div', {id: 'steps'}, right);
const sourcePane = el('pre', {id: 'source'}, right);

// ------------------------------------------------------------------ phases and source
let group = null;
D.phases.forEach(function (ph, i) {
  if (ph.group !== group) { group = ph.group; el('div', {class: 'group'}, phaseList, group); }
  const d = el('div', {class: 'phase', 'data-index': String(i), title: ph.note || ph.name}, phaseList);
  d.appendChild(document.createTextNode(ph.name + ' '));
  const n = ph.nodes ? ph.nodes.length + ' nodes' : 'text';
  const rewrites = ph.steps.length ? ', ' + ph.steps.length + ' rewrites' : '';
  el('span', {class: 'count'}, d, '(' + n + rewrites + ')');
  d.addEventListener('click', function () { setPhase(i); });
});
D.source.split('\n').forEach(function (text, k) {
  const line = D.firstLine + k;
  const row = el('span', {class: 'ln', 'data-line': String(line)}, sourcePane);
  el('span', {class: 'no'}, row, String(line));
  row.appendChild(document.createTextNode(text + '\n'));
  row.addEventListener('click', function () { matchLine(line); });
});
if (!D.source) sourcePane.textContent = '(no source for this graph)';

// ------------------------------------------------------------------ what is shown
function phase() { return D.phases[S.phase]; }
function previous() {
  const ph = phase();
  for (let i = S.phase - 1; i >= 0; i--) {
    if (D.phases[i].nodes && D.phases[i].lineage === ph.lineage) return i;
  }
  return -1;
}

function visible() {
  // the node records the filters leave, and the edges between them
  const ph = phase();
  let nodes = ph.nodes.slice();
  const diff = fDiff.checked && ph.diff ? ph.diff : null;
  if (diff) nodes = nodes.concat(diff.removed.map(function (r) { return Object.assign({ghost: true}, r); }));
  if (fConst.checked) nodes = nodes.filter(function (n) { return n.kind !== 'const'; });
  if (fCtrl.checked) nodes = nodes.filter(function (n) { return n.kind === 'cfg'; });
  if (fBlock.value !== '') nodes = nodes.filter(function (n) { return String(n.block) === fBlock.value; });
  const hops = parseInt(fHops.value, 10) || 0;
  if (hops > 0 && S.sel !== null && nodes.some(function (n) { return n.id === S.sel; })) {
    const adj = new Map(nodes.map(function (n) { return [n.id, []]; }));
    nodes.forEach(function (n) {
      n.in.forEach(function (e) {
        if (adj.has(e[0])) { adj.get(e[0]).push(n.id); adj.get(n.id).push(e[0]); }
      });
    });
    const dist = new Map([[S.sel, 0]]); const queue = [S.sel];
    for (let q = 0; q < queue.length; q++) {
      const v = queue[q]; if (dist.get(v) >= hops) continue;
      adj.get(v).forEach(function (w) { if (!dist.has(w)) { dist.set(w, dist.get(v) + 1); queue.push(w); } });
    }
    nodes = nodes.filter(function (n) { return dist.has(n.id); });
  }
  const ids = new Set(nodes.map(function (n) { return n.id; }));
  let items = nodes.map(function (n) {
    return {id: n.id, rec: n, edges: n.in.filter(function (e) { return ids.has(e[0]); })};
  });
  if (fLoop.value !== '') items = collapse(items, fLoop.value);
  return {items: items, diff: diff};
}

function collapse(items, which) {
  // each node of the chosen loop (which: a Loop node's id), or of any outermost loop ('all'),
  // becomes one box per loop; edges between a box and the rest are kept once
  const pick = which === 'all'
    ? function (ls) { return ls.length ? ls[ls.length - 1] : null; }
    : function (ls) { return ls.indexOf(parseInt(which, 10)) >= 0 ? parseInt(which, 10) : null; };
  const boxes = new Map(), where = new Map();
  items.forEach(function (it) {
    const loop = pick(it.rec.loops || []);
    if (loop === null) return;
    if (!boxes.has(loop)) boxes.set(loop, {id: 'L' + loop, box: true, count: 0, loop: loop, edges: []});
    boxes.get(loop).count++;
    where.set(it.id, 'L' + loop);
  });
  const out = [], seen = new Set();
  items.forEach(function (it) {
    const me = where.get(it.id);
    const edges = me ? boxes.get(parseInt(me.slice(1), 10)).edges : [];
    it.edges.forEach(function (e) {
      const src = where.has(e[0]) ? where.get(e[0]) : e[0];
      if (me && src === me) return;  // inside one box
      if (me || where.has(e[0])) {
        const k = (me || it.id) + '<' + src;
        if (seen.has(k)) return;
        seen.add(k);
      }
      edges.push([src, me ? 0 : e[1], e[2]]);
    });
    if (!me) out.push({id: it.id, rec: it.rec, edges: edges});
  });
  boxes.forEach(function (b) { out.push(b); });
  return out;
}

// ------------------------------------------------------------------ layered layout
function layout(items) {
  const n = items.length;
  const index = new Map(items.map(function (it, k) { return [it.id, k]; }));
  const edges = [];
  items.forEach(function (it, b) {
    it.edges.forEach(function (e) {
      const a = index.get(e[0]);
      if (a !== undefined) edges.push({a: a, b: b, port: e[1], cls: e[2], back: a === b});
    });
  });
  const succ = items.map(function () { return []; });
  const pred = items.map(function () { return []; });
  edges.forEach(function (e, k) { if (e.a !== e.b) { succ[e.a].push(k); pred[e.b].push(k); } });
  // back edges: an iterative depth-first search from the nodes nothing feeds
  const state = new Uint8Array(n);
  const roots = [];
  for (let v = 0; v < n; v++) if (!pred[v].length) roots.push(v);
  for (let v = 0; v < n; v++) roots.push(v);
  roots.forEach(function (r) {
    if (state[r]) return;
    const stack = [[r, 0]]; state[r] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top[1] < succ[top[0]].length) {
        const e = edges[succ[top[0]][top[1]++]];
        if (state[e.b] === 1) e.back = true;
        else if (state[e.b] === 0) { state[e.b] = 1; stack.push([e.b, 0]); }
      } else { state[top[0]] = 2; stack.pop(); }
    }
  });
  // layers: the longest path from a source (Kahn's order over forward edges)
  const indeg = new Int32Array(n); const rank = new Int32Array(n);
  edges.forEach(function (e) { if (!e.back) indeg[e.b]++; });
  const queue = [];
  for (let v = 0; v < n; v++) if (!indeg[v]) queue.push(v);
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    succ[v].forEach(function (k) {
      const e = edges[k]; if (e.back) return;
      rank[e.b] = Math.max(rank[e.b], rank[v] + 1);
      if (--indeg[e.b] === 0) queue.push(e.b);
    });
  }
  let depth = 0; for (let v = 0; v < n; v++) depth = Math.max(depth, rank[v]);
  const layers = []; for (let r = 0; r <= depth; r++) layers.push([]);
  for (let v = 0; v < n; v++) layers[rank[v]].push(v);
  // order within layers: barycentre sweeps, down then up
  const frac = new Float64Array(n);
  layers.forEach(function (L) { L.forEach(function (v, i) { frac[v] = (i + 0.5) / L.length; }); });
  for (let sweep = 0; sweep < 8; sweep++) {
    const down = sweep % 2 === 0;
    const order = down ? layers.slice(1) : layers.slice(0, -1).reverse();
    order.forEach(function (L) {
      const key = new Map();
      L.forEach(function (v) {
        const ks = (down ? pred[v] : succ[v]).filter(function (k) { return !edges[k].back; });
        if (!ks.length) { key.set(v, frac[v]); return; }
        let s = 0; ks.forEach(function (k) { s += frac[down ? edges[k].a : edges[k].b]; });
        key.set(v, s / ks.length);
      });
      L.sort(function (x, y) { return key.get(x) - key.get(y) || frac[x] - frac[y]; });
      L.forEach(function (v, i) { frac[v] = (i + 0.5) / L.length; });
    });
  }
  // coordinates: pack each layer, then pull nodes towards their neighbours' centres
  const GAP = 16, VGAP = 48;
  const x = new Float64Array(n), y = new Float64Array(n);
  let top = 20;
  layers.forEach(function (L) {
    let h = 0, at = 0;
    L.forEach(function (v) {
      h = Math.max(h, items[v].h); x[v] = at + items[v].w / 2; at += items[v].w + GAP;
    });
    L.forEach(function (v) { x[v] -= at / 2; y[v] = top + h / 2; });
    top += h + VGAP;
  });
  function pull(L, useSucc) {
    const want = L.map(function (v) {
      const ks = (useSucc ? succ[v] : pred[v]).filter(function (k) { return !edges[k].back; });
      if (!ks.length) return x[v];
      let s = 0; ks.forEach(function (k) { s += x[useSucc ? edges[k].b : edges[k].a]; });
      return (s / ks.length + x[v]) / 2;
    });
    let shift = 0;
    L.forEach(function (v, i) {
      x[v] = i === 0 ? want[i] : Math.max(want[i], x[L[i - 1]] + (items[L[i - 1]].w + items[v].w) / 2 + GAP);
      shift += x[v] - want[i];
    });
    shift /= Math.max(L.length, 1);
    L.forEach(function (v) { x[v] -= shift; });
  }
  for (let round = 0; round < 4; round++) {
    layers.forEach(function (L) { pull(L, false); });
    layers.slice().reverse().forEach(function (L) { pull(L, true); });
  }
  let minX = Infinity, maxX = -Infinity;
  for (let v = 0; v < n; v++) {
    minX = Math.min(minX, x[v] - items[v].w / 2); maxX = Math.max(maxX, x[v] + items[v].w / 2);
  }
  for (let v = 0; v < n; v++) x[v] += 20 - minX;
  return {x: x, y: y, edges: edges, width: maxX - minX + 40, height: top};
}

// ------------------------------------------------------------------ drawing
function labelOf(it) {
  if (it.box) return ['loop %' + it.loop, it.count + ' nodes'];
  const r = it.rec; const lines = ['%' + r.id + ' ' + r.label];
  const diff = S.lastDiff;
  const old = diff && !r.ghost ? diff.retyped[String(r.id)] : undefined;
  if (old !== undefined) lines.push(old + ' -> ' + r.type);
  else if (fTypes.checked && r.type !== r.label) lines.push(r.type);
  return lines;
}

function render(keepView) {
  const ph = phase();
  viewport.textContent = '';
  textPane.textContent = '';
  textPane.className = '';
  if (ph.text) {
    ph.text.split('\n').forEach(function (t) {
      const row = el('span', {class: 'ln'}, textPane, t + '\n');
      const m = /%(\d+)/.exec(t);
      if (m) row.addEventListener('click', function () { select(parseInt(m[1], 10)); });
    });
  }
  textPane.style.display = ph.text ? '' : 'none';
  if (!ph.nodes) {
    svg.style.display = 'none'; textPane.className = 'only'; S.shownIds = [];
    status.textContent = ph.name + ': ' + (ph.note || '');
    return;
  }
  svg.style.display = '';
  const v = visible(); S.lastDiff = v.diff;
  const items = v.items;
  items.forEach(function (it) {
    const lines = labelOf(it);
    const small = it.rec && it.rec.kind === 'const';
    it.lines = lines;
    it.w = Math.max.apply(null, lines.map(function (t) { return t.length; })) * (small ? 5.6 : 6.4) + 14;
    it.h = lines.length * 13 + (small ? 4 : 8);
  });
  const lay = layout(items);
  S.shownIds = items.map(function (it) { return it.id; });
  S.layout = lay; S.items = items;
  const added = new Set(v.diff ? v.diff.added : []);
  const edgeGroup = el('svg:g', {}, viewport);
  lay.edges.forEach(function (e) {
    const a = items[e.a], b = items[e.b];
    const st = D.styles[e.cls] || D.styles.data;
    const sx = lay.x[e.a], sy = lay.y[e.a] + a.h / 2;
    // the inputs meet their user side by side, in input order (0, the control input, leftmost)
    let last = 0;
    if (b.rec) b.rec.in.forEach(function (x) { last = Math.max(last, x[1]); });
    const off = last > 0 ? (e.port / last - 0.5) * b.w * 0.7 : 0;
    const tx = lay.x[e.b] + off, ty = lay.y[e.b] - b.h / 2;
    let d;
    if (e.back) {
      const bend = 40 + Math.min(200, Math.abs(sy - ty) / 6);
      d = 'M' + sx + ',' + sy + ' C' + (sx + bend) + ',' + (sy + 60) + ' ' + (tx + bend) + ',' + (ty - 60) +
        ' ' + tx + ',' + ty;
    } else {
      const my = (sy + ty) / 2;
      d = 'M' + sx + ',' + sy + ' C' + sx + ',' + my + ' ' + tx + ',' + my + ' ' + tx + ',' + ty;
    }
    let color = st.color;
    const ghostEdge = (a.rec && a.rec.ghost) || (b.rec && b.rec.ghost);
    if (v.diff) {
      const fresh = added.has(a.id) || added.has(b.id);
      color = ghostEdge ? D.colors.removed : (fresh ? D.colors.added : '#9e9e9e');
    }
    const p = el('svg:path', {class: 'edge', d: d, stroke: color, 'stroke-width': String(st.width),
      'marker-end': 'url(#arrow)', 'data-from': String(a.id), 'data-to': String(b.id)}, edgeGroup);
    if (st.dash) p.setAttribute('stroke-dasharray', st.dash);
    if (b.rec && b.rec.ordered && e.port > 0) {
      el('svg:text', {class: 'port', x: String(tx + 3), y: String(ty - 3)}, edgeGroup, String(e.port));
    }
  });
  const nodeGroup = el('svg:g', {}, viewport);
  items.forEach(function (it, k) {
    const r = it.rec;
    let cls = 'node ' + (it.box ? 'loopbox' : r.kind);
    const g = el('svg:g', {class: cls, 'data-id': String(it.id),
      transform: 'translate(' + (lay.x[k] - it.w / 2) + ',' + (lay.y[k] - it.h / 2) + ')'}, nodeGroup);
    const rx = it.box || (r && r.kind === 'cfg') ? 2 : Math.min(it.h / 2, 10);
    const shape = el('svg:rect', {class: 'shape', width: String(it.w), height: String(it.h), rx: String(rx)},
      g);
    if (v.diff && r) {
      let c = null;
      const state = r.ghost ? 'removed' : added.has(r.id) ? 'added'
        : v.diff.retyped[String(r.id)] !== undefined ? 'retyped' : null;
      if (state) {
        shape.style.stroke = D.colors[state]; shape.style.strokeWidth = '2.5'; g.classList.add(state);
        if (r.ghost) shape.setAttribute('stroke-dasharray', '4,3');
      } else g.classList.add('dim');
    }
    it.lines.forEach(function (t, i) {
      el('svg:text', {x: String(it.w / 2), y: String(12 + i * 13), 'text-anchor': 'middle'}, g, t);
    });
    g.addEventListener('click', function (ev) { ev.stopPropagation(); select(it.box ? null : it.id); });
  });
  const counts = v.diff ? ' | diff against ' + v.diff.against + ': ' + v.diff.removed.length + ' removed, ' +
    v.diff.added.length + ' added, ' + Object.keys(v.diff.retyped).length + ' retyped' :
    (fDiff.checked ? ' | no earlier phase of this parse to diff against' : '');
  status.textContent = ph.name + ': ' + items.length + ' of ' + ph.nodes.length + ' nodes shown' + counts +
    (ph.note ? ' | ' + ph.note : '');
  if (!keepView) fit();
  applyView();
  highlight();
}

// ------------------------------------------------------------------ selection and search
function recordOf(id) {
  const ph = phase(); if (!ph.nodes) return null;
  for (const r of ph.nodes) if (r.id === id) return r;
  if (ph.diff) for (const r of ph.diff.removed) if (r.id === id) return Object.assign({ghost: true}, r);
  return null;
}

function usersOf(id) {
  const ph = phase(); const out = [];
  (ph.nodes || []).forEach(function (r) {
    r.in.forEach(function (e) { if (e[0] === id) out.push([r, e[1]]); });
  });
  return out;
}

function link(id, text) { return '<a data-go="' + id + '">' + esc(text) + '</a>'; }
function esc(t) {
  return String(t).replace(/[&<>"]/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
}

function showInfo() {
  const r = S.sel === null ? null : recordOf(S.sel);
  if (S.sel === null) { info.innerHTML = '<span class="k">click a node to see its inputs, users, type, ' +
    'origin and source line</span>'; return; }
  if (!r) {
    info.innerHTML = '<div class="head">%' + S.sel + '</div><span class="k">not in this phase</span>';
    return;
  }
  const byId = new Map((phase().nodes || []).map(function (x) { return [x.id, x]; }));
  const ins = r.in.map(function (e) {
    const x = byId.get(e[0]);
    return '<div>' + e[1] + ': ' + link(e[0], '%' + e[0] + ' ' + (x ? x.label : '')) +
      ' <span class="k">' + e[2] + '</span></div>';
  }).join('');
  const users = usersOf(r.id).map(function (u) {
    return '<div>' + link(u[0].id, '%' + u[0].id + ' ' + u[0].label) +
      ' <span class="k">input ' + u[1] + '</span></div>';
  }).join('');
  info.innerHTML = '<div class="head" id="info-head">%' + r.id + ' ' + esc(r.label) +
    (r.ghost ? ' (removed)' : '') + '</div>' +
    '<div><span class="k">class</span> ' + esc(r.cls) + '</div>' +
    '<div id="info-type"><span class="k">type</span> ' + esc(r.type) + '</div>' +
    '<div id="info-origin"><span class="k">made by</span> ' + esc(r.origin || '?') + '</div>' +
    '<div id="info-line"><span class="k">source line</span> ' + (r.line ? r.line : 'none recorded') +
    '</div>' +
    (r.block !== undefined ? '<div><span class="k">block</span> B' + r.block + '</div>' : '') +
    '<div class="k">inputs</div><div id="info-inputs">' + (ins || '<span class="k">none</span>') + '</div>' +
    '<div class="k">users</div><div id="info-users">' + (users || '<span class="k">none</span>') + '</div>';
  info.querySelectorAll('a[data-go]').forEach(function (a) {
    a.addEventListener('click', function () { select(parseInt(a.getAttribute('data-go'), 10)); });
  });
}

function highlight() {
  const r = S.sel === null ? null : recordOf(S.sel);
  const ins = new Set(r ? r.in.map(function (e) { return e[0]; }) : []);
  const users = new Set(r ? usersOf(r.id).map(function (u) { return u[0].id; }) : []);
  viewport.querySelectorAll('g.node').forEach(function (g) {
    const id = g.getAttribute('data-id'); const n = parseInt(id, 10);
    g.classList.toggle('selected', r !== null && n === r.id && id === String(n));
    g.classList.toggle('input', ins.has(n));
    g.classList.toggle('user', users.has(n));
    g.classList.toggle('match', S.matches.has(n));
  });
  viewport.querySelectorAll('path.edge').forEach(function (p) {
    p.classList.toggle('hl-in', r !== null && p.getAttribute('data-to') === String(r.id));
    p.classList.toggle('hl-out', r !== null && p.getAttribute('data-from') === String(r.id));
  });
  sourcePane.querySelectorAll('.ln').forEach(function (row) {
    row.classList.toggle('hl', !!(r && r.line && row.getAttribute('data-line') === String(r.line)));
  });
  const hl = sourcePane.querySelector('.ln.hl');
  if (hl && hl.scrollIntoView) hl.scrollIntoView({block: 'nearest'});
  showInfo();
}

function select(id) {
  S.sel = id;
  if ((parseInt(fHops.value, 10) || 0) > 0) render(false); else highlight();
}

function runSearch() {
  const q = search.value.trim().toLowerCase();
  S.matches = new Set();
  if (q && phase().nodes) {
    phase().nodes.forEach(function (r) {
      const byId = q === String(r.id) || q === '%' + r.id;
      const byLabel = isNaN(parseInt(q.replace('%', ''), 10)) &&
        (r.label.toLowerCase().indexOf(q) >= 0 || r.cls.toLowerCase().indexOf(q) >= 0);
      if (byId || byLabel) S.matches.add(r.id);
    });
  }
  highlight();
  if (q) status.textContent = S.matches.size + ' node(s) match "' + search.value.trim() + '"';
  return S.matches;
}

function matchLine(line) {
  const made = (phase().nodes || []).filter(function (r) { return r.line === line; });
  S.matches = new Set(made.map(function (r) { return r.id; }));
  highlight();
  status.textContent = S.matches.size + ' node(s) made for line ' + line;
}

// ------------------------------------------------------------------ phases and filters
function fillSelect(sel, options, first) {
  const old = sel.value; sel.textContent = '';
  el('option', {value: ''}, sel, first);
  options.forEach(function (o) { el('option', {value: String(o[0])}, sel, o[1]); });
  sel.value = options.some(function (o) { return String(o[0]) === old; }) ? old : '';
}

function setPhase(i) {
  S.phase = i;
  phaseList.querySelectorAll('.phase').forEach(function (d) {
    d.classList.toggle('current', d.getAttribute('data-index') === String(i));
  });
  const ph = phase();
  const loops = ph.loops.map(function (x) { return [x.id, x.title]; });
  if (loops.length > 1) loops.unshift(['all', 'every outermost loop']);
  fillSelect(fLoop, loops, ph.loops.length ? 'none' : '(no loop info)');
  fillSelect(fBlock, ph.blocks.map(function (b) { return [b.id, b.title]; }),
    ph.blocks.length ? 'all' : '(no blocks)');
  stepsPane.textContent = '';
  ph.steps.forEach(function (s) {
    const d = el('div', {}, stepsPane, s[0] + ' ' + s[2] + ': ' + s[3] + '  ->  ' + s[4]);
    const m = /^%(\d+)/.exec(s[4]) || /^%(\d+)/.exec(s[3]);
    if (m) d.addEventListener('click', function () { select(parseInt(m[1], 10)); });
  });
  if (!ph.steps.length) el('div', {class: 'k'}, stepsPane, 'no rewrite recorded in this phase');
  render(false);
  if (search.value.trim()) runSearch();
}

[fDiff, fConst, fCtrl, fTypes, fLoop, fBlock, fHops].forEach(function (c) {
  c.addEventListener('change', function () { render(false); });
});
fHops.addEventListener('input', function () { render(false); });
search.addEventListener('input', runSearch);
search.addEventListener('keydown', function (ev) {
  if (ev.key === 'Enter') { const m = runSearch(); if (m.size) select(m.values().next().value); }
});

// ------------------------------------------------------------------ pan and zoom
function applyView() {
  viewport.setAttribute('transform', 'translate(' + S.view.x + ',' + S.view.y + ') scale(' + S.view.k + ')');
}
function fit(whole) {
  // the whole drawing, or (a tall graph) its width from the top at a readable scale: drag to see more
  const W = svg.clientWidth || 800, H = svg.clientHeight || 600, lay = S.layout;
  if (!lay) return;
  const k = Math.min(1.2, W / lay.width, whole ? H / lay.height : Math.max(H / lay.height, 0.75));
  S.view = {k: k, x: (W - lay.width * k) / 2, y: 4};
}
svg.addEventListener('wheel', function (ev) {
  ev.preventDefault();
  const f = ev.deltaY < 0 ? 1.15 : 1 / 1.15, r = svg.getBoundingClientRect();
  const mx = ev.clientX - r.left, my = ev.clientY - r.top;
  S.view.x = mx - (mx - S.view.x) * f; S.view.y = my - (my - S.view.y) * f; S.view.k *= f; applyView();
}, {passive: false});
let drag = null;
svg.addEventListener('mousedown', function (ev) {
  drag = {x: ev.clientX, y: ev.clientY, vx: S.view.x, vy: S.view.y};
});
window.addEventListener('mousemove', function (ev) {
  if (!drag) return;
  S.view.x = drag.vx + ev.clientX - drag.x; S.view.y = drag.vy + ev.clientY - drag.y; applyView();
});
window.addEventListener('mouseup', function () { drag = null; });
svg.addEventListener('dblclick', function () { fit(true); applyView(); });

window.sonExplorer = {
  data: D, state: S, phase: setPhase, select: select,
  shown: function () { return S.shownIds.slice(); },
  search: function (q) { search.value = q; return Array.from(runSearch()); }
};
// open on the last pass (the optimized graph), else on the last graph of the parse
let start = 0;
D.phases.forEach(function (ph, i) {
  if (ph.nodes && (ph.group === 'pass' || D.phases[start].group !== 'pass')) start = i;
});
setPhase(start);
showInfo();
})();
"""
