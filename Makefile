# axbus: `make run` serves this desktop; `make test` runs every test on a fresh machine.
SHELL := /bin/bash
GO ?= go
TOOLS := $(CURDIR)/.tools/bin
export PATH := $(TOOLS):$(PATH)
NATSCLI_VERSION := v0.5.0
STATICCHECK_VERSION := v0.8.2
# The official TypeScript MCP SDK (a client nobody here wrote, used by the `axbus mcp` test), in
# .tools/node/node_modules; fixtures/mcp/client.mjs finds it there. Beside it Playwright MCP, the
# yardstick of inspect's text (TestInspectTextAgainstPlaywrightMCP), which drives Debian's
# chromium: no browser of its own is downloaded.
MCP_SDK_VERSION := 1.32.2
PLAYWRIGHT_MCP_VERSION := 0.0.86
# The console's JavaScript NATS client (the official one) and the bundler that makes console/web/nats.js.
NATS_JS_VERSION := 3.4.0
ESBUILD_VERSION := 0.28.2
NODE_TOOLS := $(CURDIR)/.tools/node
# A count, not a duration: a duration races the fuzz coordinator's deadline on a loaded machine
# and fails with "context deadline exceeded" (go.dev/issue/75804, unfixed in Go 1.26).
FUZZTIME ?= 30000x
ARGS ?=
# The soak's length: `make soak` runs 30 minutes, SOAK=3m a short one (make test runs that).
SOAK ?= 30m

# The Debian packages of the headless desktop and the fixture apps (see research on AT-SPI).
APT_PACKAGES := xclip xvfb xauth dbus dbus-x11 at-spi2-core libatk-adaptor libatk-bridge2.0-0 python3-gi \
	gir1.2-gtk-3.0 gir1.2-gtk-4.0 gir1.2-atspi-2.0 python3-pyatspi x11-utils chromium gtk-3-examples \
	nodejs tesseract-ocr tesseract-ocr-eng python3-pyqt5 python3-pyqt6 openjdk-17-jre libatk-wrapper-java \
	libatk-wrapper-java-jni gir1.2-webkit2-4.1 libreoffice-writer libreoffice-gtk3 firefox-esr gnome-calculator
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= $(HOME)/.local

.PHONY: run test bench soak lint cross build install tools fuzz deps mcp-sdk matrix-readme console-js console-js-check console-js-tools

## build: bin/axbus. -v names each package as it compiles: the first build (about a minute,
## nats-server is large) shows its progress, a cached one prints nothing.
build:
	$(GO) build -v -o bin/axbus ./cmd/axbus

## install: axbus on PATH, in $(PREFIX)/bin (~/.local/bin unless PREFIX says otherwise).
install: build
	install -D -m 0755 bin/axbus $(PREFIX)/bin/axbus
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "$(PREFIX)/bin is not on PATH: add it to use axbus by name";; esac

## run: the daemon on this desktop; without a desktop session, on a private headless desktop
## with the GTK3 fixture app. ARGS='--backend sim' serves the simulated desktop instead.
run: deps build
	./bin/axbus serve --headless auto $(ARGS)

## test: vet and staticcheck (Linux and macOS), the macOS cross-build, the race-checked tests
## and short fuzzing. One package at a time (-p 1): the end-to-end packages each run headless
## desktops with GTK apps and Chromium, and two of them side by side on two cores time out.
test: deps tools
	$(MAKE) lint
	$(MAKE) console-js-check
	$(MAKE) cross
	$(GO) test -race -count=1 -timeout 20m -p 1 ./...
	$(GO) test -count=1 -run '^TestLocatorsOnGTK$$' ./cmd/axbus/  # their timing and memory, which the race detector distorts
	$(GO) test -count=1 -run '^(TestAHostileWaitStallsNoOne|TestHostileScreenshotStorm)$$' ./e2e/
	AXBUS_SOAK=3m $(GO) test -count=1 -timeout 15m -run '^TestSoak$$' ./e2e/  # the short soak: .bench/soak.md and soak.png
	$(MAKE) fuzz

## matrix-readme: runs the conformance matrix and writes its table into the README.
matrix-readme: deps
	AXBUS_MATRIX_README=update $(GO) test -count=1 -timeout 30m -run '^TestConformanceMatrix$$' ./cmd/axbus/

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRequest$$' -fuzztime $(FUZZTIME) ./schemas/
	$(GO) test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(FUZZTIME) ./schemas/
	$(GO) test -run '^$$' -fuzz '^FuzzParseCompact$$' -fuzztime $(FUZZTIME) ./waiters/condition/
	$(GO) test -run '^$$' -fuzz '^FuzzConditionJSON$$' -fuzztime $(FUZZTIME) ./waiters/condition/
	$(GO) test -run '^$$' -fuzz '^FuzzParseLocator$$' -fuzztime $(FUZZTIME) ./waiters/condition/
	$(GO) test -run '^$$' -fuzz '^FuzzParseTSV$$' -fuzztime $(FUZZTIME) ./observer/ocr/
	$(GO) test -run '^$$' -fuzz '^FuzzExecArgs$$' -fuzztime $(FUZZTIME) ./observer/atspi/
	$(GO) test -run '^$$' -fuzz '^FuzzWireMessage$$' -fuzztime $(FUZZTIME) ./internal/dbuswire/
	$(GO) test -run '^$$' -fuzz '^FuzzSplitKeys$$' -fuzztime $(FUZZTIME) ./observer/
	$(GO) test -run '^$$' -fuzz '^FuzzInspectionJSON$$' -fuzztime $(FUZZTIME) ./model/
	$(GO) test -run '^$$' -fuzz '^FuzzEnvelopeJSON$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzParseExport$$' -fuzztime $(FUZZTIME) ./internal/headless/
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./flows/
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./observer/sim/

## soak: a daemon under load for $(SOAK) on a headless desktop with real apps, apps opened and
## closed, faults on a schedule; its resources sampled every 10 s must stay flat (.bench/soak.md,
## .bench/soak.png).
soak: deps tools
	AXBUS_SOAK=$(SOAK) $(GO) test -count=1 -timeout 2h -v -run '^TestSoak$$' ./e2e/

## bench: the benchmark table (medians and ratios measured side by side in one run).
bench: deps build
	@mkdir -p .bench
	$(GO) run ./cmd/axbench | tee .bench/latest.md

## lint: go vet and staticcheck, the macOS build's too: code that only Linux files use is
## unused there.
lint: tools
	$(GO) vet ./...
	staticcheck ./...
	GOOS=darwin CGO_ENABLED=0 staticcheck ./...

## cross: the macOS build and vet from any OS, without cgo.
cross:
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build ./...
	GOOS=darwin GOARCH=amd64 CGO_ENABLED=0 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...

## deps: install the missing Debian packages (nothing when all are there). npm by its command,
## not its package: NodeSource's nodejs bundles npm and conflicts with Debian's npm package.
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## tools: the nats CLI, the TypeScript MCP SDK (a client nobody here wrote) and Playwright MCP (used by the tests)
## and staticcheck.
tools: $(TOOLS)/nats $(TOOLS)/staticcheck mcp-sdk

$(TOOLS)/nats:
	GOBIN=$(TOOLS) $(GO) install github.com/nats-io/natscli/nats@$(NATSCLI_VERSION)

$(TOOLS)/staticcheck:
	GOBIN=$(TOOLS) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# npm_pin installs the npm package $(1) at version $(2) into $(NODE_TOOLS), unless its package.json
# names that version already (missing, or another version).
define npm_pin
	@grep -qs '"version": "$(2)"' $(NODE_TOOLS)/node_modules/$(1)/package.json || { \
		echo "installing $(1)@$(2) into $(NODE_TOOLS)"; \
		PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix $(NODE_TOOLS) --no-audit --no-fund --save-exact $(1)@$(2) && \
		grep -qs '"version": "$(2)"' $(NODE_TOOLS)/node_modules/$(1)/package.json; }
endef

## console-js: bundles the official JavaScript NATS client for the console's page into
## console/web/nats.js (committed, so that go build embeds it with no npm); console-js-check
## fails when the committed bundle is not the one these pins make.
CONSOLE_BUNDLE = NODE_PATH=$(NODE_TOOLS)/node_modules $(NODE_TOOLS)/node_modules/.bin/esbuild console/web/nats_entry.js \
	--bundle --format=esm --minify --target=es2022 --platform=browser --legal-comments=none --log-level=warning

console-js: console-js-tools
	$(CONSOLE_BUNDLE) --outfile=console/web/nats.js

console-js-check: console-js-tools
	$(CONSOLE_BUNDLE) --outfile=$(TOOLS)/nats.js
	cmp $(TOOLS)/nats.js console/web/nats.js || { echo "console/web/nats.js is not the bundle of @nats-io/nats-core $(NATS_JS_VERSION): run make console-js"; exit 1; }

console-js-tools:
	$(call npm_pin,@nats-io/nats-core,$(NATS_JS_VERSION))
	$(call npm_pin,esbuild,$(ESBUILD_VERSION))

mcp-sdk:
	$(call npm_pin,@modelcontextprotocol/sdk,$(MCP_SDK_VERSION))
	$(call npm_pin,@playwright/mcp,$(PLAYWRIGHT_MCP_VERSION))
