# axbus: `make run` serves this desktop; `make test` runs every test on a fresh machine.
SHELL := /bin/bash
GO ?= go
TOOLS := $(CURDIR)/.tools/bin
export PATH := $(TOOLS):$(PATH)
NATSCLI_VERSION := v0.5.0
STATICCHECK_VERSION := v0.8.2
FUZZTIME ?= 8s
ARGS ?=

.PHONY: run test bench lint cross build tools fuzz

build:
	$(GO) build -o bin/axbus ./cmd/axbus

## run: the daemon on this desktop (the simulated desktop until a real backend is wired).
run: build
	./bin/axbus serve --backend sim $(ARGS)

## test: vet, the race-checked tests, short fuzzing and the macOS cross-build.
test: tools
	$(GO) vet ./...
	$(MAKE) cross
	$(GO) test -race -count=1 -timeout 15m ./...
	$(MAKE) fuzz

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRequest$$' -fuzztime $(FUZZTIME) ./bus/
	$(GO) test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(FUZZTIME) ./schemas/

## bench: the benchmark table (medians and ratios measured side by side in one run).
bench: build
	@mkdir -p .bench
	$(GO) run ./cmd/axbench | tee .bench/latest.md

## lint: go vet and staticcheck.
lint: tools
	$(GO) vet ./...
	staticcheck ./...

## cross: the macOS build and vet from any OS, without cgo.
cross:
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build ./...
	GOOS=darwin GOARCH=amd64 CGO_ENABLED=0 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...

## tools: the nats CLI (a client nobody here wrote, used by the tests) and staticcheck.
tools: $(TOOLS)/nats $(TOOLS)/staticcheck

$(TOOLS)/nats:
	GOBIN=$(TOOLS) $(GO) install github.com/nats-io/natscli/nats@$(NATSCLI_VERSION)

$(TOOLS)/staticcheck:
	GOBIN=$(TOOLS) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
