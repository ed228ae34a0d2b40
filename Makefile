# The two commands of the README. Everything is cargo underneath; make only
# sequences the steps (later: plugins and the web client).

CARGO ?= cargo
# Where cargo puts its output (honours CARGO_TARGET_DIR).
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
ARENA := $(TARGET_DIR)/release/arena

.PHONY: run test build bench

## Build everything (release) and start the server with every bundled variant
## (http://127.0.0.1:8080; WebSocket at /ws; Ctrl-C stops it).
run: build
	$(ARENA) variants
	$(ARENA) serve

## Release build of every default member: the arena binary and the variant plugins
## (cdylibs land beside it in target/release, where arena looks by default).
build:
	$(CARGO) build --release

## Every check CI runs: formatting, lints, all tests. The plugins (cdylibs, which
## `cargo test` does not build) and the test-only misbehaving plugin are built first.
test:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) build --workspace
	$(CARGO) test --workspace

## The benchmarks (full datasets, every plugin; see docs/benchmarks.md).
bench: build
	$(CARGO) bench -p arena-tests --bench solver
	$(CARGO) bench -p arena-tests --bench plugins
