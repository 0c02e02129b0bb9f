# Querent — one Makefile for everything. See README.md.
SHELL   := /bin/bash
GO      ?= go
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
REPORTS := $(CURDIR)/dist/reports
QUERENT := dist/querent

OLLAMA_TINY := ../shared/tools/ollama-tiny/real-ollama.sh

.PHONY: all build run test lint unit fuzz race ollama mcp-inspector reports bench clean check-go

all: build

check-go:
	@command -v $(GO) >/dev/null || { echo "Go is not installed: get Go 1.26 or newer from https://go.dev/dl/ (Debian's golang package is too old), then run make again."; exit 2; }

## build: the console binary, dist/querent (pure Go, no cgo)
build: check-go
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(QUERENT) ./cmd/querent

## run: build, then a short tour of the bundled demo database
run: build
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

## lint: gofmt, go vet and go mod tidy must leave nothing to change
lint: check-go
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './frontend/node_modules/*')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff

## test: everything CI checks (QUERENT_QUICK=1 skips the slow parts, locally only)
test: lint unit race fuzz ollama mcp-inspector reports

unit: check-go
	@rm -rf $(REPORTS); mkdir -p $(REPORTS)
	QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 $(if $(QUERENT_QUICK),-short) ./...

race: check-go
ifeq ($(QUERENT_QUICK),)
	CGO_ENABLED=1 $(GO) test -count=1 -race -run 'TestRunConcurrent|TestRunTimeoutAndCancel|TestSQLErrors|TestCancelled|TestImport' ./engine/sqlite ./app/cli
	CGO_ENABLED=1 $(GO) test -count=1 -race -short ./engine/ingest
	CGO_ENABLED=1 $(GO) test -count=1 -race ./app/mcp
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
	@test -f $(OLLAMA_TINY) || { echo "the real-Ollama tests need ../shared/tools/ollama-tiny beside the checkout (QUERENT_QUICK=1 skips them)"; exit 1; }
	@echo "starting a real Ollama server with the tiny test model (the first build takes a few minutes)…"
	@host=$$(bash $(OLLAMA_TINY) start) || exit 1; \
	  trap 'bash $(OLLAMA_TINY) stop' EXIT; \
	  QUERENT_OLLAMA_HOST=$$host $(GO) test -count=1 -run 'TestRealOllama' -v ./engine/ollama ./app/cli
endif

## mcp-inspector: drive querent mcp with the official MCP Inspector's CLI
## (npx fetches @modelcontextprotocol/inspector@0.15.0 from npm's registry)
mcp-inspector: check-go
ifeq ($(QUERENT_QUICK),)
	QUERENT_INSPECTOR=1 $(GO) test -count=1 -run '^TestMCPInspector$$' -v ./cmd/querent
endif

reports:
	@echo; cat $(REPORTS)/*.txt 2>/dev/null || true

## bench: the benchmarks, with ratios against the bare driver and the sqlite3 shell
bench: check-go
	@command -v sqlite3 >/dev/null || echo "note: the sqlite3 shell is not installed; the comparison with it is skipped (apt-get install sqlite3)"
	@mkdir -p $(REPORTS)
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestBenchReport$$' -timeout 60m ./engine/sqlite >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestBenchReport$$' -v -timeout 60m ./engine/sqlite
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestImportBenchReport$$' -timeout 60m ./cmd/querent >/dev/null || \
	  QUERENT_BENCH=1 $(GO) test -count=1 -run '^TestImportBenchReport$$' -v -timeout 60m ./cmd/querent
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestAskBenchReport$$' ./engine >/dev/null
	QUERENT_BENCH=1 QUERENT_REPORT_DIR=$(REPORTS) $(GO) test -count=1 -run '^TestExportBenchReport$$' -timeout 60m ./cmd/querent >/dev/null
	@cat $(REPORTS)/bench.txt $(REPORTS)/bench-import.txt $(REPORTS)/bench-ask.txt $(REPORTS)/bench-export.txt
	$(GO) test -run '^$$' -bench . -benchtime 2s ./engine ./engine/sqlite ./engine/ingest ./engine/export

clean:
	rm -rf dist
