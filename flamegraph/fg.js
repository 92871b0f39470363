// SPDX-License-Identifier: GPL-2.0
// fg.js: the script inside every copyprof flame graph (docs/flamegraph.md): a frame's details
// on hover, click to zoom, search by regular expression, Escape to reset. The URL's hash does
// the same on load and follows every change: #search=RE, #zoom=INDEX (the frame's position in
// the document, from 0), #frame=NAME (the first frame of that name).
(function () {
	"use strict";
	var NS = "http://www.w3.org/2000/svg";
	var HIT = "rgb(230,0,230)";
	var EPS = 0.02; // px: coordinates are written with two decimals
	var svg = document.documentElement;
	var pad = Number(svg.getAttribute("data-pad"));
	var glyph = Number(svg.getAttribute("data-font-size")) *
		Number(svg.getAttribute("data-char-width"));
	var full = Number(svg.getAttribute("width")) - 2 * pad;
	var details = document.getElementById("details");
	var matched = document.getElementById("matched");
	var unzoomButton = document.getElementById("unzoom");
	var searchButton = document.getElementById("search");
	var frames = [];
	var zoomed = null;
	var query = null;

	function child(g, tag) {
		return g.getElementsByTagNameNS(NS, tag)[0];
	}

	// What the SVG says of each frame, read once: zooming only ever starts from it.
	function readFrames() {
		var gs = document.getElementById("frames").getElementsByTagNameNS(NS, "g");
		var i, g, rect, info, nl;

		for (i = 0; i < gs.length; i++) {
			g = gs[i];
			rect = child(g, "rect");
			info = child(g, "title").textContent;
			nl = info.indexOf("\n");
			g.setAttribute("data-i", String(i));
			frames.push({
				g: g, rect: rect, text: child(g, "text"),
				name: nl < 0 ? info : info.slice(0, nl),
				info: nl < 0 ? info : info.slice(0, nl) + " (" + info.slice(nl + 1) + ")",
				x: Number(rect.getAttribute("x")), w: Number(rect.getAttribute("width")),
				y: Number(rect.getAttribute("y")), fill: rect.getAttribute("fill")
			});
		}
	}

	// The label that fits @w px: as svg.c's fg_label_fit() cuts it.
	function label(name, w) {
		var chars = Array.from(name), fit = Math.floor((w - 6) / glyph);

		if (fit < 3)
			return "";
		return chars.length <= fit ? name : chars.slice(0, fit - 2).join("") + "..";
	}

	function place(f, x, w) {
		f.rect.setAttribute("x", x.toFixed(2));
		f.rect.setAttribute("width", w.toFixed(2));
		f.text.setAttribute("x", (x + 3).toFixed(2));
		f.text.textContent = label(f.name, w);
	}

	function show(f, visible) {
		if (visible)
			f.g.classList.remove("hide");
		else
			f.g.classList.add("hide");
	}

	// Zoom on @z: it and the frames above it fill the width, the frames below it (its callers)
	// span the width dimmed, all others are hidden. Frames of one depth never overlap, so
	// geometry alone says who is above or below.
	function zoom(z) {
		var scale = full / z.w;

		frames.forEach(function (f) {
			var inside = f.x >= z.x - EPS && f.x + f.w <= z.x + z.w + EPS;
			var below = f.y > z.y && f.x <= z.x + EPS && f.x + f.w >= z.x + z.w - EPS;

			f.g.classList.remove("parent");
			if (f.y <= z.y && inside) {
				place(f, pad + (f.x - z.x) * scale, f.w * scale);
				show(f, f.w * scale >= 0.1);
			} else if (below) {
				place(f, pad, full);
				f.g.classList.add("parent");
				show(f, true);
			} else {
				show(f, false);
			}
		});
		zoomed = z;
		unzoomButton.classList.remove("hide");
		writeHash();
	}

	function unzoom() {
		frames.forEach(function (f) {
			f.g.classList.remove("parent");
			place(f, f.x, f.w);
			show(f, true);
		});
		zoomed = null;
		unzoomButton.classList.add("hide");
		writeHash();
	}

	function escapeRegExp(s) {
		return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	}

	// Colours the frames whose name matches @q (a regular expression, or the text itself if
	// it is none) and shows their share of the whole graph, counting nested matches once.
	function search(q) {
		var re, hits = [], sum = 0, end = -Infinity;

		try {
			re = new RegExp(q);
		} catch (e) {
			re = new RegExp(escapeRegExp(q));
		}
		frames.forEach(function (f) {
			var hit = re.test(f.name);

			f.rect.setAttribute("fill", hit ? HIT : f.fill);
			if (hit)
				hits.push(f);
		});
		hits.sort(function (a, b) {
			return a.x - b.x || b.w - a.w;
		});
		hits.forEach(function (f) {
			if (f.x + f.w <= end + EPS)
				return;
			sum += f.w;
			end = f.x + f.w;
		});
		query = q;
		matched.textContent = "Matched: " + (100 * sum / full).toFixed(2) + "% (" +
			hits.length + " frame" + (hits.length === 1 ? "" : "s") + ")";
		searchButton.textContent = "Reset Search";
		writeHash();
	}

	function resetSearch() {
		frames.forEach(function (f) {
			f.rect.setAttribute("fill", f.fill);
		});
		query = null;
		matched.textContent = " ";
		searchButton.textContent = "Search";
		writeHash();
	}

	function askSearch() {
		var q = window.prompt("Search frames (regular expression)", query || "");

		if (q)
			search(q);
	}

	function frameOf(node) {
		while (node && node !== svg && !(node.classList && node.classList.contains("f")))
			node = node.parentNode;
		return node && node !== svg ? frames[Number(node.getAttribute("data-i"))] : null;
	}

	function readHash() {
		var params = {};

		location.hash.slice(1).split("&").forEach(function (kv) {
			var i = kv.indexOf("=");

			if (i > 0)
				params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
		});
		if (params.zoom !== undefined && frames[Number(params.zoom)])
			zoom(frames[Number(params.zoom)]);
		else if (params.frame !== undefined)
			frames.some(function (f) {
				return f.name === params.frame && (zoom(f), true);
			});
		if (params.search)
			search(params.search);
	}

	function writeHash() {
		var parts = [];

		if (zoomed)
			parts.push("zoom=" + zoomed.g.getAttribute("data-i"));
		if (query)
			parts.push("search=" + encodeURIComponent(query));
		try {
			history.replaceState(null, "", parts.length ? "#" + parts.join("&") :
				location.pathname + location.search);
		} catch (e) {
			// a document without history (an <img>, some viewers): nothing to keep
		}
	}

	readFrames();
	document.getElementById("frames").addEventListener("click", function (e) {
		var f = frameOf(e.target);

		if (f)
			zoom(f);
	});
	document.getElementById("frames").addEventListener("mouseover", function (e) {
		var f = frameOf(e.target);

		details.textContent = f ? f.info : " ";
	});
	document.getElementById("frames").addEventListener("mouseout", function () {
		details.textContent = " ";
	});
	unzoomButton.addEventListener("click", unzoom);
	searchButton.addEventListener("click", function () {
		if (query)
			resetSearch();
		else
			askSearch();
	});
	window.addEventListener("keydown", function (e) {
		if ((e.key === "f" && (e.ctrlKey || e.metaKey)) || e.key === "/") {
			e.preventDefault();
			askSearch();
		} else if (e.key === "Escape") {
			resetSearch();
			unzoom();
		}
	});
	readHash();
})();
