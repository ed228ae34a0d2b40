# The two commands of the README. Cargo builds the server and the plugins, npm
# the web client; make only sequences the steps.

CARGO ?= cargo
# Where cargo puts its output (honours CARGO_TARGET_DIR).
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
ARENA := $(TARGET_DIR)/release/arena
NPM ?= npm
CLIENT := client-web

.PHONY: run test build client bench conformance

## Build everything (release) and start the server with every bundled variant
## (http://127.0.0.1:8080; WebSocket at /ws; Ctrl-C stops it). For friends on
## the network: make run BIND=0.0.0.0:8080 SITE_URL=http://192.168.1.20:8080/
## (SITE_URL: the address they open, which invite links start with).
BIND ?= 127.0.0.1:8080
SITE_URL ?=
run: build
	$(ARENA) variants
	$(ARENA) serve --bind $(BIND) $(if $(SITE_URL),--site-url $(SITE_URL))

## Release build of every default member: the arena binary and the variant plugins
## (cdylibs land beside it in target/release, where arena looks by default), and
## the web client (client-web/dist, which arena serve serves).
build: client
	$(CARGO) build --release

## The web client: type-checked and bundled into client-web/dist.
client:
	cd $(CLIENT) && $(NPM) ci --no-audit --no-fund && $(NPM) run build

## Every check CI runs: formatting, lints, all tests. The plugins (cdylibs, which
## `cargo test` does not build), the SDK's worked example plugins and the
## test-only misbehaving plugin are built first.
## Then the web client: type check and build, unit tests (Vitest), and the browser
## tests (playwright-core driving /usr/bin/chromium against the debug arena binary).
test: client
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) build --workspace
	$(CARGO) build --workspace --examples
	$(CARGO) test --workspace
	cd $(CLIENT) && $(NPM) test
	cd $(CLIENT) && ARENA_BIN_DIR=$(abspath $(TARGET_DIR))/debug $(NPM) run e2e

## The conformance suite against one plugin alone, for plugin authors (no npm,
## no Chromium, no other variant): make conformance PLUGIN=variant-my-variant
## It names the plugin it checks, checks it in process and in a host process as
## `arena serve` runs it (deadlines included), and shows what the server does
## with a plugin that crashes, hangs or answers garbage.
CONFORMANCE_LIB = $(abspath $(TARGET_DIR))/debug/lib$(subst -,_,$(PLUGIN)).so
conformance:
	@test -n "$(PLUGIN)" || { echo "usage: make conformance PLUGIN=variant-my-variant"; exit 2; }
	$(CARGO) build -p $(PLUGIN) -p test-misbehave -p server
	@echo "conformance: checking $(PLUGIN) ($(CONFORMANCE_LIB))"
	ARENA_CONFORMANCE_PLUGIN=$(CONFORMANCE_LIB) \
		$(CARGO) test -p arena-tests --test conformance -- --show-output

## The benchmarks (full datasets, every plugin; see docs/benchmarks.md).
bench: build
	$(CARGO) bench -p arena-tests --bench solver
	$(CARGO) bench -p arena-tests --bench plugins
	$(CARGO) bench -p arena-tests --bench killer
	$(CARGO) build --release -p test-misbehave
	$(CARGO) bench -p arena-tests --bench isolation
