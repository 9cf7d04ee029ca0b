/*
 * live-uplot.js - bcBuild for uPlot (third_party/uplot): report.html's chart
 * data (report/draw/live.c) as a uPlot chart. Hover shows every series'
 * value at the cursor in the legend; a drag zooms (x, or x and y), a
 * double click resets. The ramp is shaded, the marker (the knee) a dashed
 * line, the knee's points ringed, a sweep's points named, as in the SVG.
 */
window.bcBuild = function (box, d, fmt, width) {
	"use strict";
	var n = d.s.length ? d.s[0].y.length : 0, xs = [], i, data, opts;
	var f = d.y.f === "lat" ? fmt.lat : fmt.si, fx = d.x.f === "lat" ? fmt.lat : fmt.si;

	for (i = 0; i < n; i++) xs.push(d.xs ? d.xs[i] : d.x0 + i);
	data = [xs].concat(d.s.map(function (s) { return s.y; }));

	function scale(ax) {
		var sc = {time: false, auto: true};
		if (ax.k === "log10" || ax.k === "log2") {
			sc.distr = 3;
			sc.log = ax.k === "log2" ? 2 : 10;
		}
		if (ax.min !== undefined && ax.max !== undefined) {
			sc.auto = false;
			sc.range = [ax.min, ax.max];
		} else if (ax.k === "log2" && ax.tv) {
			sc.auto = false;
			sc.range = [ax.tv[0] / 1.19, ax.tv[ax.tv.length - 1] * 1.19];
		} else if (ax.k === "cat" && ax.tv) {
			sc.auto = false;
			sc.range = [-0.5, ax.tv.length - 0.5];
		} else if (ax.k === "lin") {
			/* from zero: a throughput axis that starts at its minimum exaggerates */
			sc.range = function (u, lo, hi) {
				return [Math.min(0, lo), hi > 0 ? hi * 1.05 : 1];
			};
		}
		return sc;
	}
	function axis(ax) {
		var a = {label: ax.l + (ax.n ? " (log scale)" : ""), size: 58, labelSize: 18,
			 font: "11px system-ui, sans-serif", labelFont: "11px system-ui, sans-serif",
			 values: function (u, vals) {
				if (ax.tl) return vals.map(function (v) {
					var k = ax.tv.indexOf(v);
					return k < 0 ? "" : ax.tl[k];
				});
				return fmt.ticks(ax, vals);
			 }};
		if (ax.tv && (ax.k === "log2" || ax.k === "cat"))
			a.splits = function () { return ax.tv.slice(); };
		/* decades only (and 2, 5 across one or two), as the SVG: no band of minor lines */
		if (ax.k === "log10")
			a.splits = function (u, i, lo, hi) {
				var out = [], e, d0 = Math.floor(Math.log10(lo) + 1e-9), d1 = Math.ceil(Math.log10(hi) - 1e-9);
				for (e = d0; e <= d1; e++) {
					[1, 2, 5].forEach(function (m) {
						var v = m * Math.pow(10, e);
						if ((m === 1 || d1 - d0 <= 2) && v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
					});
				}
				return out;
			};
		return a;
	}
	/* the ramp, the marker, the knee and the points' names, over the plot */
	function marks(u) {
		var c = u.ctx, top = u.bbox.top, h = u.bbox.height, x, k;
		c.save();
		c.textAlign = "left";
		c.textBaseline = "alphabetic";
		if (d.sh) {
			x = u.valToPos(d.sh[0], "x", true);
			c.fillStyle = "rgba(138,148,166,0.16)";
			c.fillRect(u.bbox.left, top, Math.max(0, x - u.bbox.left), h);
		}
		if (d.mk) {
			x = u.valToPos(d.mk[0], "x", true);
			c.strokeStyle = "#cf222e";
			c.setLineDash([4, 3]);
			c.beginPath(); c.moveTo(x, top); c.lineTo(x, top + h); c.stroke();
			c.setLineDash([]);
			c.fillStyle = "#cf222e";
			c.font = 11 * devicePixelRatio + "px system-ui, sans-serif";
			c.fillText(d.mk[1], x + 4, top + 12 * devicePixelRatio);
		}
		c.font = 11 * devicePixelRatio + "px system-ui, sans-serif";
		d.s.forEach(function (s, si) {
			if (!u.series[si + 1].show) return;
			for (k = 0; k < n; k++) {
				var v = s.y[k], px, py;
				if (v == null || data[0][k] == null) continue;
				px = u.valToPos(data[0][k], "x", true);
				py = u.valToPos(v, "y", true);
				if (d.kn === k) {
					c.strokeStyle = "#cf222e";
					c.lineWidth = 2 * devicePixelRatio;
					c.beginPath(); c.arc(px, py, 7 * devicePixelRatio, 0, 2 * Math.PI); c.stroke();
				}
				if (s.lb && s.lb[k]) {
					c.fillStyle = "#3d4656";
					c.fillText(s.lb[k], px + 4 * devicePixelRatio, py - 5 * devicePixelRatio);
				}
			}
		});
		c.restore();
	}
	opts = {
		title: d.t, width: width, height: 250,
		scales: {x: scale(d.x), y: scale(d.y)},
		axes: [axis(d.x), axis(d.y)],
		series: [{label: d.x.l, value: function (u, v) {
			if (v == null) return "-";
			if (d.x.tl) { var k = d.x.tv.indexOf(v); return k < 0 ? fx(v) : d.x.tl[k]; }
			return d.x0 !== undefined ? "second " + Math.floor(v) : fx(v);
		}}].concat(d.s.map(function (s) {
			return {label: s.n, stroke: s.c, width: s.w || 1.6,
				dash: s.d ? s.d.split(" ").map(Number) : undefined,
				points: {show: !!s.p, size: 5, fill: s.c},
				value: function (u, v) { return f(v); }};
		})),
		cursor: {drag: {x: true, y: true, uni: 40}},
		legend: {live: true},
		hooks: {draw: [marks]}
	};
	return new uPlot(opts, data, box);
};
