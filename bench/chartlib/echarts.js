/* bench/chartlib/echarts.js - bcBuild for Apache ECharts (docs/report.md) */
window.bcBuild = function (box, d, fmt, width) {
	"use strict";
	var n = d.s.length ? d.s[0].y.length : 0, xs = [], i;
	var f = d.y.f === "lat" ? fmt.lat : fmt.si;
	for (i = 0; i < n; i++) xs.push(d.xs ? d.xs[i] : d.x0 + i);
	var div = document.createElement("div");
	div.style.width = width + "px";
	div.style.height = "270px";
	box.appendChild(div);
	function axis(ax) {
		return ax.k === "log10" || ax.k === "log2"
			? {type: "log", logBase: ax.k === "log2" ? 2 : 10, name: ax.l}
			: {type: "value", name: ax.l};
	}
	var y = axis(d.y);
	y.axisLabel = {formatter: function (v) { return f(v); }};
	var ch = echarts.init(div, null, {renderer: "canvas", width: width, height: 270});
	ch.setOption({
		animation: false, title: {text: d.t, textStyle: {fontSize: 12}},
		tooltip: {trigger: "axis", valueFormatter: f},
		legend: {top: 20}, grid: {top: 60, left: 60, right: 20, bottom: 50},
		xAxis: axis(d.x), yAxis: y,
		dataZoom: [{type: "inside", xAxisIndex: 0}, {type: "inside", yAxisIndex: 0}],
		series: d.s.map(function (s) {
			return {type: "line", name: s.n, showSymbol: !!s.p, connectNulls: false,
				lineStyle: {color: s.c, width: s.w || 1.6, type: s.d ? "dashed" : "solid"},
				itemStyle: {color: s.c},
				data: xs.map(function (x, k) { return [x, s.y[k]]; })};
		})
	});
	return ch;
};
