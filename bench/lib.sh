# bench/lib.sh - what the bench scripts share: how long headless Chromium takes to open a page.
# Sourced (bash): . "$SRC/bench/lib.sh"

# headless Chromium, empty when it is not installed
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)

chrome_s() { # chrome_s DIR URL: seconds for headless Chromium to load URL and dump its DOM
	local prof t0 t1
	prof=$(mktemp -d "$1/chrome.XXXXXX")
	t0=$(date +%s%N)
	timeout 600 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--dump-dom "$2" >/dev/null 2>"$prof.err" || { echo nan; return; }
	t1=$(date +%s%N)
	python3 -c "print(round(($t1 - $t0) / 1e9, 2))"
}

# chrome_open DIR FILE: open_s = chrome_s of FILE, blank_s = the same for an empty page
# (Chromium's own start); both nan without Chromium or without FILE. DIR: scratch space.
chrome_open() {
	open_s=nan blank_s=nan
	[ -n "$CHROMIUM" ] && [ -f "$2" ] || return 0
	echo '<!DOCTYPE html><html><body>x</body></html>' >"$1/blank.html"
	blank_s=$(chrome_s "$1" "file://$1/blank.html")
	open_s=$(chrome_s "$1" "file://$2")
}
