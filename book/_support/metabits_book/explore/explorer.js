/* metabits explorers: precomputed frames, selected by the controls (metabits_book.explore).
   Nothing is computed here: each frame was computed by the metabits library when the book was
   built; this script only picks the frame of the controls' positions and draws it with plotly. */
(function () {
  'use strict';
  var config = {responsive: true, displayModeBar: false, typesetMath: false,
                scrollZoom: false, doubleClick: false};
  function copy(x) { return JSON.parse(JSON.stringify(x)); }
  function init(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = '1';
    var spec = JSON.parse(root.querySelector('script.mbx-data').textContent);
    var inputs = Array.prototype.slice.call(root.querySelectorAll('[data-control]'));
    var panels = Array.prototype.slice.call(root.querySelectorAll('.mbx-panel'));
    var caption = root.querySelector('.mbx-caption');
    var legends = panels.map(function (div, p) {
      return Array.prototype.slice.call(
        root.querySelectorAll('.mbx-legend[data-panel="' + p + '"] [data-trace]'));
    });
    function colour(t) {   // the colour a trace dict is drawn in (web.py's _plotly_traces)
      if (t.fillcolor) return t.fillcolor;
      if (t.type === 'bar' || /^markers/.test(t.mode || '')) return t.marker && t.marker.color;
      return t.line && t.line.color;
    }
    function recolour(p, traces) {   // a swatch takes the colour of its trace in this frame
      legends[p].forEach(function (key) {
        for (var i = 0; i < traces.length; i++) {
          if (traces[i].name !== key.dataset.trace) continue;
          var c = colour(traces[i]);
          if (!c) return;
          if (key.classList.contains('mbx-key-line')) key.style.borderTopColor = c;
          else key.style.backgroundColor = c;
          return;
        }
      });
    }
    if (!window.Plotly) {
      caption.textContent = 'This explorer needs plotly.min.js, which the book\'s website ' +
        'serves; in Jupyter, run the notebook for the live version.';
      return;
    }
    function frameIndex() {
      var i = 0;
      inputs.forEach(function (el, k) { i = i * spec.shape[k] + Number(el.value); });
      return i;
    }
    function draw() {
      var f = frameIndex();
      inputs.forEach(function (el, k) {
        var text = spec.labels[k][Number(el.value)];
        var out = root.querySelector('output[data-for="' + k + '"]');
        if (out) out.textContent = text;
        if (el.type === 'range') el.setAttribute('aria-valuetext', text);
      });
      panels.forEach(function (div, p) {
        var traces = spec.fixed[p].concat(spec.frames[f][p]);
        Plotly.react(div, copy(traces), copy(spec.layouts[p]), config);
        recolour(p, traces);
      });
      caption.textContent = spec.captions[f];
      root.dataset.frame = String(f);
    }
    inputs.forEach(function (el) {
      el.addEventListener('input', draw);
      el.addEventListener('change', draw);
    });
    draw();
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll('.metabits-explorer'), init);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
