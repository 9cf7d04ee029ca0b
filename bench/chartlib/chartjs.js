/* bench/chartlib/chartjs.js - bcBuild for Chart.js with chartjs-plugin-zoom (docs/report.md) */
window.bcBuild = function (box, d, fmt, width) {
	"use strict";
	var n = d.s.length ? d.s[0].y.length : 0, xs = [], i;
	var f = d.y.f === "lat" ? fmt.lat : fmt.si;
	for (i = 0; i < n; i++) xs.push(d.xs ? d.xs[i] : d.x0 + i);
	var cv = document.createElement("canvas");
	cv.width = width;
	cv.height = 250;
	box.appendChild(cv);
	function type(ax) { return ax.k === "log10" || ax.k === "log2" ? "logarithmic" : "linear"; }
	return new Chart(cv, {
		type: "line",
		data: {datasets: d.s.map(function (s) {
			return {label: s.n, borderColor: s.c, backgroundColor: s.c,
				borderDash: s.d ? s.d.split(" ").map(Number) : [],
				borderWidth: s.w || 1.6, pointRadius: s.p ? 2.5 : 0, spanGaps: false,
				data: xs.map(function (x, k) { return {x: x, y: s.y[k]}; })};
		})},
		options: {
			responsive: false, animation: false, parsing: false, normalized: true,
			interaction: {mode: "index", intersect: false},
			scales: {x: {type: type(d.x), title: {display: true, text: d.x.l}},
				 y: {type: type(d.y), title: {display: true, text: d.y.l},
				     ticks: {callback: function (v) { return f(v); }}}},
			plugins: {title: {display: true, text: d.t},
				  tooltip: {callbacks: {label: function (c) {
					return c.dataset.label + ": " + f(c.parsed.y); }}},
				  zoom: {zoom: {drag: {enabled: true}, mode: "xy"}}}
		}
	});
};
