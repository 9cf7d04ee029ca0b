/*
 * live.js - report.html's interactive charts: each figure that carries its
 * chart as data (report/draw/live.c) gets, when it scrolls near, a chart
 * with hover values and zoom drawn by the adapter bcBuild (live-uplot.js),
 * and its static SVG is hidden on screen (it is what prints). Numbers are
 * formatted as the C side does (report/parts/fmt.c, report/draw/plot.c):
 * latency in the unit its magnitude calls for with three significant
 * digits, counts with SI prefixes. ?eager in the URL builds every chart at
 * once (bench/chartlib.sh measures the worst case so).
 */
(function () {
	"use strict";
	var LAT = [[1e-3, "ns"], [1, "\u00b5s"], [1e3, "ms"], [1e6, "s"]];
	var LAT_BELOW = [0.9995, 999.5, 999.5e3]; /* us below which each unit serves */
	var SI = ["", "k", "M", "G", "T"];

	function sig3(v) {
		var a = Math.abs(v);
		if (a >= 99.95 || a === 0) return v.toFixed(0);
		if (a >= 9.995) return v.toFixed(1);
		if (a >= 0.9995) return v.toFixed(2);
		return v.toPrecision(3);
	}
	function lat(us) {
		var a, u = 0;
		if (us == null || !isFinite(us)) return "-";
		a = Math.abs(us);
		while (u < 3 && a >= LAT_BELOW[u]) u++;
		return sig3(us / LAT[u][0]) + " " + LAT[u][1];
	}
	function si(v) {
		var p = 0;
		if (v == null || !isFinite(v)) return "-";
		while (Math.abs(v) >= 999.5 && p < 4) { v /= 1e3; p++; }
		return sig3(v) + SI[p];
	}
	/* the decimals a tick step needs to be written exactly */
	function decimals(step) {
		var d = 0;
		while (d < 6 && Math.abs(step * Math.pow(10, d) - Math.round(step * Math.pow(10, d))) > 1e-6) d++;
		return d;
	}
	/* a log tick: its own prefix, no trailing zeros ("10k", "2.5M") */
	function short(v) {
		var p = 0;
		while (Math.abs(v) >= 999.5 && p < 4) { v /= 1e3; p++; }
		return Number(v.toPrecision(3)) + SI[p];
	}
	function shortLat(us) {
		var u = 0, a = Math.abs(us);
		while (u < 3 && a >= LAT_BELOW[u]) u++;
		return Number((us / LAT[u][0]).toPrecision(3)) + " " + LAT[u][1];
	}
	/* tick labels of an axis: one unit along it, decimals as the step needs */
	function ticks(ax, vals) {
		var i, step = 0, max = 0, u = 1, div = 1, p = 0, out = [];
		for (i = 0; i < vals.length; i++) max = Math.max(max, Math.abs(vals[i] || 0));
		if (vals.length > 1 && ax.k === "lin") step = Math.abs(vals[1] - vals[0]);
		if (ax.f === "lat") {
			u = max < 1 ? 0 : max < 1e3 ? 1 : max < 1e6 ? 2 : 3;
			for (i = 0; i < vals.length; i++) {
				var v = vals[i], uu = step ? u : null;
				if (v == null) { out.push(""); continue; }
				if (v === 0) { out.push("0"); continue; }
				if (uu === null) { out.push(shortLat(v)); continue; }
				out.push((v / LAT[uu][0]).toFixed(decimals(step / LAT[uu][0])) + " " + LAT[uu][1]);
			}
			return out;
		}
		if (!step) return vals.map(function (v) { return v == null ? "" : short(v); });
		/* the prefix the largest tick calls for: 0.5M, 1M, 1.5M */
		for (div = 1; p < 4 && max >= div * 1e3; p++) div *= 1e3;
		return vals.map(function (v) {
			return v == null ? "" : v === 0 ? "0" : (v / div).toFixed(decimals(step / div)) + SI[p];
		});
	}
	var fmt = {lat: lat, si: si, ticks: ticks};

	function build(fig) {
		var el = fig.querySelector("script.cd"), d, box;
		if (!el || fig.classList.contains("on") || typeof window.bcBuild !== "function") return;
		try {
			d = JSON.parse(el.textContent);
			box = document.createElement("div");
			box.className = "live";
			box.title = "drag to zoom, double-click to reset";
			fig.appendChild(box);
			window.bcBuild(box, d, fmt, Math.max(320, fig.clientWidth - 12));
			fig.classList.add("on");
		} catch (e) {
			/* the static chart stays */
			if (box && box.parentNode) box.parentNode.removeChild(box);
		}
	}

	function start() {
		var figs = document.querySelectorAll("figure"), i, io;
		if (/[?&]eager/.test(location.search) || !("IntersectionObserver" in window)) {
			var t0 = performance.now();
			for (i = 0; i < figs.length; i++) build(figs[i]);
			/* what drawing every chart took, for bench/chartlib.sh */
			document.body.setAttribute("data-charts-ms", (performance.now() - t0).toFixed(1));
			return;
		}
		io = new IntersectionObserver(function (es) {
			es.forEach(function (e) {
				if (e.isIntersecting) { io.unobserve(e.target); build(e.target); }
			});
		}, {rootMargin: "600px 0px"});
		for (i = 0; i < figs.length; i++)
			if (figs[i].querySelector("script.cd")) io.observe(figs[i]);
	}
	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
	else start();
})();
