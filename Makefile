# Querent — one Makefile for everything. See README.md.
SHELL   := /bin/bash
GO      ?= go
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
REPORTS := $(CURDIR)/dist/reports
QUERENT := dist/querent
DESKTOP := build/bin/querent-desktop

# The Wails CLI is pinned in go.mod as a tool (same version as the library).
# -s: the page is built by `make frontend`; -m/-nosyncgomod: never touch go.mod.
WAILS       := $(GO) tool wails
WAILS_BUILD := $(WAILS) build -s -skipbindings -m -nosyncgomod -trimpath -ldflags '-X main.version=$(VERSION)'

# apt_install installs Debian packages (a shell variable's value) when root,
# else says with which command, and fails.
define apt_install
if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
  echo "installing:$1"; \
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $1 || exit 1; \
else \
  echo "Install them on Debian/Ubuntu with:"; echo "  sudo apt-get install -y --no-install-recommends$1"; exit 2; \
fi
endef

OLLAMA_TINY := ../shared/tools/ollama-tiny/real-ollama.sh

.PHONY: deps generate postgres frontend-test e2e all build console frontend bindings desktop desktop-deps cross dist run tour test lint unit fuzz race ollama mcp-inspector window window-deps reports bench clean check-go

all: build

check-go:
	@command -v $(GO) >/dev/null || { echo "Go is not installed: get Go 1.26 or newer from https://go.dev/dl/ (Debian's golang package is too old), then run make again."; exit 2; }

## build: the page, the desktop app (alone in build/bin/) and the console binary dist/querent
build: desktop console

## console: the console binary, dist/querent (pure Go, no cgo)
console: check-go
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(QUERENT) ./cmd/querent

## frontend: the page, frontend/dist (npm ci && npm run build); without npm, a note
## (the binaries then show a fallback page)
frontend:
	@if [ ! -f frontend/package.json ]; then \
	  echo "frontend: no frontend/package.json: the binaries show the fallback page"; \
	elif ! command -v npm >/dev/null; then \
	  echo "note: npm is not installed, so the page is not built and the binaries show a fallback page."; \
	  echo "      Install Node.js 20 or newer with npm (https://nodejs.org), then run make again."; \
	else \
	  cd frontend && \
	  if [ node_modules/.package-lock.json -nt package-lock.json ]; then echo "frontend: node_modules is up to date (npm ci skipped)"; \
	  else echo "npm ci"; npm ci --no-audit --no-fund || exit 1; fi && \
	  echo "npm run build" && npm run build && touch dist/.gitkeep; \
	fi

## bindings: Wails' generated JS/TS bindings in frontend/wailsjs (for reference; the page
## calls window.go.page.* itself)
bindings: check-go
	$(WAILS) generate module

## desktop-deps: the C toolchain, GTK 3 and WebKitGTK 4.1 development files (installed when root)
desktop-deps:
	@missing=""; \
	command -v gcc >/dev/null || missing="$$missing gcc libc6-dev"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	pkg-config --exists gtk+-3.0 2>/dev/null || missing="$$missing libgtk-3-dev"; \
	pkg-config --exists webkit2gtk-4.1 2>/dev/null || missing="$$missing libwebkit2gtk-4.1-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "The desktop app needs a C compiler, GTK 3 and WebKitGTK 4.1 development files; missing:$$missing"; \
	  $(call apt_install,$$missing); \
	fi

## desktop: the desktop app, build/bin/querent-desktop (Wails, cgo, tag webkit2_41), alone in build/bin/
desktop: check-go desktop-deps frontend
	$(WAILS_BUILD) -clean -tags webkit2_41 -o querent-desktop
	@extra=$$(ls -A build/bin | grep -vx querent-desktop); \
	  if [ -n "$$extra" ]; then echo "build/bin holds more than the desktop app: $$extra"; exit 1; fi

## cross: the Windows binaries dist/querent.exe and dist/querent-desktop.exe (no cgo needed);
## the desktop one through `wails build -platform windows/amd64` (icon, manifest, GUI subsystem)
cross: check-go
	@mkdir -p dist
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/querent.exe ./cmd/querent
	@rm -f build/bin/querent-desktop.exe
	CGO_ENABLED=0 $(WAILS_BUILD) -platform windows/amd64 -o querent-desktop.exe
	mv -f build/bin/querent-desktop.exe dist/querent-desktop.exe
	@for f in dist/querent.exe dist/querent-desktop.exe; do \
	  [ "$$(head -c 2 $$f)" = MZ ] && [ "$$(od -An -tx1 -j $$(od -An -tu4 -j 60 -N 4 $$f | tr -d ' ') -N 4 $$f | tr -d ' ')" = 50450000 ] \
	    || { echo "$$f is not a Windows PE file"; exit 1; }; \
	  echo "$$f: Windows PE, $$(du -h $$f | cut -f1)"; \
	done

## dist: build, plus the Windows binaries in dist/
dist: build cross

## run: the desktop app on the demo database; without a display, the browser mode (querent serve)
run: check-go
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  $(MAKE) --no-print-directory build && echo "starting $(DESKTOP) on the demo database" && exec ./$(DESKTOP); \
	else \
	  $(MAKE) --no-print-directory frontend console && \
	  echo "No display: starting the browser mode instead (querent serve; Ctrl-C stops it)" && \
	  exec ./$(QUERENT) serve; \
	fi

## tour: build the console binary, then a short tour of the bundled demo database on the command line
tour: console
	@echo; echo "== querent schema (the bundled Chinook demo database; first lines) =="
	@$(QUERENT) schema | head -24
	@echo; echo "== querent sql: the best-selling genres =="
	@$(QUERENT) sql "SELECT g.Name AS genre, count(*) AS tracks_sold, round(sum(il.UnitPrice * il.Quantity), 2) AS revenue FROM InvoiceLine il JOIN Track t USING (TrackId) JOIN Genre g USING (GenreId) GROUP BY g.GenreId ORDER BY revenue DESC LIMIT 5"
	@echo; echo "== querent sql --format json (first lines) =="
	@$(QUERENT) sql --format json "SELECT strftime('%Y', InvoiceDate) AS year, sum(Total) AS sales FROM Invoice GROUP BY 1" | head -20
	@echo; echo "== a write is refused by SQLite's own compiler (exit status 1) =="
	@$(QUERENT) sql "WITH x AS (SELECT 1) DELETE FROM Invoice" || true
	@echo; echo "== a typo gets the closest names =="
	@$(QUERENT) sql "SELECT InvoiceDat FROM Invoice" || true
	@echo; echo "Try it yourself: $(QUERENT) sql \"SELECT * FROM Artist LIMIT 5\"   or   $(QUERENT) sql --db your.sqlite \"…\""

## generate: the page's TypeScript types from the Go types of the boundary
## (frontend/src/api/types.gen.ts; `make unit` fails when it is stale)
generate: check-go
	$(GO) generate ./app/page

## lint: gofmt, goimports' grouping, go vet, staticcheck and go mod tidy must leave
## nothing to change (goimports and staticcheck are pinned go.mod tools)
lint: check-go
	@files=$$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './frontend/node_modules/*'); \
	  out=$$(gofmt -l $$files); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi; \
	  out=$$($(GO) tool goimports -l -local querent $$files); \
	  if [ -n "$$out" ]; then echo "goimports would group the imports of (go tool goimports -w -local querent FILE):"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) mod tidy -diff

## deps: the Debian packages the tests need (installed when root; otherwise the one
## apt-get line to run, and a stop). QUERENT_QUICK=1 needs none of them.
# sqlite3: make bench compares with the shell · gcc libc6-dev: the race detector (cgo)
# libreoffice-calc-nogui: exported XLSX must open in LibreOffice · util-linux (flock):
# ../shared/tools/ollama-tiny · libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config: the desktop
# app (Wails) · xvfb xauth imagemagick x11-utils xdotool: its real-window test · chromium
# fonts-liberation fonts-noto-cjk: the page's browser tests (fonts-noto-cjk: the page in
# Chinese) · postgresql: the PostgreSQL tests start a private cluster of Debian's server
TEST_PACKAGES := sqlite3 gcc libc6-dev libreoffice-calc-nogui util-linux libgtk-3-dev libwebkit2gtk-4.1-dev \
  pkg-config xvfb xauth imagemagick x11-utils xdotool chromium fonts-liberation fonts-noto-cjk postgresql
deps:
ifeq ($(QUERENT_QUICK),)
	@missing=""; \
	for pkg in $(TEST_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' "$$pkg" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v dpkg-query >/dev/null; then echo "make test installs its packages on Debian/Ubuntu only; elsewhere install the equivalents of:$$missing"; exit 2; fi; \
	  echo "The tests need these Debian packages:$$missing"; \
	  $(call apt_install,$$missing); \
	fi
else
	@true
endif

## test: everything CI checks (QUERENT_QUICK=1 skips the slow parts, locally only)
test: deps
	@$(MAKE) --no-print-directory lint unit postgres frontend-test e2e race fuzz ollama mcp-inspector window cross reports

unit: check-go
	@rm -rf $(REPORTS); mkdir -p $(REPORTS)
	QUERENT_SKIP_POSTGRES=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 $(if $(QUERENT_QUICK),-short) ./...

## postgres: the PostgreSQL backend against a real server that the tests start (a private
## cluster of Debian's PostgreSQL in a temporary folder): its red team, benign corpus and
## connection tests, then every face on PostgreSQL (the ask loop, eval's gold set, the
## app's Connect services, sql/schema/ask/export/eval/mcp and the red team through
## them); a missing server fails here instead of skipping. `make unit` leaves them to it.
postgres: check-go
ifeq ($(QUERENT_QUICK),)
	@mkdir -p $(REPORTS)
	QUERENT_REQUIRE_POSTGRES=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 ./engine/postgres/...
	QUERENT_REQUIRE_POSTGRES=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run 'Postgres' -timeout 20m ./engine/eval ./engine/ask ./app/page ./cmd/querent
else
	@echo "postgres: the PostgreSQL tests are skipped (QUERENT_QUICK)"
endif

race: check-go
ifeq ($(QUERENT_QUICK),)
	CGO_ENABLED=1 $(GO) test -count=1 -race -run 'TestRunConcurrent|TestRunTimeoutAndCancel|TestSQLErrors|TestCancelled|TestImport' ./engine/sqlite ./app/cli
	CGO_ENABLED=1 $(GO) test -count=1 -race -short ./engine/ingest
	CGO_ENABLED=1 $(GO) test -count=1 -race ./app/mcp ./engine/worker
	CGO_ENABLED=1 $(GO) test -count=1 -race -run 'TestRunConcurrent|TestCancel|TestStream$$|TestConcurrent' ./engine/postgres ./engine/postgres/pgparse
endif

fuzz: check-go
ifeq ($(QUERENT_QUICK),)
	$(GO) test -run '^$$' -fuzz '^FuzzGuard$$' -fuzztime 20s ./engine/sqlite
	$(GO) test -run '^$$' -fuzz '^FuzzParser$$' -fuzztime 10s ./engine/ingest
endif

## ollama: the integration tests against a real Ollama server built from source
## with a tiny generated model (../shared/tools/ollama-tiny; a cold build takes minutes)
ollama: check-go
ifeq ($(QUERENT_QUICK),)
	@# One package at a time (-p 1): the server holds one model at a time, and
	@# packages asking it at once evict each other's model (a session's test
	@# counts its loads).
	@test -f $(OLLAMA_TINY) || { echo "the real-Ollama tests need ../shared/tools/ollama-tiny beside the checkout (QUERENT_QUICK=1 skips them)"; exit 1; }
	@echo "starting a real Ollama server with the tiny test model (the first build takes a few minutes)…"
	@host=$$(bash $(OLLAMA_TINY) start) || exit 1; \
	  trap 'bash $(OLLAMA_TINY) stop' EXIT; \
	  QUERENT_OLLAMA_HOST=$$host $(GO) test -count=1 -p 1 -run 'TestReal(Ollama|OpenAICompatible)' -v ./engine/ollama ./engine/openai ./engine/ask ./app/cli ./cmd/querent
endif

## mcp-inspector: drive querent mcp with the official MCP Inspector's CLI
## (npx fetches @modelcontextprotocol/inspector@0.15.0 from npm's registry)
mcp-inspector: check-go
ifeq ($(QUERENT_QUICK),)
	QUERENT_INSPECTOR=1 $(GO) test -count=1 -run '^TestMCPInspector$$' -v ./cmd/querent
endif

## frontend-test: the page's static checks (svelte-check, tsc), unit tests (Vitest) and
## bundle budget (under 1 MB of gzipped JavaScript)
frontend-test: frontend
	@command -v npm >/dev/null || { echo "the page's tests need Node.js 20+ with npm (https://nodejs.org)"; exit 1; }
	@mkdir -p $(REPORTS)
	set -o pipefail; cd frontend && npm run check && npm test && npm run size | tee $(REPORTS)/bundle.txt

## e2e: the page in a real browser (Debian's Chromium driven by playwright-core) against
## querent serve with a scripted fake Ollama; screenshots in dist/reports/screenshots
e2e: check-go frontend
ifeq ($(QUERENT_QUICK),)
	@command -v chromium >/dev/null || { echo "the browser tests need Chromium: apt-get install chromium (make test installs it as root)"; exit 1; }
	@mkdir -p $(REPORTS)
	QUERENT_E2E=1 QUERENT_REQUIRE_POSTGRES=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^Test(EndToEnd|ConnectEndToEnd|LanguagesEndToEnd|VerifiedEndToEnd|ConfidenceEndToEnd|GlossaryEndToEnd|ThreadEndToEnd|BoardEndToEnd|OpenFileEndToEnd|SensitiveEndToEnd|OpenAIEndToEnd|ModelPickerEndToEnd|ChartsEndToEnd|StartEndToEnd)$$' -v ./app/web
else
	@echo "e2e: the browser tests are skipped (QUERENT_QUICK)"
endif

## window: the real-window test: the desktop app on a private X server (Xvfb), checked
## and photographed (dist/reports/window.png)
ifeq ($(QUERENT_QUICK),)
window: desktop window-deps
	@mkdir -p $(REPORTS)
	QUERENT_WINDOW_TEST=1 QUERENT_DESKTOP_BIN=$(CURDIR)/$(DESKTOP) QUERENT_REPORT_DIR=$(REPORTS) \
	  $(GO) test -count=1 -run '^TestWindow$$' -v .
else
window:
	@echo "window: the real-window test is skipped (QUERENT_QUICK)"
endif

## window-deps: Xvfb, xdotool and ImageMagick for the real-window test (installed when root)
window-deps:
	@missing=""; \
	command -v Xvfb >/dev/null || missing="$$missing xvfb"; \
	command -v xdotool >/dev/null || missing="$$missing xdotool"; \
	command -v import >/dev/null || missing="$$missing imagemagick"; \
	if [ -n "$$missing" ]; then \
	  echo "The real-window test needs:$$missing"; \
	  $(call apt_install,$$missing); \
	fi

reports:
	@echo; cat $(REPORTS)/*.txt 2>/dev/null || true

## bench: the benchmarks, with ratios against the bare driver and the sqlite3 shell
bench: check-go
	@command -v sqlite3 >/dev/null || echo "note: the sqlite3 shell is not installed; the comparison with it is skipped (apt-get install sqlite3)"
	@mkdir -p $(REPORTS)
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestBenchReport$$' -timeout 60m ./engine/sqlite >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestBenchReport$$' -v -timeout 60m ./engine/sqlite
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestWorkerBenchReport$$' -timeout 30m ./engine/worker >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestWorkerBenchReport$$' -v -timeout 30m ./engine/worker
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestImportBenchReport$$' -timeout 60m ./cmd/querent >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestImportBenchReport$$' -v -timeout 60m ./cmd/querent
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestAskBenchReport$$' ./engine/ask >/dev/null
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestExportBenchReport$$' -timeout 60m ./cmd/querent >/dev/null
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestCeilingBenchReport$$' -timeout 30m ./cmd/querent >/dev/null
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestPostgresBenchReport$$' -timeout 30m ./engine/postgres >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestPostgresBenchReport$$' -v -timeout 30m ./engine/postgres
	@cat $(REPORTS)/bench.txt $(REPORTS)/bench-worker.txt $(REPORTS)/bench-import.txt $(REPORTS)/bench-ask.txt $(REPORTS)/bench-export.txt $(REPORTS)/bench-ceiling.txt 2>/dev/null || true
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestPostgresCLIBenchReport$$' -timeout 30m ./cmd/querent >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestPostgresCLIBenchReport$$' -v -timeout 30m ./cmd/querent
	@cat $(REPORTS)/bench-postgres.txt 2>/dev/null || echo "bench-postgres: no PostgreSQL server, skipped"
	@cat $(REPORTS)/bench-postgres-cli.txt 2>/dev/null || true
	$(GO) test -run '^$$' -bench . -benchtime 2s ./engine ./engine/ask ./engine/schemactx ./engine/valuehints ./engine/sqlite ./engine/ingest ./engine/export ./engine/postgres
	$(GO) test -run '^$$' -bench . -benchtime 2s ./engine/eval

clean:
	rm -rf dist build/bin
