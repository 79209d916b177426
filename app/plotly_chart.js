// One Plotly figure of the app (app/plotly_chart.py). Two differences from st.plotly_chart, both for time:
// the code is ikviz's partial bundle (1.6 MB, about 0.1 s to evaluate in a new tab, against 4.7 MB and
// 0.9 s), loaded once per tab; and a figure whose spec changed is redrawn in place with Plotly.react,
// where Streamlit's chart gives it a new element and draws it from nothing.
const BUNDLE = "app/static/plotly-ikviz.min.js";

function plotly() {
  if (!window.__ikvizPlotly) {
    window.__ikvizPlotly = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = BUNDLE;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => reject(new Error(
        `${BUNDLE} did not load: start the app from the ikviz folder, whose .streamlit/config.toml serves it`));
      document.head.appendChild(script);
    });
  }
  return window.__ikvizPlotly;
}

// While the page reruns for new settings, Streamlit marks the elements of the previous run that it has not
// reached yet as stale (data-stale="true"); app/store.py keeps a heavy computation's progress bar in a place of
// its own, so the view's previous figure stays below it until the new one arrives. This greys that figure and
// marks it as outdated, only after 0.6 s: a quick rerun does not flicker.
const OUTDATED_CSS = `
.ikviz-plot { position: relative; transition: opacity 0.15s, filter 0.15s; }
.ikviz-plot::after { content: "Outdated: the figure for the new settings is being computed"; position: absolute;
  top: 8px; left: 50%; transform: translateX(-50%); padding: 2px 10px; border-radius: 4px; font: 600 14px sans-serif;
  background: rgba(255, 255, 255, 0.9); color: #333; opacity: 0; pointer-events: none; transition: opacity 0.15s; }
[data-stale="true"] .ikviz-plot[data-drawn] { opacity: 0.45; filter: grayscale(1);
  transition: opacity 0.3s ease 0.6s, filter 0.3s ease 0.6s; }
[data-stale="true"] .ikviz-plot[data-drawn]::after { opacity: 1; transition: opacity 0.3s ease 0.6s; }
`;

function outdatedStyle() {
  if (document.getElementById("ikviz-outdated")) return;
  const style = document.createElement("style");
  style.id = "ikviz-outdated";
  style.textContent = OUTDATED_CSS;
  document.head.appendChild(style);
}

// Figures are drawn one per task, in the order the page sent them: the browser can paint the first figure as
// soon as it is drawn, not after the last (a page of seven figures drew them all in one 0.7-0.9 s task before
// any of them showed; Chromium paints between two tasks once a frame is overdue).
function inTurn(job) {
  const turn = (window.__ikvizTurn || Promise.resolve()).then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(job);
  window.__ikvizTurn = turn.catch(() => {});
  return turn;
}

export default function ({ parentElement, data, setTriggerValue }) {
  const loading = plotly();
  outdatedStyle();
  const gd = parentElement.querySelector(".ikviz-plot");
  // The element is marked pending from its creation (app/plotly_chart.py's HTML) until its figure is drawn:
  // Streamlit runs this code a moment after the element appears, and benchmarks/app_rerun.py must not take a
  // page whose figures have not arrived yet for a finished one.
  if (!data || !data.figure) {  // the hidden chart at the top of a page: it only starts the loading
    delete gd.dataset.pending;
    return;
  }
  const cleanup = () => {  // the figure left the page: free its WebGL contexts, a browser allows only a few
    if (gd.__ikvizResize) gd.__ikvizResize.disconnect();
    if (window.Plotly) window.Plotly.purge(gd);
  };
  // what this tab received and drew, for benchmarks/classroom.py
  const stats = (window.__ikvizStats = window.__ikvizStats || { specs: 0, specBytes: 0, resent: 0, draws: 0 });
  // a rerun that sends the same figure again neither parses nor draws it
  if (gd.__ikvizSpec === data.figure) {
    stats.resent += 1;
    return cleanup;
  }
  stats.specs += 1;
  stats.specBytes += data.figure.length;
  gd.__ikvizSpec = data.figure;
  const figure = JSON.parse(data.figure);
  gd.style.height = `${(figure.layout && figure.layout.height) || 450}px`;  // the page's layout settles at once
  gd.dataset.pending = "1";  // until drawn (again)
  const drawn = (Plotly) => {
    // by its turn, the figure may have left the page or a newer one been sent, which its own turn draws
    if (!gd.isConnected || gd.__ikvizSpec !== data.figure) return null;
    stats.draws += 1;
    return Plotly.react(gd, { ...figure, config: { responsive: true, ...data.config } }).then(() => {
      gd.dataset.drawn = "1";  // a figure to grey when it becomes outdated (not an empty frame)
      listen(Plotly);
    });
  };
  const listen = (Plotly) => {
    if (data.clickable && !gd.__ikvizClicks) {
      gd.__ikvizClicks = true;
      gd.on("plotly_click", (event) => {
        const point = event.points && event.points[0];
        if (point) setTriggerValue("click", { x: point.x, y: point.y });
      });
    }
    if (!gd.__ikvizResize) {  // a column that changes width (the sidebar opened): the figure is redrawn to fit
      gd.__ikvizResize = new ResizeObserver(() => {
        if (gd._fullLayout && Math.abs(gd._fullLayout.width - gd.clientWidth) > 1) Plotly.Plots.resize(gd);
      });
      gd.__ikvizResize.observe(gd);
    }
  };
  loading.then((Plotly) => inTurn(() => drawn(Plotly)))
    .catch((error) => { gd.textContent = `The figure could not be drawn: ${error.message}`; })
    // a newer figure sent meanwhile keeps the mark until it is drawn
    .finally(() => { if (gd.__ikvizSpec === data.figure) delete gd.dataset.pending; });
  return cleanup;
}
