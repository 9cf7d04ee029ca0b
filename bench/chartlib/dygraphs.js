/* bench/chartlib/dygraphs.js - bcBuild for dygraphs (measured against uPlot: docs/report.md) */
window.bcBuild = function (box, d, fmt, width) {
	"use strict";
	var n = d.s.length ? d.s[0].y.length : 0, rows = [], i;
	var f = d.y.f === "lat" ? fmt.lat : fmt.si;
	for (i = 0; i < n; i++)
		rows.push([d.xs ? d.xs[i] : d.x0 + i].concat(d.s.map(function (s) { return s.y[i]; })));
	var series = {};
	d.s.forEach(function (s) {
		series[s.n] = {strokePattern: s.d ? s.d.split(" ").map(Number) : null,
			       strokeWidth: s.w || 1.6, drawPoints: !!s.p, pointSize: 2.5};
	});
	var div = document.createElement("div");
	box.appendChild(div);
	return new Dygraph(div, rows, {
		labels: [d.x.l].concat(d.s.map(function (s) { return s.n; })),
		colors: d.s.map(function (s) { return s.c; }), series: series,
		title: d.t, xlabel: d.x.l, ylabel: d.y.l, width: width, height: 250,
		logscale: d.y.k === "log10", connectSeparatedPoints: false,
		axes: {y: {valueFormatter: f, axisLabelFormatter: function (v) { return f(v); }},
		       x: {logscale: d.x.k === "log2"}},
		underlayCallback: function (c, area, g) {
			if (d.sh) {
				var x = g.toDomXCoord(d.sh[0]);
				c.fillStyle = "rgba(138,148,166,0.16)";
				c.fillRect(area.x, area.y, x - area.x, area.h);
			}
			if (d.mk) {
				var m = g.toDomXCoord(d.mk[0]);
				c.strokeStyle = "#cf222e";
				c.beginPath(); c.moveTo(m, area.y); c.lineTo(m, area.y + area.h); c.stroke();
			}
		}
	});
};
