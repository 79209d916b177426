// The Plotly that ikviz's figures need: every trace type its figures use (ikviz/plots), nothing else.
// A figure with another type draws nothing and says so (app/plotly_chart.js): add the type here and rebuild.
var Plotly = require('plotly.js/lib/core');

Plotly.register([
    require('plotly.js/lib/bar'),
    require('plotly.js/lib/box'),
    require('plotly.js/lib/contour'),
    require('plotly.js/lib/heatmap'),
    require('plotly.js/lib/histogram'),
    require('plotly.js/lib/scattergl'),
]);

module.exports = Plotly;
